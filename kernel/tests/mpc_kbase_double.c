// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc_kbase_double: a test double of Arm kbase's counter uAPI, for the kbase
 * backend of libmaliperfcnt. Not part of mali_perfcnt.ko and never
 * installed: built with MPC_SIM=1 only.
 *
 * It presents the misc device /dev/mali0 with kbase's version handshake,
 * GET_GPUPROPS, kinstr_prfcnt and the legacy hwcnt reader as this project
 * reads the public facts of that uAPI (Documentation/mali-perfcnt-tool.rst,
 * "The kbase backend"); kbase's sources were not used. The version is the
 * module parameter version=: jm11.38 (both interfaces), jm11.46 (kinstr
 * only), csf1.18 (both), csf1.38 (kinstr only). Wrong use gets kbase's
 * answers: EPERM past the context gate before SET_FLAGS, ENOTTY for an
 * unknown ioctl, EINVAL for bad requests, periods under 100 us raised.
 *
 * Behind it is the project's GPU model (model/), hosted here on a private
 * bus of one region, the dump buffer: the model's address space 0 is an
 * identity map and PRFCNT_BASE points at that region, so the counts are
 * the model's own (workload busy=, GPU gpu=). Every client gets the deltas
 * of the shared hardware session since its own last sample, as kbase's
 * clients do; the legacy reader narrows them to u32 with saturation.
 *
 * CSF versions also enumerate and sample a firmware block and KBD_NR_CSG
 * CSG blocks; the model has neither, so their counters read 0 (only the
 * header, the block state and the enable mask are real). With cpb=128
 * (csf1.38) it is a Mali-G720-like GPU: that GPU_ID, 128 values a block, and
 * each counter the model drives (mali_model_products.h's roles) at the
 * G720's index for it (user/db/gpus/mali-g720.txt), from the model's count
 * of the same role on the product gpu= (the counters a G720 has and that
 * product lacks read 0).
 *
 * What it does not do: GPU work, power management, more than one device.
 */
#include <linux/anon_inodes.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/iopoll.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "mali_model.h"
#include "mali_hw_regs.h"
#include "mali_model_products.h"

static char *version = "jm11.38";
module_param(version, charp, 0444);
MODULE_PARM_DESC(version, "kbase uAPI version: jm11.38, jm11.46, csf1.18 or csf1.38");
static char *gpu = "g52";
module_param(gpu, charp, 0444);
MODULE_PARM_DESC(gpu, "GPU model product (v5 layout), e.g. g52, g72, t860");
static ulong cores;
module_param(cores, ulong, 0444);
MODULE_PARM_DESC(cores, "SHADER_PRESENT, 0 for the product's default");
static uint l2;
module_param(l2, uint, 0444);
MODULE_PARM_DESC(l2, "L2 slices, 0 for the product's default");
static uint mhz;
module_param(mhz, uint, 0444);
MODULE_PARM_DESC(mhz, "the model's GPU clock in MHz, 0 for the product's default");
static uint cpb = 64;
module_param(cpb, uint, 0444);
MODULE_PARM_DESC(cpb, "values a block: 64, or 128 (csf1.38): a Mali-G720-like GPU");
static char *workload = "busy=50";
module_param(workload, charp, 0444);
MODULE_PARM_DESC(workload, "the model's workload: idle or busy=N");

/* ---- the uAPI, as the public facts state it ----------------------------- */

#define KBD_IOC		0x80
#define KBD_VINSTR_IOC	0xbe
#define KBD_KINSTR_IOC	0xbf

struct kbd_version_check {
	__u16 major;
	__u16 minor;
};

struct kbd_set_flags {
	__u32 create_flags;
};

struct kbd_get_gpuprops {
	__u64 buffer;
	__u32 size;
	__u32 flags;
};

struct kbd_reader_setup {
	__u32 buffer_count;
	__u32 fe_bm, shader_bm, tiler_bm, mmu_l2_bm;
};

struct kbd_enum_info {
	__u32 info_item_size;
	__u32 info_item_count;
	__u64 info_list_ptr;
};

union kbd_setup {
	struct {
		__u32 request_item_count;
		__u32 request_item_size;
		__u64 requests_ptr;
	} in;
	struct {
		__u32 prfcnt_metadata_item_size;
		__u32 prfcnt_mmap_size_bytes;
	} out;
};

struct kbd_item_header {
	__u16 item_type;
	__u16 item_version;
	__u8 pad[4];
};

struct kbd_enum_item {
	struct kbd_item_header hdr;
	union {
		struct {
			__u8 block_type, set, pad[2];
			__u16 num_instances, num_values;
			__u64 counter_mask[2];
		} block;
		struct {
			__u16 request_item_type, pad;
			__u32 versions_mask;
		} request;
		struct {
			__u32 num_clock_domains, pad;
		} sample_info;
	} u;
};

struct kbd_request_item {
	struct kbd_item_header hdr;
	union {
		struct {
			__u8 mode, pad[7];
			__u64 period_ns;
		} mode;
		struct {
			__u8 block_type, set, pad[6];
			__u64 enable_mask[2];
		} enable;
		struct {
			__u8 scope, pad[7];
		} scope;
	} u;
};

struct kbd_metadata {
	struct kbd_item_header hdr;
	union {
		struct {
			__u64 timestamp_start, timestamp_end, seq, user_data;
			__u32 flags, pad;
		} sample;
		struct {
			__u32 num_domains, pad;
			__u64 cycles[4];
		} clock;
		struct {
			__u8 block_type, block_idx, set, pad_u8;
			__u32 block_state, values_offset, pad_u32;
		} block;
	} u;
};

struct kbd_control_cmd {
	__u16 cmd, pad[3];
	__u64 user_data;
};

struct kbd_sample_access {
	__u64 sequence;
	__u64 sample_offset_bytes;
};

struct kbd_reader_meta {
	__u64 timestamp;
	__u32 event_id;
	__u32 buffer_idx;
	__u64 top_cycles;
	__u64 shader_cycles;
};

struct kbd_api_version {
	__u32 version, features;
};

#define KBD_VERSION_CHECK_JM	_IOWR(KBD_IOC, 0, struct kbd_version_check)
#define KBD_VERSION_CHECK_CSF	_IOWR(KBD_IOC, 52, struct kbd_version_check)
#define KBD_SET_FLAGS		_IOW(KBD_IOC, 1, struct kbd_set_flags)
#define KBD_GET_GPUPROPS	_IOW(KBD_IOC, 3, struct kbd_get_gpuprops)
#define KBD_READER_SETUP	_IOW(KBD_IOC, 8, struct kbd_reader_setup)
#define KBD_ENUM_INFO		_IOWR(KBD_IOC, 56, struct kbd_enum_info)
#define KBD_SETUP		_IOWR(KBD_IOC, 57, union kbd_setup)
#define KBD_CMD			_IOW(KBD_KINSTR_IOC, 0x00, struct kbd_control_cmd)
#define KBD_GET_SAMPLE		_IOR(KBD_KINSTR_IOC, 0x01, struct kbd_sample_access)
#define KBD_PUT_SAMPLE		_IOW(KBD_KINSTR_IOC, 0x10, struct kbd_sample_access)
#define KBD_GET_HWVER		_IOR(KBD_VINSTR_IOC, 0x00, __u32)
#define KBD_GET_BUFFER_SIZE	_IOR(KBD_VINSTR_IOC, 0x01, __u32)
#define KBD_DUMP		_IOW(KBD_VINSTR_IOC, 0x10, __u32)
#define KBD_CLEAR		_IOW(KBD_VINSTR_IOC, 0x11, __u32)
#define KBD_GET_BUFFER		_IOC(_IOC_READ, KBD_VINSTR_IOC, 0x20, 16)
#define KBD_GET_BUFFER_CYCLES	_IOC(_IOC_READ, KBD_VINSTR_IOC, 0x20, 32)
#define KBD_PUT_BUFFER		_IOC(_IOC_WRITE, KBD_VINSTR_IOC, 0x21, 16)
#define KBD_PUT_BUFFER_CYCLES	_IOC(_IOC_WRITE, KBD_VINSTR_IOC, 0x21, 32)
#define KBD_SET_INTERVAL	_IOW(KBD_VINSTR_IOC, 0x30, __u32)
#define KBD_ENABLE_EVENT	_IOW(KBD_VINSTR_IOC, 0x40, __u32)
#define KBD_DISABLE_EVENT	_IOW(KBD_VINSTR_IOC, 0x41, __u32)
#define KBD_GET_API_VERSION	_IOW(KBD_VINSTR_IOC, 0xff, __u32)
#define KBD_GET_API_VERSION_F	_IOW(KBD_VINSTR_IOC, 0xff, struct kbd_api_version)

static_assert(KBD_VERSION_CHECK_JM == 0xC0048000);
static_assert(KBD_VERSION_CHECK_CSF == 0xC0048034);
static_assert(KBD_GET_GPUPROPS == 0x40108003);
static_assert(KBD_READER_SETUP == 0x40148008);
static_assert(KBD_ENUM_INFO == 0xC0108038);
static_assert(KBD_SETUP == 0xC0108039);
static_assert(KBD_CMD == 0x4010BF00);
static_assert(KBD_GET_SAMPLE == 0x8010BF01);
static_assert(KBD_PUT_SAMPLE == 0x4010BF10);
static_assert(KBD_GET_BUFFER_CYCLES == 0x8020BE20);
static_assert(sizeof(struct kbd_enum_item) == 32);
static_assert(sizeof(struct kbd_request_item) == 32);
static_assert(sizeof(struct kbd_metadata) == 48);

#define KBD_FLEX(t, s)		((u16)(((t) & 0xf) << 12 | (s)))
#define KBD_ITEM_NONE		0
#define KBD_ENUM_BLOCK		KBD_FLEX(0, 0)
#define KBD_ENUM_REQUEST	KBD_FLEX(0, 1)
#define KBD_ENUM_SAMPLE_INFO	KBD_FLEX(0, 2)
#define KBD_REQ_MODE		KBD_FLEX(1, 0)
#define KBD_REQ_ENABLE		KBD_FLEX(1, 1)
#define KBD_REQ_SCOPE		KBD_FLEX(1, 2)
#define KBD_META_SAMPLE		KBD_FLEX(2, 0)
#define KBD_META_CLOCK		KBD_FLEX(2, 1)
#define KBD_META_BLOCK		KBD_FLEX(2, 2)

enum { KBD_FE, KBD_TILER, KBD_MEMORY, KBD_SHADER, KBD_FW, KBD_CSG, KBD_TYPES };
#define KBD_NR_CSG		8
/* the Mali-G720-like GPU of cpb=128: a G720's GPU_ID and counter indices */
#define KBD_G720_GPU_ID		0xc8700000U

static const u8 kbd_g720_index[MM_NR_ROLES] = {
	[MM_JM_GPU_ACTIVE] = 4, [MM_JM_IRQ_ACTIVE] = 10,
	[MM_TI_ACTIVE] = 4, [MM_TI_TRIANGLES] = 6,
	[MM_L2_READ_LOOKUP] = 26, [MM_L2_WRITE_LOOKUP] = 27,
	[MM_L2_EXT_READ] = 29, [MM_L2_EXT_READ_BEATS] = 32,
	[MM_L2_EXT_WRITE] = 42, [MM_L2_EXT_WRITE_BEATS] = 47,
	[MM_SC_FRAG_ACTIVE] = 4, [MM_SC_FRAG_QUADS_RAST] = 11,
	[MM_SC_COMPUTE_ACTIVE] = 22, [MM_SC_COMPUTE_TASKS] = 23,
	[MM_SC_EXEC_CORE_ACTIVE] = 26, [MM_SC_FRAG_THREADS] = 69,
};

enum { KBD_MODE_MANUAL, KBD_MODE_PERIODIC };
enum { KBD_START = 1, KBD_STOP = 2, KBD_SAMPLE_SYNC = 3, KBD_DISCARD = 5 };

#define KBD_STATE_ON_NORMAL	(1 | 4 | 16)
#define KBD_FLAG_OVERFLOW	BIT(0)
#define KBD_MIN_PERIOD_NS	100000ULL
#define KBD_SLOTS		32
#define KBD_MAX_READER_BUFS	32
#define KBD_CTX_FLAGS		0x3u
#define KBD_NR_PROPS		5

/* GET_GPUPROPS ids (key >> 2) */
#define KBD_PROP_L2_SLICES	15
#define KBD_PROP_SHADER_PRESENT	25
#define KBD_PROP_L2_PRESENT	27
#define KBD_PROP_MEM_FEATURES	31
#define KBD_PROP_GPU_ID		55

/* The model writes its dump here on its private bus */
#define KBD_BUS_DUMP		0x10000000ULL
#define KBD_WAIT_MS		1000

/* ---- the device ------------------------------------------------------- */

/**
 * struct kbd_timer - one of the model's one-shot timers
 * @timer: the hrtimer.
 * @id: &enum mali_model_timer.
 */
struct kbd_timer {
	struct hrtimer timer;
	unsigned int id;
};

/**
 * struct kbd_device - the one GPU behind /dev/mali0
 * @csf: the CSF version numbering.
 * @major: BASE_UK major of @version.
 * @minor: BASE_UK minor.
 * @model: the GPU model, mali_model_size() bytes.
 * @timers: the model's timers.
 * @lock: see below.
 * @dead: unloading: timer callbacks leave the model alone.
 * @dump: the bus region the model's dump goes to.
 * @dump_size: bytes of one dump (v5 layout, 64 values a block).
 * @irq_wq: woken when the model raises its GPU interrupt line.
 * @hw_lock: see below.
 * @clients: the sessions that get the deltas of each hardware dump.
 * @last_hw_ns: when the hardware counters were last latched (and cleared).
 * @nr_l2: L2 slices.
 * @shader_present: SHADER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @mem_features: MEM_FEATURES.
 * @gpu_id: GPU_ID.
 * @clock_hz: the model's clock.
 * @prod: the model's product (its counter index of each role).
 */
struct kbd_device {
	bool csf;
	unsigned int major, minor;
	struct mali_model *model;
	struct kbd_timer timers[MALI_MODEL_NR_TIMERS];
	/*
	 * Protects @model, @dead and @dump: the model has no lock of its own
	 * and is called (registers, timers) with this held and IRQs off; its
	 * host ops run under it.
	 */
	spinlock_t lock;
	bool dead;
	u8 *dump;
	u32 dump_size;
	wait_queue_head_t irq_wq;
	/*
	 * Serialises hardware samples (a sample and its cache clean are one
	 * step) and protects @clients, each client's accumulator and
	 * @last_hw_ns.
	 */
	struct mutex hw_lock;
	struct list_head clients;
	u64 last_hw_ns;
	unsigned int nr_l2;
	u64 shader_present;
	u64 l2_present;
	u32 mem_features;
	u32 gpu_id;
	u64 clock_hz;
	const struct mali_model_product *prod;
};

static struct kbd_device *kbd;

static int kbd_mem_read(void *host, u64 pa, void *buf, size_t len)
{
	struct kbd_device *d = host;

	lockdep_assert_held(&d->lock);
	if (pa < KBD_BUS_DUMP || pa + len > KBD_BUS_DUMP + d->dump_size)
		return -1;
	memcpy(buf, d->dump + (pa - KBD_BUS_DUMP), len);
	return 0;
}

static int kbd_mem_write(void *host, u64 pa, const void *buf, size_t len)
{
	struct kbd_device *d = host;

	lockdep_assert_held(&d->lock);
	if (pa < KBD_BUS_DUMP || pa + len > KBD_BUS_DUMP + d->dump_size)
		return -1;
	memcpy(d->dump + (pa - KBD_BUS_DUMP), buf, len);
	return 0;
}

static void kbd_set_irq(void *host, unsigned int line, bool level)
{
	struct kbd_device *d = host;

	if (level && line == MALI_MODEL_IRQ_GPU)
		wake_up(&d->irq_wq);
}

static void kbd_timer_arm(void *host, unsigned int timer, u64 ns)
{
	struct kbd_device *d = host;

	lockdep_assert_held(&d->lock);
	if (timer < MALI_MODEL_NR_TIMERS)
		hrtimer_start(&d->timers[timer].timer, ns_to_ktime(ns), HRTIMER_MODE_REL);
}

static void kbd_timer_cancel(void *host, unsigned int timer)
{
	struct kbd_device *d = host;

	lockdep_assert_held(&d->lock);
	if (timer < MALI_MODEL_NR_TIMERS)
		hrtimer_try_to_cancel(&d->timers[timer].timer);
}

static u64 kbd_now_ns(void *host)
{
	return ktime_get_raw_ns();
}

static void kbd_report(void *host, const char *msg)
{
	pr_err("mali_model: driver error: %s\n", msg);
}

static const struct mali_model_host_ops kbd_host_ops = {
	.mem_read = kbd_mem_read,
	.mem_write = kbd_mem_write,
	.set_irq = kbd_set_irq,
	.timer_arm = kbd_timer_arm,
	.timer_cancel = kbd_timer_cancel,
	.now_ns = kbd_now_ns,
	.report = kbd_report,
};

static enum hrtimer_restart kbd_timer_fn(struct hrtimer *t)
{
	struct kbd_timer *kt = container_of(t, struct kbd_timer, timer);
	unsigned long flags;

	spin_lock_irqsave(&kbd->lock, flags);
	if (!kbd->dead)
		mali_model_timer(kbd->model, kt->id);
	spin_unlock_irqrestore(&kbd->lock, flags);
	return HRTIMER_NORESTART;
}

static u32 kbd_rd(u32 reg)
{
	unsigned long flags;
	u32 v;

	spin_lock_irqsave(&kbd->lock, flags);
	v = mali_model_read(kbd->model, reg);
	spin_unlock_irqrestore(&kbd->lock, flags);
	return v;
}

static void kbd_wr(u32 reg, u32 val)
{
	unsigned long flags;

	spin_lock_irqsave(&kbd->lock, flags);
	mali_model_write(kbd->model, reg, val);
	spin_unlock_irqrestore(&kbd->lock, flags);
}

/* Wait until the GPU interrupt's RAWSTAT has @bit; clear it. */
static int kbd_wait_irq(u32 bit)
{
	long left = wait_event_timeout(kbd->irq_wq, kbd_rd(MALI_HW_GPU_IRQ_RAWSTAT) & bit,
				       msecs_to_jiffies(KBD_WAIT_MS));

	kbd_wr(MALI_HW_GPU_IRQ_CLEAR, bit);
	return left ? 0 : -ETIMEDOUT;
}

/* Power a domain on (64-bit PWRON at @pwron, READY at @ready) and wait for it. */
static int kbd_power(u32 pwron, u32 ready, u64 mask)
{
	unsigned int i;

	kbd_wr(pwron, lower_32_bits(mask));
	kbd_wr(pwron + 4, upper_32_bits(mask));
	for (i = 0; i < 1000; i++) {
		if ((kbd_rd(ready) | (u64)kbd_rd(ready + 4) << 32) == mask)
			return 0;
		usleep_range(100, 200);
	}
	return -ETIMEDOUT;
}

/* The hardware session: powered, AS0 an identity map, counting, all counters on */
static int kbd_hw_start(void)
{
	u32 as0 = MALI_HW_AS_BASE, st;
	int ret;

	kbd_wr(MALI_HW_GPU_IRQ_MASK, MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED |
	       MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	ret = kbd_power(MALI_HW_L2_PWRON, MALI_HW_L2_READY, kbd->l2_present);
	if (!ret)
		ret = kbd_power(MALI_HW_TILER_PWRON, MALI_HW_TILER_READY, 1);
	if (!ret)
		ret = kbd_power(MALI_HW_SHADER_PWRON, MALI_HW_SHADER_READY, kbd->shader_present);
	if (ret) {
		pr_err("mpc_kbase_double: the model did not power up\n");
		return ret;
	}
	kbd_wr(as0 + MALI_HW_AS_TRANSTAB, MALI_HW_TRANSTAB_ADRMODE_IDENTITY);
	kbd_wr(as0 + MALI_HW_AS_TRANSTAB + 4, 0);
	kbd_wr(as0 + MALI_HW_AS_TRANSCFG, MALI_HW_TRANSCFG_ADRMODE_IDENTITY);
	kbd_wr(as0 + MALI_HW_AS_TRANSCFG + 4, 0);
	kbd_wr(as0 + MALI_HW_AS_COMMAND, MALI_HW_AS_COMMAND_UPDATE);
	ret = readx_poll_timeout(kbd_rd, as0 + MALI_HW_AS_STATUS, st,
				 !(st & MALI_HW_AS_STATUS_ACTIVE), 100, 100000);
	if (ret) {
		pr_err("mpc_kbase_double: AS0 did not update\n");
		return ret;
	}
	kbd_wr(MALI_HW_PRFCNT_BASE_LO, lower_32_bits(KBD_BUS_DUMP));
	kbd_wr(MALI_HW_PRFCNT_BASE_HI, upper_32_bits(KBD_BUS_DUMP));
	kbd_wr(MALI_HW_PRFCNT_JM_EN, 0xffff);
	kbd_wr(MALI_HW_PRFCNT_SHADER_EN, 0xffff);
	kbd_wr(MALI_HW_PRFCNT_TILER_EN, 0xffff);
	kbd_wr(MALI_HW_PRFCNT_MMU_L2_EN, 0xffff);
	kbd_wr(MALI_HW_PRFCNT_CONFIG, MALI_HW_PRFCNT_CONFIG_MODE_MANUAL);
	kbd_wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_CYCLE_COUNT_START);
	kbd_wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_CLEAR);
	kbd->last_hw_ns = ktime_get_raw_ns();
	return 0;
}

/* ---- clients ---------------------------------------------------------- */

enum kbd_kind { KBD_KINSTR, KBD_VINSTR };

/**
 * struct kbd_client - one reader fd
 * @node: in &kbd_device.clients while it counts.
 * @kind: kinstr_prfcnt or the legacy reader.
 * @acc: u64 deltas since this client's last sample, in dump order.
 * @acc_start_ns: the start of the span @acc covers.
 * @en: per block type, the counters enabled (kinstr: 1 bit a counter;
 *	the legacy reader's masks are 1 bit per 4).
 * @req: kinstr: the block types asked for.
 * @lock: see below.
 * @ring: the mmap'ed sample slots (vmalloc_user).
 * @ring_size: bytes of @ring.
 * @slot_size: bytes of one slot.
 * @nslots: slots.
 * @write: samples written.
 * @fetch: samples handed out.
 * @put: samples put back.
 * @fetched: a sample is out.
 * @started: kinstr START'ed (the legacy reader counts from its setup).
 * @period_ns: periodic sampling, 0 for manual.
 * @seq: the last sample's sequence number.
 * @overflow: a periodic sample found no free slot.
 * @wq: poll()ers.
 * @timer: the period.
 * @work: takes a periodic sample.
 * @stopping: the period must not be re-armed.
 */
struct kbd_client {
	struct list_head node;
	enum kbd_kind kind;
	u64 *acc;
	u64 acc_start_ns;
	u64 en[KBD_TYPES][2];
	bool req[KBD_TYPES];
	/*
	 * Protects @write, @fetch, @put, @fetched, @started, @seq, @overflow
	 * and the slots' contents against the ioctls and the periodic work.
	 */
	struct mutex lock;
	void *ring;
	size_t ring_size;
	size_t slot_size;
	unsigned int nslots;
	u64 write, fetch, put;
	bool fetched;
	bool started;
	u64 period_ns;
	u64 seq;
	bool overflow;
	wait_queue_head_t wq;
	struct hrtimer timer;
	struct work_struct work;
	bool stopping;
};

static unsigned int kbd_instances(unsigned int t)
{
	switch (t) {
	case KBD_FE:
	case KBD_TILER:
		return 1;
	case KBD_MEMORY:
		return kbd->nr_l2;
	case KBD_SHADER:
		return hweight64(kbd->shader_present);
	case KBD_FW:
		return kbd->csf ? 1 : 0;
	default:
		return kbd->csf ? KBD_NR_CSG : 0;
	}
}

/* the block type of the model's counter role @r */
static unsigned int kbd_role_type(unsigned int r)
{
	if (r < MM_TI_ACTIVE)
		return KBD_FE;
	if (r < MM_L2_LOOKUP)
		return KBD_TILER;
	return r < MM_SC_FRAG_ACTIVE ? KBD_MEMORY : KBD_SHADER;
}

/*
 * Block type @t's values @v (cpb of them) from the model's block @src (64
 * u64 deltas), counters outside the enable mask @en left 0.
 */
static void kbd_fill_values(unsigned int t, u64 *v, const u64 *src, const u64 *en)
{
	unsigned int j, r;

	v[2] = en[0];
	if (!src)
		return;		/* firmware and CSG: the model has no counters for them */
	if (cpb == 64) {
		for (j = 4; j < 64; j++)
			if (en[0] & BIT_ULL(j))
				v[j] = src[j];
		return;
	}
	for (r = 0; r < MM_NR_ROLES; r++) {
		j = kbd_g720_index[r];
		if (kbd_role_type(r) == t && j && kbd->prod && kbd->prod->index[r] &&
		    (en[j / 64] & BIT_ULL(j % 64)))
			/* the G720 counts fragment threads in fours (shift 2) */
			v[j] = src[kbd->prod->index[r]] >> (r == MM_SC_FRAG_THREADS ? 2 : 0);
	}
}

/* the dump block of instance @i (dense) of type @t */
static unsigned int kbd_block_of(unsigned int t, unsigned int i)
{
	u64 sp = kbd->shader_present;
	unsigned int core;

	switch (t) {
	case KBD_FE:
		return 0;
	case KBD_TILER:
		return 1;
	case KBD_MEMORY:
		return 2 + i;
	default:
		for (core = 0; core < 64; core++)
			if ((sp >> core) & 1 && !i--)
				break;
		return 2 + kbd->nr_l2 + core;
	}
}

/*
 * Sample the hardware and add the deltas to every client. The model
 * narrows a dump to u32 (a dump is at most a sample's span).
 */
static int kbd_hw_sample_locked(void)
{
	struct kbd_client *c;
	unsigned long flags;
	u32 *w, n = kbd->dump_size / 4, i;
	u64 latch_ns;
	int ret;

	lockdep_assert_held(&kbd->hw_lock);
	kbd_wr(MALI_HW_GPU_IRQ_CLEAR, MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED |
	       MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	/* the model latches (and clears) the counters as the command is written */
	spin_lock_irqsave(&kbd->lock, flags);
	latch_ns = ktime_get_raw_ns();
	mali_model_write(kbd->model, MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	spin_unlock_irqrestore(&kbd->lock, flags);
	ret = kbd_wait_irq(MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED);
	if (!ret) {
		kbd_wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_CLEAN_CACHES);
		ret = kbd_wait_irq(MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	}
	if (ret) {
		pr_err("mpc_kbase_double: the model's sample timed out\n");
		return ret;
	}
	w = kvmalloc(kbd->dump_size, GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	spin_lock_irqsave(&kbd->lock, flags);
	memcpy(w, kbd->dump, kbd->dump_size);
	spin_unlock_irqrestore(&kbd->lock, flags);
	kbd->last_hw_ns = latch_ns;
	list_for_each_entry(c, &kbd->clients, node)
		for (i = 0; i < n; i++)
			if (i % 64 >= 4)
				c->acc[i] += le32_to_cpu((__force __le32)w[i]);
	kvfree(w);
	return 0;
}

static size_t kbd_md_count(const struct kbd_client *c)
{
	size_t n = 3;	/* SAMPLE, CLOCK, NONE */
	unsigned int t;

	for (t = 0; t < KBD_TYPES; t++)
		if (c->req[t])
			n += kbd_instances(t);
	return n;
}

/* Write the client's deltas as its next sample; clear them. */
static void kbd_emit_locked(struct kbd_client *c, u64 user_data)
{
	/* the deltas run from the previous latch to the last one */
	u64 now = kbd->last_hw_ns, dt = now - c->acc_start_ns;
	unsigned int slot, t, i, k = 0;
	u8 *s;

	lockdep_assert_held(&kbd->hw_lock);
	lockdep_assert_held(&c->lock);
	if (c->write - c->put >= c->nslots) {
		c->overflow = true;
		c->seq++;
		goto clear;
	}
	slot = c->write % c->nslots;
	s = (u8 *)c->ring + (size_t)slot * c->slot_size;
	memset(s, 0, c->slot_size);
	if (c->kind == KBD_KINSTR) {
		struct kbd_metadata *m = (void *)s;
		size_t voff = kbd_md_count(c) * sizeof(*m);

		m[k].hdr.item_type = KBD_META_SAMPLE;
		m[k].u.sample.timestamp_start = c->acc_start_ns;
		m[k].u.sample.timestamp_end = now;
		m[k].u.sample.seq = ++c->seq;
		m[k].u.sample.user_data = user_data;
		m[k].u.sample.flags = c->overflow ? KBD_FLAG_OVERFLOW : 0;
		c->overflow = false;
		k++;
		m[k].hdr.item_type = KBD_META_CLOCK;
		m[k].u.clock.num_domains = 1;
		m[k].u.clock.cycles[0] = div_u64(dt * div_u64(kbd->clock_hz, 1000), 1000000);
		k++;
		for (t = 0; t < KBD_TYPES; t++) {
			for (i = 0; c->req[t] && i < kbd_instances(t); i++) {
				u64 *v = (u64 *)(s + voff);
				const u64 *src = t >= KBD_FW ? NULL :
						 c->acc + (size_t)kbd_block_of(t, i) * 64;

				m[k].hdr.item_type = KBD_META_BLOCK;
				m[k].u.block.block_type = t;
				m[k].u.block.block_idx = i;
				m[k].u.block.block_state = KBD_STATE_ON_NORMAL;
				m[k].u.block.values_offset = slot * c->slot_size + voff;
				kbd_fill_values(t, v, src, c->en[t]);
				voff += cpb * sizeof(u64);
				k++;
			}
		}
	} else {
		u32 *w = (u32 *)s;
		unsigned int b, nb = kbd->dump_size / 256, j;

		for (b = 0; b < nb; b++) {
			u32 bm = b == 0 ? c->en[KBD_FE][0] : b == 1 ? c->en[KBD_TILER][0] :
				 b < 2 + kbd->nr_l2 ? c->en[KBD_MEMORY][0] : c->en[KBD_SHADER][0];

			if (b >= 2 + kbd->nr_l2 &&
			    !((kbd->shader_present >> (b - 2 - kbd->nr_l2)) & 1))
				continue;	/* a hole */
			w[b * 64] = lower_32_bits(now);
			w[b * 64 + 1] = upper_32_bits(now);
			w[b * 64 + 2] = bm;
			for (j = 4; j < 64; j++)
				if ((bm >> (j / 4)) & 1)
					w[b * 64 + j] = min_t(u64, c->acc[b * 64 + j], U32_MAX);
		}
	}
	c->write++;
	wake_up_interruptible(&c->wq);
clear:
	memset(c->acc, 0, kbd->dump_size / 4 * sizeof(u64));
	c->acc_start_ns = now;
}

/* A hardware sample, then the client's sample from it. */
static int kbd_sample(struct kbd_client *c, u64 user_data)
{
	int ret;

	mutex_lock(&kbd->hw_lock);
	ret = kbd_hw_sample_locked();
	if (!ret) {
		mutex_lock(&c->lock);
		kbd_emit_locked(c, user_data);
		mutex_unlock(&c->lock);
	}
	mutex_unlock(&kbd->hw_lock);
	return ret;
}

static void kbd_period_work(struct work_struct *work)
{
	struct kbd_client *c = container_of(work, struct kbd_client, work);

	kbd_sample(c, 0);
}

static enum hrtimer_restart kbd_period_fn(struct hrtimer *t)
{
	struct kbd_client *c = container_of(t, struct kbd_client, timer);

	if (READ_ONCE(c->stopping))
		return HRTIMER_NORESTART;
	queue_work(system_highpri_wq, &c->work);
	hrtimer_forward_now(t, ns_to_ktime(c->period_ns));
	return HRTIMER_RESTART;
}

/* Join the hardware session: the deltas count from now. */
static void kbd_client_join(struct kbd_client *c)
{
	mutex_lock(&kbd->hw_lock);
	/* the others keep what was counted for them so far */
	kbd_hw_sample_locked();
	memset(c->acc, 0, kbd->dump_size / 4 * sizeof(u64));
	c->acc_start_ns = kbd->last_hw_ns;
	list_add(&c->node, &kbd->clients);
	mutex_unlock(&kbd->hw_lock);
	if (c->period_ns) {
		WRITE_ONCE(c->stopping, false);
		hrtimer_start(&c->timer, ns_to_ktime(c->period_ns), HRTIMER_MODE_REL);
	}
}

static void kbd_client_leave(struct kbd_client *c)
{
	WRITE_ONCE(c->stopping, true);
	hrtimer_cancel(&c->timer);
	cancel_work_sync(&c->work);
	mutex_lock(&kbd->hw_lock);
	if (!list_empty(&c->node))
		list_del_init(&c->node);
	mutex_unlock(&kbd->hw_lock);
}

static struct kbd_client *kbd_client_new(enum kbd_kind kind, size_t slot_size,
					 unsigned int nslots)
{
	struct kbd_client *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->kind = kind;
	INIT_LIST_HEAD(&c->node);
	mutex_init(&c->lock);
	init_waitqueue_head(&c->wq);
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	c->timer.function = kbd_period_fn;
	INIT_WORK(&c->work, kbd_period_work);
	c->slot_size = slot_size;
	c->nslots = nslots;
	c->ring_size = PAGE_ALIGN(slot_size * nslots);
	c->ring = vmalloc_user(c->ring_size);
	c->acc = kvcalloc(kbd->dump_size / 4, sizeof(u64), GFP_KERNEL);
	if (!c->ring || !c->acc) {
		vfree(c->ring);
		kvfree(c->acc);
		kfree(c);
		return NULL;
	}
	return c;
}

static int kbd_reader_release(struct inode *inode, struct file *f)
{
	struct kbd_client *c = f->private_data;

	kbd_client_leave(c);
	vfree(c->ring);
	kvfree(c->acc);
	mutex_destroy(&c->lock);
	kfree(c);
	return 0;
}

static int kbd_reader_mmap(struct file *f, struct vm_area_struct *vma)
{
	struct kbd_client *c = f->private_data;

	if (vma->vm_flags & VM_WRITE) {
		pr_debug("mpc_kbase_double: the sample buffer maps read-only\n");
		return -EPERM;
	}
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start > c->ring_size) {
		pr_debug("mpc_kbase_double: mmap beyond the sample buffer\n");
		return -EINVAL;
	}
	return remap_vmalloc_range(vma, c->ring, 0);
}

static __poll_t kbd_reader_poll(struct file *f, struct poll_table_struct *pt)
{
	struct kbd_client *c = f->private_data;
	__poll_t mask = 0;

	poll_wait(f, &c->wq, pt);
	mutex_lock(&c->lock);
	if (c->fetch != c->write)
		mask = EPOLLIN | EPOLLRDNORM;
	mutex_unlock(&c->lock);
	return mask;
}

static long kbd_kinstr_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct kbd_client *c = f->private_data;
	void __user *up = (void __user *)arg;
	struct kbd_sample_access a;
	struct kbd_control_cmd k;
	long ret = 0;

	switch (cmd) {
	case KBD_CMD:
		if (copy_from_user(&k, up, sizeof(k)))
			return -EFAULT;
		switch (k.cmd) {
		case KBD_START:
			mutex_lock(&c->lock);
			if (!c->started && c->write - c->put >= c->nslots)
				ret = -EBUSY;
			else if (!c->started)
				c->started = true;
			else
				ret = 1;	/* already: a no-op */
			mutex_unlock(&c->lock);
			if (!ret)
				kbd_client_join(c);
			return ret < 0 ? ret : 0;
		case KBD_STOP:
			mutex_lock(&c->lock);
			ret = c->started ? 0 : -EINVAL;
			c->started = false;
			mutex_unlock(&c->lock);
			if (ret) {
				pr_debug("mpc_kbase_double: STOP of a session not started\n");
				return ret;
			}
			WRITE_ONCE(c->stopping, true);
			hrtimer_cancel(&c->timer);
			cancel_work_sync(&c->work);
			ret = kbd_sample(c, k.user_data);
			kbd_client_leave(c);
			return ret;
		case KBD_SAMPLE_SYNC:
			mutex_lock(&c->lock);
			if (!c->started || c->period_ns)
				ret = -EINVAL;
			else if (c->write - c->put >= c->nslots - 1)
				ret = -EBUSY;
			mutex_unlock(&c->lock);
			if (ret) {
				pr_debug("mpc_kbase_double: SAMPLE_SYNC refused (%ld)\n", ret);
				return ret;
			}
			return kbd_sample(c, k.user_data);
		case KBD_DISCARD:
			mutex_lock(&c->lock);
			c->fetch = c->write;
			c->put = c->write;
			c->fetched = false;
			mutex_unlock(&c->lock);
			return 0;
		default:
			pr_debug("mpc_kbase_double: unknown command %u\n", k.cmd);
			return -EINVAL;
		}
	case KBD_GET_SAMPLE:
		mutex_lock(&c->lock);
		if (c->fetched) {
			ret = -EBUSY;
		} else if (c->fetch == c->write) {
			ret = -EINVAL;
		} else {
			const struct kbd_metadata *m;

			a.sample_offset_bytes = (c->fetch % c->nslots) * c->slot_size;
			m = (const void *)((u8 *)c->ring + a.sample_offset_bytes);
			a.sequence = m->u.sample.seq;
			c->fetch++;
			c->fetched = true;
		}
		mutex_unlock(&c->lock);
		if (ret)
			return ret;
		return copy_to_user(up, &a, sizeof(a)) ? -EFAULT : 0;
	case KBD_PUT_SAMPLE: {
		u64 off;

		if (copy_from_user(&a, up, sizeof(a)))
			return -EFAULT;
		mutex_lock(&c->lock);
		off = (c->put % c->nslots) * c->slot_size;
		if (!c->fetched || a.sample_offset_bytes != off ||
		    a.sequence != ((struct kbd_metadata *)((u8 *)c->ring + off))->u.sample.seq) {
			ret = -EINVAL;
		} else {
			c->put++;
			c->fetched = false;
		}
		mutex_unlock(&c->lock);
		return ret;
	}
	}
	pr_debug("mpc_kbase_double: unknown kinstr_prfcnt reader ioctl 0x%x\n", cmd);
	return -EINVAL;
}

static long kbd_vinstr_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct kbd_client *c = f->private_data;
	void __user *up = (void __user *)arg;
	struct kbd_reader_meta m;
	struct kbd_api_version av;
	long ret = 0;
	u32 v;

	switch (cmd) {
	case KBD_GET_HWVER:
		return put_user(5, (u32 __user *)up);
	case KBD_GET_BUFFER_SIZE:
		return put_user(kbd->dump_size, (u32 __user *)up);
	case KBD_GET_API_VERSION:
		return put_user(1, (u32 __user *)up);
	case KBD_GET_API_VERSION_F:
		av.version = 1;
		av.features = BIT(0);
		return copy_to_user(up, &av, sizeof(av)) ? -EFAULT : 0;
	case KBD_ENABLE_EVENT:
	case KBD_DISABLE_EVENT:
		return 0;
	case KBD_DUMP:
		mutex_lock(&c->lock);
		ret = c->write - c->put >= c->nslots ? -EBUSY : 0;
		mutex_unlock(&c->lock);
		return ret ?: kbd_sample(c, 0);
	case KBD_CLEAR:
		mutex_lock(&kbd->hw_lock);
		ret = kbd_hw_sample_locked();
		memset(c->acc, 0, kbd->dump_size / 4 * sizeof(u64));
		c->acc_start_ns = kbd->last_hw_ns;
		mutex_unlock(&kbd->hw_lock);
		return ret;
	case KBD_SET_INTERVAL:
		if (get_user(v, (u32 __user *)up))
			return -EFAULT;
		WRITE_ONCE(c->stopping, true);
		hrtimer_cancel(&c->timer);
		cancel_work_sync(&c->work);
		c->period_ns = v && v < KBD_MIN_PERIOD_NS ? KBD_MIN_PERIOD_NS : v;
		if (c->period_ns) {
			WRITE_ONCE(c->stopping, false);
			hrtimer_start(&c->timer, ns_to_ktime(c->period_ns), HRTIMER_MODE_REL);
		}
		return 0;
	case KBD_GET_BUFFER:
	case KBD_GET_BUFFER_CYCLES: {
		const u32 *w;

		memset(&m, 0, sizeof(m));
		mutex_lock(&c->lock);
		if (c->fetch == c->write) {
			ret = -EAGAIN;
		} else if (c->fetched) {
			ret = -EBUSY;
		} else {
			m.buffer_idx = c->fetch % c->nslots;
			w = (const u32 *)((u8 *)c->ring + (size_t)m.buffer_idx * c->slot_size);
			m.timestamp = w[0] | (u64)w[1] << 32;
			c->fetch++;
			c->fetched = true;
		}
		mutex_unlock(&c->lock);
		if (ret)
			return ret;
		return copy_to_user(up, &m, _IOC_SIZE(cmd)) ? -EFAULT : 0;
	}
	case KBD_PUT_BUFFER:
	case KBD_PUT_BUFFER_CYCLES:
		if (copy_from_user(&m, up, _IOC_SIZE(cmd)))
			return -EFAULT;
		mutex_lock(&c->lock);
		if (!c->fetched || m.buffer_idx != c->put % c->nslots) {
			ret = -EINVAL;
		} else {
			c->put++;
			c->fetched = false;
		}
		mutex_unlock(&c->lock);
		return ret;
	}
	pr_debug("mpc_kbase_double: unknown hwcnt reader ioctl 0x%x\n", cmd);
	return -EINVAL;
}

static const struct file_operations kbd_kinstr_fops = {
	.owner = THIS_MODULE,
	.release = kbd_reader_release,
	.unlocked_ioctl = kbd_kinstr_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = kbd_reader_mmap,
	.poll = kbd_reader_poll,
};

static const struct file_operations kbd_vinstr_fops = {
	.owner = THIS_MODULE,
	.release = kbd_reader_release,
	.unlocked_ioctl = kbd_vinstr_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = kbd_reader_mmap,
	.poll = kbd_reader_poll,
};

/* ---- /dev/mali0 ------------------------------------------------------- */

/**
 * struct kbd_file - one open of /dev/mali0
 * @ctx: SET_FLAGS made a context.
 */
struct kbd_file {
	bool ctx;
};

static bool kbd_has_kinstr(void)
{
	return kbd->csf ? kbd->minor >= 17 : kbd->minor >= 37;
}

static bool kbd_has_vinstr(void)
{
	return kbd->csf ? kbd->minor < 21 : kbd->minor < 40;
}

static int kbd_open(struct inode *inode, struct file *f)
{
	struct kbd_file *kf = kzalloc(sizeof(*kf), GFP_KERNEL);

	if (!kf)
		return -ENOMEM;
	f->private_data = kf;
	return 0;
}

static int kbd_release(struct inode *inode, struct file *f)
{
	kfree(f->private_data);
	return 0;
}

/* one (key, value) pair: little-endian, key bits 1:0 the value's size */
static void kbd_put_prop(u8 **p, unsigned int id, unsigned int szlog, u64 v)
{
	__le32 key = cpu_to_le32(id << 2 | szlog);
	__le64 v64 = cpu_to_le64(v);
	__le32 v32 = cpu_to_le32(lower_32_bits(v));

	memcpy(*p, &key, 4);
	*p += 4;
	if (szlog == 3)
		memcpy(*p, &v64, 8);
	else
		memcpy(*p, &v32, 4);
	*p += 1U << szlog;
}

static long kbd_gpuprops(void __user *up)
{
	struct kbd_get_gpuprops g;
	u8 buf[64], *p = buf;

	if (copy_from_user(&g, up, sizeof(g)))
		return -EFAULT;
	if (g.flags) {
		pr_debug("mpc_kbase_double: GET_GPUPROPS flags 0x%x\n", g.flags);
		return -EINVAL;
	}
	kbd_put_prop(&p, KBD_PROP_GPU_ID, 3, kbd->gpu_id);
	kbd_put_prop(&p, KBD_PROP_SHADER_PRESENT, 3, kbd->shader_present);
	kbd_put_prop(&p, KBD_PROP_L2_PRESENT, 3, kbd->l2_present);
	kbd_put_prop(&p, KBD_PROP_MEM_FEATURES, 2, kbd->mem_features);
	kbd_put_prop(&p, KBD_PROP_L2_SLICES, 2, kbd->nr_l2);
	if (!g.size)
		return p - buf;
	if (g.size < p - buf) {
		pr_debug("mpc_kbase_double: GET_GPUPROPS buffer of %u bytes\n", g.size);
		return -EINVAL;
	}
	if (copy_to_user(u64_to_user_ptr(g.buffer), buf, p - buf))
		return -EFAULT;
	return p - buf;
}

static long kbd_enum_info(void __user *up)
{
	struct kbd_enum_info e;
	struct kbd_enum_item *it;
	unsigned int k = 0, t, r;
	long ret = 0;

	if (copy_from_user(&e, up, sizeof(e)))
		return -EFAULT;
	it = kcalloc(KBD_TYPES + 6, sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	for (t = 0; t < KBD_TYPES; t++) {
		if (!kbd_instances(t))
			continue;	/* no firmware or CSG blocks on a JM GPU */
		it[k].hdr.item_type = KBD_ENUM_BLOCK;
		it[k].u.block.block_type = t;
		it[k].u.block.num_instances = kbd_instances(t);
		it[k].u.block.num_values = cpb;
		it[k].u.block.counter_mask[0] = ~0ULL;
		it[k].u.block.counter_mask[1] = cpb == 128 ? ~0ULL : 0;
		k++;
	}
	for (r = 0; r < 3; r++) {
		it[k].hdr.item_type = KBD_ENUM_REQUEST;
		it[k].u.request.request_item_type = r;
		it[k].u.request.versions_mask = 1;
		k++;
	}
	it[k].hdr.item_type = KBD_ENUM_SAMPLE_INFO;
	it[k].u.sample_info.num_clock_domains = 1;
	k++;
	k++;	/* the NONE sentinel */
	if (!e.info_list_ptr) {
		e.info_item_size = sizeof(*it);
		e.info_item_count = k;
		ret = copy_to_user(up, &e, sizeof(e)) ? -EFAULT : 0;
	} else if (e.info_item_size != sizeof(*it) || e.info_item_count != k) {
		pr_debug("mpc_kbase_double: ENUM_INFO of %u items of %u bytes, not %u of %zu\n",
			 e.info_item_count, e.info_item_size, k, sizeof(*it));
		ret = -EINVAL;
	} else if (copy_to_user(u64_to_user_ptr(e.info_list_ptr), it, k * sizeof(*it))) {
		ret = -EFAULT;
	}
	kfree(it);
	return ret;
}

static long kbd_setup(void __user *up)
{
	struct kbd_request_item *req;
	struct kbd_client *c;
	struct file *file;
	union kbd_setup s;
	bool have_mode = false, periodic = false, want[KBD_TYPES] = { };
	u64 en[KBD_TYPES][2] = { }, period = 0;
	size_t slot;
	int set = -1, fd;
	unsigned int i, t, n;
	long ret = -EINVAL;

	if (copy_from_user(&s, up, sizeof(s)))
		return -EFAULT;
	n = s.in.request_item_count;
	if (s.in.request_item_size != sizeof(*req) || !n || n > 64) {
		pr_debug("mpc_kbase_double: SETUP with %u items of %u bytes\n", n,
			 s.in.request_item_size);
		return -EINVAL;
	}
	req = memdup_user(u64_to_user_ptr(s.in.requests_ptr), n * sizeof(*req));
	if (IS_ERR(req))
		return PTR_ERR(req);
	for (i = 0; i < n && req[i].hdr.item_type != KBD_ITEM_NONE; i++) {
		if (req[i].hdr.item_version)
			goto bad;
		switch (req[i].hdr.item_type) {
		case KBD_REQ_MODE:
			if (req[i].u.mode.mode == KBD_MODE_PERIODIC) {
				periodic = true;
				period = max_t(u64, req[i].u.mode.period_ns, KBD_MIN_PERIOD_NS);
			} else if (req[i].u.mode.mode != KBD_MODE_MANUAL) {
				goto bad;
			}
			have_mode = true;
			break;
		case KBD_REQ_ENABLE:
			t = req[i].u.enable.block_type;
			/* a block type the GPU lacks: EINVAL */
			if (t >= KBD_TYPES || !kbd_instances(t) ||
			    (set >= 0 && set != req[i].u.enable.set))
				goto bad;
			set = req[i].u.enable.set;
			want[t] = true;
			/* the header is always captured */
			en[t][0] = req[i].u.enable.enable_mask[0] | 0xf;
			en[t][1] = cpb == 128 ? req[i].u.enable.enable_mask[1] : 0;
			break;
		case KBD_REQ_SCOPE:
			if (req[i].u.scope.scope)
				goto bad;
			break;
		default:
			goto bad;
		}
	}
	/* a NONE item ends the list; a mode and the build's set (0) are needed */
	if (i == n || !have_mode || set != 0)
		goto bad;
	kfree(req);
	slot = 3 * sizeof(struct kbd_metadata);
	for (t = 0; t < KBD_TYPES; t++)
		if (want[t])
			slot += kbd_instances(t) *
				(sizeof(struct kbd_metadata) + cpb * sizeof(u64));
	c = kbd_client_new(KBD_KINSTR, slot, KBD_SLOTS);
	if (!c)
		return -ENOMEM;
	memcpy(c->en, en, sizeof(en));
	memcpy(c->req, want, sizeof(want));
	c->period_ns = periodic ? period : 0;
	s.out.prfcnt_metadata_item_size = sizeof(struct kbd_metadata);
	s.out.prfcnt_mmap_size_bytes = c->ring_size;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		goto err_client;
	file = anon_inode_getfile("[mpc_kbase_kinstr]", &kbd_kinstr_fops, c, O_RDONLY);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		fd = PTR_ERR(file);
		goto err_client;
	}
	if (copy_to_user(up, &s, sizeof(s))) {
		put_unused_fd(fd);
		fput(file);	/* releases the client */
		return -EFAULT;
	}
	fd_install(fd, file);
	return fd;
err_client:
	vfree(c->ring);
	kvfree(c->acc);
	kfree(c);
	return fd;
bad:
	pr_debug("mpc_kbase_double: SETUP item %u rejected\n", i);
	kfree(req);
	return ret;
}

static long kbd_reader_setup(void __user *up)
{
	struct kbd_reader_setup s;
	struct kbd_client *c;
	int fd;

	if (copy_from_user(&s, up, sizeof(s)))
		return -EFAULT;
	if (!s.buffer_count || s.buffer_count > KBD_MAX_READER_BUFS ||
	    !is_power_of_2(s.buffer_count)) {
		pr_debug("mpc_kbase_double: %u reader buffers\n", s.buffer_count);
		return -EINVAL;
	}
	c = kbd_client_new(KBD_VINSTR, kbd->dump_size, s.buffer_count);
	if (!c)
		return -ENOMEM;
	c->en[KBD_FE][0] = s.fe_bm;
	c->en[KBD_SHADER][0] = s.shader_bm;
	c->en[KBD_TILER][0] = s.tiler_bm;
	c->en[KBD_MEMORY][0] = s.mmu_l2_bm;
	kbd_client_join(c);
	fd = anon_inode_getfd("[mpc_kbase_hwcnt]", &kbd_vinstr_fops, c, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kbd_client_leave(c);
		vfree(c->ring);
		kvfree(c->acc);
		kfree(c);
	}
	return fd;
}

static long kbd_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct kbd_file *kf = f->private_data;
	void __user *up = (void __user *)arg;
	struct kbd_version_check v;
	struct kbd_set_flags fl;

	/* before the context gate */
	switch (cmd) {
	case KBD_VERSION_CHECK_JM:
	case KBD_VERSION_CHECK_CSF:
		/* the other numbering's number is a reserved slot */
		if (kbd->csf ? cmd == KBD_VERSION_CHECK_JM : cmd == KBD_VERSION_CHECK_CSF)
			return -EPERM;
		if (copy_from_user(&v, up, sizeof(v)))
			return -EFAULT;
		v.minor = v.major == kbd->major ? min_t(u16, v.minor, kbd->minor) : kbd->minor;
		v.major = kbd->major;
		return copy_to_user(up, &v, sizeof(v)) ? -EFAULT : 0;
	case KBD_SET_FLAGS:
		if (copy_from_user(&fl, up, sizeof(fl)))
			return -EFAULT;
		if ((fl.create_flags & ~KBD_CTX_FLAGS) || kf->ctx) {
			pr_debug("mpc_kbase_double: SET_FLAGS 0x%x refused\n", fl.create_flags);
			return -EINVAL;
		}
		kf->ctx = true;
		return 0;
	case KBD_GET_GPUPROPS:
		return kbd_gpuprops(up);
	case KBD_ENUM_INFO:
		if (kbd_has_kinstr())
			return kbd_enum_info(up);
		break;
	case KBD_SETUP:
		if (kbd_has_kinstr())
			return kbd_setup(up);
		break;
	}
	if (!kf->ctx) {
		pr_debug("mpc_kbase_double: ioctl 0x%x needs a context (SET_FLAGS)\n", cmd);
		return -EPERM;
	}
	if (cmd == KBD_READER_SETUP && kbd_has_vinstr())
		return kbd_reader_setup(up);
	pr_debug("mpc_kbase_double: unknown ioctl 0x%x\n", cmd);
	return -ENOTTY;
}

static const struct file_operations kbd_fops = {
	.owner = THIS_MODULE,
	.open = kbd_open,
	.release = kbd_release,
	.unlocked_ioctl = kbd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice kbd_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "mali0",
	.fops = &kbd_fops,
	.mode = 0666,
};

static int kbd_parse_version(void)
{
	unsigned int maj, min;

	if (sscanf(version, "jm%u.%u", &maj, &min) == 2 && maj == 11 &&
	    (min == 38 || min == 46)) {
		kbd->csf = false;
	} else if (sscanf(version, "csf%u.%u", &maj, &min) == 2 && maj == 1 &&
		   (min == 18 || min == 38)) {
		kbd->csf = true;
	} else {
		pr_err("mpc_kbase_double: version=%s: use jm11.38, jm11.46, csf1.18 or csf1.38\n",
		       version);
		return -EINVAL;
	}
	kbd->major = maj;
	kbd->minor = min;
	if (cpb != 64 && !(cpb == 128 && kbd->csf && min == 38)) {
		pr_err("mpc_kbase_double: cpb=%u: 64, or 128 with version=csf1.38\n", cpb);
		return -EINVAL;
	}
	return 0;
}

static int __init kbd_init(void)
{
	const struct mali_model_config cfg = {
		.product = gpu, .shader_present = cores, .l2_slices = l2, .mhz = mhz,
	};
	char err[160];
	unsigned int i;
	int ret;

	kbd = kzalloc(sizeof(*kbd), GFP_KERNEL);
	if (!kbd)
		return -ENOMEM;
	ret = kbd_parse_version();
	if (ret)
		goto err_free;
	spin_lock_init(&kbd->lock);
	mutex_init(&kbd->hw_lock);
	init_waitqueue_head(&kbd->irq_wq);
	INIT_LIST_HEAD(&kbd->clients);
	for (i = 0; i < MALI_MODEL_NR_TIMERS; i++) {
		hrtimer_init(&kbd->timers[i].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		kbd->timers[i].timer.function = kbd_timer_fn;
		kbd->timers[i].id = i;
	}
	ret = -ENOMEM;
	kbd->model = kvzalloc(mali_model_size(), GFP_KERNEL);
	if (!kbd->model)
		goto err_free;
	spin_lock_irq(&kbd->lock);
	ret = mali_model_init(kbd->model, &cfg, &kbd_host_ops, kbd, err, sizeof(err));
	if (!ret)
		ret = mali_model_set_workload(kbd->model, workload, err, sizeof(err));
	spin_unlock_irq(&kbd->lock);
	if (ret) {
		pr_err("mpc_kbase_double: %s\n", err);
		ret = -EINVAL;
		goto err_model;
	}
	kbd->gpu_id = cpb == 128 ? KBD_G720_GPU_ID : mali_model_gpu_id(kbd->model);
	kbd->prod = mali_model_product_find(gpu);
	kbd->shader_present = mali_model_shader_present(kbd->model);
	kbd->nr_l2 = mali_model_l2_slices(kbd->model);
	kbd->clock_hz = mali_model_clock_hz(kbd->model);
	kbd->dump_size = mali_model_dump_size(kbd->model);
	kbd->l2_present = kbd_rd(MALI_HW_L2_PRESENT) | (u64)kbd_rd(MALI_HW_L2_PRESENT + 4) << 32;
	kbd->mem_features = kbd_rd(MALI_HW_MEM_FEATURES);
	if (kbd->dump_size != (2 + kbd->nr_l2 + fls64(kbd->shader_present)) * 256) {
		pr_err("mpc_kbase_double: gpu=%s has the v4 layout; kbase's readers are v5\n", gpu);
		ret = -EINVAL;
		goto err_fini;
	}
	ret = -ENOMEM;
	kbd->dump = kvzalloc(kbd->dump_size, GFP_KERNEL);
	if (!kbd->dump)
		goto err_fini;
	ret = kbd_hw_start();
	if (ret)
		goto err_dump;
	ret = misc_register(&kbd_misc);
	if (ret)
		goto err_dump;
	pr_info("mpc_kbase_double: /dev/mali0: kbase %s %u.%u on the model of %s (GPU_ID 0x%08x, cores 0x%llx, %u L2 slices, %llu MHz, %u values a block), %s\n",
		kbd->csf ? "CSF" : "JM", kbd->major, kbd->minor, gpu, kbd->gpu_id,
		kbd->shader_present, kbd->nr_l2, div_u64(kbd->clock_hz, 1000000), cpb, workload);
	return 0;

err_dump:
	kvfree(kbd->dump);
err_fini:
	spin_lock_irq(&kbd->lock);
	kbd->dead = true;
	mali_model_fini(kbd->model);
	spin_unlock_irq(&kbd->lock);
	for (i = 0; i < MALI_MODEL_NR_TIMERS; i++)
		hrtimer_cancel(&kbd->timers[i].timer);
err_model:
	kvfree(kbd->model);
err_free:
	kfree(kbd);
	kbd = NULL;
	return ret;
}

static void __exit kbd_exit(void)
{
	unsigned int i;

	misc_deregister(&kbd_misc);
	spin_lock_irq(&kbd->lock);
	kbd->dead = true;
	mali_model_fini(kbd->model);
	spin_unlock_irq(&kbd->lock);
	for (i = 0; i < MALI_MODEL_NR_TIMERS; i++)
		hrtimer_cancel(&kbd->timers[i].timer);
	mutex_destroy(&kbd->hw_lock);
	kvfree(kbd->dump);
	kvfree(kbd->model);
	kfree(kbd);
}

module_init(kbd_init);
module_exit(kbd_exit);
MODULE_DESCRIPTION("A test double of Arm kbase's counter uAPI on the Mali GPU model");
MODULE_LICENSE("GPL");
