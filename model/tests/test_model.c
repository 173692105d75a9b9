// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of the GPU model: a fake bus (an array as physical memory,
 * timers fired by hand, a clock set by hand) drives the model through its
 * registers as a driver would. Output is TAP, then "N passed, N failed".
 */
#include <stdarg.h>
#include <stdlib.h>

#include "mali_model.h"
#include "mali_hw_regs.h"

#define RAM_BASE	0x80000000ULL
#define RAM_SIZE	(1U << 20)

struct fake_host {
	uint8_t *ram;
	bool irq[MALI_MODEL_NR_IRQS];
	bool armed[MALI_MODEL_NR_TIMERS];
	uint64_t delay[MALI_MODEL_NR_TIMERS];	/* ns the timer was armed for */
	uint64_t deadline[MALI_MODEL_NR_TIMERS];	/* when it fires */
	uint64_t now;
	unsigned int nr_reports;
	char last_report[256];
	uint64_t next_page;	/* bump allocator in ram */
};

static struct fake_host fh;
static struct mali_model *m;
static int failed, passed, cur_failed;
static char diag[512];

static int fake_mem(uint64_t pa, void *buf, size_t len, bool write)
{
	if (pa < RAM_BASE || pa + len > RAM_BASE + RAM_SIZE)
		return -1;
	if (write)
		memcpy(fh.ram + (pa - RAM_BASE), buf, len);
	else
		memcpy(buf, fh.ram + (pa - RAM_BASE), len);
	return 0;
}

static int fake_read(void *host, uint64_t pa, void *buf, size_t len)
{
	(void)host;
	return fake_mem(pa, buf, len, false);
}

static int fake_write(void *host, uint64_t pa, const void *buf, size_t len)
{
	(void)host;
	return fake_mem(pa, (void *)buf, len, true);
}

static void fake_set_irq(void *host, unsigned int line, bool level)
{
	(void)host;
	fh.irq[line] = level;
}

static void fake_timer_arm(void *host, unsigned int timer, uint64_t ns)
{
	(void)host;
	fh.armed[timer] = true;
	fh.delay[timer] = ns;
	fh.deadline[timer] = fh.now + ns;
}

static void fake_timer_cancel(void *host, unsigned int timer)
{
	(void)host;
	fh.armed[timer] = false;
}

static uint64_t fake_now(void *host)
{
	(void)host;
	return fh.now;
}

static void fake_report(void *host, const char *msg)
{
	(void)host;
	fh.nr_reports++;
	snprintf(fh.last_report, sizeof(fh.last_report), "%s", msg);
}

static const struct mali_model_host_ops fake_ops = {
	.mem_read = fake_read,
	.mem_write = fake_write,
	.set_irq = fake_set_irq,
	.timer_arm = fake_timer_arm,
	.timer_cancel = fake_timer_cancel,
	.now_ns = fake_now,
	.report = fake_report,
};

/* ---- harness --------------------------------------------------------------- */

static void fail(int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(diag, sizeof(diag), "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(diag + n, sizeof(diag) - n, fmt, ap);
	va_end(ap);
	cur_failed = 1;
}

#define CHECK(cond, ...)					\
	do {							\
		if (!(cond)) {					\
			fail(__LINE__, __VA_ARGS__);		\
			return;					\
		}						\
	} while (0)

static uint32_t rd(uint32_t reg)
{
	return mali_model_read(m, reg);
}

static void wr(uint32_t reg, uint32_t val)
{
	mali_model_write(m, reg, val);
}

static void wr64(uint32_t reg, uint64_t val)
{
	wr(reg, (uint32_t)val);
	wr(reg + 4, (uint32_t)(val >> 32));
}

static uint32_t as_reg(unsigned int as, uint32_t off)
{
	return MALI_HW_AS_BASE + as * MALI_HW_AS_STRIDE + off;
}

/* Fire @timer if armed; false if it was not. */
static bool fire(unsigned int timer)
{
	if (!fh.armed[timer])
		return false;
	fh.armed[timer] = false;
	mali_model_timer(m, timer);
	return true;
}

/* An AS_COMMAND to AS, then its completion, as a driver polling AS_STATUS */
static void as_cmd(uint32_t cmd)
{
	wr(MALI_HW_AS_BASE + MALI_HW_AS_COMMAND, cmd);
	fire(MALI_MODEL_TIMER_AS);
}

static uint64_t ram_alloc(void)
{
	uint64_t pa = RAM_BASE + fh.next_page;

	fh.next_page += MALI_HW_PAGE_SIZE;
	memset(fh.ram + (pa - RAM_BASE), 0, MALI_HW_PAGE_SIZE);
	return pa;
}

static void ram_put64(uint64_t pa, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		fh.ram[pa - RAM_BASE + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t ram_get64(uint64_t pa)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)fh.ram[pa - RAM_BASE + i] << (8 * i);
	return v;
}

static uint32_t ram_get32(uint64_t pa)
{
	return (uint32_t)ram_get64(pa);
}

/* Map @va to @pa read-write in the 4-level tables rooted at @root. */
static void map_page(uint64_t root, uint64_t va, uint64_t pa)
{
	uint64_t table = root;
	unsigned int lvl;

	for (lvl = 0; lvl < 3; lvl++) {
		uint64_t slot = table + 8 * MALI_HW_PT_INDEX(va, lvl);
		uint64_t desc = ram_get64(slot);

		if ((desc & 3) != MALI_HW_PT_DESC_TABLE) {
			desc = ram_alloc() | MALI_HW_PT_DESC_TABLE;
			ram_put64(slot, desc);
		}
		table = desc & MALI_HW_PT_DESC_ADDR_MASK;
	}
	ram_put64(table + 8 * MALI_HW_PT_INDEX(va, 3),
		  pa | MALI_HW_PT_DESC_LEAF | MALI_HW_PT_DESC_READ | MALI_HW_PT_DESC_WRITE);
}

/*
 * Map @va to @pa in AArch64 4 KiB tables rooted at @root whose walk starts
 * at @start: table descriptors, then a page (@leaf_lvl 3) or a block (1, 2)
 * with @leaf_bits (type, AF, AP).
 */
static void map_a64(uint64_t root, unsigned int start, uint64_t va, uint64_t pa,
		    unsigned int leaf_lvl, uint64_t leaf_bits)
{
	uint64_t table = root;
	unsigned int lvl;

	for (lvl = start; lvl < leaf_lvl; lvl++) {
		uint64_t slot = table + 8 * MALI_HW_PT_INDEX(va, lvl);
		uint64_t desc = ram_get64(slot);

		if ((desc & 3) != MALI_HW_A64_DESC_TABLE) {
			desc = ram_alloc() | MALI_HW_A64_DESC_TABLE;
			ram_put64(slot, desc);
		}
		table = desc & MALI_HW_PT_DESC_ADDR_MASK;
	}
	ram_put64(table + 8 * MALI_HW_PT_INDEX(va, leaf_lvl), pa | leaf_bits);
}

#define A64_RW_PAGE	(MALI_HW_A64_DESC_PAGE | MALI_HW_A64_DESC_AF)
#define A64_TRANSCFG(ias)	(MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K | \
				 ((uint64_t)(55 - (ias)) << MALI_HW_TRANSCFG_INA_BITS_SHIFT))

static int setup_cfg(const struct mali_model_config *cfg)
{
	char err[256];

	free(m);
	memset(fh.irq, 0, sizeof(fh.irq));
	memset(fh.armed, 0, sizeof(fh.armed));
	fh.nr_reports = 0;
	fh.next_page = 0;
	fh.now = 1000000;
	m = calloc(1, mali_model_size());
	if (mali_model_init(m, cfg, &fake_ops, &fh, err, sizeof(err))) {
		fprintf(stderr, "# init %s: %s\n", cfg->product, err);
		return -1;
	}
	return 0;
}

static int setup(const char *product, uint64_t cores, uint32_t l2)
{
	struct mali_model_config cfg = {
		.product = product, .shader_present = cores, .l2_slices = l2,
	};

	return setup_cfg(&cfg);
}

#define DUMP_VA		0x1000000ULL
#define AS		0

/* Tables mapping the dump at DUMP_VA, AS programmed, counters running. */
static uint64_t bring_up(unsigned int nr_pages, uint64_t *root_out)
{
	uint64_t root = ram_alloc(), first = 0;
	unsigned int i;

	for (i = 0; i < nr_pages; i++) {
		uint64_t pa = ram_alloc();

		if (!i)
			first = pa;
		map_page(root, DUMP_VA + i * MALI_HW_PAGE_SIZE, pa);
	}
	wr(MALI_HW_L2_PWRON, 0xffffffff);
	wr(MALI_HW_SHADER_PWRON, 0xffffffff);
	wr(MALI_HW_TILER_PWRON, 1);
	fire(MALI_MODEL_TIMER_POWER);
	wr64(as_reg(AS, MALI_HW_AS_TRANSTAB), root | MALI_HW_TRANSTAB_ADRMODE_TABLE);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	wr64(MALI_HW_PRFCNT_BASE_LO, DUMP_VA);
	wr(MALI_HW_PRFCNT_JM_EN, 0xffff);
	wr(MALI_HW_PRFCNT_SHADER_EN, 0xffff);
	wr(MALI_HW_PRFCNT_TILER_EN, 0xffff);
	wr(MALI_HW_PRFCNT_MMU_L2_EN, 0xffff);
	wr(MALI_HW_PRFCNT_CONFIG, (AS << 4) | MALI_HW_PRFCNT_CONFIG_MODE_MANUAL);
	if (root_out)
		*root_out = root;
	return first;
}

/* ---- tests ------------------------------------------------------------------ */

static void t_init_rejects(void)
{
	struct mali_model_config cfg = { .product = "g99" };
	char err[256];

	m = realloc(m, mali_model_size());
	CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == -1,
	      "unknown product accepted");
	CHECK(strstr(err, "g52"), "error does not list products: %s", err);
	cfg.product = "t720";
	cfg.shader_present = 0x1f;
	CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == -1,
	      "5 cores in one v4 core group accepted");
	cfg.product = "g52";
	cfg.shader_present = 0;
	cfg.l2_slices = 17;
	CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == -1,
	      "17 L2 slices accepted");
	CHECK(setup("g52", 0, 0) == 0, "g52 refused");
}

static void t_ids(void)
{
	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	CHECK(rd(MALI_HW_GPU_ID) == 0x72120000, "GPU_ID 0x%x", rd(MALI_HW_GPU_ID));
	CHECK(rd(MALI_HW_SHADER_PRESENT) == 0xb, "SHADER_PRESENT");
	CHECK(((rd(MALI_HW_MEM_FEATURES) >> 8) & 0xf) == 1, "MEM_FEATURES slices");
	CHECK(mali_model_dump_size(m) == (2 + 2 + 4) * 256, "dump size %u",
	      mali_model_dump_size(m));
	CHECK(setup("t720", 0, 0) == 0, "setup t720");
	CHECK(mali_model_dump_size(m) == 8 * 256, "v4 dump size %u",
	      mali_model_dump_size(m));
}

/*
 * The feature registers panfrost hands to userspace: none of those a
 * product has reads 0, and they agree with each other and the architecture.
 */
static void t_feature_ids(void)
{
	char names[256], *tok, *save;
	unsigned int i;

	snprintf(names, sizeof(names), "%s", mali_model_products());
	for (tok = strtok_r(names, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		bool bifrost = tok[0] == 'g', valhall = !strcmp(tok, "g57");
		uint32_t threads, regs;

		CHECK(setup(tok, 0, 0) == 0, "setup %s", tok);
		threads = rd(MALI_HW_THREAD_MAX_THREADS);
		regs = rd(MALI_HW_THREAD_FEATURES) & 0xffff;
		CHECK(threads >= 256 && threads <= 1024, "%s: THREAD_MAX_THREADS %u", tok, threads);
		CHECK(rd(MALI_HW_THREAD_MAX_WORKGROUP_SIZE) &&
		      rd(MALI_HW_THREAD_MAX_WORKGROUP_SIZE) <= threads,
		      "%s: THREAD_MAX_WORKGROUP_SIZE %u", tok,
		      rd(MALI_HW_THREAD_MAX_WORKGROUP_SIZE));
		CHECK(rd(MALI_HW_THREAD_MAX_BARRIER_SIZE) &&
		      rd(MALI_HW_THREAD_MAX_BARRIER_SIZE) <= threads,
		      "%s: THREAD_MAX_BARRIER_SIZE", tok);
		/* Registers for all threads with 4 (Midgard) / 32 (later) each */
		CHECK(regs >= threads * (bifrost ? 32 : 4),
		      "%s: %u registers for %u threads", tok, regs, threads);
		CHECK((rd(MALI_HW_THREAD_FEATURES) >> 16 & 0xff) == 4 &&
		      (rd(MALI_HW_THREAD_FEATURES) >> 24 & 0x3f) == 10,
		      "%s: THREAD_FEATURES 0x%x", tok, rd(MALI_HW_THREAD_FEATURES));
		CHECK(rd(MALI_HW_TILER_FEATURES) == 0x809, "%s: TILER_FEATURES", tok);
		CHECK(rd(MALI_HW_CORE_FEATURES) == 0, "%s: CORE_FEATURES", tok);
		CHECK(rd(MALI_HW_AS_PRESENT) == 0xff && rd(MALI_HW_JS_PRESENT) == 7,
		      "%s: AS/JS_PRESENT", tok);
		/* Slot 0 fragment, 1 tiler, 2 compute; one register per slot */
		CHECK(rd(MALI_HW_JS_FEATURES(0)) & MALI_HW_BIT(9), "%s: JS0", tok);
		CHECK(rd(MALI_HW_JS_FEATURES(1)) & MALI_HW_BIT(7), "%s: JS1", tok);
		CHECK((rd(MALI_HW_JS_FEATURES(2)) & (MALI_HW_BIT(4) | MALI_HW_BIT(7) |
						      MALI_HW_BIT(9))) == MALI_HW_BIT(4),
		      "%s: JS2 0x%x", tok, rd(MALI_HW_JS_FEATURES(2)));
		for (i = 3; i < 16; i++)
			CHECK(!rd(MALI_HW_JS_FEATURES(i)), "%s: JS_FEATURES(%u)", tok, i);
		/* ETC2 and ASTC LDR everywhere; a fourth register from Valhall */
		CHECK((rd(MALI_HW_TEXTURE_FEATURES(0)) & 0x0040001e) == 0x0040001e,
		      "%s: TEXTURE_FEATURES_0 0x%x", tok, rd(MALI_HW_TEXTURE_FEATURES(0)));
		CHECK(rd(MALI_HW_TEXTURE_FEATURES(1)) && rd(MALI_HW_TEXTURE_FEATURES(2)),
		      "%s: TEXTURE_FEATURES_1/2", tok);
		CHECK(!rd(MALI_HW_TEXTURE_FEATURES(3)) == !valhall,
		      "%s: TEXTURE_FEATURES_3 0x%x", tok, rd(MALI_HW_TEXTURE_FEATURES(3)));
		/* Bifrost on: the coherency register (the G71's misreports ACE) */
		CHECK(rd(MALI_HW_COHERENCY_FEATURES) ==
		      (!bifrost ? 0U : !strcmp(tok, "g71") ? 2U : 1U),
		      "%s: COHERENCY_FEATURES 0x%x", tok, rd(MALI_HW_COHERENCY_FEATURES));
		CHECK(rd(MALI_HW_STACK_PRESENT) == (bifrost ? rd(MALI_HW_SHADER_PRESENT) : 0) &&
		      rd(MALI_HW_STACK_PRESENT + 4) == 0,
		      "%s: STACK_PRESENT 0x%x", tok, rd(MALI_HW_STACK_PRESENT));
	}
	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	CHECK(rd(MALI_HW_THREAD_MAX_THREADS) == 768 && rd(MALI_HW_STACK_PRESENT) == 0xb,
	      "g52 MP3: %u threads, stacks 0x%x", rd(MALI_HW_THREAD_MAX_THREADS),
	      rd(MALI_HW_STACK_PRESENT));
}

static void t_irq_reset(void)
{
	CHECK(setup("g52", 0, 0) == 0, "setup");
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(!(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_RESET_COMPLETED),
	      "reset completed at once");
	CHECK(fire(MALI_MODEL_TIMER_RESET), "no reset timer");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_RESET_COMPLETED,
	      "no RESET_COMPLETED");
	CHECK(!fh.irq[MALI_MODEL_IRQ_GPU], "line high while masked");
	CHECK(rd(MALI_HW_GPU_IRQ_STATUS) == 0, "STATUS ignores MASK");
	wr(MALI_HW_GPU_IRQ_MASK, MALI_HW_GPU_IRQ_RESET_COMPLETED);
	CHECK(fh.irq[MALI_MODEL_IRQ_GPU], "line low while STATUS set");
	wr(MALI_HW_GPU_IRQ_CLEAR, MALI_HW_GPU_IRQ_RESET_COMPLETED);
	CHECK(!fh.irq[MALI_MODEL_IRQ_GPU], "line high after CLEAR");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) == 0, "RAWSTAT after CLEAR");
}

/* soft_reset_stuck: soft resets hang until a hard reset; dead: all hang */
static void t_reset_faults(void)
{
	char err[160];

	CHECK(setup("g52", 0, 0) == 0, "setup");
	/* a sample needs the L2 powered: the hang is on a sample that runs */
	wr(MALI_HW_L2_PWRON, 0xffffffff);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(mali_model_set_fault(m, "soft_reset_stuck", err, sizeof(err)) == 0, "%s", err);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(!fire(MALI_MODEL_TIMER_RESET), "a stuck soft reset completed");
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_HARD_RESET);
	CHECK(fire(MALI_MODEL_TIMER_RESET), "no hard reset timer");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_RESET_COMPLETED,
	      "hard reset did not complete");
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(fire(MALI_MODEL_TIMER_RESET), "soft reset still stuck after a hard reset");

	CHECK(mali_model_set_fault(m, "dead", err, sizeof(err)) == 0, "%s", err);
	wr(MALI_HW_L2_PWRON, 0xffffffff);	/* the reset powered it off */
	fire(MALI_MODEL_TIMER_POWER);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_HARD_RESET);
	CHECK(!fire(MALI_MODEL_TIMER_RESET), "a dead GPU's hard reset completed");
	CHECK(mali_model_set_fault(m, "none", err, sizeof(err)) == 0, "%s", err);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(fire(MALI_MODEL_TIMER_RESET), "\"none\" did not revive the GPU");

	/* late_irq: the status read that shows the sample asks for a stall */
	CHECK(mali_model_set_fault(m, "late_irq=1200", err, sizeof(err)) == 0, "%s", err);
	CHECK(rd(MALI_HW_GPU_IRQ_STATUS) == 0 && mali_model_take_stall_ms(m) == 0,
	      "stall without a completed sample");
	wr(MALI_HW_GPU_IRQ_MASK, MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED);
	wr(MALI_HW_L2_PWRON, 0xffffffff);
	fire(MALI_MODEL_TIMER_POWER);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(rd(MALI_HW_GPU_IRQ_STATUS) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED,
	      "sample did not complete");
	CHECK(mali_model_take_stall_ms(m) == 1200, "no stall of 1200 ms");
	CHECK(mali_model_take_stall_ms(m) == 0, "stall not cleared");
	rd(MALI_HW_GPU_IRQ_STATUS);
	CHECK(mali_model_take_stall_ms(m) == 0, "late_irq stalled twice");
}

static void t_sample_clean(void)
{
	uint64_t pa;
	char err[128];

	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	pa = bring_up(1, NULL);
	CHECK(mali_model_set_workload(m, "busy=50", err, sizeof(err)) == 0, "%s", err);
	fh.now += 1000000;	/* 1 ms at 800 MHz: 400000 active cycles */
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(rd(MALI_HW_GPU_STATUS) & MALI_HW_GPU_STATUS_PRFCNT_ACTIVE, "not active");
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED,
	      "no SAMPLE_COMPLETED");
	CHECK(ram_get32(pa + 4 * 2) == 0, "dump in memory before a clean");
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_CLEAN_CACHES);
	CHECK(fire(MALI_MODEL_TIMER_CLEAN), "no clean timer");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED,
	      "no CLEAN_CACHES_COMPLETED");
	CHECK(ram_get32(pa + 4 * 2) == 0xffff, "JM enable word 0x%x", ram_get32(pa + 8));
	CHECK(ram_get32(pa + 4 * 6) == 400000, "JM GPU_ACTIVE %u", ram_get32(pa + 24));
	/* the hole at core 2 (slot 2 + 2 + 2) is never written */
	CHECK(ram_get32(pa + 6 * 256 + 8) == 0, "hole written");
	CHECK(ram_get32(pa + 7 * 256 + 8) == 0xffff, "core 3 not written");
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
}

static void t_fault_unmapped(void)
{
	uint32_t st;

	CHECK(setup("g52", 0, 0) == 0, "setup");
	bring_up(1, NULL);
	wr64(MALI_HW_PRFCNT_BASE_LO, DUMP_VA + 0x100000);
	wr(MALI_HW_MMU_IRQ_MASK, 0xffffffff);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(rd(MALI_HW_MMU_IRQ_RAWSTAT) == MALI_HW_MMU_IRQ_PAGE_FAULT(AS),
	      "MMU RAWSTAT 0x%x", rd(MALI_HW_MMU_IRQ_RAWSTAT));
	CHECK(fh.irq[MALI_MODEL_IRQ_MMU], "MMU line low");
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK((st & 0xf8) == 0xc0, "not a translation fault: 0x%x", st);
	CHECK(((st >> 8) & 3) == MALI_HW_ACCESS_WRITE, "not a write: 0x%x", st);
	CHECK(rd(as_reg(AS, MALI_HW_AS_FAULTADDRESS)) == (uint32_t)(DUMP_VA + 0x100000),
	      "FAULTADDRESS");
	CHECK(!(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED),
	      "a faulting sample completed");
}

/* One sample, cleaned: the dump is in memory */
static void sample_and_clean(void)
{
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	fire(MALI_MODEL_TIMER_SAMPLE);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_CLEAN_CACHES);
	fire(MALI_MODEL_TIMER_CLEAN);
}

/* Lock the whole VA space, then @cmd, then unlock, as panfrost does. */
static void flush_as(uint32_t cmd)
{
	wr64(as_reg(AS, MALI_HW_AS_LOCKADDR), 47);
	as_cmd(MALI_HW_AS_COMMAND_LOCK);
	as_cmd(cmd);
	as_cmd(MALI_HW_AS_COMMAND_UNLOCK);
}

/* New tables map DUMP_VA to a new page; returns that page. */
static uint64_t remap(void)
{
	uint64_t root = ram_alloc(), pa = ram_alloc();

	map_page(root, DUMP_VA, pa);
	wr64(as_reg(AS, MALI_HW_AS_TRANSTAB), root | MALI_HW_TRANSTAB_ADRMODE_TABLE);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	return pa;
}

static void t_tlb_stale(void)
{
	uint64_t old, new;

	CHECK(setup("g52", 0, 0) == 0, "setup");
	old = bring_up(1, NULL);
	sample_and_clean();
	CHECK(ram_get32(old + 8) == 0xffff, "first dump missing");
	memset(fh.ram + (old - RAM_BASE), 0, 4096);
	/* UPDATE alone keeps the TLB: the old translation is used */
	new = remap();
	sample_and_clean();
	CHECK(fh.nr_reports == 1, "%u reports", fh.nr_reports);
	CHECK(strstr(fh.last_report, "stale TLB entry: AS0 VA 0x1000000"),
	      "report: %s", fh.last_report);
	CHECK(ram_get32(old + 8) == 0, "written through the stale entry");
	CHECK(ram_get32(new + 8) == 0, "written where the TLB did not point");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED,
	      "the sample did not complete");
}

static void t_tlb_flushed(void)
{
	static const uint32_t cmds[] = {
		MALI_HW_AS_COMMAND_FLUSH_MEM, MALI_HW_AS_COMMAND_FLUSH_PT,
	};
	uint64_t new;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		CHECK(setup("g52", 0, 0) == 0, "setup");
		bring_up(1, NULL);
		sample_and_clean();
		flush_as(cmds[k]);
		new = remap();
		sample_and_clean();
		CHECK(fh.nr_reports == 0, "cmd %u: report: %s", cmds[k], fh.last_report);
		CHECK(ram_get32(new + 8) == 0xffff, "cmd %u: new page not written", cmds[k]);
	}
	/* A flush of another region keeps the entry */
	CHECK(setup("g52", 0, 0) == 0, "setup");
	bring_up(1, NULL);
	sample_and_clean();
	wr64(as_reg(AS, MALI_HW_AS_LOCKADDR), 0x40000000ULL | 14);
	as_cmd(MALI_HW_AS_COMMAND_FLUSH_MEM);
	remap();
	sample_and_clean();
	CHECK(fh.nr_reports == 1, "flush outside the region dropped the entry");
}

static void t_flush_mem_writes_back(void)
{
	uint64_t pa;

	CHECK(setup("g52", 0, 0) == 0, "setup");
	pa = bring_up(1, NULL);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	fire(MALI_MODEL_TIMER_SAMPLE);
	CHECK(ram_get32(pa + 8) == 0, "in memory before any flush");
	flush_as(MALI_HW_AS_COMMAND_FLUSH_PT);
	CHECK(ram_get32(pa + 8) == 0, "FLUSH_PT wrote the L2 back");
	flush_as(MALI_HW_AS_COMMAND_FLUSH_MEM);
	CHECK(ram_get32(pa + 8) == 0xffff, "FLUSH_MEM did not write the L2 back");
	CHECK(!(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED),
	      "FLUSH_MEM raised CLEAN_CACHES_COMPLETED");
}

static void t_reserved_modes(void)
{
	CHECK(setup("t860", 0, 0) == 0, "setup");
	wr64(as_reg(1, MALI_HW_AS_TRANSTAB), MALI_HW_TRANSTAB_ADRMODE_UNMAPPED);
	wr(as_reg(1, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_UPDATE);
	fire(MALI_MODEL_TIMER_AS);
	CHECK(fh.nr_reports == 0, "UNMAPPED (0) reported: %s", fh.last_report);
	wr64(as_reg(1, MALI_HW_AS_TRANSTAB), MALI_HW_TRANSTAB_ADRMODE_RESERVED);
	CHECK(fh.nr_reports == 0, "reported before UPDATE");
	wr(as_reg(1, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_UPDATE);
	fire(MALI_MODEL_TIMER_AS);
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "AS1: TRANSTAB ADRMODE 1 is reserved"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);

	/* Bifrost: TRANSCFG UNMAPPED makes TRANSTAB irrelevant */
	CHECK(setup("g52", 0, 0) == 0, "setup");
	wr64(as_reg(0, MALI_HW_AS_TRANSCFG), MALI_HW_TRANSCFG_ADRMODE_UNMAPPED);
	wr64(as_reg(0, MALI_HW_AS_TRANSTAB), MALI_HW_TRANSTAB_ADRMODE_RESERVED);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	CHECK(fh.nr_reports == 0, "reported under TRANSCFG UNMAPPED: %s", fh.last_report);
	wr64(as_reg(0, MALI_HW_AS_TRANSCFG), MALI_HW_TRANSCFG_ADRMODE_LEGACY);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	CHECK(fh.nr_reports == 1, "TRANSTAB 1 under TRANSCFG LEGACY not reported");
	wr64(as_reg(0, MALI_HW_AS_TRANSCFG), 3);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	CHECK(fh.nr_reports == 2 && strstr(fh.last_report, "TRANSCFG ADRMODE 3 is reserved"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
}

static void t_address_size_fault(void)
{
	uint64_t root;
	uint32_t st;

	CHECK(setup("g31", 0, 0) == 0, "setup");
	CHECK(rd(MALI_HW_MMU_FEATURES) == 0x2821, "G31 MMU_FEATURES 0x%x",
	      rd(MALI_HW_MMU_FEATURES));
	bring_up(1, &root);
	map_page(root, 1ULL << 33, ram_alloc());
	wr64(MALI_HW_PRFCNT_BASE_LO, 1ULL << 33);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	fire(MALI_MODEL_TIMER_SAMPLE);
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK(st == (MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_IN(0) | MALI_HW_ACCESS_WRITE << 8),
	      "AS_FAULTSTATUS 0x%x", st);
	CHECK(rd(MALI_HW_MMU_IRQ_RAWSTAT) == MALI_HW_MMU_IRQ_PAGE_FAULT(AS), "no page fault");
	/* the last page below 2^33 translates */
	CHECK(setup("g31", 0, 0) == 0, "setup");
	bring_up(1, &root);
	map_page(root, (1ULL << 33) - 4096, ram_alloc());
	wr64(MALI_HW_PRFCNT_BASE_LO, (1ULL << 33) - 4096);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	fire(MALI_MODEL_TIMER_SAMPLE);
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED,
	      "last page below the VA width faulted");
	/* a configured width */
	{
		struct mali_model_config cfg = { .product = "g52", .va_bits = 40, .pa_bits = 36 };
		char err[128];

		CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == 0, "%s", err);
		CHECK(rd(MALI_HW_MMU_FEATURES) == 0x2428, "MMU_FEATURES 0x%x",
		      rd(MALI_HW_MMU_FEATURES));
		cfg.va_bits = 49;
		CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == -1,
		      "49 VA bits accepted");
	}
}

static void t_power(void)
{
	uint64_t trans;

	CHECK(setup("g52", 0xb, 0) == 0, "setup");
	wr(MALI_HW_L2_PWRON, 1);
	CHECK(rd(MALI_HW_L2_READY) == 0, "L2 ready at once");
	CHECK(rd(MALI_HW_L2_PWRTRANS) == 1, "L2 PWRTRANS 0x%x", rd(MALI_HW_L2_PWRTRANS));
	CHECK(fire(MALI_MODEL_TIMER_POWER), "no power timer");
	CHECK(rd(MALI_HW_L2_READY) == 1 && rd(MALI_HW_L2_PWRTRANS) == 0, "L2 not ready");
	CHECK(rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_POWER_CHANGED_ALL,
	      "no POWER_CHANGED_ALL");
	wr(MALI_HW_SHADER_PWRON, 0xff);
	trans = rd(MALI_HW_SHADER_PWRTRANS);
	CHECK(trans == 0xb, "only present cores transition: 0x%llx",
	      (unsigned long long)trans);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(rd(MALI_HW_SHADER_READY) == 0xb, "cores 0x%x", rd(MALI_HW_SHADER_READY));
	/* in order, waiting for PWRTRANS: no report */
	wr(MALI_HW_SHADER_PWROFF, 0xb);
	CHECK(rd(MALI_HW_SHADER_READY) == 0xb, "cores off at once");
	fire(MALI_MODEL_TIMER_POWER);
	wr(MALI_HW_L2_PWROFF, 1);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
	CHECK(rd(MALI_HW_L2_READY) == 0, "L2 still ready");
	/* L2 off while the cores are still powering down */
	wr(MALI_HW_L2_PWRON, 1);
	wr(MALI_HW_SHADER_PWRON, 0xb);
	fire(MALI_MODEL_TIMER_POWER);
	wr(MALI_HW_SHADER_PWROFF, 0xb);
	wr(MALI_HW_L2_PWROFF, 1);
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "L2 powered off while shader cores 0xb"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
}

/* stuck_power: the cores' power-down never ends, nor a power-up; a reset ends it */
static void t_power_stuck(void)
{
	char err[128];

	CHECK(setup("g52", 0xb, 0) == 0, "setup");
	wr(MALI_HW_L2_PWRON, 1);
	wr(MALI_HW_SHADER_PWRON, 0xb);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(mali_model_set_fault(m, "stuck_power", err, sizeof(err)) == 0, "%s", err);
	wr(MALI_HW_SHADER_PWROFF, 0xb);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(rd(MALI_HW_SHADER_PWRTRANS) == 0xb && rd(MALI_HW_SHADER_READY) == 0,
	      "power-down completed: PWRTRANS 0x%x READY 0x%x", rd(MALI_HW_SHADER_PWRTRANS),
	      rd(MALI_HW_SHADER_READY));
	wr(MALI_HW_SHADER_PWRON, 0xb);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(rd(MALI_HW_SHADER_PWRTRANS) == 0xb && rd(MALI_HW_SHADER_READY) == 0,
	      "a stuck core powered up");
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(fire(MALI_MODEL_TIMER_RESET), "no reset timer");
	CHECK(rd(MALI_HW_SHADER_PWRTRANS) == 0 && rd(MALI_HW_SHADER_READY) == 0,
	      "after reset: PWRTRANS 0x%x READY 0x%x", rd(MALI_HW_SHADER_PWRTRANS),
	      rd(MALI_HW_SHADER_READY));
	wr(MALI_HW_L2_PWRON, 1);
	wr(MALI_HW_SHADER_PWRON, 0xb);
	fire(MALI_MODEL_TIMER_POWER);
	CHECK(rd(MALI_HW_SHADER_READY) == 0xb, "cores 0x%x after the reset",
	      rd(MALI_HW_SHADER_READY));
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
}

static void t_as_status(void)
{
	CHECK(setup("g52", 0, 0) == 0, "setup");
	wr(as_reg(2, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_UPDATE);
	CHECK(rd(as_reg(2, MALI_HW_AS_STATUS)) & MALI_HW_AS_STATUS_ACTIVE, "not ACTIVE");
	CHECK(fire(MALI_MODEL_TIMER_AS), "no AS timer");
	CHECK(!(rd(as_reg(2, MALI_HW_AS_STATUS)) & MALI_HW_AS_STATUS_ACTIVE), "still ACTIVE");
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
	wr(as_reg(2, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_LOCK);
	wr(as_reg(2, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_UNLOCK);
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "AS2: AS_COMMAND 3 written while AS_STATUS is ACTIVE"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
}

static void t_text(void)
{
	static const char * const bad_load[] = { "busy=101", "busy=", "busy=-1", "fast" };
	static const char * const bad_fault[] = { "delay=5001", "delay=", "explode", "drop_irq=1" };
	char err[128], buf[32];
	unsigned int i;

	CHECK(setup("g52", 0, 0) == 0, "setup");
	for (i = 0; i < 4; i++) {
		CHECK(mali_model_set_workload(m, bad_load[i], err, sizeof(err)) == -1,
		      "workload '%s' accepted", bad_load[i]);
		CHECK(mali_model_set_fault(m, bad_fault[i], err, sizeof(err)) == -1,
		      "fault '%s' accepted", bad_fault[i]);
	}
	mali_model_show_workload(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "idle"), "workload reads '%s'", buf);
	CHECK(mali_model_set_workload(m, "busy=80\n", err, sizeof(err)) == 0, "%s", err);
	mali_model_show_workload(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "busy=80"), "workload reads '%s'", buf);
	CHECK(mali_model_set_fault(m, "delay=5000", err, sizeof(err)) == 0, "%s", err);
	mali_model_show_fault(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "delay=5000"), "fault reads '%s'", buf);
	CHECK(mali_model_set_fault(m, "stuck_clean", err, sizeof(err)) == 0, "%s", err);
	mali_model_show_fault(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "stuck_clean"), "fault reads '%s'", buf);
	CHECK(mali_model_set_fault(m, "stuck_power", err, sizeof(err)) == 0, "%s", err);
	mali_model_show_fault(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "stuck_power"), "fault reads '%s'", buf);
	CHECK(mali_model_set_fault(m, "late_irq=300", err, sizeof(err)) == 0, "%s", err);
	mali_model_show_fault(m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "late_irq=300"), "fault reads '%s'", buf);
	CHECK(mali_model_set_fault(m, "late_irq=5001", err, sizeof(err)) == -1,
	      "late_irq=5001 accepted");
}

static bool sample_completed(void);

/* Program AS with AArch64 tables at @root and @transcfg, sample, clean. */
static void a64_sample(uint64_t root, uint64_t transcfg)
{
	wr(MALI_HW_GPU_IRQ_CLEAR, ~0U);
	wr(MALI_HW_MMU_IRQ_CLEAR, ~0U);
	wr64(as_reg(AS, MALI_HW_AS_TRANSTAB), root);
	wr64(as_reg(AS, MALI_HW_AS_TRANSCFG), transcfg);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	/* Another format, other tables: drop what the TLB has */
	wr64(as_reg(AS, MALI_HW_AS_LOCKADDR), 0x3f);
	as_cmd(MALI_HW_AS_COMMAND_FLUSH_PT);
	fh.now += 1000000;
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	fire(MALI_MODEL_TIMER_SAMPLE);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_CLEAN_CACHES);
	fire(MALI_MODEL_TIMER_CLEAN);
}

/*
 * TRANSCFG AARCH64_4K: the model walks AArch64 tables from the start level
 * INA_BITS gives (3 levels for 39 bits, 4 for 48), pages of type 3 and
 * blocks, and faults as an AArch64 MMU does: no access flag, read-only,
 * a legacy-style level-3 leaf (type 1).
 */
static void t_aarch64_tables(void)
{
	uint64_t root, pa, blk;
	uint32_t st;

	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	pa = bring_up(1, NULL);

	/* 39-bit input: the walk starts at level 1 */
	root = ram_alloc();
	pa = ram_alloc();
	map_a64(root, 1, DUMP_VA, pa, 3, A64_RW_PAGE);
	a64_sample(root, A64_TRANSCFG(39));
	CHECK(sample_completed(), "no sample through 3-level AArch64 tables (MMU 0x%x AS 0x%x)",
	      rd(MALI_HW_MMU_IRQ_RAWSTAT), rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS)));
	CHECK(ram_get32(pa + 4 * 2) == 0xffff, "dump not at the page: enable 0x%x",
	      ram_get32(pa + 4 * 2));

	/* 48-bit input: four levels */
	root = ram_alloc();
	pa = ram_alloc();
	map_a64(root, 0, DUMP_VA, pa, 3, A64_RW_PAGE);
	a64_sample(root, A64_TRANSCFG(48));
	CHECK(sample_completed() && ram_get32(pa + 4 * 2) == 0xffff,
	      "no dump through 4-level tables");

	/* A 2 MiB block at level 2 */
	root = ram_alloc();
	/* 2 MiB aligned; the dump lands in its first page (bring_up's root) */
	blk = RAM_BASE;
	memset(fh.ram, 0, MALI_HW_PAGE_SIZE);
	map_a64(root, 1, DUMP_VA, blk, 2, MALI_HW_A64_DESC_BLOCK | MALI_HW_A64_DESC_AF);
	a64_sample(root, A64_TRANSCFG(39));
	CHECK(sample_completed() && ram_get32(blk + (DUMP_VA & 0x1fffff) + 4 * 2) == 0xffff,
	      "no dump through a level-2 block");

	/* Faults: no access flag, read-only page, legacy level-3 leaf type */
	root = ram_alloc();
	map_a64(root, 1, DUMP_VA, ram_alloc(), 3, MALI_HW_A64_DESC_PAGE);
	a64_sample(root, A64_TRANSCFG(39));
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK(!sample_completed() && (st & 0xff) == MALI_HW_EXCEPTION_ACCESS_FLAG(3),
	      "no access flag: FAULTSTATUS 0x%x", st);
	CHECK(fh.nr_reports == 0, "reported: %s", fh.last_report);

	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	bring_up(1, NULL);
	root = ram_alloc();
	map_a64(root, 1, DUMP_VA, ram_alloc(), 3, A64_RW_PAGE | MALI_HW_A64_DESC_AP_RDONLY);
	a64_sample(root, A64_TRANSCFG(39));
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK(!sample_completed() && (st & 0xff) == MALI_HW_EXCEPTION_PERMISSION_FAULT(3),
	      "read-only page: FAULTSTATUS 0x%x", st);

	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	bring_up(1, NULL);
	root = ram_alloc();
	map_a64(root, 1, DUMP_VA, ram_alloc(), 3, MALI_HW_PT_DESC_LEAF | MALI_HW_A64_DESC_AF);
	a64_sample(root, A64_TRANSCFG(39));
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK(!sample_completed() && (st & 0xff) == MALI_HW_EXCEPTION_TRANSLATION_FAULT(3),
	      "legacy level-3 leaf: FAULTSTATUS 0x%x", st);

	/* An input size the format cannot have is reported at UPDATE */
	wr64(as_reg(AS, MALI_HW_AS_TRANSCFG), MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "INA_BITS"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
}

static bool sample_completed(void)
{
	return rd(MALI_HW_GPU_IRQ_RAWSTAT) & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED;
}

/*
 * A LOCKed region stalls the dump writer until an UNLOCK or a FLUSH
 * completes; a lock held for long is reported; other regions do not stall.
 */
static void t_lock_stalls_dump(void)
{
	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	bring_up(1, NULL);
	wr64(as_reg(AS, MALI_HW_AS_LOCKADDR), DUMP_VA | 14);	/* 32 KiB */
	as_cmd(MALI_HW_AS_COMMAND_LOCK);
	fh.now += 1000000;
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(!sample_completed(), "sample completed into a locked region");
	CHECK(rd(MALI_HW_GPU_STATUS) & MALI_HW_GPU_STATUS_PRFCNT_ACTIVE,
	      "stalled sample not PRFCNT_ACTIVE");
	wr(as_reg(AS, MALI_HW_AS_COMMAND), MALI_HW_AS_COMMAND_UNLOCK);
	CHECK(!sample_completed(), "completed before the UNLOCK did");
	CHECK(fire(MALI_MODEL_TIMER_AS), "no AS timer");
	CHECK(sample_completed(), "still stalled after the UNLOCK completed");
	CHECK(fh.nr_reports == 0, "reported: %s", fh.last_report);

	/* LOCK + FLUSH_PT (panfrost's unmap) releases it too */
	wr(MALI_HW_GPU_IRQ_CLEAR, ~0U);
	as_cmd(MALI_HW_AS_COMMAND_LOCK);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(!sample_completed(), "second sample completed while locked");
	/* The driver never unlocks: reported once */
	CHECK(fire(MALI_MODEL_TIMER_STALL), "no stall timer");
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "no UNLOCK"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
	CHECK(!fire(MALI_MODEL_TIMER_STALL), "stall reported twice");
	as_cmd(MALI_HW_AS_COMMAND_FLUSH_PT);
	CHECK(sample_completed(), "still stalled after FLUSH_PT completed");

	/* A lock elsewhere does not stall it */
	wr(MALI_HW_GPU_IRQ_CLEAR, ~0U);
	wr64(as_reg(AS, MALI_HW_AS_LOCKADDR), (DUMP_VA + 0x100000) | 14);
	as_cmd(MALI_HW_AS_COMMAND_LOCK);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE), "no sample timer");
	CHECK(sample_completed(), "a lock of another region stalled the dump");
	CHECK(fh.nr_reports == 1, "reported: %s", fh.last_report);
}

/*
 * The dump is written through the L2: a sample with the L2 off (or powering
 * off) never completes and is reported; after a reset and power-up it works.
 */
static void t_sample_needs_l2(void)
{
	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	bring_up(1, NULL);
	wr(MALI_HW_SHADER_PWROFF, 0xffffffff);
	wr(MALI_HW_TILER_PWROFF, 1);
	fire(MALI_MODEL_TIMER_POWER);
	wr(MALI_HW_L2_PWROFF, 0xffffffff);
	/* Still powering off: already unusable */
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "L2 powered off"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
	fire(MALI_MODEL_TIMER_POWER);
	fire(MALI_MODEL_TIMER_SAMPLE);
	CHECK(!sample_completed(), "a sample with the L2 off completed");
	CHECK(rd(MALI_HW_GPU_STATUS) & MALI_HW_GPU_STATUS_PRFCNT_ACTIVE,
	      "the hung sample is not PRFCNT_ACTIVE");
	/* A second command while it hangs changes nothing */
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fh.nr_reports == 1, "reported twice: %s", fh.last_report);
	/* The driver's way out: reset, power up, program again */
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	CHECK(!(rd(MALI_HW_GPU_STATUS) & MALI_HW_GPU_STATUS_PRFCNT_ACTIVE),
	      "PRFCNT_ACTIVE after a reset");
	bring_up(1, NULL);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE);
	CHECK(fire(MALI_MODEL_TIMER_SAMPLE) && sample_completed(),
	      "no sample with the L2 on again");
	CHECK(fh.nr_reports == 1, "reported: %s", fh.last_report);
}

/* The Amlogic quirk's registers: written only after the key, reset by a reset */
static void t_pwr_override(void)
{
	CHECK(setup("g52", 0xb, 2) == 0, "setup");
	wr(MALI_HW_PWR_OVERRIDE1, 0x200fff);
	CHECK(rd(MALI_HW_PWR_OVERRIDE1) == 0, "a locked write took effect");
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "PWR_KEY"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
	wr(MALI_HW_PWR_KEY, MALI_HW_PWR_KEY_UNLOCK);
	wr(MALI_HW_PWR_OVERRIDE1, 0x200fff);
	CHECK(rd(MALI_HW_PWR_OVERRIDE1) == 0x200fff, "PWR_OVERRIDE1 0x%x",
	      rd(MALI_HW_PWR_OVERRIDE1));
	/* One write per unlock */
	wr(MALI_HW_PWR_OVERRIDE0, 1);
	CHECK(rd(MALI_HW_PWR_OVERRIDE0) == 0 && fh.nr_reports == 2,
	      "second write after one unlock: 0x%x, %u reports",
	      rd(MALI_HW_PWR_OVERRIDE0), fh.nr_reports);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	CHECK(rd(MALI_HW_PWR_OVERRIDE1) == 0, "PWR_OVERRIDE1 kept over a reset");
}

static void t_products(void)
{
	char names[256], *tok, *save;
	unsigned int n = 0;

	snprintf(names, sizeof(names), "%s", mali_model_products());
	for (tok = strtok_r(names, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		CHECK(setup(tok, 0, 0) == 0, "listed product %s refused", tok);
		n++;
	}
	CHECK(n >= 14, "only %u products", n);
}

/*
 * COHERENCY_ENABLE: its reset value is a device option; at the first memory
 * access after a reset it must fit the integration (coherent: ACE-Lite, which
 * the GPU honours; not coherent: NONE), else that is reported.
 * Midgard has no such register.
 */
static void t_coherency(void)
{
	struct mali_model_config cfg = { .product = "g52", .coherent = true };
	char err[256];

	CHECK(setup_cfg(&cfg) == 0, "setup coherent");
	CHECK(rd(MALI_HW_COHERENCY_ENABLE) == MALI_HW_COHERENCY_NONE,
	      "reset value 0x%x", rd(MALI_HW_COHERENCY_ENABLE));
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "COHERENCY_ENABLE 31 (NONE) on this I/O-coherent"),
	      "%u reports: %s", fh.nr_reports, fh.last_report);
	sample_and_clean();
	CHECK(fh.nr_reports == 1, "reported twice: %s", fh.last_report);

	CHECK(setup_cfg(&cfg) == 0, "setup coherent");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 0, "ACE-Lite reported: %s", fh.last_report);
	/* A reset brings the reset value back, and the check with it */
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1, "NONE after reset not reported");

	/* ACE is not offered (COHERENCY_FEATURES 0x1) */
	CHECK(setup_cfg(&cfg) == 0, "setup coherent");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "(ACE)"), "ACE: %s", fh.last_report);

	/*
	 * The G71 reads ACE alone: ACE is no use to an I/O-coherent
	 * integration, and ACE-Lite is honoured only once JM_CONFIG forces the
	 * protocols; a reset clears the force.
	 */
	cfg.product = "g71";
	CHECK(setup_cfg(&cfg) == 0, "setup g71");
	CHECK(rd(MALI_HW_COHERENCY_FEATURES) == 0x2, "G71 COHERENCY_FEATURES 0x%x",
	      rd(MALI_HW_COHERENCY_FEATURES));
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "1 (ACE) on this I/O-coherent"),
	      "G71 ACE: %s", fh.last_report);
	CHECK(setup_cfg(&cfg) == 0, "setup g71");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "honoured 0x2, JM_CONFIG 0x0"),
	      "G71 ACE-Lite unforced: %s", fh.last_report);
	CHECK(setup_cfg(&cfg) == 0, "setup g71");
	wr(MALI_HW_JM_CONFIG, 0x3 << 2);
	CHECK(rd(MALI_HW_JM_CONFIG) == 0xc, "JM_CONFIG 0x%x", rd(MALI_HW_JM_CONFIG));
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 0, "G71 ACE-Lite forced reported: %s", fh.last_report);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	fire(MALI_MODEL_TIMER_RESET);
	CHECK(rd(MALI_HW_JM_CONFIG) == 0, "JM_CONFIG kept over a reset");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1, "G71 ACE-Lite after a reset, unforced, not reported");
	/* The force acts on the G71 only */
	cfg.product = "g72";
	CHECK(setup_cfg(&cfg) == 0, "setup g72");
	wr(MALI_HW_JM_CONFIG, 0x2 << 2);
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 0, "G72 with JM_CONFIG 0x8 reported: %s", fh.last_report);
	cfg.product = "g52";

	cfg.coherent = false;
	cfg.coherency_reset = "ace-lite";
	CHECK(setup_cfg(&cfg) == 0, "setup non-coherent");
	CHECK(rd(MALI_HW_COHERENCY_ENABLE) == MALI_HW_COHERENCY_ACE_LITE, "reset value");
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 1 && strstr(fh.last_report, "non-coherent"), "%s", fh.last_report);
	CHECK(setup_cfg(&cfg) == 0, "setup non-coherent");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_NONE);
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 0, "NONE reported: %s", fh.last_report);

	cfg.product = "t720";
	cfg.coherent = true;
	cfg.coherency_reset = NULL;
	CHECK(setup_cfg(&cfg) == 0, "setup t720");
	wr(MALI_HW_COHERENCY_ENABLE, MALI_HW_COHERENCY_ACE_LITE);
	CHECK(rd(MALI_HW_COHERENCY_ENABLE) == 0, "Midgard has COHERENCY_ENABLE");
	bring_up(1, NULL);
	sample_and_clean();
	CHECK(fh.nr_reports == 0, "Midgard reported: %s", fh.last_report);

	cfg.product = "g52";
	cfg.coherency_reset = "moesi";
	m = realloc(m, mali_model_size());
	CHECK(mali_model_init(m, &cfg, &fake_ops, &fh, err, sizeof(err)) == -1 &&
	      strstr(err, "ace-lite"), "coherency_reset moesi: %s", err);
	CHECK(setup("g52", 0, 0) == 0, "setup");
}

/* ---- job slots ------------------------------------------------------------ */

#define JOB_VA		0x2000000ULL
#define JOB_PAGES	4
#define FBD_VA		(JOB_VA + (JOB_PAGES - 1) * MALI_HW_PAGE_SIZE)
#define JS_REG(n, off)	(MALI_HW_JS_BASE + (n) * MALI_HW_JS_STRIDE + (off))
#define JS_CFG		(AS | MALI_HW_JS_CONFIG_START_FLUSH_CLEAN | \
			 MALI_HW_JS_CONFIG_START_FLUSH_INV | \
			 MALI_HW_JS_CONFIG_END_FLUSH_CLEAN | MALI_HW_JS_CONFIG_END_FLUSH_INV)

static uint64_t job_pa[JOB_PAGES];

static uint64_t job_pa_of(uint64_t va)
{
	return job_pa[(va - JOB_VA) / MALI_HW_PAGE_SIZE] + (va & (MALI_HW_PAGE_SIZE - 1));
}

static void job_put32(uint64_t va, uint32_t v)
{
	uint64_t pa = job_pa_of(va);
	unsigned int i;

	for (i = 0; i < 4; i++)
		fh.ram[pa - RAM_BASE + i] = (uint8_t)(v >> (8 * i));
}

static uint32_t job_get32(uint64_t va)
{
	return ram_get32(job_pa_of(va));
}

/* Power, tables mapping the job pages (and the dump), counters running. */
static uint64_t js_bring_up(const char *product)
{
	uint64_t root, dump;
	unsigned int i;

	if (setup(product, 0, 0))
		return 0;
	dump = bring_up(1, &root);
	for (i = 0; i < JOB_PAGES; i++) {
		job_pa[i] = ram_alloc();
		map_page(root, JOB_VA + i * MALI_HW_PAGE_SIZE, job_pa[i]);
	}
	wr(MALI_HW_JOB_IRQ_MASK, 0x70007);
	wr(MALI_HW_MMU_IRQ_MASK, 0xffffffff);
	return dump;
}

/* A job header at @va: type, index, dependencies, next */
static void job_hdr(uint64_t va, unsigned int type, unsigned int index,
		    unsigned int dep1, unsigned int dep2, uint64_t next)
{
	unsigned int i;

	for (i = 0; i < 64; i += 4)
		job_put32(va + i, 0);
	job_put32(va + MALI_HW_JOB_HDR_FLAGS, MALI_HW_JOB_HDR_IS_64B | type << 1 | index << 16);
	job_put32(va + MALI_HW_JOB_HDR_DEPS, dep1 | dep2 << 16);
	job_put32(va + MALI_HW_JOB_HDR_NEXT, (uint32_t)next);
	job_put32(va + MALI_HW_JOB_HDR_NEXT + 4, (uint32_t)(next >> 32));
}

/* A fragment job over tiles [x0, x1] x [y0, y1] of the framebuffer at FBD_VA */
static void job_frag(uint64_t va, unsigned int index, unsigned int x0, unsigned int y0,
		     unsigned int x1, unsigned int y1, uint64_t next)
{
	job_hdr(va, MALI_HW_JOB_TYPE_FRAGMENT, index, 0, 0, next);
	job_put32(va + 32 + MALI_HW_FRAG_BOUND_MIN, x0 | y0 << 16);
	job_put32(va + 32 + MALI_HW_FRAG_BOUND_MAX, x1 | y1 << 16);
	job_put32(va + 32 + MALI_HW_FRAG_FBD, (uint32_t)FBD_VA | 1);
}

/* A Midgard/Bifrost vertex or compute job: @local x @groups invocations */
static void job_compute(uint64_t va, unsigned int type, unsigned int index,
			unsigned int dep, unsigned int local, unsigned int groups,
			uint64_t next)
{
	job_hdr(va, type, index, dep, 0, next);
	/* local size X in bits 0-9, workgroups X from bit 10: Y/Z are 1 */
	job_put32(va + 32, (local - 1) | (groups - 1) << 10);
	job_put32(va + 36, 10 | 10 << 5 | 10 << 10 | 20 << 16 | 20 << 22);
}

/* Submit the chain at @head on slot @n as panfrost does */
static void js_submit(unsigned int n, uint64_t head, uint64_t affinity, uint32_t cfg)
{
	wr64(JS_REG(n, MALI_HW_JS_HEAD_NEXT), head);
	wr64(JS_REG(n, MALI_HW_JS_AFFINITY_NEXT), affinity);
	wr(JS_REG(n, MALI_HW_JS_CONFIG_NEXT), cfg);
	wr(JS_REG(n, MALI_HW_JS_COMMAND_NEXT), MALI_HW_JS_COMMAND_START);
}

/* Let slot @n's batch in flight take its time and complete */
static bool js_fire(unsigned int n)
{
	unsigned int t = MALI_MODEL_TIMER_JS0 + n;

	if (!fh.armed[t])
		return false;
	if (fh.now < fh.deadline[t])
		fh.now = fh.deadline[t];
	return fire(t);
}

/* Run slot @n until it stops arming its timer; the batches it ran */
static unsigned int js_run(unsigned int n)
{
	unsigned int batches = 0;

	while (js_fire(n))
		batches++;
	return batches;
}

/* Fire the slots' timers in the order they are due, until none is armed */
static void js_run_all(void)
{
	for (;;) {
		unsigned int n, first = 3;

		for (n = 0; n < 3; n++)
			if (fh.armed[MALI_MODEL_TIMER_JS0 + n] &&
			    (first == 3 || fh.deadline[MALI_MODEL_TIMER_JS0 + n] <
					   fh.deadline[MALI_MODEL_TIMER_JS0 + first]))
				first = n;
		if (first == 3)
			return;
		js_fire(first);
	}
}

/* One sample, cleaned, of the dump at @dump: counter @idx of block @blk */
static uint32_t dump_counter(uint64_t dump, unsigned int blk, unsigned int idx)
{
	return ram_get32(dump + blk * 256 + 4 * idx);
}

static void t_js_chain_done(void)
{
	uint64_t v = JOB_VA, t = JOB_VA + 64, ns;

	CHECK(js_bring_up("g52"), "setup");
	/* vertex (1) -> tiler (2, depends on 1) on slot 1 */
	job_compute(v, MALI_HW_JOB_TYPE_VERTEX, 1, 0, 3, 1, t);
	job_compute(t, MALI_HW_JOB_TYPE_TILER, 2, 1, 3, 1, 0);
	js_submit(1, v, 0x3, JS_CFG);
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(1), "JS_STATE 0x%x",
	      rd(MALI_HW_JOB_IRQ_JS_STATE));
	CHECK(rd(JS_REG(1, MALI_HW_JS_COMMAND_NEXT)) == 0, "COMMAND_NEXT not taken");
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_ACTIVE, "STATUS 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_STATUS)));
	CHECK(rd(JS_REG(1, MALI_HW_JS_CONFIG)) == JS_CFG, "CONFIG not latched");
	CHECK(rd(MALI_HW_GPU_STATUS) & MALI_HW_GPU_STATUS_GPU_ACTIVE, "GPU not active");
	CHECK(!rd(MALI_HW_JOB_IRQ_RAWSTAT) && !fh.irq[MALI_MODEL_IRQ_JOB], "done at once");
	CHECK(job_get32(v) == 0, "DONE written before the job ran");
	/* 3 invocations each: 500 + 3 * 4 / 2 cores; tiler 500 + 3 * 2, at 800 MHz */
	ns = fh.delay[MALI_MODEL_TIMER_JS1];
	CHECK(ns == (506 * 1000 + 799) / 800 + (506 * 1000 + 799) / 800,
	      "chain takes %llu ns", (unsigned long long)ns);
	CHECK(js_fire(1), "no slot timer");
	CHECK(job_get32(v) == MALI_HW_EXC_DONE && job_get32(t) == MALI_HW_EXC_DONE,
	      "exception_status 0x%x 0x%x", job_get32(v), job_get32(t));
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	CHECK(fh.irq[MALI_MODEL_IRQ_JOB], "job line low");
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_DONE, "STATUS after");
	CHECK(rd(JS_REG(1, MALI_HW_JS_TAIL)) == (uint32_t)t, "TAIL 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_TAIL)));
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == 0, "slot still active");
	wr(MALI_HW_JOB_IRQ_CLEAR, MALI_HW_JOB_IRQ_DONE(1));
	CHECK(!fh.irq[MALI_MODEL_IRQ_JOB], "line high after CLEAR");
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
}

/* The _NEXT chain waits, then starts without the driver, as panfrost relies on */
static void t_js_next_queue(void)
{
	uint64_t a = JOB_VA, b = JOB_VA + 64;
	struct mali_model_js_stats st;

	CHECK(js_bring_up("t860"), "setup");
	job_frag(a, 1, 0, 0, 3, 3, 0);
	job_frag(b, 1, 0, 0, 1, 1, 0);
	js_submit(0, a, 0xf, JS_CFG | MALI_HW_JS_CONFIG_JOB_CHAIN_FLAG);
	js_submit(0, b, 0xf, JS_CFG);
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == (MALI_HW_BIT(0) | MALI_HW_BIT(16)),
	      "JS_STATE 0x%x", rd(MALI_HW_JOB_IRQ_JS_STATE));
	CHECK(rd(JS_REG(0, MALI_HW_JS_COMMAND_NEXT)) == MALI_HW_JS_COMMAND_START,
	      "COMMAND_NEXT taken while busy");
	CHECK(js_fire(0), "no timer");
	CHECK(job_get32(a) == MALI_HW_EXC_DONE && job_get32(b) == 0, "a not done or b ran");
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(0), "b not started: 0x%x",
	      rd(MALI_HW_JOB_IRQ_JS_STATE));
	CHECK(rd(JS_REG(0, MALI_HW_JS_HEAD)) == (uint32_t)b, "HEAD 0x%x",
	      rd(JS_REG(0, MALI_HW_JS_HEAD)));
	/* the soft stop for the other chain flag leaves b alone */
	wr(JS_REG(0, MALI_HW_JS_COMMAND), MALI_HW_JS_COMMAND_SOFT_STOP_1);
	CHECK(js_fire(0) && job_get32(b) == MALI_HW_EXC_DONE, "b not done");
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(0), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	CHECK(!mali_model_js_stats(m, 0, &st) && st.chains == 2 && st.done == 2 &&
	      st.jobs == 2, "stats %llu %llu %llu", (unsigned long long)st.chains,
	      (unsigned long long)st.done, (unsigned long long)st.jobs);
	CHECK(mali_model_js_stats(m, 3, &st) == -1, "slot 3 has stats");
}

/* JSn_JOBS/TASKS/ACTIVE, GPU_ACTIVE and the shader cores count the jobs */
static void t_js_counters(void)
{
	uint64_t dump, f = JOB_VA, c = JOB_VA + 64, busy;
	uint32_t frag = 0, comp = 0;
	unsigned int core;

	dump = js_bring_up("g52");
	CHECK(dump, "setup");
	/* 4 x 3 tiles on slot 0; 8 workgroups of 16 on slot 2 */
	job_frag(f, 1, 2, 0, 5, 2, 0);
	job_compute(c, MALI_HW_JOB_TYPE_COMPUTE, 1, 0, 16, 8, 0);
	js_submit(0, f, 0x3, JS_CFG);
	fh.now += 1000;
	js_submit(2, c, 0x3, JS_CFG);
	js_run_all();
	busy = mali_model_jobs_busy_ns(m);
	fh.now += 5000;		/* idle time is not GPU_ACTIVE */
	sample_and_clean();
	CHECK(dump_counter(dump, 0, 8) == 1 && dump_counter(dump, 0, 9) == 12,
	      "JS0_JOBS %u TASKS %u", dump_counter(dump, 0, 8), dump_counter(dump, 0, 9));
	CHECK(dump_counter(dump, 0, 24) == 1 && dump_counter(dump, 0, 25) == 8,
	      "JS2_JOBS %u TASKS %u", dump_counter(dump, 0, 24), dump_counter(dump, 0, 25));
	/* fragment: 500 + 12 * 256 / 2 cores = 2036 cycles = 2545 ns at 800 MHz */
	CHECK(dump_counter(dump, 0, 10) >= 2035 && dump_counter(dump, 0, 10) <= 2037,
	      "JS0_ACTIVE %u", dump_counter(dump, 0, 10));
	/* compute: 500 + 128 * 4 / 2 = 756 cycles */
	CHECK(dump_counter(dump, 0, 26) >= 755 && dump_counter(dump, 0, 26) <= 757,
	      "JS2_ACTIVE %u", dump_counter(dump, 0, 26));
	/* the chains overlap: GPU_ACTIVE is their union, as long as the busy time */
	CHECK(dump_counter(dump, 0, 6) + 1 >= busy * 800 / 1000 &&
	      dump_counter(dump, 0, 6) <= busy * 800 / 1000 + 1 &&
	      dump_counter(dump, 0, 6) == 2036,
	      "GPU_ACTIVE %u, busy %llu ns", dump_counter(dump, 0, 6),
	      (unsigned long long)busy);
	for (core = 0; core < 2; core++) {
		frag += dump_counter(dump, 3 + core, 4);
		comp += dump_counter(dump, 3 + core, 22);
	}
	CHECK(frag == 2036 && comp == 756, "FRAG_ACTIVE %u COMPUTE_ACTIVE %u", frag, comp);
	CHECK(dump_counter(dump, 3, 11) == 12 * 64 / 2, "FRAG_QUADS_RAST core 0 %u",
	      dump_counter(dump, 3, 11));
	/*
	 * JSn_WAIT_*: fragment READ 500, 12 tiles in 6 rounds of 2 cores:
	 * FINISH 1536 / 6 = 256, ISSUE the rest; compute 8 workgroups in 4
	 * rounds: FINISH 256 / 4 = 64. READ + ISSUE + FINISH = JSn_ACTIVE.
	 */
	CHECK(dump_counter(dump, 0, 11) == 0 && dump_counter(dump, 0, 12) == 500 &&
	      dump_counter(dump, 0, 13) == 1280 && dump_counter(dump, 0, 14) == 0 &&
	      dump_counter(dump, 0, 15) == 256,
	      "JS0_WAIT_FLUSH/READ/ISSUE/DEPEND/FINISH %u %u %u %u %u",
	      dump_counter(dump, 0, 11), dump_counter(dump, 0, 12), dump_counter(dump, 0, 13),
	      dump_counter(dump, 0, 14), dump_counter(dump, 0, 15));
	CHECK(dump_counter(dump, 0, 28) == 500 && dump_counter(dump, 0, 29) == 192 &&
	      dump_counter(dump, 0, 31) == 64 && dump_counter(dump, 0, 20) == 0,
	      "JS2_WAIT_READ/ISSUE/FINISH %u %u %u, JS1_WAIT_READ %u",
	      dump_counter(dump, 0, 28), dump_counter(dump, 0, 29), dump_counter(dump, 0, 31),
	      dump_counter(dump, 0, 20));
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
}

/* IDVS jobs are Bifrost v6 on (the G72), Midgard has none (JOB_CONFIG_FAULT) */
static void t_js_idvs_from_v6(void)
{
	static const struct { const char *gpu; uint32_t status; } c[] = {
		{ "g72", MALI_HW_EXC_DONE }, { "g52", MALI_HW_EXC_DONE },
		{ "t860", MALI_HW_EXC_JOB_CONFIG_FAULT },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t v = JOB_VA;

		CHECK(js_bring_up(c[i].gpu), "setup %s", c[i].gpu);
		job_compute(v, MALI_HW_JOB_TYPE_INDEXED_VERTEX, 1, 0, 3, 4, 0);
		js_submit(1, v, 0x1, JS_CFG);
		js_run_all();
		CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == c[i].status &&
		      job_get32(v) == c[i].status, "%s: STATUS 0x%x, header 0x%x, want 0x%x",
		      c[i].gpu, rd(JS_REG(1, MALI_HW_JS_STATUS)), job_get32(v), c[i].status);
	}
}

/* A host timer that fires late does not make the jobs take longer */
static void t_js_late_timer(void)
{
	uint64_t dump, f = JOB_VA;
	struct mali_model_js_stats st;

	dump = js_bring_up("g52");
	CHECK(dump, "setup");
	job_frag(f, 1, 0, 0, 3, 2, 0);		/* 12 tiles: 500 + 12 * 256 / 2 = 2036 cycles */
	js_submit(0, f, 0x3, JS_CFG);
	fh.now = fh.deadline[MALI_MODEL_TIMER_JS0] + 100000;	/* 100 us late */
	CHECK(fire(MALI_MODEL_TIMER_JS0), "no timer");
	CHECK(job_get32(f) == MALI_HW_EXC_DONE, "not done");
	fh.now += 7000;
	sample_and_clean();
	CHECK(dump_counter(dump, 0, 10) >= 2035 && dump_counter(dump, 0, 10) <= 2037 &&
	      dump_counter(dump, 0, 6) == dump_counter(dump, 0, 10),
	      "JS0_ACTIVE %u GPU_ACTIVE %u, want the job's 2036 cycles",
	      dump_counter(dump, 0, 10), dump_counter(dump, 0, 6));
	CHECK(!mali_model_js_stats(m, 0, &st) && st.busy_ns == (2036 * 1000 + 799) / 800 &&
	      mali_model_jobs_busy_ns(m) == st.busy_ns, "busy %llu ns",
	      (unsigned long long)st.busy_ns);
}

/* An unmapped descriptor: MMU fault on the job's AS; the job waits for the driver */
static void t_js_unmapped(void)
{
	uint64_t root = 0, hole = JOB_VA + 0x100000, pa;
	uint32_t st;

	CHECK(js_bring_up("g52"), "setup");
	bring_up(1, &root);	/* the same tables again: learn the root */
	root = rd(as_reg(AS, MALI_HW_AS_TRANSTAB)) & ~0xfffULL;
	js_submit(1, hole, 0x3, JS_CFG);
	CHECK(rd(MALI_HW_MMU_IRQ_RAWSTAT) == MALI_HW_MMU_IRQ_PAGE_FAULT(AS),
	      "MMU RAWSTAT 0x%x", rd(MALI_HW_MMU_IRQ_RAWSTAT));
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	CHECK((st & 0xf8) == 0xc0 && ((st >> 8) & 3) == MALI_HW_ACCESS_READ,
	      "FAULTSTATUS 0x%x", st);
	CHECK(rd(as_reg(AS, MALI_HW_AS_FAULTADDRESS)) == (uint32_t)hole, "FAULTADDRESS");
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(1) && !rd(MALI_HW_JOB_IRQ_RAWSTAT),
	      "the job did not wait");
	/* a growable heap: the driver maps the page, clears, flushes the tables */
	pa = ram_alloc();
	map_page(root, hole, pa);
	ram_put64(pa + MALI_HW_JOB_HDR_FLAGS,
		  MALI_HW_JOB_HDR_IS_64B | MALI_HW_JOB_TYPE_NULL << 1 | 1 << 16);
	wr(MALI_HW_MMU_IRQ_CLEAR, 0x10001);
	flush_as(MALI_HW_AS_COMMAND_FLUSH_PT);
	CHECK(js_fire(1), "the job did not go on");
	CHECK(ram_get32(pa) == MALI_HW_EXC_DONE, "not DONE: 0x%x", ram_get32(pa));
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);

	/* unhandled: the driver disables the AS (panfrost), the job dies */
	js_submit(1, hole + 0x1000, 0x3, JS_CFG);
	st = rd(as_reg(AS, MALI_HW_AS_FAULTSTATUS));
	wr(MALI_HW_MMU_IRQ_CLEAR, 0x10001);
	flush_as(MALI_HW_AS_COMMAND_FLUSH_MEM);
	CHECK(!rd(MALI_HW_JOB_IRQ_RAWSTAT), "FLUSH_MEM with the tables unchanged ended it");
	wr64(as_reg(AS, MALI_HW_AS_TRANSTAB), 0);
	as_cmd(MALI_HW_AS_COMMAND_UPDATE);
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_FAILED(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == (st & 0xff), "STATUS 0x%x, fault 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_STATUS)), st);
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == 0, "slot still active");
}

/* Malformed jobs: JOB_CONFIG_FAULT etc. in JS_STATUS and the header */
static void t_js_config_fault(void)
{
	uint64_t a = JOB_VA, b = JOB_VA + 128;

	CHECK(js_bring_up("g52"), "setup");
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, b);
	job_hdr(b, 0x33, 2, 0, 0, 0);
	js_submit(1, a, 0x3, JS_CFG);
	js_submit(1, a + 64, 0x3, JS_CFG);	/* waits in _NEXT */
	job_hdr(a + 64, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, 0);
	js_run(1);
	CHECK(job_get32(a) == MALI_HW_EXC_DONE, "job before the bad one not done");
	CHECK(job_get32(b) == MALI_HW_EXC_JOB_CONFIG_FAULT, "header 0x%x", job_get32(b));
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_CONFIG_FAULT, "STATUS 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_STATUS)));
	CHECK(rd(JS_REG(1, MALI_HW_JS_TAIL)) == (uint32_t)b, "TAIL");
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_FAILED(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	/* the GPU reports it itself: no model report */
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
	/* after a failure the _NEXT chain waits for the driver's CLEAR */
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(17), "JS_STATE 0x%x",
	      rd(MALI_HW_JOB_IRQ_JS_STATE));
	wr(MALI_HW_JOB_IRQ_CLEAR, MALI_HW_JOB_IRQ_FAILED(1));
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(1), "_NEXT not started");
	js_run(1);
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(1), "second chain");
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);

	/* misaligned, 32-bit, tile range, affinity 0 */
	js_submit(1, a + 32, 0x3, JS_CFG);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_CONFIG_FAULT &&
	      fh.nr_reports == 0, "misaligned: 0x%x, %s", rd(JS_REG(1, MALI_HW_JS_STATUS)),
	      fh.last_report);
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, 0);
	job_put32(a + MALI_HW_JOB_HDR_FLAGS, MALI_HW_JOB_TYPE_NULL << 1);
	js_submit(1, a, 0x3, JS_CFG);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_CONFIG_FAULT &&
	      strstr(fh.last_report, "32-bit"), "32-bit: %s", fh.last_report);
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	job_frag(a, 1, 4, 0, 3, 0, 0);
	js_submit(0, a, 0x3, JS_CFG);
	CHECK(rd(JS_REG(0, MALI_HW_JS_STATUS)) == MALI_HW_EXC_TILE_RANGE_FAULT,
	      "tile range: 0x%x", rd(JS_REG(0, MALI_HW_JS_STATUS)));
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, 0);
	js_submit(1, a, 0x0, JS_CFG);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_AFFINITY_FAULT,
	      "affinity 0: 0x%x", rd(JS_REG(1, MALI_HW_JS_STATUS)));
	/* Valhall has no Vertex job, and its descriptors are 128-byte aligned */
	CHECK(js_bring_up("g57"), "setup g57");
	job_hdr(a, MALI_HW_JOB_TYPE_VERTEX, 1, 0, 0, 0);
	js_submit(1, a, 0x1f, JS_CFG);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_CONFIG_FAULT,
	      "g57 vertex job: 0x%x", rd(JS_REG(1, MALI_HW_JS_STATUS)));
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	job_hdr(a + 64, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, 0);
	js_submit(1, a + 64, 0x1f, JS_CFG);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_JOB_CONFIG_FAULT,
	      "g57 64-byte aligned: 0x%x", rd(JS_REG(1, MALI_HW_JS_STATUS)));
}

/* A chain that loops runs until the driver hard-stops it */
static void t_js_loop_hard_stop(void)
{
	uint64_t a = JOB_VA;
	unsigned int i;

	CHECK(js_bring_up("g52"), "setup");
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 0, 0, 0, a);
	js_submit(1, a, 0x3, JS_CFG);
	for (i = 0; i < 65536 / 16 + 1; i++)
		CHECK(js_fire(1), "the loop ended after %u batches", i);
	CHECK(strstr(fh.last_report, "it loops"), "report: %s", fh.last_report);
	CHECK(!rd(MALI_HW_JOB_IRQ_RAWSTAT), "the loop completed");
	wr(JS_REG(1, MALI_HW_JS_COMMAND), MALI_HW_JS_COMMAND_HARD_STOP);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_TERMINATED, "STATUS 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_STATUS)));
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_FAILED(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == 0 && !fh.armed[MALI_MODEL_TIMER_JS1],
	      "still running");
}

/* A soft stop ends the chain between jobs; TAIL resumes it */
static void t_js_soft_stop(void)
{
	uint64_t tail;
	unsigned int i, done = 0;

	CHECK(js_bring_up("g52"), "setup");
	for (i = 0; i < 40; i++)
		job_hdr(JOB_VA + 64 * i, MALI_HW_JOB_TYPE_NULL, i + 1, i, 0,
			i < 39 ? JOB_VA + 64 * (i + 1) : 0);
	js_submit(1, JOB_VA, 0x3, JS_CFG);
	wr(JS_REG(1, MALI_HW_JS_COMMAND), MALI_HW_JS_COMMAND_SOFT_STOP);
	CHECK(!rd(MALI_HW_JOB_IRQ_RAWSTAT), "soft stop before the jobs in flight ended");
	CHECK(js_fire(1), "no timer");
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_STOPPED, "STATUS 0x%x",
	      rd(JS_REG(1, MALI_HW_JS_STATUS)));
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_FAILED(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
	tail = rd(JS_REG(1, MALI_HW_JS_TAIL)) | (uint64_t)rd(JS_REG(1, MALI_HW_JS_TAIL + 4)) << 32;
	for (i = 0; i < 40; i++)
		done += job_get32(JOB_VA + 64 * i) == MALI_HW_EXC_DONE;
	CHECK(done == 16 && tail == JOB_VA + 64 * 16, "%u done, TAIL 0x%llx", done,
	      (unsigned long long)tail);
	/* resumed at TAIL: its dependency on job 16 is of the first run */
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	job_put32(tail + MALI_HW_JOB_HDR_DEPS, 0);
	js_submit(1, tail, 0x3, JS_CFG);
	js_run(1);
	for (i = done = 0; i < 40; i++)
		done += job_get32(JOB_VA + 64 * i) == MALI_HW_EXC_DONE;
	CHECK(done == 40 && rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(1),
	      "%u done, RAWSTAT 0x%x", done, rd(MALI_HW_JOB_IRQ_RAWSTAT));
}

/* Dependencies: on an earlier job they hold; on none, the job never starts */
static void t_js_dependency(void)
{
	uint64_t a = JOB_VA, b = JOB_VA + 64;

	CHECK(js_bring_up("g52"), "setup");
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, b);
	job_hdr(b, MALI_HW_JOB_TYPE_NULL, 2, 3, 0, 0);
	js_submit(1, a, 0x3, JS_CFG);
	js_run(1);
	CHECK(job_get32(a) == MALI_HW_EXC_DONE && job_get32(b) == 0, "b ran");
	CHECK(strstr(fh.last_report, "depends on 3, 0"), "report: %s", fh.last_report);
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == MALI_HW_BIT(1) && !rd(MALI_HW_JOB_IRQ_RAWSTAT),
	      "the slot did not hang");
	CHECK(rd(JS_REG(1, MALI_HW_JS_HEAD)) == (uint32_t)b, "HEAD not at the waiting job");
	wr(JS_REG(1, MALI_HW_JS_COMMAND), MALI_HW_JS_COMMAND_SOFT_STOP);
	CHECK(rd(JS_REG(1, MALI_HW_JS_STATUS)) == MALI_HW_EXC_STOPPED &&
	      rd(JS_REG(1, MALI_HW_JS_TAIL)) == (uint32_t)b, "soft stop of a waiting job");
}

/* A reset stops every slot, silently; Write Value jobs write */
static void t_js_reset_write_value(void)
{
	uint64_t a = JOB_VA, target = JOB_VA + 0x800;

	CHECK(js_bring_up("t720"), "setup");
	job_hdr(a, MALI_HW_JOB_TYPE_WRITE_VALUE, 1, 0, 0, 0);
	job_put32(a + 32, (uint32_t)target);
	job_put32(a + 36, (uint32_t)(target >> 32));
	job_put32(a + 40, 6);		/* Immediate 32 */
	job_put32(a + 48, 0xdeadbeef);
	job_put32(target + 4, 0x11111111);
	js_submit(1, a, 0x3, JS_CFG);
	js_run(1);
	CHECK(job_get32(target) == 0xdeadbeef && job_get32(target + 4) == 0x11111111,
	      "write value 0x%x 0x%x", job_get32(target), job_get32(target + 4));
	wr(MALI_HW_JOB_IRQ_CLEAR, 0x70007);
	js_submit(1, a, 0x3, JS_CFG);
	wr(MALI_HW_GPU_COMMAND, MALI_HW_GPU_COMMAND_SOFT_RESET);
	CHECK(rd(MALI_HW_JOB_IRQ_JS_STATE) == 0 && rd(JS_REG(1, MALI_HW_JS_STATUS)) == 0,
	      "slot survived the reset");
	js_fire(1);
	CHECK(!rd(MALI_HW_JOB_IRQ_RAWSTAT), "a reset chain raised 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
}

/* A chain started with its cores off waits for them, reported */
static void t_js_power(void)
{
	uint64_t a = JOB_VA;

	CHECK(js_bring_up("g52"), "setup");
	wr(MALI_HW_SHADER_PWROFF, 0x3);
	fire(MALI_MODEL_TIMER_POWER);
	job_hdr(a, MALI_HW_JOB_TYPE_NULL, 1, 0, 0, 0);
	js_submit(1, a, 0x3, JS_CFG);
	CHECK(strstr(fh.last_report, "waits for power"), "report: %s", fh.last_report);
	CHECK(!fh.armed[MALI_MODEL_TIMER_JS1], "ran on powered-off cores");
	wr(MALI_HW_SHADER_PWRON, 0x3);
	fire(MALI_MODEL_TIMER_POWER);
	js_run(1);
	CHECK(rd(MALI_HW_JOB_IRQ_RAWSTAT) == MALI_HW_JOB_IRQ_DONE(1), "RAWSTAT 0x%x",
	      rd(MALI_HW_JOB_IRQ_RAWSTAT));
}

/* Valhall's compute payload: workgroup size and counts */
static void t_js_valhall_compute(void)
{
	uint64_t dump, c = JOB_VA;

	dump = js_bring_up("g57");
	CHECK(dump, "setup");
	job_hdr(c, MALI_HW_JOB_TYPE_COMPUTE, 1, 0, 0, 0);
	job_put32(c + 32, 7 | 1 << 10);		/* local 8 x 2 x 1 */
	job_put32(c + 40, 5);
	job_put32(c + 44, 2);
	job_put32(c + 48, 1);			/* 10 workgroups */
	/* and a Valhall tiler job: 2 instances of 6 vertices, 4 triangles */
	job_hdr(c + 128, MALI_HW_JOB_TYPE_TILER, 1, 0, 0, 0);
	job_put32(c + 128 + 32 + MALI_HW_V9_DRAW_INSTANCES, 2);
	job_put32(c + 128 + 32 + MALI_HW_V9_DRAW_VERTICES, 6);
	js_submit(1, c + 128, 0x1f, JS_CFG);
	js_submit(2, c, 0x1f, JS_CFG);
	/* 500 + 160 * 4 / 5 cores = 628 cycles at 950 MHz */
	CHECK(fh.delay[MALI_MODEL_TIMER_JS2] == (628 * 1000 + 949) / 950, "%llu ns",
	      (unsigned long long)fh.delay[MALI_MODEL_TIMER_JS2]);
	js_run_all();
	sample_and_clean();
	CHECK(dump_counter(dump, 0, 24) == 1 && dump_counter(dump, 0, 25) == 10,
	      "JS2_JOBS %u TASKS %u", dump_counter(dump, 0, 24), dump_counter(dump, 0, 25));
	CHECK(dump_counter(dump, 0, 16) == 1 && dump_counter(dump, 0, 17) == 4 &&
	      dump_counter(dump, 1, 6) == 4,
	      "JS1_JOBS %u TASKS %u TRIANGLES %u", dump_counter(dump, 0, 16),
	      dump_counter(dump, 0, 17), dump_counter(dump, 1, 6));
	CHECK(fh.nr_reports == 0, "report: %s", fh.last_report);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "model: init rejects what it cannot model", t_init_rejects },
	{ "model: ID registers and dump sizes", t_ids },
	{ "model: feature registers panfrost reads are the product's, none left 0", t_feature_ids },
	{ "model: soft reset, IRQ RAWSTAT/MASK/STATUS/CLEAR and the line", t_irq_reset },
	{ "model: soft_reset_stuck, dead and late_irq faults", t_reset_faults },
	{ "model: sample lands in L2, clean writes it through the tables", t_sample_clean },
	{ "model: unmapped dump page is a write translation fault", t_fault_unmapped },
	{ "model: UPDATE keeps the TLB: a stale translation is reported, not written", t_tlb_stale },
	{ "model: FLUSH_MEM/FLUSH_PT of the LOCKADDR region drop the TLB entries", t_tlb_flushed },
	{ "model: FLUSH_MEM writes the L2 back, FLUSH_PT does not", t_flush_mem_writes_back },
	{ "model: reserved TRANSTAB/TRANSCFG modes are reported at UPDATE", t_reserved_modes },
	{ "model: MMU_FEATURES per product; a VA beyond it is an address size fault", t_address_size_fault },
	{ "model: power transitions take time; L2 off under powered cores is reported", t_power },
	{ "model: stuck_power holds the cores in transition until a reset", t_power_stuck },
	{ "model: AS_STATUS ACTIVE while a command runs; a command then is reported", t_as_status },
	{ "model: TRANSCFG AARCH64_4K: AArch64 tables walked from the INA_BITS start level", t_aarch64_tables },
	{ "model: a LOCKed region stalls the dump until UNLOCK/FLUSH; a lock never released is reported", t_lock_stalls_dump },
	{ "model: a sample with the L2 powered off never completes and is reported", t_sample_needs_l2 },
	{ "model: COHERENCY_ENABLE must fit the integration at the first memory access", t_coherency },
	{ "model: PWR_OVERRIDE0/1 written only after PWR_KEY, cleared by a reset", t_pwr_override },
	{ "model: workload and fault text controls", t_text },
	{ "model: a job chain runs through the tables, DONE written, JOB_IRQ DONE", t_js_chain_done },
	{ "model: the _NEXT chain starts when the slot is free; JS_STATE; chain-flag stops", t_js_next_queue },
	{ "model: jobs drive JSn_JOBS/TASKS/ACTIVE, GPU_ACTIVE and the shader cores", t_js_counters },
	{ "model: IDVS jobs from Bifrost v6 (G72) on, not on Midgard", t_js_idvs_from_v6 },
	{ "model: a late host timer does not lengthen the jobs (JSn_ACTIVE, busy time)", t_js_late_timer },
	{ "model: an unmapped descriptor is an MMU fault the job waits on", t_js_unmapped },
	{ "model: malformed descriptors fail with JOB_CONFIG_FAULT and friends", t_js_config_fault },
	{ "model: a looping chain is reported and ends with HARD_STOP: TERMINATED", t_js_loop_hard_stop },
	{ "model: SOFT_STOP ends a chain between jobs: STOPPED, TAIL resumes", t_js_soft_stop },
	{ "model: a dependency no earlier job has: the job never starts", t_js_dependency },
	{ "model: Write Value jobs write; a reset stops the slots silently", t_js_reset_write_value },
	{ "model: a chain with its cores off waits for power", t_js_power },
	{ "model: Valhall compute and tiler jobs: their work from the payload", t_js_valhall_compute },
	{ "model: every listed product initialises", t_products },
};

int main(void)
{
	unsigned int i;

	fh.ram = calloc(1, RAM_SIZE);
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		cur_failed = 0;
		diag[0] = '\0';
		tests[i].fn();
		if (cur_failed) {
			printf("not ok %u - %s\n# %s\n", i + 1, tests[i].name, diag);
			failed++;
		} else {
			printf("ok %u - %s\n", i + 1, tests[i].name);
			passed++;
		}
	}
	printf("1..%u\n", i);
	printf("%d passed, %d failed\n", passed, failed);
	free(m);
	free(fh.ram);
	return failed ? 1 : 0;
}
