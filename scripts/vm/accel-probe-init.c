// SPDX-License-Identifier: GPL-2.0-only
/*
 * /init of the accelerator probe guest (scripts/vm/accel-probe.sh): report
 * at once through the isa-debug-exit port, so that QEMU exits with status
 * (MPC_PROBE_VALUE << 1) | 1 = 85. Reaching this code proves the kernel
 * booted under the accelerator tried, with the CPU model tried.
 *
 * Build: gcc -static -O2 -o init accel-probe-init.c
 */
#include <stdio.h>
#include <sys/io.h>
#include <unistd.h>

#define MPC_DEBUG_EXIT_PORT	0xf4
#define MPC_PROBE_VALUE		0x2a

int main(void)
{
	if (ioperm(MPC_DEBUG_EXIT_PORT, 1, 1)) {
		perror("accel-probe: ioperm");
		return 1;
	}
	outb(MPC_PROBE_VALUE, MPC_DEBUG_EXIT_PORT);
	/* Not reached when QEMU has the port; PID 1 must not return. */
	for (;;)
		pause();
}
