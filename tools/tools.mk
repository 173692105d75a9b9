# SPDX-License-Identifier: GPL-2.0-only
#
# The shape of every test tool's Makefile under tools/: a static binary
# $(PROG) from $(PROG).c and the selftests' library (mpc_lib.c: device
# discovery, bind/unbind, ioctl wrappers, TAP), so it runs in the test VM's
# busybox initramfs as it is. A tool's Makefile sets PROG and includes this.
#
#   make [OUTPUT=dir]      default: build/<the tool's directory> at the top

TOOL_DIR	:= $(patsubst %/,%,$(dir $(abspath $(firstword $(MAKEFILE_LIST)))))
TOP		:= $(abspath $(TOOL_DIR)/../..)
SELFTEST_DIR	:= $(TOP)/selftests/drivers/gpu/mali_perfcnt
OUTPUT		?= $(TOP)/build/$(notdir $(TOOL_DIR))
LIBDRM_CFLAGS	:= $(shell pkg-config --cflags-only-I libdrm 2>/dev/null || \
			   echo -I/usr/include/libdrm)
CFLAGS		?= -O2 -g
CFLAGS		+= -Wall -Wextra -Wno-unused-parameter -I$(SELFTEST_DIR) \
		   -I$(TOP)/uapi/drm $(LIBDRM_CFLAGS)
LDFLAGS		+= -static

SRCS		:= $(TOOL_DIR)/$(PROG).c $(SELFTEST_DIR)/mpc_lib.c
HDRS		:= $(SELFTEST_DIR)/mpc_lib.h $(TOP)/uapi/drm/mali_perfcnt_drm.h

.PHONY: all clean
all: $(OUTPUT)/$(PROG)

$(OUTPUT)/$(PROG): $(SRCS) $(HDRS)
	@mkdir -p $(OUTPUT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -f $(OUTPUT)/$(PROG)
