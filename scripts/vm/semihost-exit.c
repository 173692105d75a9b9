// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc-semihost-exit RC: make QEMU (qemu-system-aarch64 started with
 * -semihosting-config enable=on,target=native,userspace=on) exit with
 * status RC (0-255). The `virt` machine has no isa-debug-exit port; this is
 * the arm64 test VM's result channel (scripts/vm/init).
 *
 * Semihosting call SYS_EXIT (0x18), AArch64 form: x1 points at two 64-bit
 * words, the reason ADP_Stopped_ApplicationExit (0x20026) and the exit
 * status. The call is the instruction "hlt #0xf000".
 *
 * Build: aarch64-linux-gnu-gcc -static -O2 -o mpc-semihost-exit semihost-exit.c
 */
#include <stdio.h>
#include <stdlib.h>

#define SYS_EXIT			0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

static void semihost_exit(unsigned long rc)
{
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, rc };
	/* Set right before the call: any function call would clobber them. */
	register unsigned long x0 asm("x0") = SYS_EXIT;
	register unsigned long x1 asm("x1") = (unsigned long)block;

	asm volatile("hlt #0xf000" : "+r" (x0) : "r" (x1) : "memory");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RC\n", argv[0]);
		return 2;
	}
	semihost_exit(strtoul(argv[1], NULL, 0) & 0xff);
	/* Only reached when QEMU has no semihosting. */
	fprintf(stderr, "%s: semihosting SYS_EXIT returned\n", argv[0]);
	return 1;
}
