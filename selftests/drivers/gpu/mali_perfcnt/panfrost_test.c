// SPDX-License-Identifier: GPL-2.0-only
/*
 * Upstream panfrost (Debian's stock panfrost.ko) on the project's emulated
 * Mali GPU in QEMU (-M virt,mali=PRODUCT): the probe, GET_PARAM against what
 * the device was given, and the unstable perfcnt ioctls.
 *
 * The device is the project's GPU model, which reaches guest memory only
 * through the translation tables the driver programmed: a dump that arrives
 * in panfrost's buffer was written through panfrost's own page tables.
 *
 * What the device was given comes from a file of key=value lines
 * ($PANFROST_EXPECT, default /mpc/target):
 *   product=g52 gpu_id=0x72120000 shader_present=0xb l2_present=0x1
 *   l2_slices=2 va_bits=35 pa_bits=40 v4=0 mhz=800 busy=50 timestamp_hz=24000000
 * gpu_id is the product's GPU_ID register, timestamp_hz the rate of the
 * GPU's TIMESTAMP (the block headers). fault=drop_irq says the device was
 * started with that fault armed (mali-gpu.fault): only the test
 * fault_drop_irq expects it (run it alone, -t fault_drop_irq, in such a
 * boot and exclude it, -T fault_drop_irq, from the others). Run as root
 * with panfrost loaded with unstable_ioctls=1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* ---- the panfrost uAPI this test uses (numbers as in the kernel's) ---- */

struct pf_drm_version {
	int version_major;
	int version_minor;
	int version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

struct pf_get_param {
	uint32_t param;
	uint32_t pad;
	uint64_t value;
};

struct pf_perfcnt_enable {
	uint32_t enable;
	uint32_t counterset;
};

struct pf_perfcnt_dump {
	uint64_t buf_ptr;
};

#define PF_IOCTL_VERSION		_IOWR('d', 0x00, struct pf_drm_version)
#define PF_IOCTL_GET_PARAM		_IOWR('d', 0x44, struct pf_get_param)
#define PF_IOCTL_PERFCNT_ENABLE		_IOW('d', 0x46, struct pf_perfcnt_enable)
#define PF_IOCTL_PERFCNT_DUMP		_IOW('d', 0x47, struct pf_perfcnt_dump)

_Static_assert(sizeof(struct pf_get_param) == 16, "get_param size");
_Static_assert(sizeof(struct pf_perfcnt_enable) == 8, "enable size");
_Static_assert(sizeof(struct pf_perfcnt_dump) == 8, "dump size");

enum {
	PF_PARAM_GPU_PROD_ID = 0,
	PF_PARAM_GPU_REVISION = 1,
	PF_PARAM_SHADER_PRESENT = 2,
	PF_PARAM_TILER_PRESENT = 3,
	PF_PARAM_L2_PRESENT = 4,
	PF_PARAM_STACK_PRESENT = 5,
	PF_PARAM_AS_PRESENT = 6,
	PF_PARAM_JS_PRESENT = 7,
	PF_PARAM_CORE_FEATURES = 9,
	PF_PARAM_TILER_FEATURES = 10,
	PF_PARAM_MEM_FEATURES = 11,
	PF_PARAM_MMU_FEATURES = 12,
	PF_PARAM_THREAD_FEATURES = 13,
	PF_PARAM_MAX_THREADS = 14,
	PF_PARAM_THREAD_MAX_WORKGROUP_SZ = 15,
	PF_PARAM_THREAD_MAX_BARRIER_SZ = 16,
	PF_PARAM_COHERENCY_FEATURES = 17,
	PF_PARAM_TEXTURE_FEATURES0 = 18,	/* ..3 = 21 */
	PF_PARAM_JS_FEATURES0 = 22,		/* ..15 = 37 */
	PF_PARAM_NR_CORE_GROUPS = 38,
};

#define PF_PARAM_PATH "/sys/module/panfrost/parameters/unstable_ioctls"
#define BLOCK_WORDS 64
#define BLOCK_BYTES (BLOCK_WORDS * 4)
#define CANARY 0xa5

/* ---- what the device was given ---- */

struct pf_expect {
	char product[32];
	uint32_t gpu_id;
	uint64_t shader_present;
	uint64_t l2_present;
	uint32_t l2_slices;
	uint32_t va_bits;
	uint32_t pa_bits;
	uint32_t v4;
	uint32_t mhz;
	uint32_t busy;
	uint64_t timestamp_hz;
	char fault[32];
};

static int pf_read_expect(struct pf_expect *e)
{
	const char *path = getenv("PANFROST_EXPECT");
	char line[512], key[32], val[32];
	FILE *f;

	memset(e, 0, sizeof(*e));
	f = fopen(path ? path : "/mpc/target", "r");
	if (!f)
		return -errno;
	/* One KEY=VALUE a line; keys of the target it does not use are skipped. */
	while (fgets(line, sizeof(line), f)) {
		uint64_t v;

		if (sscanf(line, " %31[^= \n]=%31s", key, val) != 2)
			continue;
		v = strtoull(val, NULL, 0);

		if (!strcmp(key, "product"))
			snprintf(e->product, sizeof(e->product), "%s", val);
		else if (!strcmp(key, "gpu_id"))
			e->gpu_id = v;
		else if (!strcmp(key, "shader_present"))
			e->shader_present = v;
		else if (!strcmp(key, "l2_present"))
			e->l2_present = v;
		else if (!strcmp(key, "l2_slices"))
			e->l2_slices = v;
		else if (!strcmp(key, "va_bits"))
			e->va_bits = v;
		else if (!strcmp(key, "pa_bits"))
			e->pa_bits = v;
		else if (!strcmp(key, "v4"))
			e->v4 = v;
		else if (!strcmp(key, "mhz"))
			e->mhz = v;
		else if (!strcmp(key, "busy"))
			e->busy = v;
		else if (!strcmp(key, "timestamp_hz"))
			e->timestamp_hz = v;
		else if (!strcmp(key, "fault"))
			snprintf(e->fault, sizeof(e->fault), "%s", val);
	}
	fclose(f);
	return e->product[0] && e->gpu_id && e->shader_present &&
	       e->l2_present && e->timestamp_hz ? 0 : -EINVAL;
}

/* ---- helpers ---- */

/*
 * The id panfrost's table matches: GPU_ID >> 16, masked with 0xf00f in
 * the format of Bifrost on (bits 15:12 set).
 */
static uint32_t pf_model_id(const struct pf_expect *e)
{
	uint32_t id = e->gpu_id >> 16;

	return (id & 0xf000) ? id & 0xf00f : id;
}

static int pf_fls64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static uint64_t pf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void pf_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int pf_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

/* The first DRM node (render nodes first) whose driver is "panfrost". */
static int pf_open(void)
{
	static const char *const dirs[] = { "renderD", "card" };
	char path[64], name[32];
	unsigned int d, i;

	for (d = 0; d < 2; d++) {
		for (i = 0; i < 64; i++) {
			struct pf_drm_version v = { 0 };
			int fd;

			snprintf(path, sizeof(path), "/dev/dri/%s%u", dirs[d],
				 (d ? 0 : 128) + i);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			memset(name, 0, sizeof(name));
			v.name = name;
			v.name_len = sizeof(name) - 1;
			if (!pf_ioctl(fd, PF_IOCTL_VERSION, &v) &&
			    !strcmp(name, "panfrost"))
				return fd;
			close(fd);
		}
	}
	return -ENODEV;
}

static int pf_param(int fd, uint32_t param, uint64_t *value)
{
	struct pf_get_param p = { .param = param };
	int ret = pf_ioctl(fd, PF_IOCTL_GET_PARAM, &p);

	*value = p.value;
	return ret;
}

static int pf_enable(int fd, uint32_t enable, uint32_t set)
{
	struct pf_perfcnt_enable en = { .enable = enable, .counterset = set };

	return pf_ioctl(fd, PF_IOCTL_PERFCNT_ENABLE, &en);
}

static int pf_dump(int fd, void *buf)
{
	struct pf_perfcnt_dump d = { .buf_ptr = (uintptr_t)buf };

	return pf_ioctl(fd, PF_IOCTL_PERFCNT_DUMP, &d);
}

static int pf_set_unstable(bool on)
{
	int fd = open(PF_PARAM_PATH, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "Y" : "N", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/* The dump size panfrost's perfcnt_init computes. */
static uint32_t pf_dump_size(const struct pf_expect *e)
{
	if (e->v4)
		return __builtin_popcountll(e->l2_present) * 8 * BLOCK_BYTES;
	return (e->l2_slices + 2 + pf_fls64(e->shader_present)) * BLOCK_BYTES;
}

static uint32_t pf_nr_blocks(const struct pf_expect *e)
{
	return pf_dump_size(e) / BLOCK_BYTES;
}

/*
 * Is @slot one the GPU writes? v5: JM, tiler, the L2 slices, then one slot
 * per SHADER_PRESENT bit. v4: per core group SC0-3, tiler, MMU/L2,
 * reserved, JM (group 0 only).
 */
static bool pf_slot_written(const struct pf_expect *e, unsigned int slot)
{
	unsigned int g, i;

	if (!e->v4) {
		if (slot < 2 + e->l2_slices)
			return true;
		return e->shader_present >> (slot - 2 - e->l2_slices) & 1;
	}
	g = slot / 8;
	i = slot % 8;
	if (i < 4)
		return e->shader_present >> (g * 4 + i) & 1;
	if (i == 6)
		return false;
	if (i == 7)
		return g == 0;
	return true;
}

static unsigned int pf_jm_slot(const struct pf_expect *e)
{
	return e->v4 ? 7 : 0;
}

static unsigned int pf_shader_slot(const struct pf_expect *e, unsigned int core)
{
	return e->v4 ? (core / 4) * 8 + core % 4 : 2 + e->l2_slices + core;
}

/* GPU_ACTIVE and FRAG_ACTIVE: JM counter 6 and SC counter 4 (T720: JM 4). */
static unsigned int pf_gpu_active(const struct pf_expect *e)
{
	return strcmp(e->product, "t720") ? 6 : 4;
}

#define SC_FRAG_ACTIVE 4

static const uint32_t *pf_block(const void *dump, unsigned int slot)
{
	return (const uint32_t *)dump + slot * BLOCK_WORDS;
}

static uint64_t pf_block_ts(const uint32_t *blk)
{
	return blk[0] | (uint64_t)blk[1] << 32;
}

/* ---- the fixture: the expectations and one open panfrost node ---- */

FIXTURE(pf) {
	struct pf_expect e;
	int fd;
	uint32_t size;
	uint8_t *buf;
	size_t buflen;
};

FIXTURE_SETUP(pf)
{
	ASSERT_EQ(0, pf_read_expect(&self->e))
		TH_LOG("no expectations in /mpc/target");
	ASSERT_EQ(0, pf_set_unstable(true))
		TH_LOG("%s: panfrost not loaded?", PF_PARAM_PATH);
	self->fd = pf_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("no DRM node of driver panfrost: did it probe?");
	self->size = pf_dump_size(&self->e);
	self->buflen = self->size + 4096;
	self->buf = malloc(self->buflen);
	ASSERT_NE(NULL, self->buf);
	memset(self->buf, CANARY, self->buflen);
}

FIXTURE_TEARDOWN(pf)
{
	if (self->fd >= 0)
		close(self->fd);
	free(self->buf);
	pf_set_unstable(true);
}

/* The ioctl numbers are the kernel's (include/uapi/drm/panfrost_drm.h). */
TEST_F(pf, ioctl_numbers)
{
	EXPECT_EQ(0xC0106444ul, (unsigned long)PF_IOCTL_GET_PARAM);
	EXPECT_EQ(0x40086446ul, (unsigned long)PF_IOCTL_PERFCNT_ENABLE);
	EXPECT_EQ(0x40086447ul, (unsigned long)PF_IOCTL_PERFCNT_DUMP);
	EXPECT_EQ(0xC0406400ul, (unsigned long)PF_IOCTL_VERSION);
}

/* panfrost named the GPU by its table: "mali-g52 id 0x7212 major ..." */
TEST_F(pf, probe_named_the_product)
{
	char want[48], *log;
	int len;

	len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	ASSERT_LT(0, len);
	log = calloc(1, len + 1);
	ASSERT_NE(NULL, log);
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, len);
	ASSERT_LT(0, len);
	snprintf(want, sizeof(want), "mali-%s id 0x%x ", self->e.product,
		 self->e.gpu_id >> 16);
	EXPECT_NE(NULL, strstr(log, want))
		TH_LOG("dmesg has no \"%s\"", want);
	EXPECT_NE(NULL, strstr(log, "Initialized panfrost"));
	free(log);
}

TEST_F(pf, get_param_ids)
{
	uint64_t id, rev;

	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_GPU_PROD_ID, &id));
	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_GPU_REVISION, &rev));
	TH_LOG("GPU_PROD_ID 0x%llx revision 0x%llx", (unsigned long long)id,
	       (unsigned long long)rev);
	EXPECT_EQ(self->e.gpu_id >> 16, id);
	EXPECT_EQ(self->e.gpu_id & 0xffff, rev);
}

TEST_F(pf, get_param_cores)
{
	uint64_t v;

	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_SHADER_PRESENT, &v));
	EXPECT_EQ(self->e.shader_present, v);
	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_L2_PRESENT, &v));
	EXPECT_EQ(self->e.l2_present, v);
	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_TILER_PRESENT, &v));
	EXPECT_EQ(1, v);
	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_NR_CORE_GROUPS, &v));
	EXPECT_EQ(__builtin_popcountll(self->e.l2_present), v);
}

/* MEM_FEATURES[11:8] + 1 L2 slices; MMU_FEATURES VA [7:0], PA [15:8]. */
TEST_F(pf, get_param_features)
{
	uint64_t mem, mmu;

	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_MEM_FEATURES, &mem));
	ASSERT_EQ(0, pf_param(self->fd, PF_PARAM_MMU_FEATURES, &mmu));
	TH_LOG("MEM_FEATURES 0x%llx MMU_FEATURES 0x%llx",
	       (unsigned long long)mem, (unsigned long long)mmu);
	if (!self->e.v4)
		EXPECT_EQ(self->e.l2_slices, ((mem >> 8) & 0xf) + 1);
	EXPECT_EQ(self->e.va_bits, mmu & 0xff);
	EXPECT_EQ(self->e.pa_bits, (mmu >> 8) & 0xff);
}

/*
 * The feature registers of each modelled product, as the project's model
 * documents them (model/mali_model_products.c says where each value comes
 * from), written here again so that a model reading 0 or the wrong
 * family's value fails. 6.1 and 6.12 have the same GET_PARAM list and read
 * the same registers at probe (panfrost_gpu_init_features).
 */
struct pf_ids {
	const char *products;	/* space-separated */
	uint32_t max_threads, max_workgroup, max_barrier, thread_features;
	uint32_t texture[4];
	uint32_t coherency;
	bool core_stacks;
};

static const struct pf_ids pf_ids_table[] = {
	{ "t600 t720 t760 t820 t830 t860 t880", 256, 256, 256, 0x0a040400,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0 }, 0, false },
	/* The G71 reads ACE alone (panfrost forces ACE-Lite through JM_CONFIG) */
	{ "g71", 384, 384, 384, 0x0a046000,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0 }, 2, true },
	{ "g72", 384, 384, 384, 0x0a046000,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0 }, 1, true },
	{ "g51 g76 g52", 768, 384, 384, 0x0a046000,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0 }, 1, true },
	{ "g31", 512, 384, 384, 0x0a044000,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0 }, 1, true },
	{ "g57", 1024, 512, 512, 0x0a048000,
	  { 0x00fe001e, 0xffff, 0x9f81ffff, 0xffff }, 1, true },
};

static const struct pf_ids *pf_ids_of(const char *product)
{
	char want[40];
	unsigned int i;

	snprintf(want, sizeof(want), " %s ", product);
	for (i = 0; i < sizeof(pf_ids_table) / sizeof(pf_ids_table[0]); i++) {
		char list[64];

		snprintf(list, sizeof(list), " %s ", pf_ids_table[i].products);
		if (strstr(list, want))
			return &pf_ids_table[i];
	}
	return NULL;
}

static void pf_expect_param(struct __test_metadata *_metadata, int fd,
			    uint32_t param, const char *name, uint64_t want)
{
	uint64_t v = ~0ull;

	ASSERT_EQ(0, pf_param(fd, param, &v)) TH_LOG("GET_PARAM %s (%u)", name, param);
	EXPECT_EQ(want, v) TH_LOG("%s: 0x%llx, the product has 0x%llx", name,
				  (unsigned long long)v, (unsigned long long)want);
}

#define PF_EXPECT_PARAM(param, want) \
	pf_expect_param(_metadata, self->fd, PF_PARAM_##param, #param, want)

TEST_F(pf, get_param_feature_ids)
{
	const struct pf_ids *ids = pf_ids_of(self->e.product);
	unsigned int i;

	ASSERT_NE(NULL, ids) TH_LOG("no feature registers known for %s", self->e.product);
	PF_EXPECT_PARAM(MAX_THREADS, ids->max_threads);
	PF_EXPECT_PARAM(THREAD_MAX_WORKGROUP_SZ, ids->max_workgroup);
	PF_EXPECT_PARAM(THREAD_MAX_BARRIER_SZ, ids->max_barrier);
	PF_EXPECT_PARAM(THREAD_FEATURES, ids->thread_features);
	for (i = 0; i < 4; i++)
		pf_expect_param(_metadata, self->fd, PF_PARAM_TEXTURE_FEATURES0 + i,
				"TEXTURE_FEATURES", ids->texture[i]);
	PF_EXPECT_PARAM(COHERENCY_FEATURES, ids->coherency);
	PF_EXPECT_PARAM(STACK_PRESENT, ids->core_stacks ? self->e.shader_present : 0);
	PF_EXPECT_PARAM(TILER_FEATURES, 0x809);
	PF_EXPECT_PARAM(CORE_FEATURES, 0);
	PF_EXPECT_PARAM(AS_PRESENT, 0xff);
	PF_EXPECT_PARAM(JS_PRESENT, 0x7);
	/* Slot 0 fragment, 1 vertex/tiler/compute, 2 compute; no other slot */
	PF_EXPECT_PARAM(JS_FEATURES0, 0x20e);
	pf_expect_param(_metadata, self->fd, PF_PARAM_JS_FEATURES0 + 1, "JS_FEATURES1", 0x1fe);
	pf_expect_param(_metadata, self->fd, PF_PARAM_JS_FEATURES0 + 2, "JS_FEATURES2", 0x7e);
	for (i = 3; i < 16; i++)
		pf_expect_param(_metadata, self->fd, PF_PARAM_JS_FEATURES0 + i,
				"JS_FEATURES", 0);
}

TEST_F(pf, get_param_rejects)
{
	struct pf_get_param p = { .param = PF_PARAM_GPU_PROD_ID, .pad = 1 };
	uint64_t v;

	EXPECT_EQ(-EINVAL, pf_ioctl(self->fd, PF_IOCTL_GET_PARAM, &p));
	EXPECT_EQ(-EINVAL, pf_param(self->fd, 0xffff, &v));
}

/*
 * One dump: exactly the kernel's size (the last block written, nothing
 * after it), every block the GPU writes with a header (timestamp, the
 * enable mask panfrost set, word 3 zero), the others (absent cores,
 * reserved) all zero.
 */
TEST_F(pf, dump_layout)
{
	unsigned int slot, i, nr = pf_nr_blocks(&self->e);
	uint32_t en = 0;

	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	pf_sleep_ms(20);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf));
	for (i = self->size; i < self->buflen; i++)
		ASSERT_EQ(CANARY, self->buf[i])
			TH_LOG("byte %u past the %u-byte dump was written", i,
			       self->size);
	for (slot = 0; slot < nr; slot++) {
		const uint32_t *blk = pf_block(self->buf, slot);

		if (!pf_slot_written(&self->e, slot)) {
			for (i = 0; i < BLOCK_WORDS; i++)
				EXPECT_EQ(0, blk[i])
					TH_LOG("slot %u (not written) word %u = 0x%x",
					       slot, i, blk[i]);
			continue;
		}
		EXPECT_NE(0, pf_block_ts(blk)) TH_LOG("slot %u: no timestamp", slot);
		EXPECT_NE(0, blk[2] & 1) TH_LOG("slot %u: enable 0x%x", slot, blk[2]);
		EXPECT_EQ(0, blk[3]) TH_LOG("slot %u: word 3 0x%x", slot, blk[3]);
		if (!en)
			en = blk[2];
		EXPECT_EQ(en, blk[2]) TH_LOG("slot %u: enable 0x%x, not 0x%x",
					     slot, blk[2], en);
	}
	TH_LOG("%u blocks, enable word 0x%x", nr, en);
	/* The last slot is always a present core's: the size is exact. */
	EXPECT_TRUE(pf_slot_written(&self->e, self->e.v4 ? 7 : nr - 1));
	EXPECT_EQ(0, pf_enable(self->fd, 0, 0));
}

TEST_F(pf, timestamps_increase)
{
	uint64_t ts[3];
	unsigned int i;

	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	for (i = 0; i < 3; i++) {
		pf_sleep_ms(10);
		ASSERT_EQ(0, pf_dump(self->fd, self->buf));
		ts[i] = pf_block_ts(pf_block(self->buf, pf_jm_slot(&self->e)));
		if (i)
			EXPECT_LT(ts[i - 1], ts[i]);
	}
}

/*
 * GPU_ACTIVE counts busy% of the GPU clock between two samples (a sample
 * clears the counters), timed by the samples' header timestamps: the CPU's
 * view of the interval also holds the interrupt and wake-up latency of the
 * first dump, which a loaded TCG host stretches by tens of ms. That view
 * must still roughly agree. Each present core's FRAG_ACTIVE never exceeds
 * GPU_ACTIVE.
 */
TEST_F(pf, counters_follow_workload)
{
	const struct pf_expect *e = &self->e;
	unsigned int ms = 300, core;
	uint64_t t0, t1, ts0, ts1;
	double want, got, gpu_s, cpu_s;

	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	ASSERT_EQ(0, pf_dump(self->fd, self->buf));
	t0 = pf_now_ns();
	ts0 = pf_block_ts(pf_block(self->buf, pf_jm_slot(e)));
	pf_sleep_ms(ms);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf));
	t1 = pf_now_ns();
	ts1 = pf_block_ts(pf_block(self->buf, pf_jm_slot(e)));
	ASSERT_LT(ts0, ts1);
	gpu_s = (double)(ts1 - ts0) / e->timestamp_hz;
	cpu_s = (t1 - t0) / 1e9;
	got = pf_block(self->buf, pf_jm_slot(e))[pf_gpu_active(e)];
	want = (double)e->busy / 100 * e->mhz * 1e6 * gpu_s;
	TH_LOG("GPU_ACTIVE %.0f over %.1f ms (CPU: %.1f ms), expected %.0f (busy %u%% of %u MHz)",
	       got, gpu_s * 1e3, cpu_s * 1e3, want, e->busy, e->mhz);
	EXPECT_LT(cpu_s * 0.5, gpu_s);
	EXPECT_GT(cpu_s * 2, gpu_s);
	if (!e->busy) {
		EXPECT_GT(want / 1000 + 1000, got);
	} else {
		EXPECT_LT(want * 0.97, got);
		EXPECT_GT(want * 1.03, got);
	}
	for (core = 0; core < 64; core++) {
		if (!(e->shader_present >> core & 1))
			continue;
		EXPECT_GE(got, pf_block(self->buf, pf_shader_slot(e, core))[SC_FRAG_ACTIVE])
			TH_LOG("core %u FRAG_ACTIVE above GPU_ACTIVE", core);
	}
}

/* unstable_ioctls=0: both perfcnt ioctls are -ENOSYS (checked per call). */
TEST_F(pf, enosys_without_unstable_ioctls)
{
	ASSERT_EQ(0, pf_set_unstable(false));
	EXPECT_EQ(-ENOSYS, pf_enable(self->fd, 1, 0));
	EXPECT_EQ(-ENOSYS, pf_dump(self->fd, self->buf));
	ASSERT_EQ(0, pf_set_unstable(true));
	EXPECT_EQ(0, pf_enable(self->fd, 1, 0));
	EXPECT_EQ(0, pf_dump(self->fd, self->buf));
}

/* A second file: -EBUSY to enable, -EINVAL to dump; free after a close. */
TEST_F(pf, second_owner_busy)
{
	int fd2 = pf_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	EXPECT_EQ(0, pf_enable(self->fd, 1, 0));
	EXPECT_EQ(-EBUSY, pf_enable(fd2, 1, 0));
	EXPECT_EQ(-EINVAL, pf_dump(fd2, self->buf));
	EXPECT_EQ(0, pf_dump(self->fd, self->buf));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, pf_enable(fd2, 1, 0));
	EXPECT_EQ(0, pf_dump(fd2, self->buf));
	close(fd2);
}

/* Counter set 1 exists from Bifrost on (SETSEL), never 2. */
TEST_F(pf, counterset)
{
	bool bifrost = pf_model_id(&self->e) >= 0x1000;

	EXPECT_EQ(-EINVAL, pf_enable(self->fd, 1, 2));
	if (bifrost) {
		ASSERT_EQ(0, pf_enable(self->fd, 1, 1));
		EXPECT_EQ(0, pf_dump(self->fd, self->buf));
	} else {
		EXPECT_EQ(-EINVAL, pf_enable(self->fd, 1, 1));
	}
}

/*
 * Disable, wait for runtime autosuspend (50 ms: cores powered off), enable
 * again: the resume's reset and the new address space still get dumps.
 */
TEST_F(pf, dump_after_disable_and_suspend)
{
	unsigned int round;

	for (round = 0; round < 3; round++) {
		ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
		memset(self->buf, CANARY, self->buflen);
		ASSERT_EQ(0, pf_dump(self->fd, self->buf));
		EXPECT_NE(0, pf_block_ts(pf_block(self->buf, pf_jm_slot(&self->e))));
		ASSERT_EQ(0, pf_enable(self->fd, 0, 0));
		EXPECT_EQ(-EINVAL, pf_dump(self->fd, self->buf));
		pf_sleep_ms(150);
	}
}

/* Many dumps back to back: each one completes (within panfrost's 1 s). */
TEST_F(pf, many_dumps)
{
	unsigned int i;

	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	for (i = 0; i < 200; i++)
		ASSERT_EQ(0, pf_dump(self->fd, self->buf)) TH_LOG("dump %u", i);
}

/*
 * A boot with mali-gpu.fault=drop_irq: the first sample completes without
 * its interrupt, so panfrost's first DUMP gives up after its 1 s with
 * -ETIMEDOUT; the fault is spent, and the next DUMP works.
 */
TEST_F(pf, fault_drop_irq)
{
	uint64_t t0, ms;

	ASSERT_STREQ("drop_irq", self->e.fault)
		TH_LOG("needs a device started with fault=drop_irq");
	ASSERT_EQ(0, pf_enable(self->fd, 1, 0));
	t0 = pf_now_ns();
	EXPECT_EQ(-ETIMEDOUT, pf_dump(self->fd, self->buf));
	ms = (pf_now_ns() - t0) / 1000000;
	TH_LOG("the first DUMP returned after %llu ms", (unsigned long long)ms);
	EXPECT_LE(900, ms);
	EXPECT_GT(3000, ms);
	memset(self->buf, CANARY, self->buflen);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf));
	EXPECT_NE(0, pf_block_ts(pf_block(self->buf, pf_jm_slot(&self->e))));
	EXPECT_EQ(0, pf_block(self->buf, pf_jm_slot(&self->e))[3]);
	EXPECT_EQ(0, pf_dump(self->fd, self->buf));
}

TEST_HARNESS_MAIN
