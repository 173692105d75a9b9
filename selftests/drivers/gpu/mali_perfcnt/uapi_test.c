// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt uAPI selftests: GET_INFO against the registers, enable masks
 * and the dump layout, ownership, permissions and rejected input, each on
 * every simulated product of mpc_fixture.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpc_fixture.h"

/* Partial masks: one bit, several bits, an empty block, the top group. */
static const struct {
	uint32_t jm, tiler, shader, l2;
} partial_masks[] = {
	{ 0x0002, 0x0001, 0x0021, 0x8000 },
	{ 0xfffd, 0x0000, 0x0002, 0x0001 },
	{ 0x0000, 0xffff, 0x5555, 0x00f0 },
	{ 0x8003, 0x0100, 0xa000, 0x0000 },
};

static uint32_t mask_for(enum mpc_block_kind kind, unsigned int m)
{
	switch (kind) {
	case MPC_BLK_JM:
		return partial_masks[m].jm;
	case MPC_BLK_TILER:
		return partial_masks[m].tiler;
	case MPC_BLK_L2:
		return partial_masks[m].l2;
	case MPC_BLK_SHADER:
		return partial_masks[m].shader;
	default:
		return 0;
	}
}

/* Enable with @m's masks, let the simulator run busy, take one dump. */
static int dump_with_masks(FIXTURE_DATA(mpc) *self, unsigned int m)
{
	int ret;

	ret = mpc_enable_masks(self->fd, 0, partial_masks[m].jm,
			       partial_masks[m].tiler, partial_masks[m].shader,
			       partial_masks[m].l2);
	if (ret)
		return ret;
	ret = mpc_dump(self->fd, self->buf, self->info.dump_size, NULL, NULL);
	if (ret)
		return ret;
	mpc_sleep_ms(50);
	ret = mpc_dump(self->fd, self->buf, self->info.dump_size, NULL, NULL);
	if (ret)
		return ret;
	return mpc_disable(self->fd);
}

/* 1. GET_INFO */

TEST_F(mpc, get_info_matches_gpu_info)
{
	const struct drm_mali_perfcnt_get_info *i = &self->info;
	char val[128];

	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "product", val,
				 sizeof(val)));
	EXPECT_STREQ(i->product, val);
	EXPECT_EQ(i->gpu_id, mpc_dbg_num(self->dbg, "gpu_info", "gpu_id"));
	EXPECT_EQ(i->gpu_id >> 16,
		  mpc_dbg_num(self->dbg, "gpu_info", "product_id"));
	EXPECT_EQ(i->shader_present,
		  mpc_dbg_num(self->dbg, "gpu_info", "shader_present"));
	EXPECT_EQ(i->l2_present,
		  mpc_dbg_num(self->dbg, "gpu_info", "l2_present"));
	EXPECT_EQ(i->nr_l2, mpc_dbg_num(self->dbg, "gpu_info", "nr_l2"));
	EXPECT_EQ(i->l2_features,
		  mpc_dbg_num(self->dbg, "gpu_info", "l2_features"));
	EXPECT_EQ(i->mem_features,
		  mpc_dbg_num(self->dbg, "gpu_info", "mem_features"));
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "layout", val,
				 sizeof(val)));
	EXPECT_STREQ(i->layout == MALI_PERFCNT_LAYOUT_V4 ? "v4" : "v5", val);
	EXPECT_EQ(i->nr_core_groups,
		  mpc_dbg_num(self->dbg, "gpu_info", "nr_core_groups"));
	EXPECT_EQ(i->nr_shader_blocks,
		  mpc_dbg_num(self->dbg, "gpu_info", "nr_shader_blocks"));
	EXPECT_EQ(i->nr_blocks, mpc_dbg_num(self->dbg, "gpu_info", "nr_blocks"));
	EXPECT_EQ(i->counters_per_block,
		  mpc_dbg_num(self->dbg, "gpu_info", "counters_per_block"));
	EXPECT_EQ(i->dump_size, mpc_dbg_num(self->dbg, "gpu_info", "dump_size"));
	EXPECT_EQ(i->nr_counter_sets,
		  mpc_dbg_num(self->dbg, "gpu_info", "counter_sets"));
	EXPECT_EQ(i->gpu_freq_hz,
		  mpc_dbg_num(self->dbg, "gpu_info", "gpu_freq_hz"));
	/* Test-only facts are in debugfs since revision 2, not in caps */
	EXPECT_EQ(0, i->caps & (MALI_PERFCNT_CAP_SIMULATED |
				MALI_PERFCNT_CAP_HW_ISSUE_8186));
	EXPECT_EQ(!mpc_hw_device(), mpc_dbg_num(self->dbg, "gpu_info", "simulated"));
	EXPECT_GE(1, mpc_dbg_num(self->dbg, "gpu_info", "hw_issue_8186"));
}

TEST_F(mpc, get_info_identifies_product)
{
	const struct drm_mali_perfcnt_get_info *i = &self->info;
	uint32_t id;

	EXPECT_STREQ(variant->product, i->product);
	id = (i->gpu_id >> 16) & variant->product_mask;
	EXPECT_TRUE(id == variant->product_id ||
		    (variant->product_id2 && id == variant->product_id2)) {
		TH_LOG("GPU_ID 0x%08x, want product 0x%04x", i->gpu_id,
		       variant->product_id);
	}
	EXPECT_EQ(variant->layout, i->layout);
	EXPECT_EQ(MALI_PERFCNT_UAPI_VERSION, i->uapi_version);
	/* Simulated unless the GPU is a device-tree node (hardware mode) */
	EXPECT_EQ(!mpc_hw_device(), mpc_dbg_num(self->dbg, "gpu_info", "simulated"));
	EXPECT_LT(0, i->gpu_freq_hz);
	/* NUL-terminated inside the array. */
	EXPECT_NE(NULL, memchr(i->product, '\0', sizeof(i->product)));
}

TEST_F(mpc, dump_size_follows_layout)
{
	const struct drm_mali_perfcnt_get_info *i = &self->info;

	ASSERT_NE(0, i->shader_present);
	ASSERT_NE(0, i->l2_present);
	EXPECT_EQ(64, i->counters_per_block);
	if (i->layout == MALI_PERFCNT_LAYOUT_V4) {
		EXPECT_EQ(mpc_hweight64(i->l2_present), i->nr_core_groups);
		EXPECT_EQ(4 * i->nr_core_groups, i->nr_shader_blocks);
		EXPECT_EQ(8 * i->nr_core_groups, i->nr_blocks);
	} else {
		EXPECT_EQ(1, i->nr_core_groups);
		/* fls64, not hweight64: absent cores leave holes. */
		EXPECT_EQ(mpc_fls64(i->shader_present), i->nr_shader_blocks);
		EXPECT_EQ(2 + i->nr_l2 + i->nr_shader_blocks, i->nr_blocks);
	}
	EXPECT_EQ(mpc_expected_dump_size(i), i->dump_size);
	EXPECT_EQ(i->nr_blocks * 64 * 4, i->dump_size);
}

TEST_F(mpc, sim_params_honoured)
{
	const struct drm_mali_perfcnt_get_info *i = &self->info;

	/* L2 slices come from MEM_FEATURES[11:8] + 1 on every product. */
	EXPECT_EQ(((i->mem_features >> 8) & 0xf) + 1, i->nr_l2);
	if (variant->cores)
		EXPECT_EQ(variant->cores, i->shader_present);
	if (variant->nr_l2)
		EXPECT_EQ(variant->nr_l2, i->nr_l2);
	if (variant->cores == 0xb && variant->layout == MALI_PERFCNT_LAYOUT_V5)
		EXPECT_EQ((2 + variant->nr_l2 + 4) * 256, i->dump_size);
}

TEST_F(mpc, counter_sets_per_architecture)
{
	EXPECT_EQ(variant->nr_sets, self->info.nr_counter_sets);
	EXPECT_EQ(variant->nr_sets > 1,
		  !!(self->info.caps & MALI_PERFCNT_CAP_SET_SECONDARY));
}

TEST_F(mpc, get_info_needs_no_ownership)
{
	struct drm_mali_perfcnt_get_info i2;
	int owner = mpc_open_render();

	ASSERT_LE(0, owner);
	ASSERT_EQ(0, mpc_enable_all(owner));
	EXPECT_EQ(0, mpc_get_info(self->fd, &i2));
	EXPECT_EQ(self->info.dump_size, i2.dump_size);
	close(owner);
}

/* 2. Enable masks and the dump layout */

TEST_F(mpc, all_ones_mask_in_every_block)
{
	unsigned int slot, inst, present = 0;
	enum mpc_block_kind kind;
	const uint32_t *b;

	SET_LOAD(self, "busy=50");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	mpc_sleep_ms(20);
	DUMP_OK(self, NULL, NULL);
	for (slot = 0; slot < self->info.nr_blocks; slot++) {
		kind = mpc_block_kind(&self->info, slot, &inst);
		if (kind == MPC_BLK_HOLE)
			continue;
		b = mpc_block(self->buf, slot);
		present++;
		EXPECT_EQ(0xffff, b[MPC_HDR_MASK]) {
			TH_LOG("slot %u (kind %d instance %u)", slot, kind, inst);
		}
		EXPECT_EQ(0, b[MPC_HDR_ZERO]) {
			TH_LOG("slot %u", slot);
		}
		EXPECT_NE(0, mpc_block_ts(b)) {
			TH_LOG("slot %u has no timestamp", slot);
		}
	}
	EXPECT_LE(4, present);
}

TEST_F(mpc, partial_masks_in_header)
{
	enum mpc_block_kind kind;
	unsigned int m, slot, inst;
	const uint32_t *b;

	SET_LOAD(self, "busy=50");
	for (m = 0; m < ARRAY_SIZE(partial_masks); m++) {
		ASSERT_EQ(0, dump_with_masks(self, m));
		for (slot = 0; slot < self->info.nr_blocks; slot++) {
			kind = mpc_block_kind(&self->info, slot, &inst);
			if (kind == MPC_BLK_HOLE)
				continue;
			b = mpc_block(self->buf, slot);
			EXPECT_EQ(mask_for(kind, m), b[MPC_HDR_MASK]) {
				TH_LOG("mask set %u slot %u kind %d", m, slot,
				       kind);
			}
			EXPECT_EQ(0, b[MPC_HDR_ZERO]);
		}
	}
}

TEST_F(mpc, disabled_groups_are_zero)
{
	enum mpc_block_kind kind;
	unsigned int m, slot, inst, c;
	const uint32_t *b;
	uint32_t mask;

	SET_LOAD(self, "busy=50");
	for (m = 0; m < ARRAY_SIZE(partial_masks); m++) {
		ASSERT_EQ(0, dump_with_masks(self, m));
		for (slot = 0; slot < self->info.nr_blocks; slot++) {
			kind = mpc_block_kind(&self->info, slot, &inst);
			if (kind == MPC_BLK_HOLE)
				continue;
			b = mpc_block(self->buf, slot);
			mask = mask_for(kind, m);
			for (c = 4; c < 64; c++) {
				if (mask & (1u << (c / 4)))
					continue;
				EXPECT_EQ(0, b[c]) {
					TH_LOG("mask set %u slot %u counter %u",
					       m, slot, c);
				}
			}
		}
		/* The enabled GPU_ACTIVE counted: the dump is not all zero. */
		b = JM(self);
		if (partial_masks[m].jm & (1u << (variant->gpu_active / 4)))
			EXPECT_NE(0, b[variant->gpu_active]) {
				TH_LOG("mask set %u: GPU_ACTIVE is 0 at busy=50", m);
			}
	}
}

TEST_F(mpc, absent_slots_stay_zero)
{
	unsigned int slot, inst, holes = 0, c;
	const uint32_t *b;

	/* A dense core mask has no hole: make one (cores 0 and 2). */
	if (self->info.layout == MALI_PERFCNT_LAYOUT_V5 &&
	    mpc_hweight64(self->info.shader_present) ==
	    mpc_fls64(self->info.shader_present)) {
		SKIP_ON_HW("the core mask is dense and sim_cores=0x5 cannot reconfigure the machine");
		mpc_fixture_load(_metadata, self, variant, "sim_cores=0x5");
		ASSERT_EQ(0x5, self->info.shader_present);
	}
	SET_LOAD(self, "busy=50");
	/* Poison the buffer: holes must stay untouched... */
	memset(self->buf, 0xa5, self->info.dump_size);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	mpc_sleep_ms(20);
	DUMP_OK(self, NULL, NULL);
	for (slot = 0; slot < self->info.nr_blocks; slot++) {
		if (mpc_block_kind(&self->info, slot, &inst) != MPC_BLK_HOLE)
			continue;
		holes++;
		b = mpc_block(self->buf, slot);
		/* ...in the driver's buffer, which was zeroed: 0 here. */
		for (c = 0; c < 64; c++)
			EXPECT_EQ(0, b[c]) {
				TH_LOG("hole slot %u word %u = 0x%x", slot, c,
				       b[c]);
			}
	}
	EXPECT_LT(0, holes);
	/* A present shader block right after the hole was written. */
	b = mpc_block(self->buf, mpc_shader_slot(&self->info,
			mpc_fls64(self->info.shader_present) - 1));
	EXPECT_EQ(0xffff, b[MPC_HDR_MASK]);
}

TEST_F(mpc, gpu_info_reflects_enable)
{
	unsigned int jm, tiler, shader, l2;
	char val[256], want[256];

	ASSERT_EQ(0, mpc_enable_masks(self->fd, 0, 0x1, 0x3, 0x7, 0xf));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "counter_set"));
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "masks", val,
				 sizeof(val)));
	ASSERT_EQ(4, sscanf(val, "jm=%x tiler=%x shader=%x l2=%x",
			    &jm, &tiler, &shader, &l2)) {
		TH_LOG("masks: '%s'", val);
	}
	EXPECT_EQ(0x1, jm);
	EXPECT_EQ(0x3, tiler);
	EXPECT_EQ(0x7, shader);
	EXPECT_EQ(0xf, l2);
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "owner", val,
				 sizeof(val)));
	snprintf(want, sizeof(want), "pid %d ", getpid());
	EXPECT_EQ(0, strncmp(val, want, strlen(want))) {
		TH_LOG("owner: '%s', want '%s...'", val, want);
	}
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "owner", val,
				 sizeof(val)));
	EXPECT_STREQ("none", val);
}

/* 5. Ownership */

TEST_F(mpc, second_fd_enable_ebusy)
{
	int other = mpc_open_render();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EBUSY, mpc_enable_all(other));
	/* The owner is untouched by the refusal. */
	DUMP_OK(self, NULL, NULL);
	close(other);
}

TEST_F(mpc, second_fd_dump_eperm)
{
	int other = mpc_open_render();
	void *b = calloc(1, self->info.dump_size);

	ASSERT_LE(0, other);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EPERM, mpc_dump(other, b, self->info.dump_size, NULL, NULL));
	DUMP_OK(self, NULL, NULL);
	close(other);
	free(b);
}

TEST_F(mpc, debugfs_enable_while_fd_owns_ebusy)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EBUSY, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	EXPECT_EQ(-EBUSY, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, fd_enable_while_debugfs_owns_ebusy)
{
	char val[64];

	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "owner", val,
				 sizeof(val)));
	EXPECT_STREQ("debugfs", val);
	EXPECT_EQ(-EBUSY, mpc_enable_all(self->fd));
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
	EXPECT_EQ(0, mpc_enable_all(self->fd));
}

TEST_F(mpc, debugfs_dump_while_fd_owns_ebusy)
{
	char *b = malloc(self->info.dump_size + 1);

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EBUSY, mpc_dbg_read(self->dbg, "perfcnt_dump", b,
				       self->info.dump_size + 1));
	free(b);
}

TEST_F(mpc, close_releases_ownership)
{
	int other = mpc_open_render();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, mpc_enable_all(other));
	close(other);
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	EXPECT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dup_shares_ownership)
{
	int d;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	d = dup(self->fd);
	ASSERT_LE(0, d);
	EXPECT_EQ(0, mpc_dump(d, self->buf, self->info.dump_size, NULL, NULL));
	/* Same open file: enabling again through the dup is "already". */
	EXPECT_EQ(-EALREADY, mpc_enable_all(d));
	close(d);
}

TEST_F(mpc, last_close_releases)
{
	int d, other;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	d = dup(self->fd);
	ASSERT_LE(0, d);
	close(self->fd);
	self->fd = -1;
	/* The dup keeps the open file, so it still owns the counters. */
	EXPECT_EQ(0, mpc_dump(d, self->buf, self->info.dump_size, NULL, NULL));
	other = mpc_open_render();
	ASSERT_LE(0, other);
	EXPECT_EQ(-EBUSY, mpc_enable_all(other));
	close(d);
	EXPECT_EQ(0, mpc_enable_all(other));
	close(other);
}

TEST_F(mpc, fork_child_shares_ownership)
{
	int status;
	pid_t pid;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(mpc_dump(self->fd, self->buf, self->info.dump_size,
			       NULL, NULL) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("the forked child could not dump through the owner fd");
	}
	/* The child's exit did not release the parent's counters. */
	DUMP_OK(self, NULL, NULL);
}

/* 6. Permissions */

static int op_enable(FIXTURE_DATA(mpc) *self)
{
	return mpc_enable_all(self->fd);
}

static int op_get_info(FIXTURE_DATA(mpc) *self)
{
	struct drm_mali_perfcnt_get_info i;

	return mpc_get_info(self->fd, &i);
}

static int op_enable_dump(FIXTURE_DATA(mpc) *self)
{
	int ret = mpc_enable_all(self->fd);

	if (ret)
		return ret;
	return mpc_dump(self->fd, self->buf, self->info.dump_size, NULL, NULL);
}

static int op_debugfs_enable(FIXTURE_DATA(mpc) *self)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/perfcnt_enable", self->dbg);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (mpc_drop_caps()) {
		close(fd);
		return -199;
	}
	if (write(fd, "1\n", 2) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

TEST_F(mpc, enable_without_caps_eacces)
{
	EXPECT_EQ(-EACCES, without_caps(op_enable, self));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, get_info_without_caps_works)
{
	EXPECT_EQ(0, without_caps(op_get_info, self));
}

TEST_F(mpc, debugfs_enable_without_caps_eacces)
{
	/* The file is opened with privileges, written without. */
	EXPECT_EQ(-EACCES, without_caps(op_debugfs_enable, self));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
}

TEST_F(mpc, unprivileged_param_allows_enable)
{
	mpc_fixture_load(_metadata, self, variant, "unprivileged=1");
	EXPECT_EQ(0, without_caps(op_enable_dump, self));
}

#define PARANOID "/proc/sys/dev/mali_perfcnt/perf_stream_paranoid"

/*
 * Review 2, L3: who may read the counters is a sysctl root sets at run
 * time, as i915's dev.i915.perf_stream_paranoid, not a writable module
 * parameter: 1 (the default) needs CAP_PERFMON, 0 lets any user with the
 * render node in; nothing else is accepted. unprivileged=1 only sets the
 * start value, read-only afterwards.
 */
TEST_F(mpc, paranoid_sysctl_decides_access)
{
	char val[8] = "";
	struct stat sb;
	int fd;

	fd = open(PARANOID, O_RDONLY);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", PARANOID, strerror(errno));
	EXPECT_LT(0, read(fd, val, sizeof(val) - 1));
	close(fd);
	EXPECT_STREQ("1\n", val);
	EXPECT_EQ(-EACCES, without_caps(op_enable_dump, self));
	ASSERT_EQ(0, mpc_write_file(PARANOID, "0"));
	EXPECT_EQ(0, without_caps(op_enable_dump, self));
	/* the child enabled on the shared file description */
	EXPECT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(-EINVAL, mpc_write_file(PARANOID, "2"));
	EXPECT_EQ(-EINVAL, mpc_write_file(PARANOID, "-1"));
	ASSERT_EQ(0, mpc_write_file(PARANOID, "1"));
	EXPECT_EQ(-EACCES, without_caps(op_enable_dump, self));
	ASSERT_EQ(0, stat("/sys/module/mali_perfcnt/parameters/unprivileged", &sb));
	EXPECT_EQ(0, sb.st_mode & 0222) TH_LOG("unprivileged is writable: mode 0%o", sb.st_mode & 0777);
	ASSERT_DEVICE_WORKS(self);
}

/* 7. Rejected input, one case per test; the device works afterwards. */

TEST_F(mpc, get_info_flags_rejected)
{
	struct drm_mali_perfcnt_get_info i = { .flags = 1 };

	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &i));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, get_info_pad_rejected)
{
	struct drm_mali_perfcnt_get_info i = { .pad = 1 };

	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &i));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, get_info_reserved_rejected)
{
	struct drm_mali_perfcnt_get_info i;
	unsigned int r;

	for (r = 0; r < ARRAY_SIZE(i.reserved); r++) {
		memset(&i, 0, sizeof(i));
		i.reserved[r] = 1ULL << 63;
		EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO,
				    &i));
		EXPECT_EQ(EINVAL, errno) {
			TH_LOG("reserved[%u]", r);
		}
	}
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_value_rejected)
{
	struct drm_mali_perfcnt_enable en = { .enable = 2 };

	EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_pad_rejected)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1, .pad = 1 };

	EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_reserved_rejected)
{
	struct drm_mali_perfcnt_enable en;
	unsigned int r;

	for (r = 0; r < ARRAY_SIZE(en.reserved); r++) {
		memset(&en, 0, sizeof(en));
		en.enable = 1;
		en.reserved[r] = 1;
		EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en)) {
			TH_LOG("reserved[%u]", r);
		}
	}
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_unknown_flags_rejected)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1 };
	unsigned int bit;

	for (bit = 1; bit < 32; bit++) {
		en.flags = 1u << bit;
		EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en)) {
			TH_LOG("flag bit %u", bit);
		}
	}
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_masks_without_flag_rejected)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1, .shader_mask = 1 };

	EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_counter_set_out_of_range)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1, .counter_set = 2 };

	EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, enable_secondary_set_per_arch)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1, .counter_set = 1 };

	if (variant->nr_sets < 2) {
		/* Midgard has one counter set. */
		EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
		ASSERT_DEVICE_WORKS(self);
		return;
	}
	ASSERT_EQ(0, mpc_enable_raw(self->fd, &en));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "counter_set"));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, disable_with_counter_set_rejected)
{
	struct drm_mali_perfcnt_enable en = { .enable = 0, .counter_set = 1 };

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EINVAL, mpc_enable_raw(self->fd, &en));
	/* Still enabled and owned. */
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dump_flags_rejected)
{
	struct drm_mali_perfcnt_dump d = {
		.buf_ptr = (uintptr_t)self->buf,
		.buf_size = self->info.dump_size,
		.flags = 1,
	};

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EINVAL, mpc_dump_raw(self->fd, &d));
	DUMP_OK(self, NULL, NULL);
}

/* The out fields of revision 2 (revision 1's reserved words) must be 0 */
/*
 * The out fields' input is ignored: a caller that reuses its struct (as
 * revision 1 allowed: the kernel never wrote those words) keeps working;
 * pad must still be zero.
 */
TEST_F(mpc, dump_reuses_its_struct)
{
	struct drm_mali_perfcnt_dump d;
	uint64_t first;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	memset(&d, 0, sizeof(d));
	d.buf_ptr = (uintptr_t)self->buf;
	d.buf_size = self->info.dump_size;
	d.interval_start_ns = 1;
	d.data_flags = 1U << 31;
	ASSERT_EQ(0, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(MALI_PERFCNT_DATA_FIRST, d.data_flags & MALI_PERFCNT_DATA_FIRST);
	EXPECT_EQ(0, d.data_flags & (1U << 31));
	EXPECT_NE(1, d.interval_start_ns);
	first = d.seqno;
	/* the same struct, as the kernel left it */
	ASSERT_EQ(0, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(first + 1, d.seqno);
	EXPECT_EQ(0, d.data_flags & MALI_PERFCNT_DATA_FIRST);
	d.pad = 1;
	EXPECT_EQ(-EINVAL, mpc_dump_raw(self->fd, &d));
}

TEST_F(mpc, dump_buffer_too_small)
{
	struct drm_mali_perfcnt_dump d = {
		.buf_ptr = (uintptr_t)self->buf,
		.buf_size = self->info.dump_size - 4,
	};

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-ENOSPC, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(self->info.dump_size, d.buf_size);
	d.buf_size = 0;
	EXPECT_EQ(-ENOSPC, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(self->info.dump_size, d.buf_size);
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dump_null_pointer_efault)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EFAULT, mpc_dump(self->fd, NULL, self->info.dump_size,
				    NULL, NULL));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dump_unmapped_pointer_efault)
{
	size_t len = (self->info.dump_size + 4095) & ~4095UL;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EFAULT, mpc_dump(self->fd, p, self->info.dump_size,
				    NULL, NULL));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dump_readonly_pointer_efault)
{
	size_t len = (self->info.dump_size + 4095) & ~4095UL;
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EFAULT, mpc_dump(self->fd, p, self->info.dump_size,
				    NULL, NULL));
	munmap(p, len);
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, dump_before_enable_enodata)
{
	EXPECT_EQ(-ENODATA, mpc_dump(self->fd, self->buf,
				     self->info.dump_size, NULL, NULL));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, dump_after_disable_enodata)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(-ENODATA, mpc_dump(self->fd, self->buf,
				     self->info.dump_size, NULL, NULL));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, double_enable_ealready)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-EALREADY, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
}

TEST_F(mpc, disable_when_disabled_ealready)
{
	EXPECT_EQ(-EALREADY, mpc_disable(self->fd));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, unknown_ioctl_rejected)
{
	struct drm_mali_perfcnt_dump d = { 0 };
	unsigned long req = DRM_IOWR(DRM_COMMAND_BASE + 0x03,
				     struct drm_mali_perfcnt_dump);

	EXPECT_EQ(-1, ioctl(self->fd, req, &d));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, debugfs_enable_malformed_einval)
{
	static const char * const bad[] = {
		"2\n", "banana\n", "set=\n", "set=7\n", "jm=0xzz\n",
		"shader=0x1 bogus=3\n", "tiler\n", "\n", "jm=0x10000\n",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(bad); k++)
		EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_enable",
						 bad[k])) {
			TH_LOG("rejected input #%u", k);
		}
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, debugfs_enable_secondary_set_per_arch)
{
	int ret = mpc_dbg_write(self->dbg, "perfcnt_enable", "set=1\n");

	if (variant->nr_sets < 2) {
		EXPECT_EQ(-EINVAL, ret);
		ASSERT_DEVICE_WORKS(self);
		return;
	}
	ASSERT_EQ(0, ret);
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "counter_set"));
	EXPECT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
}

TEST_F(mpc, debugfs_double_enable_ealready)
{
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	EXPECT_EQ(-EALREADY, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	EXPECT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
}

TEST_F(mpc, debugfs_disable_when_disabled_ealready)
{
	EXPECT_EQ(-EALREADY, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, debugfs_dump_disabled_enodata)
{
	char *b = malloc(self->info.dump_size + 1);

	EXPECT_EQ(-ENODATA, mpc_dbg_read(self->dbg, "perfcnt_dump", b,
					 self->info.dump_size + 1));
	free(b);
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, sim_workload_malformed_einval)
{
	static const char * const bad[] = {
		"busy=101\n", "busy=\n", "busy=-1\n", "fast\n",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(bad); k++)
		EXPECT_EQ(-EINVAL, mpc_set_workload(self->dbg, bad[k])) {
			TH_LOG("rejected input #%u", k);
		}
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, sim_fault_malformed_einval)
{
	static const char * const bad[] = {
		"delay=5001\n", "delay=\n", "explode\n", "drop_irq=1\n",
	};
	char val[64];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(bad); k++)
		EXPECT_EQ(-EINVAL, mpc_set_fault(self->dbg, bad[k])) {
			TH_LOG("rejected input #%u", k);
		}
	ASSERT_LT(0, mpc_show_fault(self->dbg, val, sizeof(val)));
	EXPECT_EQ(0, strncmp(val, "none", 4));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, perfcnt_va_unaligned_einval)
{
	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_va",
					 "0x10000800\n"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, perfcnt_va_above_48_bits_einval)
{
	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_va",
					 "0x1000000000000\n"));
	ASSERT_DEVICE_WORKS(self);
}

/*
 * The GPU translates only MMU_FEATURES' VA width (33 bits on the g52
 * variant): a buffer at 2^va_bits would make it raise an address size
 * fault at the first sample, so the driver refuses it.
 */
TEST_F(mpc, perfcnt_va_beyond_mmu_va_bits_einval)
{
	char va[32];

	snprintf(va, sizeof(va), "0x%llx", 1ULL << mpc_va_bits(variant));
	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_va", va)) {
		TH_LOG("perfcnt_va %s accepted on a %u-bit GPU", va,
		       mpc_va_bits(variant));
	}
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, gpu_info_reports_mmu_va_bits)
{
	EXPECT_EQ(mpc_va_bits(variant),
		  mpc_dbg_num(self->dbg, "gpu_info", "va_bits"));
}

/* As kbase: a dump buffer at GPU address 0 is refused. */
TEST_F(mpc, perfcnt_va_zero_einval)
{
	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_va", "0\n"));
	ASSERT_DEVICE_WORKS(self);
}

/* A buffer that would wrap past 2^64 does not fit below 2^48 either. */
TEST_F(mpc, perfcnt_va_wrapping_einval)
{
	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "perfcnt_va",
					 "0xfffffffffffff000\n"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, perfcnt_va_while_enabled_rejected)
{
	char before[64], after[64];

	ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_va", before,
				  sizeof(before)));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_GT(0, mpc_dbg_write(self->dbg, "perfcnt_va", "0x20000000\n"));
	ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_va", after,
				  sizeof(after)));
	EXPECT_STREQ(before, after);
	DUMP_OK(self, NULL, NULL);
}

/* debugfs formats */

TEST_F(mpc, debugfs_enable_keys_set_masks)
{
	char *b = malloc(self->info.dump_size + 1);
	unsigned int slot, inst;
	enum mpc_block_kind kind;
	uint32_t want;

	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable",
				   "shader=0x3 jm=0x5\n"));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	ASSERT_EQ(self->info.dump_size,
		  mpc_dbg_read(self->dbg, "perfcnt_dump", b,
			       self->info.dump_size + 1));
	for (slot = 0; slot < self->info.nr_blocks; slot++) {
		kind = mpc_block_kind(&self->info, slot, &inst);
		if (kind == MPC_BLK_HOLE)
			continue;
		/* Missing keys default to all ones. */
		want = kind == MPC_BLK_JM ? 0x5 :
		       kind == MPC_BLK_SHADER ? 0x3 : 0xffff;
		EXPECT_EQ(want, mpc_block(b, slot)[MPC_HDR_MASK]) {
			TH_LOG("slot %u kind %d", slot, kind);
		}
	}
	free(b);
}

TEST_F(mpc, perfcnt_enable_reads_state)
{
	char val[16];

	ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_enable", val,
				  sizeof(val)));
	EXPECT_EQ('0', val[0]);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_enable", val,
				  sizeof(val)));
	EXPECT_EQ('1', val[0]);
}

TEST_F(mpc, debugfs_dump_small_reads)
{
	uint8_t *b = calloc(1, self->info.dump_size + 512);
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	int fd;

	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	snprintf(path, sizeof(path), "%s/perfcnt_dump", self->dbg);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	do {
		n = read(fd, b + got, 100);
		ASSERT_LE(0, n);
		got += n;
	} while (n > 0 && got < self->info.dump_size + 512);
	close(fd);
	EXPECT_EQ(self->info.dump_size, got);
	EXPECT_EQ(0xffff, mpc_block(b, mpc_jm_slot(&self->info))[MPC_HDR_MASK]);
	free(b);
}

TEST_F(mpc, debugfs_dump_one_sample_per_open)
{
	uint8_t *a = calloc(1, self->info.dump_size + 1);
	uint8_t *b = calloc(1, self->info.dump_size + 1);
	unsigned int jm = mpc_jm_slot(&self->info);
	uint64_t s0, s1;

	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	s0 = mpc_dbg_num(self->dbg, "perfcnt_stats", "samples");
	ASSERT_EQ(self->info.dump_size,
		  mpc_dbg_read(self->dbg, "perfcnt_dump", (char *)a,
			       self->info.dump_size + 1));
	ASSERT_EQ(self->info.dump_size,
		  mpc_dbg_read(self->dbg, "perfcnt_dump", (char *)b,
			       self->info.dump_size + 1));
	s1 = mpc_dbg_num(self->dbg, "perfcnt_stats", "samples");
	EXPECT_EQ(s0 + 2, s1);
	EXPECT_LT(mpc_block_ts(mpc_block(a, jm)), mpc_block_ts(mpc_block(b, jm)));
	free(a);
	free(b);
}

/* Is "name" the expected name of a present block instance? */
static bool block_name_expected(const struct drm_mali_perfcnt_get_info *i,
				const char *name)
{
	unsigned int n;

	if (!strcmp(name, "jm") || !strcmp(name, "tiler"))
		return true;
	if (sscanf(name, "l2.%u", &n) == 1)
		return i->layout == MALI_PERFCNT_LAYOUT_V4 ?
			n < i->nr_core_groups : n < i->nr_l2;
	if (sscanf(name, "shader.%u", &n) == 1)
		return n < 64 && (i->shader_present >> n) & 1;
	return false;
}

TEST_F(mpc, perfcnt_counters_lists_present_blocks)
{
	const struct drm_mali_perfcnt_get_info *i = &self->info;
	unsigned int want, blocks = 0, idx, nonzero = 0;
	char *txt = malloc(256 * 1024), *line, *save;
	unsigned long long seq, ts, hts, val;
	unsigned int en;
	char name[32];

	ASSERT_NE(NULL, txt);
	SET_LOAD(self, "busy=50");
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	mpc_sleep_ms(20);
	ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_counters", txt,
				  256 * 1024));
	line = strtok_r(txt, "\n", &save);
	ASSERT_NE(NULL, line);
	ASSERT_EQ(2, sscanf(line, "seqno %llu timestamp_ns %llu", &seq, &ts)) {
		TH_LOG("first line: '%s'", line);
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (line[0] == ' ') {
			ASSERT_EQ(2, sscanf(line, " %u %llu", &idx, &val)) {
				TH_LOG("line '%s'", line);
			}
			EXPECT_LE(4, idx);
			EXPECT_GT(64, idx);
			EXPECT_NE(0, val);
			nonzero++;
			continue;
		}
		ASSERT_EQ(3, sscanf(line, "%31s timestamp=0x%llx enable=0x%x",
				    name, &hts, &en)) {
			TH_LOG("line '%s'", line);
		}
		EXPECT_TRUE(block_name_expected(i, name)) {
			TH_LOG("unexpected block '%s'", name);
		}
		EXPECT_EQ(0xffff, en);
		blocks++;
	}
	if (i->layout == MALI_PERFCNT_LAYOUT_V4)
		want = 1 + 2 * i->nr_core_groups;
	else
		want = 2 + i->nr_l2;
	want += mpc_hweight64(i->shader_present);
	EXPECT_EQ(want, blocks);
	EXPECT_LT(0, nonzero);
	free(txt);
}

/* The seqno on the first line of one read of perfcnt_counters. */
static int counters_seqno(const char *dbg, char *txt, size_t len,
			  unsigned long long *seq)
{
	unsigned long long ts;
	int n = mpc_dbg_read(dbg, "perfcnt_counters", txt, len);

	if (n <= 0)
		return -1;
	return sscanf(txt, "seqno %llu timestamp_ns %llu", seq, &ts) == 2 ? n : -1;
}

/*
 * One read of perfcnt_counters is one sample, however long its text: with
 * 32 busy cores and 4 L2 slices it is several pages, and seq_file calls the
 * show routine again with a bigger buffer when the first one overflows.
 */
TEST_F(mpc, perfcnt_counters_one_sample_per_read)
{
	const size_t len = 512 * 1024;
	unsigned long long s1, s2, s3;
	char *txt = malloc(len);
	int n;

	ASSERT_NE(NULL, txt);
	/* A fixed machine is what it is: its text must pass a page itself */
	if (self->info.layout == MALI_PERFCNT_LAYOUT_V5 && !mpc_hw_device())
		mpc_fixture_load(_metadata, self, variant,
				 "sim_cores=0xffffffff sim_l2=4");
	SET_LOAD(self, "busy=100");
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	mpc_sleep_ms(20);
	n = counters_seqno(self->dbg, txt, len, &s1);
	ASSERT_LT(0, n);
	if (self->info.layout == MALI_PERFCNT_LAYOUT_V5 && mpc_hw_device() && n <= 4096) {
		free(txt);
		SKIP(return, "hardware mode (%s): the text of %u blocks is %d bytes, within a page; the qemu-gpu G71 MP32 machine has one over it",
		     mpc_hw_device(), self->info.nr_blocks, n);
	}
	if (self->info.layout == MALI_PERFCNT_LAYOUT_V5)
		EXPECT_LT(4096, n) {
			TH_LOG("only %d bytes: the test needs a text over a page (4096)", n);
		}
	ASSERT_LT(0, counters_seqno(self->dbg, txt, len, &s2));
	ASSERT_LT(0, counters_seqno(self->dbg, txt, len, &s3));
	EXPECT_EQ(s1 + 1, s2);
	EXPECT_EQ(s2 + 1, s3) {
		TH_LOG("seqno %llu, %llu, %llu: more than one sample per read",
		       s1, s2, s3);
	}
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "0\n"));
	free(txt);
}

/* 10. Revision 2: interval start and data flags of each dump */

/* One DUMP into self->buf; the out fields in @d. */
static int dump_d(FIXTURE_DATA(mpc) *self, struct drm_mali_perfcnt_dump *d)
{
	memset(d, 0, sizeof(*d));
	d->buf_ptr = (uintptr_t)self->buf;
	d->buf_size = self->info.dump_size;
	return mpc_dump_raw(self->fd, d);
}

#define DUMP_D(self, d) ASSERT_EQ(0, dump_d((self), (d)))

TEST_F(mpc, data_first_only_on_first_dump)
{
	struct drm_mali_perfcnt_dump d;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, mpc_enable_all(self->fd));
		DUMP_D(self, &d);
		EXPECT_EQ(MALI_PERFCNT_DATA_FIRST, d.data_flags) {
			TH_LOG("enable %u, dump 1: flags 0x%x", k, d.data_flags);
		}
		DUMP_D(self, &d);
		EXPECT_EQ(0, d.data_flags);
		DUMP_D(self, &d);
		EXPECT_EQ(0, d.data_flags);
		/* Each enable starts afresh */
		ASSERT_EQ(0, mpc_disable(self->fd));
	}
}

/* Each dump covers exactly [previous dump, this dump]: no gap, no overlap. */
TEST_F(mpc, interval_start_is_previous_timestamp)
{
	struct drm_mali_perfcnt_dump d;
	uint64_t t_enable, prev;
	unsigned int k;

	t_enable = mpc_now_ns();
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	/*
	 * The first interval starts inside ENABLE. Equal times are possible:
	 * a coarse CLOCK_MONOTONIC_RAW (the debug VM's clocksource) can give
	 * the end of ENABLE and the sample request the same value.
	 */
	EXPECT_LE(t_enable, d.interval_start_ns);
	EXPECT_LE(d.interval_start_ns, d.timestamp_ns);
	prev = d.timestamp_ns;
	for (k = 0; k < 4; k++) {
		mpc_sleep_ms(5);
		DUMP_D(self, &d);
		EXPECT_EQ(prev, d.interval_start_ns) {
			TH_LOG("dump %u", k + 2);
		}
		/* 5 ms apart: later even with a coarse clock */
		EXPECT_LT(d.interval_start_ns, d.timestamp_ns);
		prev = d.timestamp_ns;
	}
}

/* A 32-bit counter that reached 0xffffffff marks its dump SATURATED. */
TEST_F(mpc, data_saturated_when_a_counter_saturates)
{
	struct drm_mali_perfcnt_dump d;

	SKIP_ON_HW("needs sim_mhz=5000");
	/* GPU_ACTIVE of a fully busy 5 GHz GPU passes 2^32 in 0.86 s */
	mpc_fixture_load(_metadata, self, variant, "sim_mhz=5000");
	SET_LOAD(self, "busy=100");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	EXPECT_EQ(0, d.data_flags & MALI_PERFCNT_DATA_SATURATED);
	mpc_sleep_ms(1200);
	DUMP_D(self, &d);
	EXPECT_EQ(0xffffffffu, JM(self)[variant->gpu_active]);
	EXPECT_EQ(MALI_PERFCNT_DATA_SATURATED, d.data_flags);
	/* The counters were cleared by that sample */
	DUMP_D(self, &d);
	EXPECT_GT(0xffffffffu, JM(self)[variant->gpu_active]);
	EXPECT_EQ(0, d.data_flags & MALI_PERFCNT_DATA_SATURATED);
}

/*
 * After a failed sample and its recovery, the next dump says so, and its
 * interval starts when the recovery restarted the counters.
 */
TEST_F(mpc, data_after_recovery_after_gpu_fault)
{
	struct drm_mali_perfcnt_dump d;
	uint64_t t_fail, t_back, prev;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	prev = d.timestamp_ns;
	ARM_FAULT(self, "gpu_fault\n");
	t_fail = mpc_now_ns();
	ASSERT_EQ(-ENXIO, dump_d(self, &d));
	t_back = mpc_now_ns();
	DUMP_D(self, &d);
	EXPECT_EQ(MALI_PERFCNT_DATA_AFTER_RECOVERY, d.data_flags);
	EXPECT_EQ(mpc_dbg_num(self->dbg, "perfcnt_stats", "last_recovery_ns"),
		  d.interval_start_ns);
	/* Restarted inside the failed DUMP, after its sample was asked for */
	EXPECT_LT(prev, d.interval_start_ns);
	EXPECT_LE(t_fail, d.interval_start_ns);
	EXPECT_GE(t_back, d.interval_start_ns);
	prev = d.timestamp_ns;
	DUMP_D(self, &d);
	EXPECT_EQ(0, d.data_flags);
	EXPECT_EQ(prev, d.interval_start_ns);
}

/* A recovery before the first sample: FIRST and AFTER_RECOVERY together. */
TEST_F(mpc, data_first_and_after_recovery)
{
	struct drm_mali_perfcnt_dump d;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "gpu_fault\n");
	ASSERT_EQ(-ENXIO, dump_d(self, &d));
	DUMP_D(self, &d);
	EXPECT_EQ(MALI_PERFCNT_DATA_FIRST | MALI_PERFCNT_DATA_AFTER_RECOVERY, d.data_flags);
}

/* A DUMP to a bad pointer does not lose a sample: the next one has no gap. */
TEST_F(mpc, dump_bad_pointer_then_no_gap)
{
	struct drm_mali_perfcnt_dump d, bad;
	uint64_t s0, t0;
	size_t len = self->info.dump_size;
	void *p;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	s0 = d.seqno;
	t0 = d.timestamp_ns;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, len));
	memset(&bad, 0, sizeof(bad));
	bad.buf_ptr = (uintptr_t)p;
	bad.buf_size = self->info.dump_size;
	EXPECT_EQ(-EFAULT, mpc_dump_raw(self->fd, &bad));
	EXPECT_EQ(0, bad.seqno);
	DUMP_D(self, &d);
	EXPECT_EQ(s0 + 1, d.seqno);
	EXPECT_EQ(t0, d.interval_start_ns);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

struct bg_dump {
	int fd;
	struct drm_mali_perfcnt_dump d;
	int ret;
	volatile pid_t tid;
};

static void *bg_dump_run(void *arg)
{
	struct bg_dump *b = arg;

	b->tid = (pid_t)syscall(SYS_gettid);
	b->ret = mpc_dump_raw(b->fd, &b->d);
	return NULL;
}

/* The state letter of thread @tid of this process ('R', 'S', 'D', ...). */
static char thread_state(pid_t tid)
{
	char path[64], line[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	p = p ? strrchr(line, ')') : NULL;
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * The buffer goes away while the DUMP waits for the GPU (another thread
 * unmaps it), so the copy fails after the GPU sampled: that sample is kept
 * and the next DUMP returns it, same seqno, no gap in the intervals.
 */
TEST_F(mpc, dump_failed_copy_keeps_sample)
{
	struct bg_dump b = { .fd = self->fd, .ret = 1 };
	struct drm_mali_perfcnt_dump d;
	size_t len = self->info.dump_size;
	uint64_t s0, t0;
	pthread_t th;
	unsigned int k;
	void *p;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	s0 = d.seqno;
	t0 = d.timestamp_ns;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0, len);
	b.d.buf_ptr = (uintptr_t)p;
	b.d.buf_size = self->info.dump_size;
	/*
	 * The sample takes 500 ms: time for this thread to see the DUMP
	 * asleep and unmap, and 500 ms under the 1 s timeout, as a guest on a
	 * busy host may wake either a few hundred ms late
	 */
	ARM_FAULT(self, "delay=500\n");
	ASSERT_EQ(0, pthread_create(&th, NULL, bg_dump_run, &b));
	/* Unmap once the DUMP sleeps in the kernel waiting for the GPU */
	for (k = 0; k < 5000 && (!b.tid || thread_state(b.tid) != 'D'); k++)
		usleep(1000);
	EXPECT_EQ('D', thread_state(b.tid));
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(-EFAULT, b.ret);
	EXPECT_EQ(0, b.d.seqno);

	DUMP_D(self, &d);
	EXPECT_EQ(s0 + 1, d.seqno) {
		TH_LOG("the sample of the failed DUMP was lost");
	}
	EXPECT_EQ(t0, d.interval_start_ns);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
	t0 = d.timestamp_ns;
	DUMP_D(self, &d);
	EXPECT_EQ(s0 + 2, d.seqno);
	EXPECT_EQ(t0, d.interval_start_ns);
}

/* A kept sample belongs to its enable: a new enable drops it. */
TEST_F(mpc, kept_sample_dropped_by_disable)
{
	struct bg_dump b = { .fd = self->fd, .ret = 1 };
	struct drm_mali_perfcnt_dump d;
	size_t len = self->info.dump_size;
	uint64_t s0, allocs;
	pthread_t th;
	unsigned int k;
	void *p;

	allocs = mpc_dbg_num(self->dbg, "perfcnt_stats", "live_allocs");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	s0 = d.seqno;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	b.d.buf_ptr = (uintptr_t)p;
	b.d.buf_size = self->info.dump_size;
	ARM_FAULT(self, "delay=500\n");	/* as above */
	ASSERT_EQ(0, pthread_create(&th, NULL, bg_dump_run, &b));
	for (k = 0; k < 5000 && (!b.tid || thread_state(b.tid) != 'D'); k++)
		usleep(1000);
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(-EFAULT, b.ret);
	ASSERT_EQ(0, mpc_disable(self->fd));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_D(self, &d);
	/* A new sample of the new enable, not the kept one */
	EXPECT_EQ(s0 + 2, d.seqno);
	EXPECT_EQ(MALI_PERFCNT_DATA_FIRST, d.data_flags);
	/* Nothing of the kept sample is left behind */
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(allocs, mpc_dbg_num(self->dbg, "perfcnt_stats", "live_allocs"));
}

/* 11. No lock is held across the DUMP's user copy */

struct bg_close {
	int ret;
	char gpu_info_enabled;
	int done;
	const char *dbg;
};

/* What other processes do: open and close the node, read gpu_info. */
static void *bg_close_run(void *arg)
{
	struct bg_close *c = arg;
	int fd = mpc_open_render();

	c->ret = fd < 0 ? fd : 0;
	if (fd >= 0)
		close(fd);
	c->gpu_info_enabled = (char)mpc_dbg_num(c->dbg, "gpu_info", "enabled");
	__atomic_store_n(&c->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * The DUMP's buffer is a userfaultfd page that nobody serves yet (as a
 * FUSE page whose daemon does not answer would be): while the DUMP waits
 * in that fault, other files of the device close and debugfs reads, at
 * once. Before revision 2 the DUMP faulted its buffer in under pc->lock
 * and a close of any file waited for it in postclose.
 */
TEST_F(mpc, dump_user_fault_blocks_nobody)
{
	struct bg_dump b = { .fd = self->fd, .ret = 1 };
	struct bg_close c = { .ret = 1, .dbg = self->dbg };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_zeropage zp;
	struct uffdio_range ur;
	struct uffd_msg msg;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (self->info.dump_size + pg - 1) / pg * pg;
	struct pollfd pfd;
	pthread_t th, tc;
	unsigned int k;
	int uffd;
	void *p;

	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	reg.range.start = (uintptr_t)p;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	b.d.buf_ptr = (uintptr_t)p;
	b.d.buf_size = self->info.dump_size;
	ASSERT_EQ(0, pthread_create(&th, NULL, bg_dump_run, &b));
	/* The DUMP now waits in a fault of its buffer */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ((ssize_t)sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	ASSERT_EQ(0, pthread_create(&tc, NULL, bg_close_run, &c));
	/* A deadlock detector, not a timing check: 10 s is ample */
	for (k = 0; k < 1000 && !__atomic_load_n(&c.done, __ATOMIC_SEQ_CST); k++)
		usleep(10000);
	EXPECT_EQ(1, __atomic_load_n(&c.done, __ATOMIC_SEQ_CST)) {
		TH_LOG("close()/gpu_info blocked behind a DUMP waiting in a user page fault");
	}

	/* Serve the fault (this wakes the DUMP), then let the kernel serve */
	zp.range.start = (uintptr_t)p;
	zp.range.len = len;
	zp.mode = 0;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zp));
	ur.start = (uintptr_t)p;
	ur.len = len;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_UNREGISTER, &ur));
	ASSERT_EQ(0, pthread_join(tc, NULL));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, c.ret);
	EXPECT_EQ(1, c.gpu_info_enabled);
	EXPECT_EQ(0, b.ret);
	EXPECT_EQ(0xffffu, mpc_block(p, mpc_jm_slot(&self->info))[MPC_HDR_MASK]);
	munmap(p, len);
	close(uffd);
}

TEST_HARNESS_MAIN
