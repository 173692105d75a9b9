/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mali_perfcnt: counter sessions (uAPI revision 3). mpc_session.c is the
 * pure part (union of masks, 64-bit sums, power bookkeeping, the
 * sample encoder), unit-tested by KUnit; mpc_session_fd.c attaches the
 * sessions to the counter unit as one &struct mpc_perfcnt_owner and gives
 * each its file descriptor.
 */
#ifndef MPC_SESSION_H
#define MPC_SESSION_H

#include <linux/types.h>

#include "mpc_core.h"

/* Sessions a device takes at once (&drm_mali_perfcnt_get_info_v3.max_sessions) */
#define MPC_MAX_SESSIONS	16

/* Per block, what its power was over the hardware intervals accumulated */
#define MPC_PWR_SEEN_ON		BIT(0)	/* on for a whole interval */
#define MPC_PWR_SEEN_OFF	BIT(1)	/* off for a whole interval */
#define MPC_PWR_SEEN_PARTIAL	BIT(2)	/* on for part of one */
/* &mpc_session_total.power: per slot, intervals on, off, partly on */
#define MPC_PWR_STATES		3

/**
 * struct mpc_session_acc - what one session has counted since its last sample
 * @cfg: its counter set and enable masks.
 * @nr_slots: block slots of a dump (&mpc_layout.nr_blocks).
 * @values: @nr_slots * %MPC_COUNTERS_PER_BLOCK sums, by slot.
 * @power: per slot, MPC_PWR_SEEN_* of the intervals accumulated.
 * @flags: MALI_PERFCNT_DATA_* of the intervals accumulated.
 * @start_ns: start of the interval the sums cover.
 * @end_ns: end of the last hardware interval accumulated.
 * @nr_intervals: hardware intervals accumulated.
 * @base: &mpc_session_total.values when the interval started
 *	(mpc_session_mark()).
 * @base_power: &mpc_session_total.power then.
 * @base_intervals: &mpc_session_total.nr_intervals then.
 */
struct mpc_session_acc {
	struct mpc_perfcnt_config cfg;
	u32 nr_slots;
	u64 *values;
	u8 *power;
	u32 flags;
	u64 start_ns;
	u64 end_ns;
	u32 nr_intervals;
	u64 *base;
	u32 *base_power;
	u32 base_intervals;
};

/**
 * struct mpc_session_total - every hardware interval of a device's sessions, summed
 * @nr_slots: block slots of a dump (&mpc_layout.nr_blocks).
 * @values: @nr_slots * %MPC_COUNTERS_PER_BLOCK sums, by slot, of the
 *	counters the hardware counted in each interval.
 * @sat_at: per value, the interval (counted from 1) in which it last read
 *	0xffffffff; 0 for never.
 * @power: per slot, %MPC_PWR_STATES counts of the intervals the block was
 *	on, off and partly on.
 * @sat_last: the last interval in which any value read 0xffffffff; 0 for
 *	never (lets a session skip @sat_at when none did since its mark).
 * @recovery_at: the last interval with MALI_PERFCNT_DATA_AFTER_RECOVERY.
 * @power_loss_at: the last with MALI_PERFCNT_DATA_AFTER_POWER_LOSS.
 * @nr_intervals: intervals added.
 * @end_ns: when the last one ended.
 */
struct mpc_session_total {
	u32 nr_slots;
	u64 *values;
	u32 *sat_at;
	u32 *power;
	u32 sat_last;
	u32 recovery_at;
	u32 power_loss_at;
	u32 nr_intervals;
	u64 end_ns;
};

/**
 * struct mpc_session_encode_args - what a sample header says besides the sums
 * @user_data: the session's user data.
 * @seqno: the sample's number.
 * @gpu_freq_hz: nominal GPU clock, 0 when unknown.
 * @lost: ring periods the sample stands for besides its own (sets
 *	MALI_PERFCNT_DATA_OVERFLOW), 0 for none.
 */
struct mpc_session_encode_args {
	u64 user_data;
	u64 seqno;
	u64 gpu_freq_hz;
	u32 lost;
};

void mpc_session_union(const struct mpc_perfcnt_config *const *cfgs, unsigned int n,
		       struct mpc_perfcnt_config *out);
bool mpc_session_covers(const struct mpc_perfcnt_config *hw,
			const struct mpc_perfcnt_config *cfg);
int mpc_session_slot(const struct mpc_layout *layout, u64 shader_present, unsigned int slot,
		     u32 *type, u32 *instance);
u64 mpc_session_value_mask(const struct mpc_perfcnt_config *cfg, u32 type);
u32 mpc_session_nr_present(const struct mpc_layout *layout, u64 shader_present);
u32 mpc_session_sample_size(const struct mpc_layout *layout, u64 shader_present);
int __must_check mpc_session_acc_init(struct mpc_session_acc *acc, const struct mpc_layout *layout,
				      const struct mpc_perfcnt_config *cfg);
void mpc_session_acc_free(struct mpc_session_acc *acc);
void mpc_session_acc_restart(struct mpc_session_acc *acc, u64 start_ns, u32 flags);
int __must_check mpc_session_total_alloc(struct mpc_session_total *t,
					 const struct mpc_layout *layout);
void mpc_session_total_free(struct mpc_session_total *t);
void mpc_session_total_add(struct mpc_session_total *t, const struct mpc_layout *layout,
			   u64 shader_present, const struct mpc_perfcnt_config *hw,
			   const __le32 *dump, const u8 *slot_power, u32 hw_flags, u64 end_ns);
void mpc_session_mark(struct mpc_session_acc *acc, const struct mpc_session_total *t);
void mpc_session_take(struct mpc_session_acc *acc, const struct mpc_session_total *t,
		      const struct mpc_layout *layout, u64 shader_present);
u32 mpc_session_power_state(u8 seen);
int mpc_session_encode(const struct mpc_session_acc *acc, const struct mpc_layout *layout,
		       u64 shader_present, const struct mpc_session_encode_args *args,
		       void *buf, size_t size);
int mpc_session_emit(struct mpc_session_acc *acc, const struct mpc_session_total *t,
		     const struct mpc_layout *layout, u64 shader_present,
		     const struct mpc_session_encode_args *args, void *buf, size_t size);

/* mpc_session_fd.c */
struct mpc_session_hub;
int __must_check mpc_session_init(struct mpc_device *mdev);
int mpc_ioctl_get_info_v3(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data);
int mpc_ioctl_session_open(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
			   void *data);

#endif /* MPC_SESSION_H */
