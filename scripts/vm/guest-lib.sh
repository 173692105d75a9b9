# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Helpers for the scripts that run inside the test VM (busybox sh);
# installed as /mpc/lib.sh.

# The device's debugfs directory: dri/N on 6.1, dri/<device> on 6.12.
mpc_debugfs() {
	for d in /sys/kernel/debug/dri/*; do
		case "$(cat "$d/name" 2>/dev/null)" in
		mali_perfcnt*)
			[ -e "$d/gpu_info" ] && { echo "$d"; return 0; } ;;
		esac
	done
	return 1
}
