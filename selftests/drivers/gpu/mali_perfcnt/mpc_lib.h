/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the mali_perfcnt selftests: module (re)loading with
 * parameters, finding the render node and the debugfs directory, ioctl
 * wrappers that return -errno, the dump layout, bind/unbind, and TAP for the
 * test tools under tools/ (mpc-fuzz, mpc-fail-nth), which link this file.
 */
#ifndef MPC_LIB_H
#define MPC_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "mali_perfcnt_drm.h"

#define MPC_MODULE_NAME		"mali_perfcnt"
#define MPC_BLOCK_WORDS		64
#define MPC_BLOCK_BYTES		(MPC_BLOCK_WORDS * 4)

/* Counter indices inside a block (words 0-3 are the header). */
#define MPC_HDR_TS_LO		0
#define MPC_HDR_TS_HI		1
#define MPC_HDR_MASK		2
#define MPC_HDR_ZERO		3
#define MPC_SC_FRAG_ACTIVE	4

enum mpc_block_kind {
	MPC_BLK_JM,
	MPC_BLK_TILER,
	MPC_BLK_L2,
	MPC_BLK_SHADER,
	MPC_BLK_HOLE,		/* absent core or reserved slot: never written */
};

/* Path of the module file the tests load (MPC_MODULE overrides). */
const char *mpc_module_path(void);
/*
 * Parameters appended to every load of the module: $MPC_MODULE_PARAMS, or
 * "" (e.g. MPC_MODULE_PARAMS=pgtable=builtin runs a suite on the other
 * translation table writer).
 */
const char *mpc_extra_params(void);
/*
 * The translation table writer the driver should pick ("io-pgtable" or
 * "builtin"), as gpu_info's "pgtable:" line names it.
 */
const char *mpc_expected_pgtable(void);
/* Whether /proc/kallsyms lists the kernel symbol @name. */
bool mpc_kernel_has_symbol(const char *name);
/* Load the module with @params; loads its in-tree dependencies if needed. */
int mpc_module_load(const char *params);
/* Unload the module (waits up to 2 s for users to go); 0 if not loaded. */
int mpc_module_unload(void);
bool mpc_module_loaded(void);

/*
 * Hardware mode: the GPU is a platform device of the device tree (the QEMU
 * mali-gpu device), named by $MPC_BIND_DEVICE (e.g. "90c0000.gpu"), which
 * the module binds with bind=; NULL in simulator mode (sim=).
 */
const char *mpc_hw_device(void);
/* The platform device the driver binds: mpc_hw_device() or the simulator's. */
const char *mpc_device_name(void);
/*
 * Run @cmd in the QEMU device's test-control window at $MPC_QEMU_CTL
 * (physical address, through /dev/mem) and copy its result text to @out.
 * 0, -EINVAL when the device refused the command (@out says why), -errno.
 */
int mpc_qemu_ctl(const char *cmd, char *out, size_t len);
/*
 * The model's run-time controls, wherever it runs: the simulator's debugfs
 * files sim_workload and sim_fault in @dbg, or the test-control window in
 * hardware mode. 0 or -errno (-EINVAL: text refused).
 */
int mpc_set_workload(const char *dbg, const char *text);
int mpc_set_fault(const char *dbg, const char *text);
/* The QEMU model's driver-error count (window "reports"), or -errno. */
long long mpc_qemu_reports(void);
/* The armed fault as text ("none", "delay=100"...); bytes or -errno. */
ssize_t mpc_show_fault(const char *dbg, char *buf, size_t len);

/* Open the mali_perfcnt render node, -errno if there is none. */
int mpc_open_render(void);
/* Its path ("/dev/dri/renderD128") into @path; 0 or -ENODEV. */
int mpc_find_render(char *path, size_t len);
/* Find the debugfs directory; 0 or -errno. */
int mpc_find_debugfs(char *dir, size_t len);

/* debugfs file access: bytes read / 0 on success, or -errno. */
ssize_t mpc_dbg_read(const char *dir, const char *file, char *buf,
		     size_t len);
/* Write @text to @path in one write(): 0, or -errno (-EIO when short). */
int mpc_write_file(const char *path, const char *text);
/*
 * The sleep state /sys/power/state offers ("mem", else "freeze"), or NULL
 * when it offers neither or pm_test is not writable (no CONFIG_PM_DEBUG);
 * @states gets that file's text for the skip message.
 */
const char *mpc_sleep_state(char *states, size_t len);
/*
 * A system sleep to @state under pm_test "platform" (the devices suspend and
 * resume, the machine stays up), pm_test back to "none" whatever happened:
 * 0, or the first -errno.
 */
int mpc_system_sleep(const char *state);
int mpc_dbg_write(const char *dir, const char *file, const char *text);
/* The value of "key: value" in @file, copied to @val; 0 or -errno. */
int mpc_dbg_key(const char *dir, const char *file, const char *key,
		char *val, size_t len);
/* Same, parsed as a number (any base strtoull accepts); ~0 if missing. */
uint64_t mpc_dbg_num(const char *dir, const char *file, const char *key);

/* ioctls: 0 or -errno. */
int mpc_get_info(int fd, struct drm_mali_perfcnt_get_info *info);
int mpc_enable_raw(int fd, struct drm_mali_perfcnt_enable *en);
int mpc_enable_all(int fd);
int mpc_enable_masks(int fd, uint32_t set, uint32_t jm, uint32_t tiler,
		     uint32_t shader, uint32_t l2);
int mpc_disable(int fd);
int mpc_dump_raw(int fd, struct drm_mali_perfcnt_dump *d);
int mpc_dump(int fd, void *buf, uint32_t size, uint64_t *seqno,
	     uint64_t *ts_ns);

/* Layout: what block slot @slot holds; @inst gets the instance number. */
enum mpc_block_kind mpc_block_kind(const struct drm_mali_perfcnt_get_info *i,
				   unsigned int slot, unsigned int *inst);
/* Slot of the job manager block. */
unsigned int mpc_jm_slot(const struct drm_mali_perfcnt_get_info *i);
/* Slot of shader core @bit (a bit position in shader_present). */
unsigned int mpc_shader_slot(const struct drm_mali_perfcnt_get_info *i,
			     unsigned int bit);
/* Expected dump size from the layout formula (fls64, core groups). */
uint32_t mpc_expected_dump_size(const struct drm_mali_perfcnt_get_info *i);

static inline const uint32_t *mpc_block(const void *dump, unsigned int slot)
{
	return (const uint32_t *)dump + slot * MPC_BLOCK_WORDS;
}

static inline uint64_t mpc_block_ts(const uint32_t *blk)
{
	return ((uint64_t)blk[MPC_HDR_TS_HI] << 32) | blk[MPC_HDR_TS_LO];
}

uint64_t mpc_now_ns(void);		/* CLOCK_MONOTONIC_RAW */
void mpc_sleep_ms(unsigned int ms);
/* Drop every capability of the calling process; 0 or -errno. */
int mpc_drop_caps(void);

int mpc_fls64(uint64_t v);

/*
 * A line "mpc_test: TAG" in the kernel log, and whether the log has @what
 * after the last such line of @tag (the driver's messages of one step).
 */
void mpc_klog_mark(const char *tag);
bool mpc_klog_has_since(const char *tag, const char *what);
int mpc_hweight64(uint64_t v);

/*
 * Bind or unbind platform device @dev (NULL: mpc_device_name()) to or from
 * platform driver @drv (NULL: mali_perfcnt), through sysfs; 0 or -errno.
 */
int mpc_bind(const char *drv, const char *dev);
int mpc_unbind(const char *drv, const char *dev);

/*
 * TAP for the test tools outside the kselftest harness (tools/fuzz,
 * tools/fail-nth). Each line goes out in one write() to stdout, unbuffered,
 * so forked processes may print diagnostics too; the test numbers count in
 * the process that reports the results.
 */
void mpc_tap_header(void);			/* "TAP version 13" */
void mpc_tap_plan(unsigned int n);		/* "1..N" */
/* "# TEXT" */
void mpc_tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "ok N TEXT" or "not ok N TEXT" (TEXT may end in "# reason"); @ok */
bool mpc_tap_result(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "ok N NAME # SKIP REASON" */
void mpc_tap_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
unsigned int mpc_tap_count(void);		/* results reported so far */
unsigned int mpc_tap_failures(void);		/* of them "not ok" */

#endif /* MPC_LIB_H */
