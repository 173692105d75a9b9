// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc_ctl: one command to the test-control window of the QEMU mali-gpu
 * device, for the guest's shell scripts (e.g. user/tests/e2e.sh's load):
 *
 *   MPC_QEMU_CTL=0x090c8000 mpc_ctl workload busy=50
 *   MPC_QEMU_CTL=0x090c8000 mpc_ctl reports
 *
 * Prints the device's result text; exit status 0, or 1 when the device
 * refused the command or cannot be reached.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mpc_lib.h"

int main(int argc, char **argv)
{
	char cmd[256] = "", res[256] = "";
	size_t len = 0;
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "usage: MPC_QEMU_CTL=ADDR %s COMMAND [ARG]\n",
			argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
				i > 1 ? " " : "", argv[i]);
	if (len >= sizeof(cmd)) {
		fprintf(stderr, "mpc_ctl: command too long\n");
		return 1;
	}
	ret = mpc_qemu_ctl(cmd, res, sizeof(res));
	if (ret == -EINVAL) {
		fprintf(stderr, "mpc_ctl: %s: %s\n", cmd, res);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "mpc_ctl: %s: %s (MPC_QEMU_CTL)\n", cmd,
			strerror(-ret));
		return 1;
	}
	printf("%s\n", res);
	return 0;
}
