/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The register file of a job-manager Mali GPU (Midgard, Bifrost, Valhall-JM)
 * as the hardware sees it: byte offsets in its register window, field
 * encodings, interrupt bits, translation table descriptors and the counter
 * dump layout.
 *
 * Written for the model only and on purpose shared with no driver, so that a
 * wrong constant in a driver is not mirrored here. The values are the
 * hardware's public facts (panfrost and kbase agree on all of them); where
 * two formats exist (TRANSTAB legacy vs TRANSCFG), both are spelled out.
 */
#ifndef MALI_HW_REGS_H
#define MALI_HW_REGS_H

#define MALI_HW_BIT(n)			(1U << (n))
#define MALI_HW_BIT64(n)		(1ULL << (n))

/* ---- GPU control ---------------------------------------------------------- */

#define MALI_HW_GPU_ID			0x000
#define MALI_HW_L2_FEATURES		0x004
#define MALI_HW_CORE_FEATURES		0x008
#define MALI_HW_TILER_FEATURES		0x00c
#define MALI_HW_MEM_FEATURES		0x010
#define   MALI_HW_MEM_FEATURES_COHERENT_CORE_GROUP	MALI_HW_BIT(0)
#define   MALI_HW_MEM_FEATURES_L2_SLICES_SHIFT		8	/* slices - 1, 4 bits */
#define MALI_HW_MMU_FEATURES		0x014	/* [7:0] VA bits, [15:8] PA bits */
#define   MALI_HW_MMU_FEATURES_VAL(va, pa)	((va) | ((pa) << 8))
#define MALI_HW_AS_PRESENT		0x018
#define MALI_HW_JS_PRESENT		0x01c
#define MALI_HW_THREAD_MAX_THREADS	0x0a0
#define MALI_HW_THREAD_MAX_WORKGROUP_SIZE	0x0a4
#define MALI_HW_THREAD_MAX_BARRIER_SIZE	0x0a8
#define MALI_HW_THREAD_FEATURES		0x0ac
#define MALI_HW_TEXTURE_FEATURES(n)	(0x0b0 + 4 * (n))	/* n = 0..3 */
#define MALI_HW_JS_FEATURES(n)		(0x0c0 + 4 * (n))	/* n = 0..15 */
/*
 * COHERENCY_FEATURES (Bifrost and later; reads 0 before): one bit per
 * protocol the GPU offers, bit n for protocol number n. COHERENCY_ENABLE
 * takes the number of the protocol to use; its reset value is
 * implementation defined (Arm's panthor fix; kbase always writes it).
 */
#define MALI_HW_COHERENCY_FEATURES	0x300
#define MALI_HW_COHERENCY_ENABLE	0x304
#define   MALI_HW_COHERENCY_ACE_LITE		0
#define   MALI_HW_COHERENCY_ACE			1
#define   MALI_HW_COHERENCY_NONE		31
#define   MALI_HW_COHERENCY_BIT(proto)		MALI_HW_BIT(proto)
#define MALI_HW_STACK_PRESENT		0xe00
/*
 * JM_CONFIG (implementation specific, reset with the GPU). On the G71
 * (tMIx) its FORCE_COHERENCY_FEATURES field, a COHERENCY_FEATURES-style
 * mask at bit 2, sets the protocols the GPU honours: its
 * COHERENCY_FEATURES reads ACE alone although ACE-Lite works too (the G71
 * quirk of kbase and panfrost, which force both).
 */
#define MALI_HW_JM_CONFIG		0xf00
#define   MALI_HW_JM_FORCE_COHERENCY(v)		(((v) >> 2) & 0x3)

#define MALI_HW_GPU_IRQ_RAWSTAT		0x020
#define MALI_HW_GPU_IRQ_CLEAR		0x024
#define MALI_HW_GPU_IRQ_MASK		0x028
#define MALI_HW_GPU_IRQ_STATUS		0x02c
#define   MALI_HW_GPU_IRQ_FAULT				MALI_HW_BIT(0)
#define   MALI_HW_GPU_IRQ_MULTIPLE_FAULT		MALI_HW_BIT(7)
#define   MALI_HW_GPU_IRQ_RESET_COMPLETED		MALI_HW_BIT(8)
#define   MALI_HW_GPU_IRQ_POWER_CHANGED_SINGLE		MALI_HW_BIT(9)
#define   MALI_HW_GPU_IRQ_POWER_CHANGED_ALL		MALI_HW_BIT(10)
#define   MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED	MALI_HW_BIT(16)
#define   MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED	MALI_HW_BIT(17)

#define MALI_HW_GPU_COMMAND		0x030
#define   MALI_HW_GPU_COMMAND_NOP		0x00
#define   MALI_HW_GPU_COMMAND_SOFT_RESET	0x01
#define   MALI_HW_GPU_COMMAND_HARD_RESET	0x02
#define   MALI_HW_GPU_COMMAND_PRFCNT_CLEAR	0x03
#define   MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE	0x04
#define   MALI_HW_GPU_COMMAND_CYCLE_COUNT_START	0x05
#define   MALI_HW_GPU_COMMAND_CYCLE_COUNT_STOP	0x06
#define   MALI_HW_GPU_COMMAND_CLEAN_CACHES	0x07
#define   MALI_HW_GPU_COMMAND_CLEAN_INV_CACHES	0x08
#define MALI_HW_GPU_STATUS		0x034
#define   MALI_HW_GPU_STATUS_GPU_ACTIVE		MALI_HW_BIT(0)
#define   MALI_HW_GPU_STATUS_PRFCNT_ACTIVE	MALI_HW_BIT(2)
#define MALI_HW_GPU_FAULTSTATUS		0x03c
#define   MALI_HW_EXCEPTION_BUS_FAULT		0x80
#define MALI_HW_GPU_FAULTADDRESS_LO	0x040
#define MALI_HW_GPU_FAULTADDRESS_HI	0x044
/*
 * The power manager's override registers, writable only right after the
 * key: Amlogic's integration needs bits in PWR_OVERRIDE1 (panfrost's
 * panfrost_gpu_amlogic_quirk()).
 */
#define MALI_HW_PWR_KEY			0x050
#define   MALI_HW_PWR_KEY_UNLOCK		0x2968a819
#define MALI_HW_PWR_OVERRIDE0		0x054
#define MALI_HW_PWR_OVERRIDE1		0x058

/* Performance counter unit */
#define MALI_HW_PRFCNT_BASE_LO		0x060
#define MALI_HW_PRFCNT_BASE_HI		0x064
#define MALI_HW_PRFCNT_CONFIG		0x068
#define   MALI_HW_PRFCNT_CONFIG_MODE(v)		((v) & 0xf)
#define   MALI_HW_PRFCNT_CONFIG_MODE_OFF	0
#define   MALI_HW_PRFCNT_CONFIG_MODE_MANUAL	1
#define   MALI_HW_PRFCNT_CONFIG_MODE_TILE	2
#define   MALI_HW_PRFCNT_CONFIG_AS(v)		(((v) >> 4) & 0xf)
#define   MALI_HW_PRFCNT_CONFIG_SETSEL(v)	(((v) >> 8) & 0x3)
#define MALI_HW_PRFCNT_JM_EN		0x06c
#define MALI_HW_PRFCNT_SHADER_EN	0x070
#define MALI_HW_PRFCNT_TILER_EN		0x074
#define MALI_HW_PRFCNT_MMU_L2_EN	0x07c

#define MALI_HW_CYCLE_COUNT_LO		0x090
#define MALI_HW_CYCLE_COUNT_HI		0x094
#define MALI_HW_TIMESTAMP_LO		0x098
#define MALI_HW_TIMESTAMP_HI		0x09c

/* Power domains: 64-bit masks, LO at the offset, HI at offset + 4 */
#define MALI_HW_SHADER_PRESENT		0x100
#define MALI_HW_TILER_PRESENT		0x110
#define MALI_HW_L2_PRESENT		0x120
#define MALI_HW_SHADER_READY		0x140
#define MALI_HW_TILER_READY		0x150
#define MALI_HW_L2_READY		0x160
#define MALI_HW_SHADER_PWRON		0x180
#define MALI_HW_TILER_PWRON		0x190
#define MALI_HW_L2_PWRON		0x1a0
#define MALI_HW_SHADER_PWROFF		0x1c0
#define MALI_HW_TILER_PWROFF		0x1d0
#define MALI_HW_L2_PWROFF		0x1e0
#define MALI_HW_SHADER_PWRTRANS		0x200
#define MALI_HW_TILER_PWRTRANS		0x210
#define MALI_HW_L2_PWRTRANS		0x220
#define MALI_HW_SHADER_PWRACTIVE	0x240
#define MALI_HW_TILER_PWRACTIVE		0x250
#define MALI_HW_L2_PWRACTIVE		0x260

/* GPU_LATEST_FLUSH_ID: bumped by each cache flush (flush reduction) */
#define MALI_HW_LATEST_FLUSH_ID		0x038

/* ---- Job control ---------------------------------------------------------- */

/* Bit n: slot n's chain is DONE; bit 16 + n: it failed or stopped */
#define MALI_HW_JOB_IRQ_RAWSTAT		0x1000
#define MALI_HW_JOB_IRQ_CLEAR		0x1004
#define MALI_HW_JOB_IRQ_MASK		0x1008
#define MALI_HW_JOB_IRQ_STATUS		0x100c
#define   MALI_HW_JOB_IRQ_DONE(js)		MALI_HW_BIT(js)
#define   MALI_HW_JOB_IRQ_FAILED(js)		MALI_HW_BIT((js) + 16)
/* Bit n: slot n runs a chain; bit 16 + n: a chain waits in its _NEXT set */
#define MALI_HW_JOB_IRQ_JS_STATE	0x1010

/*
 * Job slot n: 128 bytes at MALI_HW_JS_BASE + n * MALI_HW_JS_STRIDE. The
 * _NEXT set is what the driver writes; COMMAND_NEXT START moves it into
 * the current set (read-only) when the slot is free, and reads 0 again.
 * There is no current FLUSH_ID register, only FLUSH_ID_NEXT.
 */
#define MALI_HW_JS_BASE			0x1800
#define MALI_HW_JS_STRIDE		0x80
#define MALI_HW_JS_HEAD			0x00	/* LO, HI at +4 */
#define MALI_HW_JS_TAIL			0x08
#define MALI_HW_JS_AFFINITY		0x10
#define MALI_HW_JS_CONFIG		0x18
#define MALI_HW_JS_XAFFINITY		0x1c
#define MALI_HW_JS_COMMAND		0x20
#define MALI_HW_JS_STATUS		0x24
#define MALI_HW_JS_HEAD_NEXT		0x40
#define MALI_HW_JS_AFFINITY_NEXT	0x50
#define MALI_HW_JS_CONFIG_NEXT		0x58
#define MALI_HW_JS_XAFFINITY_NEXT	0x5c
#define MALI_HW_JS_COMMAND_NEXT		0x60
#define MALI_HW_JS_FLUSH_ID_NEXT	0x70
#define   MALI_HW_JS_COMMAND_NOP		0x00
#define   MALI_HW_JS_COMMAND_START		0x01
#define   MALI_HW_JS_COMMAND_SOFT_STOP		0x02
#define   MALI_HW_JS_COMMAND_HARD_STOP		0x03
/* The stops for the chain whose JOB_CHAIN_FLAG is 0, then 1 */
#define   MALI_HW_JS_COMMAND_SOFT_STOP_0	0x04
#define   MALI_HW_JS_COMMAND_HARD_STOP_0	0x05
#define   MALI_HW_JS_COMMAND_SOFT_STOP_1	0x06
#define   MALI_HW_JS_COMMAND_HARD_STOP_1	0x07
/* JS_CONFIG: [3:0] address space, cache flushes around the chain, ... */
#define   MALI_HW_JS_CONFIG_AS(v)		((v) & 0xf)
#define   MALI_HW_JS_CONFIG_START_FLUSH_CLEAN	MALI_HW_BIT(8)
#define   MALI_HW_JS_CONFIG_START_FLUSH_INV	MALI_HW_BIT(9)
#define   MALI_HW_JS_CONFIG_JOB_CHAIN_FLAG	MALI_HW_BIT(11)
#define   MALI_HW_JS_CONFIG_END_FLUSH_CLEAN	MALI_HW_BIT(12)
#define   MALI_HW_JS_CONFIG_END_FLUSH_INV	MALI_HW_BIT(13)
#define   MALI_HW_JS_CONFIG_FLUSH_REDUCTION	MALI_HW_BIT(14)
#define   MALI_HW_JS_CONFIG_NO_DESC_WRITEBACK	MALI_HW_BIT(15)

/*
 * Exception codes of JS_STATUS and of a job header's exception_status
 * (below 0x40 not a fault). The MMU's codes (0xc0 on) are also reported
 * by a job killed by an MMU fault.
 */
#define MALI_HW_EXC_NOT_STARTED		0x00
#define MALI_HW_EXC_DONE		0x01
#define MALI_HW_EXC_STOPPED		0x03
#define MALI_HW_EXC_TERMINATED		0x04
#define MALI_HW_EXC_ACTIVE		0x08
#define MALI_HW_EXC_JOB_CONFIG_FAULT	0x40
#define MALI_HW_EXC_JOB_READ_FAULT	0x42
#define MALI_HW_EXC_JOB_WRITE_FAULT	0x43
#define MALI_HW_EXC_JOB_AFFINITY_FAULT	0x44
#define MALI_HW_EXC_JOB_BUS_FAULT	0x48
#define MALI_HW_EXC_TILE_RANGE_FAULT	0x59

/*
 * Job descriptors (Mesa's public genxml): a 32-byte header, the payload
 * at +32. Header word 4: [0] 64-bit descriptor (Midgard, Bifrost; Valhall
 * has only those), [7:1] type, [8] barrier, [31:16] index; word 5: the
 * two dependency indices; words 6-7: the next job's address (0: the end).
 * Headers are aligned to 64 bytes (128 on Valhall).
 */
#define MALI_HW_JOB_HDR_EXCEPTION	0x00
#define MALI_HW_JOB_HDR_FLAGS		0x10
#define   MALI_HW_JOB_HDR_IS_64B		MALI_HW_BIT(0)
#define   MALI_HW_JOB_HDR_TYPE(v)		(((v) >> 1) & 0x7f)
#define   MALI_HW_JOB_HDR_BARRIER		MALI_HW_BIT(8)
#define   MALI_HW_JOB_HDR_INDEX(v)		((v) >> 16)
#define MALI_HW_JOB_HDR_DEPS		0x14
#define MALI_HW_JOB_HDR_NEXT		0x18
#define MALI_HW_JOB_PAYLOAD		0x20
#define MALI_HW_JOB_TYPE_NULL		1
#define MALI_HW_JOB_TYPE_WRITE_VALUE	2
#define MALI_HW_JOB_TYPE_CACHE_FLUSH	3
#define MALI_HW_JOB_TYPE_COMPUTE	4
#define MALI_HW_JOB_TYPE_VERTEX		5	/* before Valhall */
#define MALI_HW_JOB_TYPE_GEOMETRY	6	/* before Valhall */
#define MALI_HW_JOB_TYPE_TILER		7
#define MALI_HW_JOB_TYPE_FUSED		8	/* before Valhall */
#define MALI_HW_JOB_TYPE_FRAGMENT	9
#define MALI_HW_JOB_TYPE_INDEXED_VERTEX	10	/* Bifrost v7 on (IDVS) */
#define MALI_HW_JOB_TYPE_MALLOC_VERTEX	11	/* Valhall */
/*
 * Fragment payload: word 0 min tile X [11:0] / Y [27:16], word 1 max
 * tile, words 2-3 the framebuffer descriptor (low 6 bits are tags).
 */
#define MALI_HW_FRAG_BOUND_MIN		0x00
#define MALI_HW_FRAG_BOUND_MAX		0x04
#define MALI_HW_FRAG_FBD		0x08
#define   MALI_HW_FRAG_TILE_X(v)		((v) & 0xfff)
#define   MALI_HW_FRAG_TILE_Y(v)		(((v) >> 16) & 0xfff)
#define MALI_HW_FBD_TAG_MASK		0x3fULL
/*
 * Midgard/Bifrost compute, vertex, tiler and IDVS jobs: the Invocation
 * section at payload +0: a 32-bit word packing the six sizes (each minus
 * one) at the shifts word 1 gives: local size Y at [4:0], Z at [9:5],
 * workgroup count X at [15:10], Y at [21:16], Z at [27:22] (local X from
 * bit 0, workgroup Z up to bit 31).
 */
#define MALI_HW_INVOC_PACKED		0x00
#define MALI_HW_INVOC_SHIFTS		0x04
/* Valhall compute payload: local size minus one, 10 bits each; counts */
#define MALI_HW_V9_COMPUTE_LOCAL	0x00
#define MALI_HW_V9_COMPUTE_COUNT_X	0x08
/* Valhall tiler / malloc vertex: instance count, tiler: vertex count */
#define MALI_HW_V9_DRAW_INSTANCES	0x10
#define MALI_HW_V9_DRAW_VERTICES	0x14

/* ---- MMU ------------------------------------------------------------------ */

#define MALI_HW_MMU_IRQ_RAWSTAT		0x2000
#define MALI_HW_MMU_IRQ_CLEAR		0x2004
#define MALI_HW_MMU_IRQ_MASK		0x2008
#define MALI_HW_MMU_IRQ_STATUS		0x200c
#define   MALI_HW_MMU_IRQ_PAGE_FAULT(as)	MALI_HW_BIT(as)
#define   MALI_HW_MMU_IRQ_BUS_ERROR(as)		MALI_HW_BIT((as) + 16)

/* Address space n: 64 bytes at MALI_HW_AS_BASE + n * MALI_HW_AS_STRIDE */
#define MALI_HW_AS_BASE			0x2400
#define MALI_HW_AS_STRIDE		0x40
#define MALI_HW_AS_TRANSTAB		0x00	/* LO, HI at +4 */
#define MALI_HW_AS_MEMATTR		0x08
#define MALI_HW_AS_LOCKADDR		0x10
#define MALI_HW_AS_COMMAND		0x18
#define   MALI_HW_AS_COMMAND_NOP		0x00
#define   MALI_HW_AS_COMMAND_UPDATE		0x01
#define   MALI_HW_AS_COMMAND_LOCK		0x02
#define   MALI_HW_AS_COMMAND_UNLOCK		0x03
#define   MALI_HW_AS_COMMAND_FLUSH_PT		0x04
#define   MALI_HW_AS_COMMAND_FLUSH_MEM		0x05
#define MALI_HW_AS_FAULTSTATUS		0x1c
#define MALI_HW_AS_FAULTADDRESS		0x20
#define MALI_HW_AS_STATUS		0x28
#define   MALI_HW_AS_STATUS_ACTIVE		MALI_HW_BIT(0)
#define MALI_HW_AS_TRANSCFG		0x30	/* Bifrost and later */

/*
 * AS_FAULTSTATUS: [7:0] exception type, [9:8] access type. Exception types
 * of the MMU, each with the table level in its low bits.
 */
#define MALI_HW_AS_FAULTSTATUS_ACCESS_SHIFT	8
#define   MALI_HW_ACCESS_ATOMIC			0
#define   MALI_HW_ACCESS_EXECUTE		1
#define   MALI_HW_ACCESS_READ			2
#define   MALI_HW_ACCESS_WRITE			3
#define MALI_HW_EXCEPTION_TRANSLATION_FAULT(lvl)	(0xc0 + (lvl))
#define MALI_HW_EXCEPTION_PERMISSION_FAULT(lvl)		(0xc8 + (lvl))
/* A bus error while reading a descriptor of table level lvl */
#define MALI_HW_EXCEPTION_TRANSTAB_BUS_FAULT(lvl)	(0xd0 + (lvl))
#define MALI_HW_EXCEPTION_ACCESS_FLAG(lvl)		(0xd8 + (lvl))
/* Input (VA beyond MMU_FEATURES) and output (PA) address size faults */
#define MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_IN(lvl)	(0xe0 + (lvl))
#define MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_OUT(lvl)	(0xe4 + (lvl))

/*
 * AS_TRANSTAB in the legacy (Mali LPAE) format: [1:0] address mode, then
 * cacheability/shareability of the walk, then the table address. Mode 1 is
 * reserved: it does not mean "unmapped".
 */
#define MALI_HW_TRANSTAB_ADRMODE_MASK		0x3ULL
#define   MALI_HW_TRANSTAB_ADRMODE_UNMAPPED	0x0ULL
#define   MALI_HW_TRANSTAB_ADRMODE_RESERVED	0x1ULL
#define   MALI_HW_TRANSTAB_ADRMODE_IDENTITY	0x2ULL
#define   MALI_HW_TRANSTAB_ADRMODE_TABLE	0x3ULL
#define MALI_HW_TRANSTAB_ADDR_MASK		0x0000fffffffff000ULL

/* AS_TRANSCFG [3:0]: which table format the address space walks */
#define MALI_HW_TRANSCFG_ADRMODE_MASK		0xfULL
#define   MALI_HW_TRANSCFG_ADRMODE_LEGACY	0x0ULL
#define   MALI_HW_TRANSCFG_ADRMODE_UNMAPPED	0x1ULL
#define   MALI_HW_TRANSCFG_ADRMODE_IDENTITY	0x2ULL
#define   MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K	0x6ULL
#define   MALI_HW_TRANSCFG_ADRMODE_AARCH64_64K	0x8ULL
/* [10:6]: 55 - the input address size of the AArch64 formats (panthor) */
#define MALI_HW_TRANSCFG_INA_BITS_SHIFT		6
#define MALI_HW_TRANSCFG_INA_BITS_MASK		0x1fULL

/* AS_LOCKADDR: region base in the high bits, log2(size) - 1 in [5:0] */
#define MALI_HW_LOCKADDR_SIZE_MASK		0x3fULL
#define MALI_HW_LOCKADDR_MIN_LOG2		15

/*
 * Mali LPAE descriptors: 4 KiB granule, 4 levels of 512 entries. Type 3 is
 * a table at levels 0-2; type 1 is a block at levels 1-2 and a page at level
 * 3. Stage-2-like permissions, no access flag.
 */
#define MALI_HW_PT_LEVELS		4
#define MALI_HW_PT_DESC_TYPE_MASK	0x3ULL
#define   MALI_HW_PT_DESC_TABLE		0x3ULL
#define   MALI_HW_PT_DESC_LEAF		0x1ULL
#define MALI_HW_PT_DESC_READ		MALI_HW_BIT64(6)
#define MALI_HW_PT_DESC_WRITE		MALI_HW_BIT64(7)
#define MALI_HW_PT_DESC_ADDR_MASK	0x0000fffffffff000ULL
#define MALI_HW_PT_LEVEL_SHIFT(lvl)	(12 + 9 * (3 - (lvl)))
#define MALI_HW_PT_INDEX(va, lvl)	(((va) >> MALI_HW_PT_LEVEL_SHIFT(lvl)) & 0x1ff)
#define MALI_HW_PAGE_SIZE		4096ULL

/*
 * AArch64 stage-1 descriptors, 4 KiB granule (TRANSCFG AARCH64_4K): type 3
 * is a table at levels 0-2 and a page at level 3, type 1 a block at levels
 * 1-2 (reserved at 0 and 3). Leaves need the access flag; AP[2] set means
 * read-only. APTable[1] in a table descriptor makes everything below it
 * read-only. The walk starts at the level the input size needs.
 */
#define MALI_HW_A64_DESC_TABLE		0x3ULL
#define MALI_HW_A64_DESC_PAGE		0x3ULL
#define MALI_HW_A64_DESC_BLOCK		0x1ULL
#define MALI_HW_A64_DESC_AP_RDONLY	MALI_HW_BIT64(7)
#define MALI_HW_A64_DESC_AF		MALI_HW_BIT64(10)
#define MALI_HW_A64_TABLE_AP_RDONLY	MALI_HW_BIT64(62)

/* ---- Counter dump --------------------------------------------------------- */

#define MALI_HW_DUMP_COUNTERS_PER_BLOCK	64
#define MALI_HW_DUMP_BLOCK_BYTES	256
#define MALI_HW_DUMP_HDR_TIMESTAMP_LO	0
#define MALI_HW_DUMP_HDR_TIMESTAMP_HI	1
#define MALI_HW_DUMP_HDR_PRFCNT_EN	2
/* One enable bit per group of 4 counters (16 groups); bit 0 = the header */
#define MALI_HW_DUMP_EN_GROUPS		16
/* v4 (Midgard T60x/T62x/T72x): 8 blocks per core group */
#define MALI_HW_V4_BLOCKS_PER_GROUP	8
#define MALI_HW_V4_SC_PER_GROUP		4
#define MALI_HW_V4_BLK_TILER		4
#define MALI_HW_V4_BLK_MMU_L2		5
#define MALI_HW_V4_BLK_JM		7

#endif /* MALI_HW_REGS_H */
