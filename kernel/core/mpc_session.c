// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: the pure part of counter sessions (uAPI revision 3).
 *
 * The hardware counts one configuration at a time; sessions each want their
 * own. The counter unit is programmed with the union of the running
 * sessions' masks (mpc_session_union()), and every hardware sample is
 * added once, counter by counter, into 64-bit sums of every interval
 * (mpc_session_total_add()). A session marks those sums when its interval
 * starts (mpc_session_mark()) and, when it is sampled, takes the difference
 * for the counters it selected (mpc_session_take()), so each gets exactly
 * its own counters over its own intervals, and a hardware sample costs the
 * same however many sessions run. A 32-bit
 * hardware counter can still saturate within one hardware interval: only
 * that sets MALI_PERFCNT_DATA_SATURATED, never the length of a session's
 * interval. mpc_session_encode() writes a self-describing sample (uAPI
 * &struct drm_mali_perfcnt_sample_header).
 *
 * Nothing here touches hardware or takes a lock; mpc_session_fd.c calls it
 * under its hub's lock.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mpc_session.h"
#include <drm/mali_perfcnt_drm.h>

/**
 * mpc_session_union() - the configuration that counts for all of @cfgs
 * @cfgs: the running sessions' configurations (same counter set).
 * @n: how many; 0 gives all masks 0.
 * @out: filled in; its set is that of @cfgs[0].
 */
void mpc_session_union(const struct mpc_perfcnt_config *const *cfgs, unsigned int n,
		       struct mpc_perfcnt_config *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		out->set = cfgs[0]->set;
		out->jm |= cfgs[i]->jm;
		out->tiler |= cfgs[i]->tiler;
		out->shader |= cfgs[i]->shader;
		out->mmu_l2 |= cfgs[i]->mmu_l2;
	}
}

/**
 * mpc_session_covers() - does the hardware configuration count all of @cfg
 * @hw: what the hardware is programmed with.
 * @cfg: a session's configuration.
 *
 * Return: true when @cfg's set is @hw's and its masks are subsets of @hw's.
 */
bool mpc_session_covers(const struct mpc_perfcnt_config *hw,
			const struct mpc_perfcnt_config *cfg)
{
	return hw->set == cfg->set && !(cfg->jm & ~hw->jm) && !(cfg->tiler & ~hw->tiler) &&
	       !(cfg->shader & ~hw->shader) && !(cfg->mmu_l2 & ~hw->mmu_l2);
}

/**
 * mpc_session_slot() - the uAPI block type and instance of a dump slot
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 * @slot: the slot.
 * @type: set to an &enum drm_mali_perfcnt_block_type.
 * @instance: set to the physical instance.
 *
 * Return: 0, -ENOENT for a hole, -EINVAL past the end.
 */
int mpc_session_slot(const struct mpc_layout *layout, u64 shader_present, unsigned int slot,
		     u32 *type, u32 *instance)
{
	const char *kind;
	unsigned int inst;
	int ret;

	ret = mpc_layout_block_offset(layout, shader_present, slot, &kind, &inst);
	if (ret < 0)
		return ret;
	if (!strcmp(kind, "jm"))
		*type = MALI_PERFCNT_BLOCK_JM;
	else if (!strcmp(kind, "tiler"))
		*type = MALI_PERFCNT_BLOCK_TILER;
	else if (!strcmp(kind, "l2"))
		*type = MALI_PERFCNT_BLOCK_MMU_L2;
	else
		*type = MALI_PERFCNT_BLOCK_SHADER;
	*instance = inst;
	return 0;
}

/**
 * mpc_session_value_mask() - which values of a block a configuration counts
 * @cfg: the configuration.
 * @type: the block's &enum drm_mali_perfcnt_block_type.
 *
 * Bit n of an enable register selects counters 4n..4n+3; the first
 * %MPC_HDR_WORDS values are the hardware's header words, never counted.
 *
 * Return: one bit per value.
 */
u64 mpc_session_value_mask(const struct mpc_perfcnt_config *cfg, u32 type)
{
	u32 en;
	u64 mask = 0;
	unsigned int n;

	switch (type) {
	case MALI_PERFCNT_BLOCK_JM:
		en = cfg->jm;
		break;
	case MALI_PERFCNT_BLOCK_TILER:
		en = cfg->tiler;
		break;
	case MALI_PERFCNT_BLOCK_MMU_L2:
		en = cfg->mmu_l2;
		break;
	default:
		en = cfg->shader;
		break;
	}
	for (n = 0; n < MPC_COUNTERS_PER_BLOCK / 4; n++)
		if (en & BIT(n))
			mask |= 0xfULL << (4 * n);
	return mask & ~GENMASK_ULL(MPC_HDR_WORDS - 1, 0);
}

/**
 * mpc_session_nr_present() - blocks of a dump that are not holes
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 *
 * Return: how many blocks a sample describes.
 */
u32 mpc_session_nr_present(const struct mpc_layout *layout, u64 shader_present)
{
	u32 slot, n = 0, type, inst;

	for (slot = 0; slot < layout->nr_blocks; slot++)
		if (!mpc_session_slot(layout, shader_present, slot, &type, &inst))
			n++;
	return n;
}

/**
 * mpc_session_sample_size() - bytes of one encoded session sample
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 *
 * Return: the header, and per present block its header and 64 values.
 */
u32 mpc_session_sample_size(const struct mpc_layout *layout, u64 shader_present)
{
	return sizeof(struct drm_mali_perfcnt_sample_header) +
	       mpc_session_nr_present(layout, shader_present) *
	       (sizeof(struct drm_mali_perfcnt_block_header) +
		MPC_COUNTERS_PER_BLOCK * sizeof(u64));
}

/**
 * mpc_session_acc_init() - allocate a session's sums
 * @acc: the sums, zeroed by the caller.
 * @layout: dump layout.
 * @cfg: the session's configuration.
 *
 * Charged to the caller's memory cgroup (GFP_KERNEL_ACCOUNT).
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_session_acc_init(struct mpc_session_acc *acc, const struct mpc_layout *layout,
			 const struct mpc_perfcnt_config *cfg)
{
	acc->cfg = *cfg;
	acc->nr_slots = layout->nr_blocks;
	acc->values = kvcalloc(array_size(acc->nr_slots, MPC_COUNTERS_PER_BLOCK),
			       sizeof(*acc->values), GFP_KERNEL_ACCOUNT);
	acc->power = kcalloc(acc->nr_slots, sizeof(*acc->power), GFP_KERNEL_ACCOUNT);
	acc->base = kvcalloc(array_size(acc->nr_slots, MPC_COUNTERS_PER_BLOCK),
			     sizeof(*acc->base), GFP_KERNEL_ACCOUNT);
	acc->base_power = kcalloc(array_size(acc->nr_slots, MPC_PWR_STATES),
				  sizeof(*acc->base_power), GFP_KERNEL_ACCOUNT);
	if (!acc->values || !acc->power || !acc->base || !acc->base_power) {
		mpc_session_acc_free(acc);
		return -ENOMEM;
	}
	return 0;
}

/** mpc_session_acc_free() - free what mpc_session_acc_init() allocated */
void mpc_session_acc_free(struct mpc_session_acc *acc)
{
	kvfree(acc->values);
	kfree(acc->power);
	kvfree(acc->base);
	kfree(acc->base_power);
	acc->values = NULL;
	acc->power = NULL;
	acc->base = NULL;
	acc->base_power = NULL;
}

/**
 * mpc_session_acc_restart() - start a new interval with empty sums
 * @acc: the sums.
 * @start_ns: when the interval starts (a hardware sample or enable).
 * @flags: MALI_PERFCNT_DATA_* the new interval starts with (FIRST).
 */
void mpc_session_acc_restart(struct mpc_session_acc *acc, u64 start_ns, u32 flags)
{
	memset(acc->values, 0, array_size(acc->nr_slots, MPC_COUNTERS_PER_BLOCK) *
	       sizeof(*acc->values));
	memset(acc->power, 0, acc->nr_slots);
	acc->flags = flags;
	acc->start_ns = start_ns;
	acc->end_ns = start_ns;
	acc->nr_intervals = 0;
}

/* Index in &mpc_session_total.power of a block's state over an interval */
static unsigned int mpc_session_pwr_index(u8 state)
{
	return state == MALI_PERFCNT_POWER_ON ? 0 : state == MALI_PERFCNT_POWER_OFF ? 1 : 2;
}

/**
 * mpc_session_total_alloc() - allocate the sums of every hardware interval
 * @t: the sums, zeroed by the caller.
 * @layout: dump layout.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_session_total_alloc(struct mpc_session_total *t, const struct mpc_layout *layout)
{
	size_t n = array_size(layout->nr_blocks, MPC_COUNTERS_PER_BLOCK);

	t->nr_slots = layout->nr_blocks;
	t->values = kvcalloc(n, sizeof(*t->values), GFP_KERNEL);
	t->sat_at = kvcalloc(n, sizeof(*t->sat_at), GFP_KERNEL);
	t->power = kcalloc(array_size(t->nr_slots, MPC_PWR_STATES), sizeof(*t->power),
			   GFP_KERNEL);
	if (!t->values || !t->sat_at || !t->power) {
		mpc_session_total_free(t);
		return -ENOMEM;
	}
	return 0;
}

/** mpc_session_total_free() - free what mpc_session_total_alloc() allocated */
void mpc_session_total_free(struct mpc_session_total *t)
{
	kvfree(t->values);
	kvfree(t->sat_at);
	kfree(t->power);
	t->values = NULL;
	t->sat_at = NULL;
	t->power = NULL;
}

/**
 * mpc_session_total_add() - add one hardware interval to the sums
 * @t: the sums.
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 * @hw: what the hardware counted over the interval (the union of the
 *	started sessions): the hardware writes no other counter, so only
 *	these are added.
 * @dump: the hardware's dump of the interval (little-endian 32-bit words).
 * @slot_power: per slot, the &enum drm_mali_perfcnt_power_state of the
 *	block over the interval; NULL when every block was on.
 * @hw_flags: MALI_PERFCNT_DATA_* of the interval (SATURATED is ignored:
 *	each counter's own saturation is kept).
 * @end_ns: when the interval ended.
 *
 * One pass over the dump however many sessions run: a session takes its
 * own counters out of the sums when it is sampled (mpc_session_take()).
 */
void mpc_session_total_add(struct mpc_session_total *t, const struct mpc_layout *layout,
			   u64 shader_present, const struct mpc_perfcnt_config *hw,
			   const __le32 *dump, const u8 *slot_power, u32 hw_flags, u64 end_ns)
{
	u32 slot, type, inst, c, nr = t->nr_intervals + 1;

	for (slot = 0; slot < t->nr_slots; slot++) {
		const __le32 *blk = dump + slot * MPC_COUNTERS_PER_BLOCK;
		u64 *sum = t->values + slot * MPC_COUNTERS_PER_BLOCK;
		u32 *sat = t->sat_at + slot * MPC_COUNTERS_PER_BLOCK;
		u8 pwr = slot_power ? slot_power[slot] : MALI_PERFCNT_POWER_ON;
		u64 mask;

		if (mpc_session_slot(layout, shader_present, slot, &type, &inst))
			continue;
		t->power[slot * MPC_PWR_STATES + mpc_session_pwr_index(pwr)]++;
		if (pwr == MALI_PERFCNT_POWER_OFF)
			continue;
		mask = mpc_session_value_mask(hw, type);
		for (c = 0; c < MPC_COUNTERS_PER_BLOCK; c++) {
			u32 v;

			if (!(mask & BIT_ULL(c)))
				continue;
			v = le32_to_cpu(blk[c]);
			if (v == U32_MAX) {
				sat[c] = nr;
				t->sat_last = nr;
			}
			sum[c] += v;
		}
	}
	if (hw_flags & MALI_PERFCNT_DATA_AFTER_RECOVERY)
		t->recovery_at = nr;
	if (hw_flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS)
		t->power_loss_at = nr;
	t->nr_intervals = nr;
	t->end_ns = end_ns;
}

/**
 * mpc_session_mark() - a session's sums start at the sums' present state
 * @acc: the session's sums.
 * @t: the sums of every interval.
 */
void mpc_session_mark(struct mpc_session_acc *acc, const struct mpc_session_total *t)
{
	memcpy(acc->base, t->values,
	       array_size(acc->nr_slots, MPC_COUNTERS_PER_BLOCK) * sizeof(*acc->base));
	memcpy(acc->base_power, t->power,
	       array_size(acc->nr_slots, MPC_PWR_STATES) * sizeof(*acc->base_power));
	acc->base_intervals = t->nr_intervals;
}

/**
 * mpc_session_take() - a session's own counters since its mark
 * @acc: the session's sums: its values, power and interval count become
 *	those of the intervals added to @t since mpc_session_mark(), for the
 *	counters it selected; its flags gain those intervals' (SATURATED
 *	when one of its counters read 0xffffffff in one of them).
 * @t: the sums of every interval.
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 */
void mpc_session_take(struct mpc_session_acc *acc, const struct mpc_session_total *t,
		      const struct mpc_layout *layout, u64 shader_present)
{
	u32 slot, type, inst, c, since = acc->base_intervals;

	for (slot = 0; slot < acc->nr_slots; slot++) {
		size_t v0 = (size_t)slot * MPC_COUNTERS_PER_BLOCK;
		const u32 *pw = t->power + slot * MPC_PWR_STATES;
		const u32 *bpw = acc->base_power + slot * MPC_PWR_STATES;
		u64 mask;

		memset(acc->values + v0, 0, MPC_COUNTERS_PER_BLOCK * sizeof(*acc->values));
		acc->power[slot] = 0;
		if (mpc_session_slot(layout, shader_present, slot, &type, &inst))
			continue;
		acc->power[slot] = (pw[0] != bpw[0] ? MPC_PWR_SEEN_ON : 0) |
				   (pw[1] != bpw[1] ? MPC_PWR_SEEN_OFF : 0) |
				   (pw[2] != bpw[2] ? MPC_PWR_SEEN_PARTIAL : 0);
		mask = mpc_session_value_mask(&acc->cfg, type);
		for (c = 0; c < MPC_COUNTERS_PER_BLOCK; c++) {
			if (!(mask & BIT_ULL(c)))
				continue;
			acc->values[v0 + c] = t->values[v0 + c] - acc->base[v0 + c];
			if (t->sat_at[v0 + c] > since)
				acc->flags |= MALI_PERFCNT_DATA_SATURATED;
		}
	}
	if (t->recovery_at > since)
		acc->flags |= MALI_PERFCNT_DATA_AFTER_RECOVERY;
	if (t->power_loss_at > since)
		acc->flags |= MALI_PERFCNT_DATA_AFTER_POWER_LOSS;
	if (t->nr_intervals != since)
		acc->end_ns = t->end_ns;
	acc->nr_intervals = t->nr_intervals - since;
}

/**
 * mpc_session_power_state() - a block's power over a session's interval
 * @seen: its MPC_PWR_SEEN_* bits.
 *
 * Return: ON when it was on for every hardware interval, OFF when for
 * none (or no interval was accumulated), PARTIAL otherwise.
 */
u32 mpc_session_power_state(u8 seen)
{
	if (seen == MPC_PWR_SEEN_ON)
		return MALI_PERFCNT_POWER_ON;
	if (!seen || seen == MPC_PWR_SEEN_OFF)
		return MALI_PERFCNT_POWER_OFF;
	return MALI_PERFCNT_POWER_PARTIAL;
}

/*
 * The sample header of @acc's interval: @flags (OVERFLOW added when
 * @args counts lost samples), @nr_blocks block headers, @size bytes.
 */
static void mpc_session_fill_header(struct drm_mali_perfcnt_sample_header *h,
				    const struct mpc_session_acc *acc,
				    const struct mpc_session_encode_args *args, u32 flags,
				    u32 nr_blocks, u32 size)
{
	memset(h, 0, sizeof(*h));
	h->start_ns = acc->start_ns;
	h->end_ns = acc->end_ns;
	h->clock_id = MALI_PERFCNT_CLOCK_MONOTONIC_RAW;
	h->flags = flags | (args->lost ? MALI_PERFCNT_DATA_OVERFLOW : 0);
	h->gpu_cycles = args->gpu_freq_hz ?
			mul_u64_u64_div_u64(acc->end_ns - acc->start_ns, args->gpu_freq_hz,
					    NSEC_PER_SEC) : 0;
	h->user_data = args->user_data;
	h->seqno = args->seqno;
	h->nr_blocks = nr_blocks;
	h->size = size;
	h->lost = args->lost;
}

/**
 * mpc_session_encode() - write a session's sums as a uAPI sample
 * @acc: the sums.
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 * @args: the header's other fields.
 * @buf: destination, in the CPU's byte order.
 * @size: its size.
 *
 * Return: bytes written, or -ENOSPC when @size is smaller than
 * mpc_session_sample_size().
 */
int mpc_session_encode(const struct mpc_session_acc *acc, const struct mpc_layout *layout,
		       u64 shader_present, const struct mpc_session_encode_args *args,
		       void *buf, size_t size)
{
	u32 need = mpc_session_sample_size(layout, shader_present);
	struct drm_mali_perfcnt_sample_header *h = buf;
	u8 *p = buf;
	u32 slot, type, inst, n = 0;

	if (size < need)
		return -ENOSPC;
	p += sizeof(*h);
	for (slot = 0; slot < acc->nr_slots; slot++) {
		struct drm_mali_perfcnt_block_header *b = (void *)p;

		if (mpc_session_slot(layout, shader_present, slot, &type, &inst))
			continue;
		b->block_type = type;
		b->instance = inst;
		b->power_state = mpc_session_power_state(acc->power[slot]);
		b->nr_values = MPC_COUNTERS_PER_BLOCK;
		b->enable_mask = mpc_session_value_mask(&acc->cfg, type);
		p += sizeof(*b);
		memcpy(p, acc->values + slot * MPC_COUNTERS_PER_BLOCK,
		       MPC_COUNTERS_PER_BLOCK * sizeof(u64));
		p += MPC_COUNTERS_PER_BLOCK * sizeof(u64);
		n++;
	}
	mpc_session_fill_header(h, acc, args, acc->flags, n, need);
	return need;
}

/**
 * mpc_session_emit() - take, encode and restart a session's interval in one pass
 * @acc: the session's sums, marked (mpc_session_mark()) where its interval
 *	started.
 * @t: the sums of every interval.
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT.
 * @args: the header's other fields.
 * @buf: destination, in the CPU's byte order (a ring slot).
 * @size: its size.
 *
 * The same bytes as mpc_session_take(), mpc_session_encode(),
 * mpc_session_acc_restart() at the interval's end and mpc_session_mark(),
 * in one pass over the sums and without &mpc_session_acc.values: what a
 * ring session does every period. @acc's values and power are left as
 * they were (mpc_session_take() rewrites them before they are read again).
 *
 * Return: bytes written, or -ENOSPC (nothing changed) when @size is smaller
 * than mpc_session_sample_size().
 */
int mpc_session_emit(struct mpc_session_acc *acc, const struct mpc_session_total *t,
		     const struct mpc_layout *layout, u64 shader_present,
		     const struct mpc_session_encode_args *args, void *buf, size_t size)
{
	u32 need = mpc_session_sample_size(layout, shader_present);
	struct drm_mali_perfcnt_sample_header *h = buf;
	u32 slot, type, inst, c, n = 0, since = acc->base_intervals;
	bool sat_any = t->sat_last > since;
	u64 masks[MALI_PERFCNT_BLOCK_SHADER + 1];
	u32 flags = acc->flags;
	u8 *p = buf;

	if (size < need)
		return -ENOSPC;
	for (type = MALI_PERFCNT_BLOCK_JM; type <= MALI_PERFCNT_BLOCK_SHADER; type++)
		masks[type] = mpc_session_value_mask(&acc->cfg, type);
	p += sizeof(*h);
	for (slot = 0; slot < acc->nr_slots; slot++) {
		struct drm_mali_perfcnt_block_header *b = (void *)p;
		size_t v0 = (size_t)slot * MPC_COUNTERS_PER_BLOCK;
		const u64 *tv = t->values + v0;
		const u32 *pw = t->power + slot * MPC_PWR_STATES;
		u32 *bpw = acc->base_power + slot * MPC_PWR_STATES;
		u64 *base = acc->base + v0, *out, mask;
		u8 seen;

		if (mpc_session_slot(layout, shader_present, slot, &type, &inst))
			continue;
		seen = (pw[0] != bpw[0] ? MPC_PWR_SEEN_ON : 0) |
		       (pw[1] != bpw[1] ? MPC_PWR_SEEN_OFF : 0) |
		       (pw[2] != bpw[2] ? MPC_PWR_SEEN_PARTIAL : 0);
		memcpy(bpw, pw, MPC_PWR_STATES * sizeof(*bpw));
		mask = masks[type];
		b->block_type = type;
		b->instance = inst;
		b->power_state = mpc_session_power_state(seen);
		b->nr_values = MPC_COUNTERS_PER_BLOCK;
		b->enable_mask = mask;
		out = (u64 *)(b + 1);
		for (c = 0; c < MPC_COUNTERS_PER_BLOCK; c++)
			out[c] = mask & BIT_ULL(c) ? tv[c] - base[c] : 0;
		memcpy(base, tv, MPC_COUNTERS_PER_BLOCK * sizeof(*base));
		for (c = 0; sat_any && c < MPC_COUNTERS_PER_BLOCK; c++)
			if ((mask & BIT_ULL(c)) && t->sat_at[v0 + c] > since)
				flags |= MALI_PERFCNT_DATA_SATURATED;
		p = (u8 *)(out + MPC_COUNTERS_PER_BLOCK);
		n++;
	}
	if (t->recovery_at > since)
		flags |= MALI_PERFCNT_DATA_AFTER_RECOVERY;
	if (t->power_loss_at > since)
		flags |= MALI_PERFCNT_DATA_AFTER_POWER_LOSS;
	if (t->nr_intervals != since)
		acc->end_ns = t->end_ns;
	mpc_session_fill_header(h, acc, args, flags, n, need);

	/* The next interval starts here, with the sums as they are now */
	acc->flags = 0;
	acc->start_ns = acc->end_ns;
	acc->nr_intervals = 0;
	acc->base_intervals = t->nr_intervals;
	return need;
}
