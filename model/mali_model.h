/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mali_model: one model of an Arm Mali job-manager GPU (Midgard, Bifrost,
 * Valhall-JM) as a bus device: its register file, interrupt lines, power
 * state machine, MMU (address spaces, table walk, TLB), L2 cache, counter
 * unit, workload model and fault injection.
 *
 * It is plain C with no kernel or QEMU header and is compiled into two hosts:
 * the in-module simulator of mali_perfcnt.ko (kernel/sim/) and a QEMU sysbus
 * device (qemu/). A host gives it a small interface (struct
 * mali_model_host_ops): bus memory by physical address, three interrupt
 * lines, one-shot timers and a monotonic clock. The model never sees a CPU
 * pointer of a driver: like a bus master it reads translation tables and
 * writes dumps through physical addresses only.
 *
 * Locking: the model has no lock of its own. Every entry point below must be
 * called with the host's lock held (kernel: a spinlock taken with IRQs off;
 * QEMU: the BQL), and the host ops are called with that lock held.
 */
#ifndef MALI_MODEL_H
#define MALI_MODEL_H

#include "mali_model_port.h"

/* Interrupt lines, in the order of a device-tree node's interrupt-names */
enum mali_model_irq {
	MALI_MODEL_IRQ_JOB,
	MALI_MODEL_IRQ_MMU,
	MALI_MODEL_IRQ_GPU,
	MALI_MODEL_NR_IRQS,
};

/* One-shot timers the model asks its host for */
enum mali_model_timer {
	MALI_MODEL_TIMER_SAMPLE,	/* a PRFCNT_SAMPLE completes */
	MALI_MODEL_TIMER_CLEAN,		/* a cache clean completes */
	MALI_MODEL_TIMER_RESET,		/* a soft/hard reset completes */
	MALI_MODEL_TIMER_POWER,		/* a power transition completes */
	MALI_MODEL_TIMER_AS,		/* an AS_COMMAND completes */
	MALI_MODEL_TIMER_STALL,		/* a write stalled on a LOCK too long */
	MALI_MODEL_TIMER_JS0,		/* job slot 0's jobs in flight complete */
	MALI_MODEL_TIMER_JS1,
	MALI_MODEL_TIMER_JS2,
	MALI_MODEL_NR_TIMERS,
};

/**
 * struct mali_model_host_ops - what a host provides
 * @mem_read: read @len bytes of bus memory at physical address @pa.
 *	Return 0, or non-zero for a bus error (no memory there).
 * @mem_write: write @len bytes at @pa; 0 or non-zero as @mem_read.
 * @set_irq: drive interrupt line @line (&enum mali_model_irq) to @level.
 *	Called whenever the level may have changed (the host may see the same
 *	level twice). Lines are level-triggered: high while RAWSTAT & MASK.
 * @timer_arm: call mali_model_timer(@timer) once, @ns nanoseconds from now.
 *	Arming an armed timer moves it.
 * @timer_cancel: the timer must not fire (any more).
 * @now_ns: a monotonic clock in nanoseconds (the model's time base: the
 *	TIMESTAMP register, the workload model and the cycle counter).
 * @report: the model saw a driver error hardware would not report but
 *	would suffer from (e.g. a write through a stale TLB entry into memory
 *	the tables no longer map). One line, no newline. The host logs it in
 *	a way tests look for ("mali_model: driver error: ..."). Reported so
 *	far: a sample through a stale TLB entry (not written); a reserved
 *	TRANSTAB/TRANSCFG address mode latched by AS_COMMAND_UPDATE; the L2
 *	powered off while shader cores or the tiler are powered; an
 *	AS_COMMAND written while AS_STATUS is ACTIVE; an L2 writeback to a
 *	physical address with no memory; a dump write stalled on a LOCKed
 *	region for MM_STALL_REPORT_NS (the driver never unlocked); a
 *	PRFCNT_SAMPLE with the L2 powered off (it never completes); an
 *	AArch64-format address space whose TRANSCFG INA_BITS gives no valid
 *	input size; a GPU memory access while COHERENCY_ENABLE does not match
 *	the integration (coherent: NONE or a protocol the GPU does not offer;
 *	not coherent: anything but NONE); a job chain started with the L2
 *	or every core of its affinity powered off (it waits for them); a job
 *	that waits on a dependency no earlier job of its chain has (it never
 *	starts); a chain that has run 65536 jobs (a loop); a 32-bit job
 *	descriptor (not modelled: JOB_CONFIG_FAULT).
 */
struct mali_model_host_ops {
	int (*mem_read)(void *host, uint64_t pa, void *buf, size_t len);
	int (*mem_write)(void *host, uint64_t pa, const void *buf, size_t len);
	void (*set_irq)(void *host, unsigned int line, bool level);
	void (*timer_arm)(void *host, unsigned int timer, uint64_t ns);
	void (*timer_cancel)(void *host, unsigned int timer);
	uint64_t (*now_ns)(void *host);
	void (*report)(void *host, const char *msg);
};

/**
 * struct mali_model_config - the GPU to model
 * @product: product name, e.g. "g52", "t720" (mali_model_products()).
 * @shader_present: SHADER_PRESENT, 0 for the product's default.
 * @l2_slices: L2 slices (v5 layouts), 0 for the product's default.
 * @mhz: modelled GPU clock in MHz, 0 for the product's default.
 * @va_bits: MMU_FEATURES VA width, 0 for the product's default (G31 33,
 *	G52 35, others 48); 32..48. A VA at or above 2^va_bits faults with
 *	an address size fault.
 * @pa_bits: MMU_FEATURES PA width, 0 for the product's default (40);
 *	32..48.
 * @coherent: the integration is I/O coherent (the GPU's port snoops the
 *	CPU caches; the device tree says dma-coherent): from Bifrost on the
 *	driver must select a protocol in COHERENCY_ENABLE before the GPU
 *	touches memory. Not checked on Midgard, which has no such register.
 * @coherency_reset: COHERENCY_ENABLE after reset, "none", "ace-lite" or
 *	"ace"; NULL for "none". Implementation defined on hardware, so a
 *	driver programs it whatever the integration.
 */
struct mali_model_config {
	const char *product;
	uint64_t shader_present;
	uint32_t l2_slices;
	uint32_t mhz;
	uint32_t va_bits;
	uint32_t pa_bits;
	bool coherent;
	const char *coherency_reset;
};

struct mali_model;

/* Size of struct mali_model; the host allocates it zeroed and aligned to 8. */
size_t mali_model_size(void);

/*
 * mali_model_init() - set a model up as @cfg says, in its reset state.
 * On error returns -1 and writes one line saying what was wrong into @err.
 */
int mali_model_init(struct mali_model *m, const struct mali_model_config *cfg,
		    const struct mali_model_host_ops *ops, void *host,
		    char *err, size_t errlen);

/* Quiesce: cancels the timers; no host op is called after it returns. */
void mali_model_fini(struct mali_model *m);

/* 32-bit register access at byte offset @reg of the GPU's register window. */
uint32_t mali_model_read(struct mali_model *m, uint32_t reg);
void mali_model_write(struct mali_model *m, uint32_t reg, uint32_t val);

/* Size of the register window in bytes. */
#define MALI_MODEL_REG_WINDOW	0x4000

/* A timer armed through &mali_model_host_ops.timer_arm fired. */
void mali_model_timer(struct mali_model *m, unsigned int timer);

/*
 * Text controls shared by the hosts (kernel debugfs sim_workload/sim_fault,
 * QEMU device properties or QMP). Each returns 0, or -1 with one line in
 * @err saying what is accepted.
 *   workload: "idle" | "busy=N" (N = 0..100)
 *   fault:    "none" | "drop_irq" | "delay=MS" | "stuck_clean" | "gpu_fault"
 *             | "soft_reset_stuck" | "dead" | "late_irq=MS" (see mali_model.c)
 * The _show functions write the current value (no newline) into @buf.
 */
int mali_model_set_workload(struct mali_model *m, const char *text,
			    char *err, size_t errlen);
void mali_model_show_workload(struct mali_model *m, char *buf, size_t len);
int mali_model_set_fault(struct mali_model *m, const char *text,
			 char *err, size_t errlen);
void mali_model_show_fault(struct mali_model *m, char *buf, size_t len);
/*
 * Milliseconds the host should stall the reader of the last register read
 * (fault late_irq=MS), 0 for none; reading clears it.
 */
uint32_t mali_model_take_stall_ms(struct mali_model *m);
/* The power domain was cut: all state is lost, as after power-on. */
void mali_model_power_loss(struct mali_model *m);
/* late_irq is armed: deliver interrupts where a stall holds up nothing. */
bool mali_model_late_irq_armed(const struct mali_model *m);

/* What the model was configured as (after defaults were applied). */
uint32_t mali_model_gpu_id(const struct mali_model *m);
uint64_t mali_model_shader_present(const struct mali_model *m);
uint32_t mali_model_l2_slices(const struct mali_model *m);
uint64_t mali_model_clock_hz(const struct mali_model *m);
/* Bytes of one dump (the layout's size). */
uint32_t mali_model_dump_size(const struct mali_model *m);

/**
 * struct mali_model_js_stats - what one job slot ran since the model was set up
 * @chains: job chains started (COMMAND_NEXT START taken).
 * @done: chains that completed (JOB_IRQ DONE).
 * @failed: chains that ended with a fault, STOPPED or TERMINATED.
 * @jobs: jobs completed (exception_status DONE).
 * @busy_ns: model time the slot ran a chain (JSn_ACTIVE in nanoseconds).
 */
struct mali_model_js_stats {
	uint64_t chains;
	uint64_t done;
	uint64_t failed;
	uint64_t jobs;
	uint64_t busy_ns;
};

/* Slot @js's statistics; 0 for js < 3, -1 otherwise. Kept across resets. */
int mali_model_js_stats(const struct mali_model *m, unsigned int js,
			struct mali_model_js_stats *st);
/* Model time any slot ran a chain (GPU_ACTIVE from jobs), in nanoseconds. */
uint64_t mali_model_jobs_busy_ns(const struct mali_model *m);

/* Driver errors reported through &mali_model_host_ops.report so far. */
uint32_t mali_model_nr_reports(const struct mali_model *m);

/* Space-separated product names, e.g. "t600 t720 ... g57". */
const char *mali_model_products(void);

#endif /* MALI_MODEL_H */
