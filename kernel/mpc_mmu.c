// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: the GPU's MMU, as far as the counter dump needs it.
 *
 * PERFCNT_CFG.AS names the address space through which the GPU writes the
 * dump, so the buffer needs a GPU virtual address in that address space.
 * The tables are in the legacy Mali LPAE format (4 KiB granule, four levels,
 * 48-bit VA), which every job-manager Mali from T600 to the Valhall-JM parts
 * walks, and AS_TRANSTAB points at them. The MMU's identity mode would be
 * simpler but is not a mode every JM GPU offers, and real translation keeps
 * the GPU unable to write anywhere but our buffer.
 *
 * Two backends write the tables, behind struct mpc_vm_backend:
 *  - "io-pgtable": the kernel's ARM_MALI_LPAE page-table code, as panfrost
 *    uses it. Built where the kernel has it (arm64; x86 debug kernels).
 *  - "builtin": a minimal writer of the same format, for kernels without
 *    io-pgtable (the x86_64 Debian kernels). The dump is a few pages, so it
 *    only ever needs one table per level.
 * Module parameter pgtable=auto|builtin|io-pgtable picks one (auto prefers
 * io-pgtable).
 *
 * The MMU interrupt line is handled here too: the fault is decoded and
 * logged, and the counter unit told (mpc_perfcnt_mmu_fault()).
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/io-pgtable.h>
#include <linux/kmemleak.h>
#include <linux/iopoll.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "mpc_drv.h"

#define MPC_AS_TIMEOUT_US	10000
/* An AS command takes microseconds: spin that long before sleeping */
#define MPC_AS_SPIN_US		100

static char *mpc_pgtable = "auto";
module_param_named(pgtable, mpc_pgtable, charp, 0444);
MODULE_PARM_DESC(pgtable, "Translation table writer: auto, builtin or io-pgtable");

/**
 * struct mpc_vm_backend - a writer of Mali LPAE translation tables
 * @name: shown in debugfs gpu_info.
 * @max_pa_bits: widest output (physical) address it can put in a descriptor.
 * @init: create empty tables; set &mpc_vm.transtab and &mpc_vm.memattr.
 * @map: map one 4 KiB page read-write.
 * @unmap: remove the translation of one page.
 * @fini: free all tables.
 */
struct mpc_vm_backend {
	const char *name;
	u32 max_pa_bits;
	int (*init)(struct mpc_hdev *mdev, struct mpc_vm *vm);
	int (*map)(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va, dma_addr_t dma);
	void (*unmap)(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va);
	void (*fini)(struct mpc_hdev *mdev, struct mpc_vm *vm);
};

/* ---- builtin backend ----------------------------------------------------- */

static struct mpc_pt_page *mpc_pt_alloc(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	struct mpc_pt_page *pt;

	pt = kzalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt)
		return NULL;
	pt->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!pt->page)
		goto err_free;
	pt->cpu = page_address(pt->page);
	pt->dma = dma_map_page(mdev->dev, pt->page, 0, PAGE_SIZE, DMA_TO_DEVICE);
	if (dma_mapping_error(mdev->dev, pt->dma))
		goto err_page;
	list_add_tail(&pt->node, &vm->tables);
	mpc_track_alloc(&mdev->core, PAGE_SIZE);
	return pt;

err_page:
	__free_page(pt->page);
err_free:
	kfree(pt);
	return NULL;
}

static struct mpc_pt_page *mpc_pt_find(struct mpc_vm *vm, u64 dma)
{
	struct mpc_pt_page *pt;

	list_for_each_entry(pt, &vm->tables, node)
		if (pt->dma == dma)
			return pt;
	return NULL;
}

static void mpc_pt_sync(struct mpc_hdev *mdev, struct mpc_pt_page *pt)
{
	dma_sync_single_for_device(mdev->dev, pt->dma, PAGE_SIZE, DMA_TO_DEVICE);
}

static void mpc_builtin_fini(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	struct mpc_pt_page *pt, *tmp;

	list_for_each_entry_safe(pt, tmp, &vm->tables, node) {
		list_del(&pt->node);
		dma_unmap_page(mdev->dev, pt->dma, PAGE_SIZE, DMA_TO_DEVICE);
		__free_page(pt->page);
		kfree(pt);
		mpc_track_free(&mdev->core, PAGE_SIZE);
	}
	vm->root = NULL;
}

static int mpc_builtin_init(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	vm->root = mpc_pt_alloc(mdev, vm);
	if (!vm->root)
		return -ENOMEM;
	vm->transtab = (vm->root->dma & AS_TRANSTAB_ADDR_MASK) |
		       AS_TRANSTAB_READ_INNER | AS_TRANSTAB_ADRMODE_TABLE;
	if (mdev->coherent)
		vm->transtab |= AS_TRANSTAB_SHARE_OUTER;
	vm->memattr = AS_MEMATTR_WB_IMPL_DEF;
	return 0;
}

/* Find (or make) the level-3 table that translates @va. */
static struct mpc_pt_page *mpc_builtin_walk(struct mpc_hdev *mdev,
					    struct mpc_vm *vm, u64 va, bool alloc)
{
	struct mpc_pt_page *pt = vm->root;
	unsigned int lvl;

	for (lvl = 0; lvl < MPC_PT_LEVELS - 1; lvl++) {
		__le64 *pte = &pt->cpu[MPC_PT_INDEX(va, lvl)];
		u64 desc = le64_to_cpu(*pte);
		struct mpc_pt_page *next;

		if ((desc & MPC_PTE_TYPE_MASK) == MPC_PTE_TYPE_TABLE) {
			next = mpc_pt_find(vm, desc & MPC_PTE_ADDR_MASK);
			if (WARN_ON(!next))
				return NULL;
		} else {
			if (!alloc)
				return NULL;
			next = mpc_pt_alloc(mdev, vm);
			if (!next)
				return NULL;
			*pte = cpu_to_le64((next->dma & MPC_PTE_ADDR_MASK) |
					   MPC_PTE_TYPE_TABLE);
			mpc_pt_sync(mdev, pt);
		}
		pt = next;
	}
	return pt;
}

static int mpc_builtin_map(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
			   dma_addr_t dma)
{
	struct mpc_pt_page *l3 = mpc_builtin_walk(mdev, vm, va, true);

	if (!l3)
		return -ENOMEM;
	l3->cpu[MPC_PT_INDEX(va, 3)] =
		cpu_to_le64((dma & MPC_PTE_ADDR_MASK) | MPC_PTE_TYPE_PAGE |
			    MPC_PTE_SH_OUTER | MPC_PTE_READ | MPC_PTE_WRITE |
			    MPC_PTE_ATTRIDX(0));
	mpc_pt_sync(mdev, l3);
	return 0;
}

static void mpc_builtin_unmap(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va)
{
	struct mpc_pt_page *l3 = mpc_builtin_walk(mdev, vm, va, false);

	if (!l3)
		return;
	l3->cpu[MPC_PT_INDEX(va, 3)] = 0;
	mpc_pt_sync(mdev, l3);
}

static const struct mpc_vm_backend mpc_builtin_backend = {
	.name = "builtin",
	/* MPC_PTE_ADDR_MASK */
	.max_pa_bits = 48,
	.init = mpc_builtin_init,
	.map = mpc_builtin_map,
	.unmap = mpc_builtin_unmap,
	.fini = mpc_builtin_fini,
};

/* ---- io-pgtable backend -------------------------------------------------- */

#if IS_ENABLED(CONFIG_IOMMU_IO_PGTABLE_LPAE)
/* TLB maintenance is done by the caller with AS commands (mpc_mmu_flush()) */
static void mpc_iop_tlb_flush_all(void *cookie)
{
}

static void mpc_iop_tlb_flush_walk(unsigned long iova, size_t size,
				   size_t granule, void *cookie)
{
}

static void mpc_iop_tlb_add_page(struct iommu_iotlb_gather *gather,
				 unsigned long iova, size_t granule, void *cookie)
{
}

static const struct iommu_flush_ops mpc_iop_tlb_ops = {
	.tlb_flush_all = mpc_iop_tlb_flush_all,
	.tlb_flush_walk = mpc_iop_tlb_flush_walk,
	.tlb_add_page = mpc_iop_tlb_add_page,
};

static int mpc_iop_init(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	struct io_pgtable_cfg cfg = {
		.pgsize_bitmap = SZ_4K,
		.ias = MPC_PT_VA_BITS,
		.oas = mpc_mmu_pa_bits(mdev),
		.coherent_walk = mdev->coherent,
		.tlb = &mpc_iop_tlb_ops,
		.iommu_dev = mdev->dev,
	};

	vm->iop = alloc_io_pgtable_ops(ARM_MALI_LPAE, &cfg, mdev);
	if (!vm->iop)
		return -ENOMEM;
	vm->transtab = cfg.arm_mali_lpae_cfg.transtab;
	vm->memattr = cfg.arm_mali_lpae_cfg.memattr;
	return 0;
}

static int mpc_iop_map(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
		       dma_addr_t dma)
{
	size_t mapped = 0;
	int ret;

	ret = vm->iop->map_pages(vm->iop, va, dma, SZ_4K, 1,
				 IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped);
	return ret ?: (mapped == SZ_4K ? 0 : -ENOMEM);
}

static void mpc_iop_unmap(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va)
{
	vm->iop->unmap_pages(vm->iop, va, SZ_4K, 1, NULL);
}

static void mpc_iop_fini(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	free_io_pgtable_ops(vm->iop);
	vm->iop = NULL;
}

static const struct mpc_vm_backend mpc_iop_backend = {
	.name = "io-pgtable",
	/* The most alloc_io_pgtable_ops(ARM_MALI_LPAE) accepts as oas */
	.max_pa_bits = 40,
	.init = mpc_iop_init,
	.map = mpc_iop_map,
	.unmap = mpc_iop_unmap,
	.fini = mpc_iop_fini,
};

#define MPC_IOP_BACKEND (&mpc_iop_backend)

/*
 * mpc_vm_leak() of io-pgtable tables: the ops stay allocated with nothing
 * pointing at them. Tell kmemleak that this is meant (the ops are embedded
 * at the start of the format's allocation, as io_pgtable_ops_to_pgtable()
 * finds them).
 */
static void mpc_iop_leak(struct mpc_vm *vm)
{
	if (vm->iop)
		kmemleak_not_leak(io_pgtable_ops_to_pgtable(vm->iop));
}
#else
#define MPC_IOP_BACKEND NULL

static void mpc_iop_leak(struct mpc_vm *vm)
{
}
#endif

/* ---- the address space --------------------------------------------------- */

/**
 * mpc_vm_backend_name() - which table writer this device uses
 * @mdev: device.
 *
 * Return: "builtin" or "io-pgtable".
 */
const char *mpc_vm_backend_name(struct mpc_hdev *mdev)
{
	return mdev->vm_backend->name;
}

/**
 * mpc_mmu_pa_bits() - width of the physical addresses the GPU is given
 * @mdev: device whose features were read and table writer picked.
 *
 * The one width for both the DMA mask and the table writer, so every DMA
 * address the device hands out fits in a descriptor: what MMU_FEATURES
 * reports (32 when it reports nothing), capped to what the writer encodes.
 *
 * Return: bits.
 */
u32 mpc_mmu_pa_bits(struct mpc_hdev *mdev)
{
	u32 pa_bits = MMU_FEATURES_PA_BITS(mdev->core.features.mmu_features);

	return min(pa_bits ?: 32, mdev->vm_backend->max_pa_bits);
}

/**
 * mpc_mmu_va_bits() - width of the GPU virtual addresses the MMU translates
 * @mdev: device whose features were read.
 *
 * What MMU_FEATURES reports, e.g. 33 on a Mali-G31 and 35 on a G52 of
 * RK356x or MediaTek boards, at most the 48 bits the four-level tables
 * resolve (48 when the register reports nothing). A VA at or above it makes
 * the GPU raise an address size fault, so the dump buffer goes below it.
 *
 * Return: bits.
 */
u32 mpc_mmu_va_bits(struct mpc_hdev *mdev)
{
	u32 va_bits = MMU_FEATURES_VA_BITS(mdev->core.features.mmu_features);

	return min_t(u32, va_bits ?: MPC_PT_VA_BITS, MPC_PT_VA_BITS);
}

/**
 * mpc_vm_init() - create empty translation tables
 * @mdev: device.
 * @vm: address space to set up.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_vm_init(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	int ret;

	INIT_LIST_HEAD(&vm->tables);
	ret = mdev->vm_backend->init(mdev, vm);
	if (ret)
		return ret;
	vm->backend = mdev->vm_backend;
	return 0;
}

/**
 * mpc_vm_free() - release every translation table
 * @mdev: device.
 * @vm: address space; empty afterwards.
 */
void mpc_vm_free(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	if (vm->backend)
		vm->backend->fini(mdev, vm);
	vm->backend = NULL;
}

/**
 * mpc_vm_leak() - give up the tables of a GPU that may still walk them
 * @mdev: device.
 * @vm: address space, or not set up.
 *
 * A GPU that answers no reset may still hold translations and walk these
 * tables: their pages must never return to the page allocator. They are
 * dropped from the allocation accounting (the caller counts them as
 * leaked) and stay allocated and DMA-mapped until the machine reboots.
 *
 * Return: the table pages leaked that the driver knows of (the builtin
 * writer's; io-pgtable's own are leaked too but not counted).
 */
unsigned int mpc_vm_leak(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	struct mpc_pt_page *pt, *tmp;
	unsigned int n = 0;

	/*
	 * Deliberately no fini(): the pages stay allocated and mapped. Only
	 * the CPU's bookkeeping of them is freed.
	 */
	if (vm->backend && vm->backend == MPC_IOP_BACKEND)
		mpc_iop_leak(vm);
	if (vm->backend == &mpc_builtin_backend) {
		list_for_each_entry_safe(pt, tmp, &vm->tables, node) {
			list_del(&pt->node);
			kfree(pt);
			mpc_track_free(&mdev->core, PAGE_SIZE);
			n++;
		}
	}
	vm->root = NULL;
	vm->iop = NULL;
	vm->backend = NULL;
	return n;
}

/**
 * mpc_vm_check_range() - check that a GPU VA range fits the address space
 * @mdev: device, for the debug messages.
 * @va: first GPU virtual address.
 * @size: bytes.
 *
 * Return: 0, or -EINVAL when @va is 0 or not page aligned, @size is 0 or
 * the range does not end at or below 2^mpc_mmu_va_bits().
 */
int mpc_vm_check_range(struct mpc_hdev *mdev, u64 va, u64 size)
{
	const u32 va_bits = mpc_mmu_va_bits(mdev);
	const u64 limit = BIT_ULL(va_bits);

	/* As kbase: a dump buffer at GPU address 0 is refused */
	if (!va)
		return MPC_REJECT(&mdev->core, -EINVAL, "GPU VA 0");
	if (!IS_ALIGNED(va, PAGE_SIZE))
		return MPC_REJECT(&mdev->core, -EINVAL, "GPU VA 0x%llx not page aligned", va);
	if (!size)
		return MPC_REJECT(&mdev->core, -EINVAL, "empty GPU VA range at 0x%llx", va);
	/* Written so that it cannot overflow, unlike va + size > limit */
	if (size > limit || va > limit - size)
		return MPC_REJECT(&mdev->core, -EINVAL,
				  "GPU VA range 0x%llx + 0x%llx beyond the GPU's %u VA bits (MMU_FEATURES)",
				  va, size, va_bits);
	return 0;
}

/**
 * mpc_vm_map() - map pages at a GPU virtual address, read-write
 * @mdev: device.
 * @vm: initialised address space.
 * @va: page-aligned GPU virtual address.
 * @dma: DMA address of each page.
 * @nr_pages: number of pages.
 *
 * On failure the tables may hold partial state: callers free the whole vm.
 *
 * Return: 0, -EINVAL for a bad range (mpc_vm_check_range()), -ENOMEM.
 */
int mpc_vm_map(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
	       const dma_addr_t *dma, unsigned int nr_pages)
{
	unsigned int i;
	int ret;

	ret = mpc_vm_check_range(mdev, va, (u64)nr_pages * PAGE_SIZE);
	if (ret)
		return ret;

	for (i = 0; i < nr_pages; i++, va += PAGE_SIZE) {
		ret = vm->backend->map(mdev, vm, va, dma[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * mpc_vm_unmap() - remove the translation of pages
 * @mdev: device.
 * @vm: address space.
 * @va: first GPU virtual address.
 * @nr_pages: number of pages.
 *
 * The caller flushes the MMU afterwards (mpc_mmu_flush()).
 */
void mpc_vm_unmap(struct mpc_hdev *mdev, struct mpc_vm *vm, u64 va,
		  unsigned int nr_pages)
{
	unsigned int i;

	for (i = 0; i < nr_pages; i++, va += PAGE_SIZE)
		vm->backend->unmap(mdev, vm, va);
}

/* Every caller can sleep: it holds the counter unit's lock, probes or unbinds. */
static int __must_check mpc_as_wait_ready(struct mpc_hdev *mdev)
{
	u64 status;
	int ret;

	ret = mpc_gpu_poll(mdev, AS_STATUS(MPC_PERFCNT_AS), false, AS_STATUS_ACTIVE, 0,
			   MPC_AS_SPIN_US, MPC_AS_TIMEOUT_US, &status);
	if (ret)
		drm_err(&mdev->drm, "address space %d stuck active\n", MPC_PERFCNT_AS);
	return ret;
}

static int __must_check mpc_as_command(struct mpc_hdev *mdev, u32 cmd)
{
	int ret = mpc_as_wait_ready(mdev);

	if (ret)
		return ret;
	gpu_write(mdev, AS_COMMAND(MPC_PERFCNT_AS), cmd);
	return mpc_as_wait_ready(mdev);
}

static bool mpc_has_transcfg(struct mpc_hdev *mdev)
{
	return mpc_gpu_has_transcfg(mdev->core.features.gpu_id);
}

/*
 * Lock the whole address space and FLUSH_MEM it: outstanding GPU writes and
 * dirty L2 lines reach memory and the MMU drops every cached translation
 * (AS_COMMAND_UPDATE is not documented to do either).
 */
static int __must_check mpc_mmu_flush_all(struct mpc_hdev *mdev)
{
	return mpc_mmu_flush(mdev, 0, BIT_ULL(mpc_mmu_va_bits(mdev)), AS_COMMAND_FLUSH_MEM);
}

/**
 * mpc_mmu_as_enable() - point the perfcnt address space at @vm's tables
 * @mdev: device, powered.
 * @vm: address space with a root table.
 *
 * Flushes first, as panfrost does: no translation the GPU cached from
 * earlier tables (which may be freed by now) survives into @vm's.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_mmu_as_enable(struct mpc_hdev *mdev, struct mpc_vm *vm)
{
	const int as = MPC_PERFCNT_AS;
	int ret;

	ret = mpc_mmu_flush_all(mdev);
	if (ret)
		return ret;
	gpu_write64(mdev, AS_TRANSTAB_LO(as), vm->transtab);
	gpu_write64(mdev, AS_MEMATTR_LO(as), vm->memattr);
	/* Bifrost and later can also walk AArch64 tables: ask for legacy */
	if (mpc_has_transcfg(mdev))
		gpu_write64(mdev, AS_TRANSCFG_LO(as), AS_TRANSCFG_ADRMODE_LEGACY);
	return mpc_as_command(mdev, AS_COMMAND_UPDATE);
}

/**
 * mpc_mmu_as_disable() - make the perfcnt address space translate nothing
 * @mdev: device, powered.
 *
 * Flushes first: once this returns 0 the GPU holds no dirty line and no
 * translation of the old tables, so they and the pages they map may be
 * freed. On an error it may still hold them: reset the GPU before freeing.
 * "Unmapped" is TRANSTAB ADRMODE 0 in the legacy format (1 is reserved)
 * and, from Bifrost on, TRANSCFG ADRMODE UNMAPPED.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_mmu_as_disable(struct mpc_hdev *mdev)
{
	const int as = MPC_PERFCNT_AS;
	int ret, ret2;

	ret = mpc_mmu_flush_all(mdev);
	gpu_write64(mdev, AS_TRANSTAB_LO(as), AS_TRANSTAB_ADRMODE_UNMAPPED);
	gpu_write64(mdev, AS_MEMATTR_LO(as), 0);
	if (mpc_has_transcfg(mdev))
		gpu_write64(mdev, AS_TRANSCFG_LO(as), AS_TRANSCFG_ADRMODE_UNMAPPED);
	ret2 = mpc_as_command(mdev, AS_COMMAND_UPDATE);
	return ret ?: ret2;
}

/**
 * mpc_mmu_flush() - drop cached translations of a VA range
 * @mdev: device, powered.
 * @va: start of the range.
 * @size: bytes, at least 1; the range ends at or below 2^mpc_mmu_va_bits().
 * @cmd: AS_COMMAND_FLUSH_PT (translations only) or AS_COMMAND_FLUSH_MEM
 *	(outstanding writes and the L2 first, then the translations).
 *
 * The range is locked around the flush (LOCK, @cmd, UNLOCK).
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_mmu_flush(struct mpc_hdev *mdev, u64 va, u64 size, u32 cmd)
{
	const int as = MPC_PERFCNT_AS;
	/*
	 * LOCKADDR: region base | log2(region size) - 1. The region is a
	 * naturally aligned power of two of at least 32 KiB: the smallest
	 * one that holds both va and va + size - 1 is as wide as the
	 * highest bit in which they differ.
	 */
	u32 width = max_t(u32, 15, fls64(va ^ (va + size - 1)));
	int ret;

	gpu_write64(mdev, AS_LOCKADDR_LO(as), (va & ~(BIT_ULL(width) - 1)) | (width - 1));
	ret = mpc_as_command(mdev, AS_COMMAND_LOCK);
	if (ret)
		return ret;
	ret = mpc_as_command(mdev, cmd);
	if (ret)
		return ret;
	return mpc_as_command(mdev, AS_COMMAND_UNLOCK);
}

/*
 * Like mpc_gpu_irq_handler(): the reset generation is read before the
 * status, so a fault read before a recovery reset ends no later wait.
 */
static irqreturn_t mpc_mmu_irq_handler(int irq, void *data)
{
	struct mpc_hdev *mdev = data;
	const int as = MPC_PERFCNT_AS;
	u32 status, gen, fault;
	u64 addr;

	if (atomic_read(&mdev->suspended))
		return IRQ_NONE;

	gen = mpc_perfcnt_irq_gen(&mdev->core);
	status = gpu_read(mdev, MMU_INT_STAT);
	if (!status)
		return IRQ_NONE;

	fault = gpu_read(mdev, AS_FAULTSTATUS(as));
	addr = gpu_read64(mdev, AS_FAULTADDRESS_LO(as));
	drm_err_ratelimited(&mdev->drm,
			    "MMU %s in AS%d at 0x%llx: status 0x%x (exception 0x%x, access %u)\n",
			    status & MMU_IRQ_BUS_ERROR(as) ? "bus error" : "page fault",
			    as, addr, fault, AS_FAULT_EXCEPTION(fault), AS_FAULT_ACCESS(fault));
	mpc_perfcnt_mmu_fault(&mdev->core, gen);
	gpu_write(mdev, MMU_INT_CLEAR, status);
	return IRQ_HANDLED;
}

/**
 * mpc_mmu_irq_init() - install the MMU interrupt handler
 * @mdev: device, its MMU interrupts masked.
 *
 * Return: 0 or an error from devm_request_irq().
 */
int mpc_mmu_irq_init(struct mpc_hdev *mdev)
{
	return devm_request_irq(mdev->dev, mdev->mmu_irq, mpc_mmu_irq_handler,
				IRQF_SHARED, "mali_perfcnt-mmu", mdev);
}

/**
 * mpc_mmu_init() - pick the table writer, leave the address space unmapped
 * @mdev: device, powered and reset, its features read.
 *
 * Also limits the device's DMA addresses to what the writer can translate
 * (mpc_mmu_pa_bits()).
 *
 * Return: 0, -EINVAL when the pgtable parameter asks for a writer this
 * kernel does not have, -ETIMEDOUT when the address space does not answer,
 * or an error from dma_set_mask_and_coherent().
 */
int mpc_mmu_init(struct mpc_hdev *mdev)
{
	const struct mpc_vm_backend *iop = MPC_IOP_BACKEND;
	int ret;

	if (!strcmp(mpc_pgtable, "builtin")) {
		mdev->vm_backend = &mpc_builtin_backend;
	} else if (!strcmp(mpc_pgtable, "io-pgtable")) {
		if (!iop) {
			drm_err(&mdev->drm, "pgtable=io-pgtable: this kernel has no ARM_MALI_LPAE io-pgtable\n");
			return -EINVAL;
		}
		mdev->vm_backend = iop;
	} else if (!strcmp(mpc_pgtable, "auto")) {
		mdev->vm_backend = iop ?: &mpc_builtin_backend;
	} else {
		drm_err(&mdev->drm, "pgtable=%s: want auto, builtin or io-pgtable\n", mpc_pgtable);
		return -EINVAL;
	}
	ret = dma_set_mask_and_coherent(mdev->dev, DMA_BIT_MASK(mpc_mmu_pa_bits(mdev)));
	if (ret)
		return ret;
	return mpc_mmu_as_disable(mdev);
}
