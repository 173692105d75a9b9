/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mali_perfcnt: the host's types (mali_perfcnt.ko as a host of the counter
 * core, kernel/core/) and the map of the host's files.
 */
#ifndef MPC_DRV_H
#define MPC_DRV_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "mpc_core.h"

struct clk;
struct reset_control;
struct regulator_bulk_data;
struct mpc_soc_data;
struct drm_file;
struct mpc_sim;

#define MPC_DRIVER_NAME		"mali_perfcnt"
#define MPC_SIM_DEVICE_NAME	"mali-perfcnt-sim"

/* The address space PERFCNT_CFG.AS selects; this driver owns the whole GPU. */
#define MPC_PERFCNT_AS		0

/**
 * struct mpc_io - how the driver reaches the GPU's registers
 * @read: read a 32-bit register at @reg.
 * @write: write a 32-bit register at @reg.
 *
 * Real hardware uses MMIO; the simulator implements the same two calls
 * behind which it models the register file. Nothing else crosses.
 */
struct mpc_io {
	u32 (*read)(void *ctx, u32 reg);
	void (*write)(void *ctx, u32 reg, u32 val);
};

/**
 * struct mpc_pt_page - one page of translation table
 * @node: entry in &mpc_vm.tables.
 * @page: backing page.
 * @cpu: kernel mapping of @page; descriptors are little-endian.
 * @dma: address the GPU's MMU reads it at.
 */
struct mpc_pt_page {
	struct list_head node;
	struct page *page;
	__le64 *cpu;
	dma_addr_t dma;
};

struct io_pgtable_ops;
struct mpc_vm_backend;

/**
 * struct mpc_vm - the translation tables of the perfcnt address space
 * @backend: who writes the tables (see mpc_mmu.c), NULL when not set up.
 * @transtab: AS_TRANSTAB value that points the MMU at the tables.
 * @memattr: AS_MEMATTR value matching the tables' attribute indices.
 * @tables: builtin backend: every table page; the first is the root.
 * @root: builtin backend: level-0 table.
 * @iop: io-pgtable backend: the kernel's page-table operations.
 */
struct mpc_vm {
	const struct mpc_vm_backend *backend;
	u64 transtab;
	u64 memattr;
	struct list_head tables;
	struct mpc_pt_page *root;
	struct io_pgtable_ops *iop;
};

/**
 * struct mpc_dump_buf - the buffer the GPU writes samples into
 * @dma_base: DMA address of the buffer (one dma_alloc_noncoherent()
 *	allocation, see mpc_perfcnt.c).
 * @dma: DMA address of each page, for the GPU's tables.
 * @nr_pages: number of pages.
 * @vaddr: cached kernel mapping of the buffer; read only between
 *	dma_sync_single_for_cpu() and the next dma_sync_single_for_device().
 * @gpu_va: GPU virtual address the buffer is mapped at.
 * @mapped: the buffer's translation is live in @vm.
 * @vm: translation tables of the address space.
 */
struct mpc_dump_buf {
	dma_addr_t dma_base;
	dma_addr_t *dma;
	unsigned int nr_pages;
	void *vaddr;
	u64 gpu_va;
	bool mapped;
	struct mpc_vm vm;
};

/**
 * struct mpc_file - what the driver keeps per open render node
 * @owner: the file as an owner of the counters (ENABLE, DUMP).
 */
struct mpc_file {
	struct mpc_perfcnt_owner owner;
};

/* The counter owner of an open render node. */
static inline struct mpc_perfcnt_owner *mpc_file_owner(struct drm_file *file)
{
	return &((struct mpc_file *)file->driver_priv)->owner;
}

/**
 * struct mpc_hdev - one GPU, as mali_perfcnt.ko hosts the counter core
 * @drm: the DRM device (must be first for container_of users).
 * @core: the counter core's state (kernel/core/), whose host this is.
 * @dev: the platform device's struct device.
 * @io: register accessors.
 * @io_ctx: MMIO base or simulator instance, passed to @io.
 * @sim: the simulator behind @io, or NULL on real hardware.
 * @clks: bulk clocks (real hardware).
 * @nr_clks: number of @clks.
 * @supplies: the supplies &mpc_device.soc names (real hardware).
 * @nr_supplies: number of @supplies.
 * @rstc: optional reset lines (real hardware).
 * @soc: what the SoC's integration needs (mpc_soc.c).
 * @soc_compatible: the compatible @soc was matched by.
 * @soc_down: MPC_SOC_DOWN_* steps of the power-down that are in effect.
 * @coherent: the GPU's memory accesses are cache coherent with the CPU.
 * @coherency_mode: the protocol written to COHERENCY_ENABLE after every
 *	reset from Bifrost on (COHERENCY_ACE_LITE, COHERENCY_ACE or
 *	COHERENCY_NONE); Midgard has no such register.
 * @jm_config: written to JM_CONFIG after every reset when non-zero: the
 *	G71's FORCE_COHERENCY_FEATURES quirk (mpc_gpu_read_features()).
 * @gpu_irq: Linux IRQ number of the GPU line.
 * @mmu_irq: Linux IRQ number of the MMU line.
 * @suspended: the GPU is runtime-suspended: IRQ handlers must not touch it.
 * @vm_backend: how translation tables are written for this GPU.
 * @buf: the dump buffer and its address space (mpc_host.c), while the
 *	core has the counters enabled.
 */
struct mpc_hdev {
	struct drm_device drm;
	struct mpc_device core;
	struct device *dev;
	const struct mpc_io *io;
	void *io_ctx;
	struct mpc_sim *sim;
	struct clk_bulk_data *clks;
	int nr_clks;
	struct regulator_bulk_data *supplies;
	unsigned int nr_supplies;
	struct reset_control *rstc;
	const struct mpc_soc_data *soc;
	const char *soc_compatible;
	/*
	 * Written by probe, unbind and the PM callbacks only (the PM core
	 * serialises them); read locklessly by debugfs.
	 */
	u32 soc_down;
	bool coherent;
	u32 coherency_mode;
	u32 jm_config;
	int gpu_irq;
	int mmu_irq;
	atomic_t suspended;
	/* debugfs power_policy "follow"; read at enable (mpc_host.c) */
	bool power_follows;
	const struct mpc_vm_backend *vm_backend;
	struct mpc_dump_buf buf;
};

#define to_mpc_hdev(d) container_of(d, struct mpc_hdev, drm)

static inline u32 gpu_read(struct mpc_hdev *mdev, u32 reg)
{
	return mdev->io->read(mdev->io_ctx, reg);
}

static inline void gpu_write(struct mpc_hdev *mdev, u32 reg, u32 val)
{
	mdev->io->write(mdev->io_ctx, reg, val);
}

static inline u64 gpu_read64(struct mpc_hdev *mdev, u32 lo)
{
	return gpu_read(mdev, lo) | ((u64)gpu_read(mdev, lo + 4) << 32);
}

static inline void gpu_write64(struct mpc_hdev *mdev, u32 lo, u64 val)
{
	gpu_write(mdev, lo, lower_32_bits(val));
	gpu_write(mdev, lo + 4, upper_32_bits(val));
}

/* mpc_host.c: the core's host_ops, the dump buffer, the access policy */
extern const struct mpc_host_ops mpc_host_ops;
int __must_check mpc_host_policy_init(void);
void mpc_host_policy_exit(void);

/* mpc_gpu.c */
int __must_check mpc_gpu_init(struct mpc_hdev *mdev);
int __must_check mpc_gpu_soft_reset(struct mpc_hdev *mdev);
int __must_check mpc_gpu_reset(struct mpc_hdev *mdev);
int __must_check mpc_gpu_poll(struct mpc_hdev *mdev, u32 reg, bool wide, u64 mask, u64 want,
			      u32 spin_us, u32 timeout_us, u64 *last);
int __must_check mpc_gpu_power_on(struct mpc_hdev *mdev);
int __must_check mpc_gpu_power_off(struct mpc_hdev *mdev);
void mpc_gpu_irq_mask_set(struct mpc_hdev *mdev);
void mpc_gpu_irq_mask_clear(struct mpc_hdev *mdev);

/* mpc_mmu.c */
int __must_check mpc_mmu_init(struct mpc_hdev *mdev);
int __must_check mpc_mmu_irq_init(struct mpc_hdev *mdev);
const char *mpc_vm_backend_name(struct mpc_hdev *mdev);
u32 mpc_mmu_pa_bits(struct mpc_hdev *mdev);
u32 mpc_mmu_va_bits(struct mpc_hdev *mdev);
int __must_check mpc_vm_init(struct mpc_hdev *mdev, struct mpc_vm *vm);
int __must_check mpc_vm_check_range(struct mpc_hdev *mdev, u64 va, u64 size);
int __must_check mpc_vm_map(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
			    const dma_addr_t *dma, unsigned int nr_pages);
void mpc_vm_unmap(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
		  unsigned int nr_pages);
void mpc_vm_free(struct mpc_hdev *mdev, struct mpc_vm *vm);
unsigned int mpc_vm_leak(struct mpc_hdev *mdev, struct mpc_vm *vm);
int __must_check mpc_mmu_as_enable(struct mpc_hdev *mdev, struct mpc_vm *vm);
int __must_check mpc_mmu_as_disable(struct mpc_hdev *mdev);
int __must_check mpc_mmu_flush(struct mpc_hdev *mdev, u64 va, u64 size, u32 cmd);

/* sim/mpc_sim.c: the simulated GPU, built with MPC_SIM=1 only */
#ifdef MPC_SIM
int mpc_sim_create(const char *product, u64 cores, u32 l2_slices, u32 mhz,
		   u32 va_bits, u32 pa_bits, struct mpc_sim **out);
void mpc_sim_destroy(struct mpc_sim *sim);
const struct mpc_io *mpc_sim_io(void);
int mpc_sim_irq(struct mpc_sim *sim, const char *name);
u64 mpc_sim_clock_hz(struct mpc_sim *sim);
void mpc_sim_power(struct mpc_sim *sim, bool on);
void mpc_sim_debugfs_init(struct mpc_sim *sim, struct dentry *root);
int mpc_sim_attach_pm_domain(struct mpc_sim *sim, struct device *dev);
void mpc_sim_attach_dma(struct mpc_sim *sim, struct device *dev);
#else
/* mdev->sim is always NULL without the simulator: never called */
static inline void mpc_sim_power(struct mpc_sim *sim, bool on)
{
}

static inline void mpc_sim_debugfs_init(struct mpc_sim *sim, struct dentry *root)
{
}
#endif

#endif /* MPC_DRV_H */
