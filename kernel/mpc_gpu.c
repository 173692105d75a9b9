// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: GPU control block: identification (with the core's product
 * table, kernel/core/mpc_product.c), reset, power domains and the GPU
 * interrupt line.
 */
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/kernel.h>
#include <linux/reset.h>

#include "mpc_drv.h"
#include "mpc_soc.h"

#define MPC_RESET_TIMEOUT_US	100000
#define MPC_POWER_TIMEOUT_US	100000
/*
 * A power transition takes tens to hundreds of microseconds: spin that
 * long before sleeping, so enabling the counters does not stretch by a
 * scheduler round trip per domain.
 */
#define MPC_POWER_SPIN_US	1000

/* The interrupts this driver handles; everything else stays masked. */
#define MPC_GPU_IRQ_MASK	(GPU_IRQ_FAULT | GPU_IRQ_MULTIPLE_FAULT | \
				 GPU_IRQ_PERFCNT_SAMPLE_COMPLETED | \
				 GPU_IRQ_CLEAN_CACHES_COMPLETED)

static u64 mpc_poll_read(struct mpc_hdev *mdev, u32 reg, bool wide)
{
	return wide ? gpu_read64(mdev, reg) : gpu_read(mdev, reg);
}

/**
 * mpc_gpu_poll() - wait for a register to reach a value, spinning first
 * @mdev: device.
 * @reg: register (the LO half when @wide).
 * @wide: a 64-bit LO/HI pair.
 * @mask: bits to compare.
 * @want: wanted value of the bits in @mask.
 * @spin_us: busy-wait this long first (transitions that usually finish in
 *	microseconds should not cost a scheduler round trip), then sleep.
 * @timeout_us: give up after this long in all.
 * @last: receives the last value read.
 *
 * The caller may sleep.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_gpu_poll(struct mpc_hdev *mdev, u32 reg, bool wide, u64 mask, u64 want,
		 u32 spin_us, u32 timeout_us, u64 *last)
{
	u64 val;
	int ret;

	ret = read_poll_timeout_atomic(mpc_poll_read, val, (val & mask) == want,
				       1, spin_us, false, mdev, reg, wide);
	if (ret && timeout_us > spin_us)
		ret = read_poll_timeout(mpc_poll_read, val, (val & mask) == want,
					10, timeout_us - spin_us, false, mdev, reg, wide);
	*last = val;
	return ret;
}

/*
 * Issue one reset command and poll RESET_COMPLETED with the interrupt
 * masked, so it works before the IRQ handler is installed and from the
 * recovery path alike.
 */
static int __must_check mpc_gpu_reset_cmd(struct mpc_hdev *mdev, u32 cmd)
{
	u32 raw;

	gpu_write(mdev, GPU_INT_MASK, 0);
	gpu_write(mdev, GPU_INT_CLEAR, GPU_IRQ_RESET_COMPLETED);
	if (cmd)
		gpu_write(mdev, GPU_CMD, cmd);
	return read_poll_timeout(gpu_read, raw, raw & GPU_IRQ_RESET_COMPLETED,
				 10, MPC_RESET_TIMEOUT_US, false,
				 mdev, GPU_INT_RAWSTAT);
}

/*
 * JM_CONFIG (implementation specific, reset with the GPU): on the G71
 * (tMIx) its FORCE_COHERENCY_FEATURES field, a COHERENCY_FEATURES-style
 * mask at bit 2, sets the protocols the GPU honours; its
 * COHERENCY_FEATURES reads ACE alone although ACE-Lite works too (kbase's
 * and panfrost's G71 quirk). Not in the core's mpc_regs.h: a host driver
 * (panfrost) has its own JM_CONFIG quirks.
 */
#define GPU_JM_CONFIG				0xf00
#define   JM_FORCE_COHERENCY_FEATURES_SHIFT	2
#define MPC_PRODUCT_G71				0x6000

/*
 * COHERENCY_ENABLE is reset with the GPU and its reset value is
 * implementation defined (Arm's panthor fix: "it may not be always aligned
 * with the dma-coherent property"); kbase programs it after every reset.
 * Before the probe read GPU_ID (its first reset) nothing is written: the
 * GPU touches no memory before mpc_gpu_coherency_init() programmed it.
 */
static void mpc_gpu_coherency_apply(struct mpc_hdev *mdev)
{
	if (!mpc_gpu_has_transcfg(mdev->core.features.gpu_id))
		return;
	if (mdev->jm_config)
		gpu_write(mdev, GPU_JM_CONFIG, mdev->jm_config);
	gpu_write(mdev, GPU_COHERENCY_ENABLE, mdev->coherency_mode);
}

static void mpc_gpu_reset_done(struct mpc_hdev *mdev)
{
	gpu_write(mdev, GPU_INT_CLEAR, ~0U);
	/* Job interrupts belong to a job scheduler this driver does not have */
	gpu_write(mdev, JOB_INT_MASK, 0);
	mpc_gpu_coherency_apply(mdev);
	/* A reset clears what the SoC's integration needs set */
	mpc_soc_reset_quirks(mdev);
}

/*
 * Pick the bus protocol from COHERENCY_FEATURES and what the device tree
 * says (dma-coherent, mdev->coherent), and program it. A coherent node gets
 * ACE-Lite, the one-way coherency an I/O master needs, or full ACE where
 * that is all the GPU offers (both make the GPU snoop the CPU caches, which
 * is what coherent_walk and the skipped dma_sync calls rely on); NONE
 * otherwise. A coherent node on a GPU that offers no protocol cannot be
 * right: refused. Midgard has no coherency registers, and its integrations
 * set coherency up outside the GPU: nothing to program or check.
 */
static int mpc_gpu_coherency_init(struct mpc_hdev *mdev)
{
	u32 features = mdev->core.features.coherency_features;

	if (!mpc_gpu_has_transcfg(mdev->core.features.gpu_id))
		return 0;
	if (!mdev->coherent) {
		mdev->coherency_mode = COHERENCY_NONE;
	} else if (features & BIT(COHERENCY_ACE_LITE)) {
		mdev->coherency_mode = COHERENCY_ACE_LITE;
	} else if (features & BIT(COHERENCY_ACE)) {
		mdev->coherency_mode = COHERENCY_ACE;
	} else {
		drm_err(&mdev->drm,
			"the node is dma-coherent, but the GPU offers no coherency protocol (COHERENCY_FEATURES 0x%x): drop dma-coherent from the device tree\n",
			features);
		return -ENODEV;
	}
	mpc_gpu_coherency_apply(mdev);
	drm_dbg_driver(&mdev->drm, "COHERENCY_FEATURES 0x%x, COHERENCY_ENABLE %u\n",
		       features, mdev->coherency_mode);
	return 0;
}

/**
 * mpc_gpu_soft_reset() - reset the GPU and wait for it
 * @mdev: device.
 *
 * Every register returns to its reset value: callers reprogram what they
 * need. See mpc_gpu_reset() for a GPU that may not answer.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_gpu_soft_reset(struct mpc_hdev *mdev)
{
	int ret = mpc_gpu_reset_cmd(mdev, GPU_CMD_SOFT_RESET);

	if (ret) {
		drm_err(&mdev->drm, "GPU soft reset timed out\n");
		return ret;
	}
	mpc_gpu_reset_done(mdev);
	return 0;
}

/**
 * mpc_gpu_reset() - reset a GPU that stopped answering, escalating
 * @mdev: device, with the IRQ handlers installed.
 *
 * The interrupts are masked and the handlers waited for first, so no
 * handler that read the interrupt status before the reset acts after it.
 * Then a soft reset; if that does not complete, HARD_RESET; if that does
 * not either and the SoC gives the GPU a reset line, the line is pulsed
 * (the GPU then reports RESET_COMPLETED as after power-on).
 *
 * Return: the level that worked (&enum mpc_reset_level), or -ETIMEDOUT
 * when the GPU answered none: it may still be writing to memory.
 */
int mpc_gpu_reset(struct mpc_hdev *mdev)
{
	int ret;

	mpc_gpu_irq_mask_clear(mdev);
	synchronize_irq(mdev->gpu_irq);
	synchronize_irq(mdev->mmu_irq);

	if (!mpc_gpu_reset_cmd(mdev, GPU_CMD_SOFT_RESET)) {
		mpc_gpu_reset_done(mdev);
		return MPC_RESET_SOFT;
	}
	drm_warn(&mdev->drm, "GPU soft reset timed out, trying a hard reset\n");
	if (!mpc_gpu_reset_cmd(mdev, GPU_CMD_HARD_RESET)) {
		mpc_gpu_reset_done(mdev);
		return MPC_RESET_HARD;
	}
	if (!mdev->rstc) {
		drm_err(&mdev->drm, "GPU hard reset timed out, and it has no reset line\n");
		return -ETIMEDOUT;
	}
	drm_warn(&mdev->drm, "GPU hard reset timed out, pulsing its reset line\n");
	gpu_write(mdev, GPU_INT_CLEAR, GPU_IRQ_RESET_COMPLETED);
	ret = reset_control_assert(mdev->rstc);
	if (!ret) {
		usleep_range(10, 20);
		ret = reset_control_deassert(mdev->rstc);
	}
	if (!ret)
		ret = mpc_gpu_reset_cmd(mdev, 0);
	/* Some integrations do not signal the end of a line reset: ask again */
	if (ret)
		ret = mpc_gpu_reset_cmd(mdev, GPU_CMD_SOFT_RESET);
	if (ret) {
		drm_err(&mdev->drm, "GPU did not answer after a reset line pulse (%d)\n", ret);
		return -ETIMEDOUT;
	}
	mpc_gpu_reset_done(mdev);
	return MPC_RESET_LINE;
}

/**
 * mpc_gpu_irq_mask_set() - unmask the GPU and MMU interrupts we handle
 * @mdev: device.
 */
void mpc_gpu_irq_mask_set(struct mpc_hdev *mdev)
{
	gpu_write(mdev, GPU_INT_CLEAR, MPC_GPU_IRQ_MASK);
	gpu_write(mdev, GPU_INT_MASK, MPC_GPU_IRQ_MASK);
	gpu_write(mdev, MMU_INT_CLEAR, ~0U);
	gpu_write(mdev, MMU_INT_MASK, MMU_IRQ_PAGE_FAULT(MPC_PERFCNT_AS) |
				      MMU_IRQ_BUS_ERROR(MPC_PERFCNT_AS));
}

/**
 * mpc_gpu_irq_mask_clear() - mask every GPU and MMU interrupt
 * @mdev: device.
 */
void mpc_gpu_irq_mask_clear(struct mpc_hdev *mdev)
{
	gpu_write(mdev, GPU_INT_MASK, 0);
	gpu_write(mdev, MMU_INT_MASK, 0);
}

static int __must_check mpc_power_domain_on(struct mpc_hdev *mdev, const char *name,
					    u32 pwron_lo, u32 ready_lo, u64 present)
{
	u64 ready;
	int ret;

	gpu_write64(mdev, pwron_lo, present);
	ret = mpc_gpu_poll(mdev, ready_lo, true, present, present,
			   MPC_POWER_SPIN_US, MPC_POWER_TIMEOUT_US, &ready);
	if (ret)
		drm_err(&mdev->drm, "%s did not power up: ready 0x%llx, want 0x%llx\n",
			name, ready, present);
	return ret;
}

/**
 * mpc_gpu_power_on() - power the L2, tiler and shader cores
 * @mdev: device.
 *
 * Counters of a block that has no power do not count, so every present
 * block is powered while the counters are enabled.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_gpu_power_on(struct mpc_hdev *mdev)
{
	const struct mpc_features *f = &mdev->core.features;
	int ret;

	ret = mpc_power_domain_on(mdev, "L2", GPU_L2_PWRON_LO, GPU_L2_READY_LO,
				  f->l2_present);
	if (ret)
		return ret;
	ret = mpc_power_domain_on(mdev, "tiler", GPU_TILER_PWRON_LO,
				  GPU_TILER_READY_LO, f->tiler_present);
	if (ret)
		return ret;
	return mpc_power_domain_on(mdev, "shader cores", GPU_SHADER_PWRON_LO,
				   GPU_SHADER_READY_LO, f->shader_present);
}

static int mpc_power_domain_off(struct mpc_hdev *mdev, const char *name,
				u32 pwroff_lo, u32 pwrtrans_lo, u64 present)
{
	u64 trans;
	int ret;

	gpu_write64(mdev, pwroff_lo, present);
	ret = mpc_gpu_poll(mdev, pwrtrans_lo, true, present, 0,
			   MPC_POWER_SPIN_US, MPC_POWER_TIMEOUT_US, &trans);
	if (ret)
		drm_err(&mdev->drm, "%s did not power down: transitioning 0x%llx\n",
			name, trans);
	return ret;
}

/**
 * mpc_gpu_power_off() - power the shader cores, tiler and L2 down
 * @mdev: device.
 *
 * In that order, each after the previous finished its transition (PWRTRANS
 * clear): the cores need the L2 until they are off. When a domain does not
 * finish, the L2 is left on and the caller resets the GPU (a reset powers
 * every domain down).
 *
 * Return: 0, or -ETIMEDOUT when a domain is still in transition.
 */
int mpc_gpu_power_off(struct mpc_hdev *mdev)
{
	const struct mpc_features *f = &mdev->core.features;
	int ret;

	ret = mpc_power_domain_off(mdev, "shader cores", GPU_SHADER_PWROFF_LO,
				   GPU_SHADER_PWRTRANS_LO, f->shader_present);
	if (!ret)
		ret = mpc_power_domain_off(mdev, "tiler", GPU_TILER_PWROFF_LO,
					   GPU_TILER_PWRTRANS_LO, f->tiler_present);
	if (!ret)
		ret = mpc_power_domain_off(mdev, "L2", GPU_L2_PWROFF_LO,
					   GPU_L2_PWRTRANS_LO, f->l2_present);
	return ret;
}

/*
 * The handlers read the reset generation before the status: what they
 * read is then known to be from that generation or a later one, and
 * mpc_perfcnt_*_irq() drop it when a reset came in between.
 */
static irqreturn_t mpc_gpu_irq_handler(int irq, void *data)
{
	struct mpc_hdev *mdev = data;
	u32 status, gen;

	if (atomic_read(&mdev->suspended))
		return IRQ_NONE;

	gen = mpc_perfcnt_irq_gen(&mdev->core);
	status = gpu_read(mdev, GPU_INT_STAT);
	if (!status)
		return IRQ_NONE;

	gpu_write(mdev, GPU_INT_CLEAR, status);
	mpc_perfcnt_gpu_irq(&mdev->core, status, gen);
	return IRQ_HANDLED;
}

static void mpc_gpu_read_features(struct mpc_hdev *mdev)
{
	struct mpc_features *f = &mdev->core.features;

	f->gpu_id = gpu_read(mdev, GPU_ID);
	f->l2_features = gpu_read(mdev, GPU_L2_FEATURES);
	f->mem_features = gpu_read(mdev, GPU_MEM_FEATURES);
	f->mmu_features = gpu_read(mdev, GPU_MMU_FEATURES);
	f->as_present = gpu_read(mdev, GPU_AS_PRESENT);
	if (mpc_gpu_has_transcfg(f->gpu_id))
		f->coherency_features = gpu_read(mdev, GPU_COHERENCY_FEATURES);
	/*
	 * The G71 reports ACE alone; forced to what it really offers, it takes
	 * ACE-Lite, which an I/O-coherent integration needs. The force is
	 * rewritten after every reset with COHERENCY_ENABLE.
	 */
	if (GPU_ID_PRODUCT(f->gpu_id) == MPC_PRODUCT_G71 &&
	    f->coherency_features == BIT(COHERENCY_ACE)) {
		f->coherency_features = BIT(COHERENCY_ACE_LITE) | BIT(COHERENCY_ACE);
		mdev->jm_config = f->coherency_features << JM_FORCE_COHERENCY_FEATURES_SHIFT;
	}
	f->shader_present = gpu_read64(mdev, GPU_SHADER_PRESENT_LO);
	f->tiler_present = gpu_read64(mdev, GPU_TILER_PRESENT_LO);
	f->l2_present = gpu_read64(mdev, GPU_L2_PRESENT_LO);
	f->product = mpc_product_lookup(f->gpu_id);
	f->hw_issue_8186 = mpc_has_hw_issue_8186(f->gpu_id);
}

/**
 * mpc_gpu_init() - reset the GPU, read what it has, install the IRQ handlers
 * @mdev: device, powered.
 *
 * Return: 0 or a negative errno.
 */
int mpc_gpu_init(struct mpc_hdev *mdev)
{
	struct mpc_features *f = &mdev->core.features;
	int ret;

	ret = mpc_gpu_soft_reset(mdev);
	if (ret)
		return ret;
	mpc_gpu_irq_mask_clear(mdev);
	mpc_gpu_read_features(mdev);

	ret = mpc_layout_compute(&f->layout, f->product->v4_layout,
				 f->shader_present, f->l2_present, f->mem_features);
	if (ret) {
		drm_err(&mdev->drm, "unusable core masks: shader 0x%llx l2 0x%llx\n",
			f->shader_present, f->l2_present);
		return ret;
	}
	if (!(f->as_present & BIT(MPC_PERFCNT_AS))) {
		drm_err(&mdev->drm, "address space %d absent (AS_PRESENT 0x%x)\n",
			MPC_PERFCNT_AS, f->as_present);
		return -ENODEV;
	}
	ret = mpc_gpu_coherency_init(mdev);
	if (ret)
		return ret;

	drm_info(&mdev->drm, "%s id 0x%08x (r%up%u status %u)%s\n",
		 f->product->name, f->gpu_id, GPU_ID_VERSION_MAJOR(f->gpu_id),
		 GPU_ID_VERSION_MINOR(f->gpu_id), GPU_ID_VERSION_STATUS(f->gpu_id),
		 mdev->sim ? " [simulated]" : "");
	drm_info(&mdev->drm,
		 "shader_present 0x%llx l2_present 0x%llx, %u L2 slice(s), %s layout, dump %u bytes\n",
		 f->shader_present, f->l2_present, f->layout.nr_l2,
		 f->layout.v4 ? "v4" : "v5", f->layout.dump_size);

	ret = devm_request_irq(mdev->dev, mdev->gpu_irq, mpc_gpu_irq_handler,
			       IRQF_SHARED, "mali_perfcnt-gpu", mdev);
	if (ret)
		return ret;
	ret = mpc_mmu_irq_init(mdev);
	if (ret)
		return ret;

	mpc_gpu_irq_mask_set(mdev);
	return 0;
}
