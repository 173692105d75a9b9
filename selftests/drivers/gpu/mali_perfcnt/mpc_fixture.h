/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture every mali_perfcnt test file uses: one variant per simulated
 * product. Setup (re)loads the module with the variant's parameters, so
 * each test starts on a freshly probed device with nobody owning the
 * counters and the simulator idle. Include once, after the harness.
 *
 * Hardware mode (mpc_hw_device(), $MPC_BIND_DEVICE set by the guest runner
 * of the qemu-gpu targets): the GPU is the QEMU device of the device tree;
 * setup loads the module with bind=<device> instead of the variant's sim=
 * parameters, skips the variants that are not the emulated product, and
 * sets the model idle with no fault armed through the device's
 * test-control window ($MPC_QEMU_CTL), which also takes SET_LOAD and
 * ARM_FAULT.
 */
#ifndef MPC_FIXTURE_H
#define MPC_FIXTURE_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "mpc_lib.h"

FIXTURE(mpc) {
	int fd;				/* render node, opened by setup */
	char dbg[256];			/* debugfs directory */
	long long reports_base;		/* hardware mode: model reports at load */
	struct drm_mali_perfcnt_get_info info;
	void *buf;			/* one dump, info.dump_size bytes */
};

FIXTURE_VARIANT(mpc) {
	const char *params;		/* module parameters */
	const char *product;		/* GET_INFO.product */
	uint32_t product_id;		/* GPU_ID[31:16], masked */
	uint32_t product_id2;		/* another valid one, 0: none */
	uint32_t product_mask;
	uint32_t layout;
	uint32_t nr_sets;		/* counter sets */
	uint64_t cores;			/* shader_present, 0: product default */
	uint32_t nr_l2;			/* L2 slices, 0: product default */
	unsigned int va_bits;		/* MMU_FEATURES VA bits, 0: 48 */
	unsigned int gpu_active;	/* JM GPU_ACTIVE index */
	unsigned int compute_active;	/* shader COMPUTE_ACTIVE index */
	unsigned int tiler_active;	/* tiler TI_ACTIVE / TILER_ACTIVE */
	/* L2 lookups and external beats, summed; 0-terminated, may be empty. */
	unsigned int l2_lookups[3];
	unsigned int l2_beats[3];
};

/*
 * Counter indices are the products' real ones (as in Mesa's and Arm's
 * counter databases), so named counters decode correctly.
 */

/* Midgard v4 layout, one core group. */
FIXTURE_VARIANT_ADD(mpc, t720) {
	.params = "sim=t720",
	.product = "Mali-T720",
	.product_id = 0x0720,
	.product_mask = 0xffff,
	.layout = MALI_PERFCNT_LAYOUT_V4,
	.nr_sets = 1,
	.gpu_active = 4,
	.compute_active = 17,
	.tiler_active = 22,
};

/* Midgard v5 layout. */
FIXTURE_VARIANT_ADD(mpc, t860) {
	.params = "sim=t860",
	.product = "Mali-T860",
	.product_id = 0x0860,
	.product_mask = 0xffff,
	.layout = MALI_PERFCNT_LAYOUT_V5,
	.nr_sets = 1,
	.gpu_active = 6,
	.compute_active = 22,
	.tiler_active = 45,
	.l2_lookups = { 33, 39 },	/* L2_READ_LOOKUP, L2_WRITE_LOOKUP */
	.l2_beats = { 31, 30 },		/* L2_EXT_READ_BEATS, _WRITE_BEATS */
};

/*
 * Bifrost with a sparse core mask (a hole at core 2), two L2 slices and the
 * narrowest VA width real boards report (33 bits, MMU_FEATURES 0x2821 of a
 * G31; G52s say 35), so a driver that ignores MMU_FEATURES fails.
 */
FIXTURE_VARIANT_ADD(mpc, g52) {
	.params = "sim=g52 sim_cores=0xb sim_l2=2 sim_va_bits=33",
	.product = "Mali-G52",
	.product_id = 0x7002,
	.product_mask = 0xf00f,
	.layout = MALI_PERFCNT_LAYOUT_V5,
	.nr_sets = 2,
	.cores = 0xb,
	.nr_l2 = 2,
	.va_bits = 33,
	.gpu_active = 6,
	.compute_active = 22,
	.tiler_active = 4,
	.l2_lookups = { 25 },		/* L2_ANY_LOOKUP */
	.l2_beats = { 32, 47 },		/* L2_EXT_READ_BEATS, _WRITE_BEATS */
};

/*
 * Bifrost at its largest: Arm's biggest Mali-G71 configuration (MP32) with
 * one core fused off (a hole at core 16, as binned parts have) and four L2
 * slices, 38 blocks: the text of a dump is far over a page.
 */
FIXTURE_VARIANT_ADD(mpc, g71) {
	.params = "sim=g71 sim_cores=0xfffeffff sim_l2=4",
	.product = "Mali-G71",
	.product_id = 0x6000,
	.product_mask = 0xf00f,
	.layout = MALI_PERFCNT_LAYOUT_V5,
	.nr_sets = 2,
	.cores = 0xfffeffff,
	.nr_l2 = 4,
	.gpu_active = 6,
	.compute_active = 22,
	.tiler_active = 4,
	.l2_lookups = { 25 },		/* L2_ANY_LOOKUP */
	.l2_beats = { 32, 47 },		/* L2_EXT_READ_BEATS, _WRITE_BEATS */
};

/* Valhall-JM (0x9003 is the MediaTek MT8192 G57). */
FIXTURE_VARIANT_ADD(mpc, g57) {
	.params = "sim=g57",
	.product = "Mali-G57",
	.product_id = 0x9001,
	.product_id2 = 0x9003,
	.product_mask = 0xf00f,
	.layout = MALI_PERFCNT_LAYOUT_V5,
	.nr_sets = 2,
	.gpu_active = 6,
	.compute_active = 22,
	.tiler_active = 4,
	.l2_lookups = { 25 },		/* L2_ANY_LOOKUP */
	.l2_beats = { 32, 47 },		/* L2_EXT_READ_BEATS, _WRITE_BEATS */
};

/*
 * (Re)load the module as @variant with @extra parameters and then
 * mpc_extra_params() ($MPC_MODULE_PARAMS) appended, then open the device
 * and read its description into @self.
 */
static void mpc_fixture_load(struct __test_metadata *_metadata,
			     FIXTURE_DATA(mpc) *self,
			     const FIXTURE_VARIANT(mpc) *variant,
			     const char *extra)
{
	char params[512];
	int ret;

	if (self->fd >= 0)
		close(self->fd);
	self->fd = -1;
	if (mpc_hw_device())
		snprintf(params, sizeof(params), "bind=%s %s %s",
			 mpc_hw_device(), extra ?: "", mpc_extra_params());
	else
		snprintf(params, sizeof(params), "%s %s %s", variant->params,
			 extra ?: "", mpc_extra_params());
	ASSERT_EQ(0, mpc_module_unload());
	ret = mpc_module_load(params);
	ASSERT_EQ(0, ret) {
		TH_LOG("loading %s %s: %s", mpc_module_path(), params,
		       strerror(-ret));
	}
	self->fd = mpc_open_render();
	ASSERT_LE(0, self->fd) {
		TH_LOG("no mali_perfcnt render node: %s", strerror(-self->fd));
	}
	ASSERT_EQ(0, mpc_find_debugfs(self->dbg, sizeof(self->dbg))) {
		TH_LOG("no dri/* debugfs directory named mali_perfcnt");
	}
	ASSERT_EQ(0, mpc_get_info(self->fd, &self->info));
	/* The QEMU model counts from its own start, not from this load */
	if (mpc_hw_device()) {
		self->reports_base = mpc_qemu_reports();
		ASSERT_LE(0, self->reports_base);
	}
	ASSERT_LT(0, self->info.dump_size);
	ASSERT_GE(1 << 20, self->info.dump_size);
	free(self->buf);
	self->buf = calloc(1, self->info.dump_size);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_SETUP(mpc)
{
	self->fd = -1;
	self->buf = NULL;
	if (geteuid() != 0)
		SKIP(return, "needs root to load the module");
	if (access(mpc_module_path(), R_OK))
		SKIP(return, "module not found at %s (set MPC_MODULE)",
		     mpc_module_path());
	if (mpc_hw_device()) {
		/* The model outlives the module: start it idle, unarmed */
		ASSERT_EQ(0, mpc_set_workload(NULL, "idle"));
		ASSERT_EQ(0, mpc_set_fault(NULL, "none"));
	}
	mpc_fixture_load(_metadata, self, variant, NULL);
	if (mpc_hw_device() && strcmp(self->info.product, variant->product))
		SKIP(return, "the emulated GPU (%s) is a %s, not this variant",
		     mpc_hw_device(), self->info.product);
}

/* The VA width the variant's GPU reports in MMU_FEATURES. */
static inline unsigned int mpc_va_bits(const FIXTURE_VARIANT(mpc) *variant)
{
	return variant->va_bits ?: 48;
}

/*
 * Driver errors the GPU model reported since the module was loaded
 * (debugfs sim_reports; in hardware mode the QEMU device's count through
 * its test-control window), or -1 when the file cannot be read (the module
 * was unloaded by the test).
 */
static inline long long mpc_sim_reports(FIXTURE_DATA(mpc) *self)
{
	char val[32];

	if (mpc_hw_device()) {
		long long n = mpc_qemu_reports();

		return n < 0 ? -1 : n - self->reports_base;
	}

	if (!self->dbg[0] || mpc_dbg_read(self->dbg, "sim_reports", val, sizeof(val)) <= 0)
		return -1;
	return strtoll(val, NULL, 10);
}

FIXTURE_TEARDOWN(mpc)
{
	long long reports = mpc_sim_reports(self);

	/* Whatever the test checked, the GPU model saw no driver error */
	EXPECT_GE(0, reports) {
		TH_LOG("the GPU model reported %lld driver error(s): see dmesg",
		       reports);
	}
	if (self->fd >= 0)
		close(self->fd);
	free(self->buf);
}

/* Which JM counter measures GPU activity, etc., for the current variant. */
#define JM(self)	mpc_block((self)->buf, mpc_jm_slot(&(self)->info))

/* Set the modelled load, e.g. "busy=50" or "idle". */
#define SET_LOAD(self, text) \
	ASSERT_EQ(0, mpc_set_workload((self)->dbg, (text)))

/* Run @op in a child without capabilities; returns its result (-errno). */
static inline int without_caps(int (*op)(FIXTURE_DATA(mpc) *), FIXTURE_DATA(mpc) *self)
{
	int status, ret;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1000;
	if (!pid) {
		if (mpc_drop_caps())
			_exit(200);
		ret = op(self);
		_exit(ret > 0 || ret < -199 ? 201 : -ret);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1001;
	return -WEXITSTATUS(status);
}

/* Arm a fault of the model. */
#define ARM_FAULT(self, text) \
	ASSERT_EQ(0, mpc_set_fault((self)->dbg, (text)))

/* Tests whose simulator parameters a fixed machine cannot take skip. */
#define SKIP_ON_HW(reason) do { \
	if (mpc_hw_device()) \
		SKIP(return, "hardware mode (%s): %s", mpc_hw_device(), \
		     reason); \
} while (0)

/* Dump into self->buf, expect success. */
#define DUMP_OK(self, seq, ts) \
	ASSERT_EQ(0, mpc_dump((self)->fd, (self)->buf, (self)->info.dump_size, \
			      (seq), (ts)))

/*
 * The device still works: a fresh file can enable, dump and disable.
 * Used after every rejected call.
 */
#define ASSERT_DEVICE_WORKS(self) do { \
	int __fd = mpc_open_render(); \
	void *__b = calloc(1, (self)->info.dump_size); \
	ASSERT_LE(0, __fd); \
	ASSERT_NE(NULL, __b); \
	ASSERT_EQ(0, mpc_enable_all(__fd)); \
	ASSERT_EQ(0, mpc_dump(__fd, __b, (self)->info.dump_size, NULL, NULL)); \
	ASSERT_EQ(0xffffu, mpc_block(__b, mpc_jm_slot(&(self)->info))[MPC_HDR_MASK]); \
	ASSERT_EQ(0, mpc_disable(__fd)); \
	close(__fd); \
	free(__b); \
} while (0)

#endif /* MPC_FIXTURE_H */
