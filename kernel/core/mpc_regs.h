/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register map of job-manager Mali GPUs (Midgard, Bifrost, Valhall-JM), as
 * far as the performance counters need it. Offsets are from the start of the
 * GPU's register window.
 */
#ifndef MPC_REGS_H
#define MPC_REGS_H

#include <linux/bits.h>

/* GPU control: identification */
#define GPU_ID				0x000
#define   GPU_ID_PRODUCT(id)		((id) >> 16)
#define   GPU_ID_VERSION_MAJOR(id)	(((id) >> 12) & 0xf)
#define   GPU_ID_VERSION_MINOR(id)	(((id) >> 4) & 0xff)
#define   GPU_ID_VERSION_STATUS(id)	((id) & 0xf)
/* Bifrost and later: PRODUCT = ARCH_MAJOR:ARCH_MINOR:ARCH_REV:PRODUCT_MAJOR */
#define   GPU_PROD_ARCH_MAJOR(prod)	(((prod) >> 12) & 0xf)
#define   GPU_PROD_MODEL_MASK		0xf00f
/* T600 predates the ARCH fields and carries this legacy product id */
#define   GPU_PROD_T600			0x6956
#define GPU_L2_FEATURES			0x004
#define   L2_FEATURES_EXT_BUS_LOG2(v)	(((v) >> 24) & 0xff)
#define GPU_CORE_FEATURES		0x008
#define GPU_TILER_FEATURES		0x00c
#define GPU_MEM_FEATURES		0x010
#define   MEM_FEATURES_COHERENT_GROUP	BIT(0)
#define   MEM_FEATURES_L2_SLICES(v)	((((v) >> 8) & 0xf) + 1)
#define GPU_MMU_FEATURES		0x014
#define   MMU_FEATURES_VA_BITS(v)	((v) & 0xff)
#define   MMU_FEATURES_PA_BITS(v)	(((v) >> 8) & 0xff)
#define GPU_AS_PRESENT			0x018
#define GPU_JS_PRESENT			0x01c

/* GPU control: interrupts */
#define GPU_INT_RAWSTAT			0x020
#define GPU_INT_CLEAR			0x024
#define GPU_INT_MASK			0x028
#define GPU_INT_STAT			0x02c
#define   GPU_IRQ_FAULT			BIT(0)
#define   GPU_IRQ_MULTIPLE_FAULT	BIT(7)
#define   GPU_IRQ_RESET_COMPLETED	BIT(8)
#define   GPU_IRQ_POWER_CHANGED		BIT(9)
#define   GPU_IRQ_POWER_CHANGED_ALL	BIT(10)
#define   GPU_IRQ_PERFCNT_SAMPLE_COMPLETED	BIT(16)
#define   GPU_IRQ_CLEAN_CACHES_COMPLETED	BIT(17)

/* GPU control: commands and status */
#define GPU_CMD				0x030
#define   GPU_CMD_NOP			0x00
#define   GPU_CMD_SOFT_RESET		0x01
#define   GPU_CMD_HARD_RESET		0x02
#define   GPU_CMD_PERFCNT_CLEAR		0x03
#define   GPU_CMD_PERFCNT_SAMPLE	0x04
#define   GPU_CMD_CYCLE_COUNT_START	0x05
#define   GPU_CMD_CYCLE_COUNT_STOP	0x06
#define   GPU_CMD_CLEAN_CACHES		0x07
#define   GPU_CMD_CLEAN_INV_CACHES	0x08
#define GPU_STATUS			0x034
#define   GPU_STATUS_ACTIVE		BIT(0)
#define   GPU_STATUS_PRFCNT_ACTIVE	BIT(2)
#define GPU_FAULT_STATUS		0x03c
#define GPU_FAULT_ADDRESS_LO		0x040
#define GPU_FAULT_ADDRESS_HI		0x044
#define   GPU_FAULT_BUS			0x80

/* GPU control: power manager overrides, writable right after the key */
#define GPU_PWR_KEY			0x050
#define   GPU_PWR_KEY_UNLOCK		0x2968a819
#define GPU_PWR_OVERRIDE0		0x054
#define GPU_PWR_OVERRIDE1		0x058

/* Performance counters */
#define GPU_PERFCNT_BASE_LO		0x060
#define GPU_PERFCNT_BASE_HI		0x064
#define GPU_PERFCNT_CFG			0x068
#define   PERFCNT_CFG_MODE(x)		((x) & 0xf)
#define   PERFCNT_CFG_MODE_OFF		0
#define   PERFCNT_CFG_MODE_MANUAL	1
#define   PERFCNT_CFG_MODE_TILE		2
#define   PERFCNT_CFG_AS(x)		(((x) & 0xf) << 4)
#define   PERFCNT_CFG_GET_AS(v)		(((v) >> 4) & 0xf)
#define   PERFCNT_CFG_SETSEL(x)		(((x) & 0x3) << 8)
#define   PERFCNT_CFG_GET_SETSEL(v)	(((v) >> 8) & 0x3)
#define GPU_PRFCNT_JM_EN		0x06c
#define GPU_PRFCNT_SHADER_EN		0x070
#define GPU_PRFCNT_TILER_EN		0x074
#define GPU_PRFCNT_MMU_L2_EN		0x07c

/* Free-running counters */
#define GPU_CYCLE_COUNT_LO		0x090
#define GPU_CYCLE_COUNT_HI		0x094
#define GPU_TIMESTAMP_LO		0x098
#define GPU_TIMESTAMP_HI		0x09c

/* Power domains: each is a LO/HI pair of 64-bit core masks */
#define GPU_SHADER_PRESENT_LO		0x100
#define GPU_SHADER_PRESENT_HI		0x104
#define GPU_TILER_PRESENT_LO		0x110
#define GPU_TILER_PRESENT_HI		0x114
#define GPU_L2_PRESENT_LO		0x120
#define GPU_L2_PRESENT_HI		0x124
#define GPU_SHADER_READY_LO		0x140
#define GPU_SHADER_READY_HI		0x144
#define GPU_TILER_READY_LO		0x150
#define GPU_TILER_READY_HI		0x154
#define GPU_L2_READY_LO			0x160
#define GPU_L2_READY_HI			0x164
#define GPU_SHADER_PWRON_LO		0x180
#define GPU_SHADER_PWRON_HI		0x184
#define GPU_TILER_PWRON_LO		0x190
#define GPU_TILER_PWRON_HI		0x194
#define GPU_L2_PWRON_LO			0x1a0
#define GPU_L2_PWRON_HI			0x1a4
#define GPU_SHADER_PWROFF_LO		0x1c0
#define GPU_SHADER_PWROFF_HI		0x1c4
#define GPU_TILER_PWROFF_LO		0x1d0
#define GPU_TILER_PWROFF_HI		0x1d4
#define GPU_L2_PWROFF_LO		0x1e0
#define GPU_L2_PWROFF_HI		0x1e4
#define GPU_SHADER_PWRTRANS_LO		0x200
#define GPU_TILER_PWRTRANS_LO		0x210
#define GPU_L2_PWRTRANS_LO		0x220

/*
 * Coherency, from Bifrost on (where mpc_gpu_has_transcfg() holds; Midgard
 * has neither register): COHERENCY_FEATURES has bit n set for each bus
 * protocol n the GPU offers, COHERENCY_ENABLE takes the protocol's number.
 * The numbers are kbase's (mali_midg_coherency.h); panfrost names the
 * FEATURES bits the same way.
 */
#define GPU_COHERENCY_FEATURES		0x300
#define GPU_COHERENCY_ENABLE		0x304
#define   COHERENCY_ACE_LITE		0
#define   COHERENCY_ACE			1
#define   COHERENCY_NONE		31

/* Job control: only the interrupt block, kept masked by this driver */
#define JOB_INT_RAWSTAT			0x1000
#define JOB_INT_CLEAR			0x1004
#define JOB_INT_MASK			0x1008
#define JOB_INT_STAT			0x100c

/* MMU: interrupts, one bit per address space */
#define MMU_INT_RAWSTAT			0x2000
#define MMU_INT_CLEAR			0x2004
#define MMU_INT_MASK			0x2008
#define MMU_INT_STAT			0x200c
#define   MMU_IRQ_PAGE_FAULT(as)	BIT(as)
#define   MMU_IRQ_BUS_ERROR(as)		BIT((as) + 16)

/* MMU: per address space registers */
#define MMU_AS(as)			(0x2400 + ((as) << 6))
#define AS_TRANSTAB_LO(as)		(MMU_AS(as) + 0x00)
#define AS_TRANSTAB_HI(as)		(MMU_AS(as) + 0x04)
#define AS_MEMATTR_LO(as)		(MMU_AS(as) + 0x08)
#define AS_MEMATTR_HI(as)		(MMU_AS(as) + 0x0c)
#define AS_LOCKADDR_LO(as)		(MMU_AS(as) + 0x10)
#define AS_LOCKADDR_HI(as)		(MMU_AS(as) + 0x14)
#define AS_COMMAND(as)			(MMU_AS(as) + 0x18)
#define   AS_COMMAND_NOP		0x00
#define   AS_COMMAND_UPDATE		0x01
#define   AS_COMMAND_LOCK		0x02
#define   AS_COMMAND_UNLOCK		0x03
#define   AS_COMMAND_FLUSH_PT		0x04
#define   AS_COMMAND_FLUSH_MEM		0x05
#define AS_FAULTSTATUS(as)		(MMU_AS(as) + 0x1c)
#define   AS_FAULT_EXCEPTION(v)		((v) & 0xff)
#define   AS_FAULT_ACCESS(v)		(((v) >> 8) & 0x3)
#define   AS_FAULT_ACCESS_WRITE		3
#define   AS_FAULT_TRANSLATION(lvl)	(0xc0 + (lvl))
#define   AS_FAULT_PERMISSION(lvl)	(0xc8 + (lvl))
#define AS_FAULTADDRESS_LO(as)		(MMU_AS(as) + 0x20)
#define AS_FAULTADDRESS_HI(as)		(MMU_AS(as) + 0x24)
#define AS_STATUS(as)			(MMU_AS(as) + 0x28)
#define   AS_STATUS_ACTIVE		BIT(0)
#define AS_TRANSCFG_LO(as)		(MMU_AS(as) + 0x30)
#define AS_TRANSCFG_HI(as)		(MMU_AS(as) + 0x34)
/* TRANSCFG (Bifrost and later): 0 walks TRANSTAB's legacy format */
#define   AS_TRANSCFG_ADRMODE_LEGACY	0
#define   AS_TRANSCFG_ADRMODE_UNMAPPED	1
#define   AS_TRANSCFG_ADRMODE_MASK	0xf

/* TRANSTAB in the legacy (Mali LPAE) format; ADRMODE 1 is reserved */
#define AS_TRANSTAB_ADRMODE_UNMAPPED	0
#define AS_TRANSTAB_ADRMODE_IDENTITY	2
#define AS_TRANSTAB_ADRMODE_TABLE	3
#define AS_TRANSTAB_ADRMODE_MASK	3
#define AS_TRANSTAB_READ_INNER		BIT(2)
#define AS_TRANSTAB_SHARE_OUTER		BIT(4)
#define AS_TRANSTAB_ADDR_MASK		GENMASK_ULL(47, 12)

/* Attribute index 0: write-back, implementation-defined allocation policy */
#define AS_MEMATTR_WB_IMPL_DEF		0x88

/*
 * Mali LPAE translation table descriptors: 4 KiB granule, 4 levels of 512
 * entries resolving 48-bit addresses. Levels 0-2 hold table descriptors; level
 * 3 holds page descriptors, which Mali encodes with the "block" type value.
 * Permissions are stage-2 style: one bit each for read and write. Unlike
 * Arm's CPU LPAE there is no access flag.
 */
#define MPC_PT_LEVELS			4
#define MPC_PT_ENTRIES			512
#define MPC_PT_VA_BITS			48
#define MPC_PTE_TYPE_MASK		0x3ULL
#define MPC_PTE_TYPE_TABLE		0x3ULL
#define MPC_PTE_TYPE_PAGE		0x1ULL
#define MPC_PTE_ATTRIDX(i)		((u64)(i) << 2)
#define MPC_PTE_READ			BIT_ULL(6)
#define MPC_PTE_WRITE			BIT_ULL(7)
/* Mali shareability, bits 9:8: 2 = shared with the CPU (outer) */
#define MPC_PTE_SH_OUTER		(2ULL << 8)
#define MPC_PTE_ADDR_MASK		GENMASK_ULL(47, 12)
#define MPC_PT_SHIFT(lvl)		(12 + 9 * (MPC_PT_LEVELS - 1 - (lvl)))
#define MPC_PT_INDEX(va, lvl)		(((va) >> MPC_PT_SHIFT(lvl)) & 0x1ff)

/* Dump layout */
#define MPC_COUNTERS_PER_BLOCK		64
#define MPC_BYTES_PER_COUNTER		4
#define MPC_BLOCK_BYTES			(MPC_COUNTERS_PER_BLOCK * MPC_BYTES_PER_COUNTER)
#define MPC_V4_BLOCKS_PER_GROUP		8
#define MPC_V4_SC_PER_GROUP		4
#define MPC_V4_BLK_TILER		4
#define MPC_V4_BLK_MMU_L2		5
#define MPC_V4_BLK_JM			7
#define MPC_HDR_TIMESTAMP_LO		0
#define MPC_HDR_TIMESTAMP_HI		1
#define MPC_HDR_ENABLE			2
#define MPC_HDR_WORDS			4
/* A 64-counter block has 16 groups of 4 counters: one enable bit each */
#define MPC_BLOCK_ENABLE_ALL		0xffffU

#endif /* MPC_REGS_H */
