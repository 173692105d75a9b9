#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build and the tests need, and nothing else.
#
#   scripts/deps.sh          everything: kernels, headers, QEMU, initramfs tools
#   scripts/deps.sh --host   only what the host-side userspace tests need
#
# A fast no-op when everything is already installed.
set -euo pipefail

host_pkgs=(gcc make pkg-config libdrm-dev libkmod-dev clang libclang-rt-14-dev)
vm_pkgs=(linux-image-amd64 linux-headers-amd64
	 linux-image-6.12-amd64 linux-headers-6.12-amd64
	 linux-source-6.1 linux-source-6.12
	 qemu-system-x86 busybox-static cpio kmod xz-utils sparse)

case "${1:-}" in
--host)	want=("${host_pkgs[@]}") ;;
"")	want=("${host_pkgs[@]}" "${vm_pkgs[@]}") ;;
*)	echo "usage: $0 [--host]" >&2; exit 2 ;;
esac

installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${want[@]}" \
	2>/dev/null || true) "
missing=()
for p in "${want[@]}"; do
	case "$installed" in
	*" $p:installed "*) ;;
	*) missing+=("$p") ;;
	esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages (run as root): ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" </dev/null; then
	apt-get update </dev/null
	apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
fi
