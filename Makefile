# SPDX-License-Identifier: GPL-2.0-only
#
# mali-perfcnt top-level Makefile.
#
#   make                 build mali_perfcnt.ko for the running kernel (or KDIR=);
#                        MPC_SIM=1 adds the simulated GPU (sim=), as the tests do
#   make user            build libmaliperfcnt and the mali-perfcnt tool
#   make check           host unit tests + the kselftest suite in QEMU on Debian's
#                        6.1 and 6.12 kernels, x86_64 and arm64; ends with
#                        "N passed, N failed"; T=GLOBS runs the targets of
#                        scripts/targets named, T=list prints them
#   make check-debug     the same on a debug kernel (KASAN, lockdep, kmemleak,
#                        fault injection) with KUnit; ends with "N passed, N failed"
#   make demo            boot a VM with the simulator at 50% load, print counters
#   make bench           benchmarks, printed: decode/derive/Perfetto on the host,
#                        the sampling stream and per-sample costs in a VM
#   make qemu            build (or find cached) qemu-system-aarch64 with the
#                        emulated Mali GPU (scripts/qemu/build.sh)
#   make deps            install the Debian packages the above need
#   make install         the tool, libmaliperfcnt, header, pkg-config file and
#                        man pages (make -C user install: PREFIX, DESTDIR, LIBDIR)
#   make dkms-src        the module sources and dkms.conf into
#                        DESTDIR/usr/src/mali-perfcnt-VERSION
#   make dkms-install    dkms-src, then dkms add, build and install for KREL
#                        (root; DKMS_FLAGS= more dkms options)
#   make kselftest-package  the suite as a kernel kselftest package (the
#                        kernel's run_kselftest.sh, our tests, module and
#                        tool), x86_64 and arm64, in build/kselftest-package
#                        (scripts/kselftest-package.sh, Documentation/lab.rst)
#   make deb             the Debian packages (dpkg-buildpackage -us -uc -b) of a
#                        copy of the tree, into build/deb (DEB_HOST_ARCH=arm64:
#                        cross-built)
#   make panfrost-patched  panfrost.ko with the panfrost series for KREL (default
#                        the running kernel; KDIR= its headers), from Debian's
#                        linux-source of the headers' version (fetched and cached
#                        in /var/cache/mali-perfcnt), into
#                        build/panfrost-patched/KREL/ (scripts/panfrost-patched.sh)
#   make panfrost-patched-install  (root) that module into
#                        DESTDIR/lib/modules/KREL/updates/, then depmod

KREL	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KREL)/build
PWD	:= $(shell pwd)
VERSION	:= $(shell sed -n 's/^\#define MPC_VERSION[[:space:]]*"\(.*\)"/\1/p' \
		user/include/maliperfcnt.h)
DKMS_DIR := /usr/src/mali-perfcnt-$(VERSION)
# what DKMS builds: Kbuild's sources, nothing of user/, selftests/ or qemu/
DKMS_SRCS := Kbuild COPYING $(wildcard kernel/*.[ch] kernel/core/*.[ch] kernel/sim/*.[ch] kernel/tests/*.[ch]) \
	$(wildcard model/mali_*.[ch]) uapi/drm/mali_perfcnt_drm.h

.PHONY: all modules clean user selftests check check-debug demo bench deps sparse checkpatch qemu \
	install uninstall dkms-src dkms-install dkms-uninstall deb kselftest-package \
	panfrost-patched panfrost-patched-install

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || true
	$(MAKE) -C user clean
	rm -rf build

user:
	$(MAKE) -C user

selftests:
	$(MAKE) -C selftests/drivers/gpu/mali_perfcnt

deps:
	./scripts/deps.sh

# Two views of the test matrix, scripts/targets, run by scripts/check.sh:
# make check T=GLOBS runs the rows named (T=list prints the table).
check:
	T='$(T)' ./scripts/check.sh check

# The suite again on a KASAN/lockdep/kmemleak/fault-injection kernel, plus KUnit.
check-debug:
	T='$(T)' ./scripts/check.sh debug

demo:
	./scripts/demo.sh

# qemu-system-aarch64 with the mali-gpu device (qemu/) and the model (model/).
qemu:
	./scripts/qemu/build.sh

# Figures, never asserted: decode, derive and Perfetto encoding on the host,
# then the sampling stream and the cost of a sample in a VM.
bench:
	./scripts/deps.sh --host
	$(MAKE) -C user bench
	./scripts/bench-vm.sh

# Static checks of the kernel side, for every installed Debian kernel.
sparse:
	./scripts/kernel-lint.sh sparse

checkpatch:
	./scripts/kernel-lint.sh checkpatch

# ------------------------------------------------------------- installation

install uninstall:
	$(MAKE) -C user $@

dkms-src:
	rm -rf $(DESTDIR)$(DKMS_DIR)
	for f in $(DKMS_SRCS); do install -D -m 644 $$f $(DESTDIR)$(DKMS_DIR)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DESTDIR)$(DKMS_DIR)/dkms.conf

# DKMS_FLAGS: more dkms options, e.g. --dkmstree/--installtree for a scratch
# tree; the sources are those dkms-src put under DESTDIR.
DKMS	= dkms $(1) -m mali-perfcnt -v $(VERSION) --sourcetree $(DESTDIR)/usr/src $(DKMS_FLAGS)

dkms-install: dkms-src
	$(call DKMS,add)
	$(call DKMS,build) -k $(KREL)
	$(call DKMS,install) -k $(KREL)

dkms-uninstall:
	$(call DKMS,remove) --all
	rm -rf $(DESTDIR)$(DKMS_DIR)

deb:
	./scripts/deb.sh

kselftest-package:
	./scripts/kselftest-package.sh

panfrost-patched:
	KREL='$(KREL)' KDIR='$(KDIR)' ./scripts/panfrost-patched.sh

panfrost-patched-install:
	KREL='$(KREL)' KDIR='$(KDIR)' DESTDIR='$(DESTDIR)' ./scripts/panfrost-patched.sh --install
