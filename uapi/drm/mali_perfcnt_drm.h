/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mali-perfcnt authors
 *
 * uAPI of mali_perfcnt, a DRM render-node driver that exposes the hardware
 * performance counters of job-manager Arm Mali GPUs (Midgard, Bifrost,
 * Valhall-JM).
 *
 * Rules followed by every ioctl below (see botching-up-ioctls.rst):
 *  - structures have no implicit holes and are 64-bit aligned;
 *  - every field marked "must be zero" is checked and rejected with -EINVAL;
 *  - unknown bits in @flags are rejected with -EINVAL;
 *  - user pointers are carried in __u64.
 *
 * Counters are not named here: the driver only describes the dump layout.
 * Counter names and meanings live in the userspace database.
 */
#ifndef _UAPI_MALI_PERFCNT_DRM_H_
#define _UAPI_MALI_PERFCNT_DRM_H_

#include <linux/const.h>

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * MALI_PERFCNT_UAPI_VERSION - revision of this interface, reported by GET_INFO
 *
 * Revision 2: the sampling stream (STREAM_OPEN); DUMP reports
 * &drm_mali_perfcnt_dump.interval_start_ns and
 * &drm_mali_perfcnt_dump.data_flags (MALI_PERFCNT_DATA_*) in what were its
 * reserved words; a DUMP that fails to copy its sample out keeps the sample
 * for the next DUMP; GET_INFO no longer reports %MALI_PERFCNT_CAP_SIMULATED
 * and %MALI_PERFCNT_CAP_HW_ISSUE_8186 (debugfs gpu_info does).
 */
#define MALI_PERFCNT_UAPI_VERSION	2

#define DRM_MALI_PERFCNT_GET_INFO	0x00
#define DRM_MALI_PERFCNT_ENABLE		0x01
#define DRM_MALI_PERFCNT_DUMP		0x02
#define DRM_MALI_PERFCNT_STREAM_OPEN	0x03

#define DRM_IOCTL_MALI_PERFCNT_GET_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_GET_INFO, \
		 struct drm_mali_perfcnt_get_info)
#define DRM_IOCTL_MALI_PERFCNT_ENABLE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_ENABLE, \
		struct drm_mali_perfcnt_enable)
#define DRM_IOCTL_MALI_PERFCNT_DUMP \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_DUMP, \
		 struct drm_mali_perfcnt_dump)
#define DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_STREAM_OPEN, \
		 struct drm_mali_perfcnt_stream_open)

/**
 * enum drm_mali_perfcnt_layout - how counter blocks are ordered in a dump
 * @MALI_PERFCNT_LAYOUT_V4: T60x/T62x/T72x. For each core group (one per L2
 *	cache), 8 blocks: shader cores 0-3 of the group, tiler, MMU/L2,
 *	a reserved block, job manager (group 0 only; reserved in others).
 * @MALI_PERFCNT_LAYOUT_V5: everything newer. Job manager, tiler, one block
 *	per L2 slice, then one block per bit position up to the highest set
 *	bit of shader_present (absent cores leave an untouched hole).
 */
enum drm_mali_perfcnt_layout {
	MALI_PERFCNT_LAYOUT_V4 = 4,
	MALI_PERFCNT_LAYOUT_V5 = 5,
};

/**
 * MALI_PERFCNT_CAP_SIMULATED - reserved, never set since revision 2
 *
 * Revision 1 set it on the built-in simulator. Whether the GPU is simulated
 * is a fact for tests, not ABI: debugfs gpu_info reports it ("simulated:").
 * The bit stays reserved and is not reused.
 */
#define MALI_PERFCNT_CAP_SIMULATED	_BITULL(0)
/**
 * MALI_PERFCNT_CAP_SET_SECONDARY - capability: counter set 1 can be selected
 */
#define MALI_PERFCNT_CAP_SET_SECONDARY	_BITULL(1)
/**
 * MALI_PERFCNT_CAP_HW_ISSUE_8186 - reserved, never set since revision 2
 *
 * Revision 1 set it when the driver applied its PRLAM-8186 workaround, a
 * kernel-internal detail: debugfs gpu_info reports it ("hw_issue_8186:").
 * The bit stays reserved and is not reused.
 */
#define MALI_PERFCNT_CAP_HW_ISSUE_8186	_BITULL(2)

/**
 * struct drm_mali_perfcnt_get_info - describe the GPU and its dump layout
 *
 * Anyone who can open the render node may call this; it does not need
 * counter access.
 */
struct drm_mali_perfcnt_get_info {
	/** @gpu_id: out, raw GPU_ID register. */
	__u32 gpu_id;
	/** @layout: out, &enum drm_mali_perfcnt_layout. */
	__u32 layout;
	/** @shader_present: out, raw SHADER_PRESENT (64 bits). */
	__u64 shader_present;
	/** @l2_present: out, raw L2_PRESENT (64 bits). */
	__u64 l2_present;
	/** @nr_l2: out, L2 slices: MEM_FEATURES[11:8] + 1. */
	__u32 nr_l2;
	/** @nr_core_groups: out, v4: hweight64(l2_present); v5: 1. */
	__u32 nr_core_groups;
	/**
	 * @nr_shader_blocks: out, shader-core block slots in a dump.
	 * v5: fls64(shader_present); v4: 4 per core group.
	 */
	__u32 nr_shader_blocks;
	/** @nr_blocks: out, total number of block slots in a dump. */
	__u32 nr_blocks;
	/** @counters_per_block: out, 32-bit values per block (64). */
	__u32 counters_per_block;
	/** @dump_size: out, bytes in one dump: @nr_blocks * counters * 4. */
	__u32 dump_size;
	/** @nr_counter_sets: out, 1 on Midgard, 2 on Bifrost and later. */
	__u32 nr_counter_sets;
	/** @l2_features: out, raw L2_FEATURES register. */
	__u32 l2_features;
	/** @mem_features: out, raw MEM_FEATURES register. */
	__u32 mem_features;
	/** @uapi_version: out, %MALI_PERFCNT_UAPI_VERSION of the driver. */
	__u32 uapi_version;
	/** @caps: out, MALI_PERFCNT_CAP_* bits. */
	__u64 caps;
	/** @gpu_freq_hz: out, GPU clock rate in Hz, 0 when unknown. */
	__u64 gpu_freq_hz;
	/** @product: out, NUL-terminated product name, e.g. "Mali-G52". */
	char product[32];
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @reserved: must be zero. */
	__u64 reserved[4];
};

/**
 * MALI_PERFCNT_ENABLE_F_MASKS - use the four block masks given by the caller.
 *
 * Without this flag the four mask fields must be zero and every counter of
 * every block is enabled (0xffff: bit n enables counters 4n..4n+3).
 */
#define MALI_PERFCNT_ENABLE_F_MASKS	0x1U

/**
 * struct drm_mali_perfcnt_enable - take and configure, or release, the counters
 *
 * Only one owner at a time: the open file description (struct file) that
 * enabled the counters. dup()ed descriptors and fork()ed children share it;
 * the counters are released when it is closed for the last time. Others
 * get -EBUSY. Enabling needs CAP_PERFMON (or CAP_SYS_ADMIN) unless root set
 * the sysctl dev.mali_perfcnt.perf_stream_paranoid to 0 (-EACCES otherwise;
 * the module parameter unprivileged=1 starts it at 0). Enabling twice, or
 * disabling counters that are not enabled, gives -EALREADY. Once the device
 * is gone (unbound), -ENODEV.
 */
struct drm_mali_perfcnt_enable {
	/** @enable: in, 1 to enable, 0 to disable; other values -EINVAL. */
	__u32 enable;
	/**
	 * @counter_set: in, PERFCNT_CFG.SETSEL: 0 (primary) on every GPU,
	 * 1 (secondary) on Bifrost and later only. Must be 0 when disabling.
	 */
	__u32 counter_set;
	/** @jm_mask: in, PRFCNT_JM_EN (with %MALI_PERFCNT_ENABLE_F_MASKS). */
	__u32 jm_mask;
	/** @tiler_mask: in, PRFCNT_TILER_EN. */
	__u32 tiler_mask;
	/** @shader_mask: in, PRFCNT_SHADER_EN. */
	__u32 shader_mask;
	/** @mmu_l2_mask: in, PRFCNT_MMU_L2_EN. */
	__u32 mmu_l2_mask;
	/** @flags: in, MALI_PERFCNT_ENABLE_F_* bits. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @reserved: must be zero. */
	__u64 reserved[2];
};

/**
 * DOC: sample data flags
 *
 * Each sample carries MALI_PERFCNT_DATA_* flags that say how far its
 * counters can be trusted, in &drm_mali_perfcnt_dump.data_flags and in
 * &drm_mali_perfcnt_record.data_flags of the sampling stream, with the same
 * meaning. Unknown bits may appear in later revisions: userspace ignores the
 * bits it does not know.
 */

/**
 * MALI_PERFCNT_DATA_SATURATED - a counter of this sample read 0xffffffff
 *
 * The hardware counters are 32 bits wide and stop at 0xffffffff: at least
 * one counter value of this sample (header words excluded) is that, so it
 * is a lower bound of the real count. Sample more often.
 */
#define MALI_PERFCNT_DATA_SATURATED		_BITUL(0)
/**
 * MALI_PERFCNT_DATA_AFTER_RECOVERY - the interval starts at a GPU recovery
 *
 * An earlier sample failed (-ETIMEDOUT, -EIO or an interrupted DUMP) and the
 * driver reset the GPU and restarted the counters. What was counted before
 * the reset is lost; the sample covers [interval_start_ns, timestamp_ns],
 * where interval_start_ns is the moment the counters were restarted.
 */
#define MALI_PERFCNT_DATA_AFTER_RECOVERY	_BITUL(1)
/**
 * MALI_PERFCNT_DATA_AFTER_POWER_LOSS - the GPU lost power inside the interval
 *
 * A system suspend or a power cycle of the GPU happened between
 * interval_start_ns and timestamp_ns: the counters lost what they held at
 * that point, so the sample holds less than the whole interval.
 */
#define MALI_PERFCNT_DATA_AFTER_POWER_LOSS	_BITUL(2)
/**
 * MALI_PERFCNT_DATA_FIRST - the first sample since ENABLE
 *
 * interval_start_ns is then the moment ENABLE started the counters (unless
 * %MALI_PERFCNT_DATA_AFTER_RECOVERY is also set: a recovery restarted them
 * before the first sample could be taken).
 */
#define MALI_PERFCNT_DATA_FIRST			_BITUL(3)

/**
 * struct drm_mali_perfcnt_dump - take one sample and copy it out
 *
 * The counters are cleared by each sample, so every dump holds the activity
 * of [@interval_start_ns, @timestamp_ns]: since the previous sample, since
 * ENABLE, or since the recovery that restarted them (see @data_flags).
 *
 * Errors: -EPERM when another file owns the counters, -ENODATA when they
 * are not enabled, -ENOSPC when @buf_size is smaller than the dump (the
 * needed size is written back to @buf_size), -EFAULT for a bad pointer,
 * -ETIMEDOUT when the GPU did not finish the sample in time, -EIO when the
 * GPU faulted, -EINTR when a fatal signal ended the wait for another
 * file's sample (a sample already issued is let finish, within the
 * timeout, and the GPU is not reset for it), -ENODEV once the device is
 * gone (unbound). The counters stay enabled after -ETIMEDOUT and -EIO: the
 * GPU is reset and the counters restarted, and the
 * next sample has %MALI_PERFCNT_DATA_AFTER_RECOVERY. If the GPU could not
 * be recovered, the counters are disabled and later dumps get -ENODATA
 * until the next ENABLE. The out fields are written only on success.
 *
 * A failed copy does not consume a sample: when the sample was taken but
 * could not be written to @buf_ptr (-EFAULT), the driver keeps it, and the
 * next DUMP of the owner returns that same sample (same @seqno, timestamps
 * and flags) without sampling the GPU. The contents of the buffer of the
 * failed DUMP are undefined. A kept sample is dropped when the counters are
 * disabled, and when another thread sharing the owner's file took a newer
 * sample in between (the newer sample's @interval_start_ns then shows the
 * gap).
 */
struct drm_mali_perfcnt_dump {
	/** @buf_ptr: in, user address of the destination buffer. */
	__u64 buf_ptr;
	/** @buf_size: in/out, size of the buffer; dump size is written back. */
	__u32 buf_size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @seqno: out, sample sequence number, strictly increasing. */
	__u64 seqno;
	/**
	 * @timestamp_ns: out, CLOCK_MONOTONIC_RAW time the sample was taken:
	 * when the driver asked the GPU, which latches its counters on the
	 * request. It ends the span the counters cover.
	 */
	__u64 timestamp_ns;
	/**
	 * @interval_start_ns: out (its input is ignored), CLOCK_MONOTONIC_RAW
	 * start of the span the counters cover: the previous sample's
	 * @timestamp_ns, the moment ENABLE started the counters
	 * (%MALI_PERFCNT_DATA_FIRST), or the moment a recovery restarted them
	 * (%MALI_PERFCNT_DATA_AFTER_RECOVERY).
	 */
	__u64 interval_start_ns;
	/**
	 * @data_flags: out (its input is ignored), MALI_PERFCNT_DATA_* bits of
	 * this sample.
	 */
	__u32 data_flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * MALI_PERFCNT_STREAM_F_MASKS - use the four block masks given by the caller
 * (as %MALI_PERFCNT_ENABLE_F_MASKS).
 */
#define MALI_PERFCNT_STREAM_F_MASKS		0x1U
/** MALI_PERFCNT_STREAM_F_DISABLED - open the stream stopped. */
#define MALI_PERFCNT_STREAM_F_DISABLED		0x2U
/** MALI_PERFCNT_STREAM_F_NONBLOCK - the stream fd is O_NONBLOCK. */
#define MALI_PERFCNT_STREAM_F_NONBLOCK		0x4U
/** MALI_PERFCNT_STREAM_F_CLOEXEC - the stream fd is O_CLOEXEC. */
#define MALI_PERFCNT_STREAM_F_CLOEXEC		0x8U

/** MALI_PERFCNT_STREAM_MIN_PERIOD_NS - shortest period, 100 us. */
#define MALI_PERFCNT_STREAM_MIN_PERIOD_NS	100000ULL
/**
 * MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS - shortest period for a caller
 * without CAP_PERFMON (dev.mali_perfcnt.perf_stream_paranoid 0), 1 ms.
 */
#define MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS 1000000ULL
/** MALI_PERFCNT_STREAM_MAX_PERIOD_NS - longest period, 10 s. */
#define MALI_PERFCNT_STREAM_MAX_PERIOD_NS	10000000000ULL
/** MALI_PERFCNT_STREAM_MAX_RECORDS - largest ring, in records. */
#define MALI_PERFCNT_STREAM_MAX_RECORDS		4096

/**
 * struct drm_mali_perfcnt_stream_open - take the counters as a sampling stream
 *
 * Returns a new file descriptor, the stream, which owns the counters (other
 * files get -EBUSY from ENABLE and STREAM_OPEN) until it is closed. The GPU
 * is sampled every @period_ns by a kernel timer, or on
 * %MALI_PERFCNT_STREAM_IOCTL_SAMPLE when @period_ns is 0, into a ring of
 * @ring_records records. read() on the stream returns whole records (struct
 * drm_mali_perfcnt_record, then the dump for a SAMPLE record), as many as fit
 * in the buffer (-ENOSPC if not even one fits; 0 for a read of 0 bytes); it
 * blocks until one is ready unless the fd is non-blocking (-EAGAIN), and
 * fails with -EIO instead when the stream is disabled (%MALI_PERFCNT_STREAM_F_DISABLED,
 * %MALI_PERFCNT_STREAM_IOCTL_DISABLE) and its ring empty. poll() reports EPOLLIN when a
 * record is ready, and EPOLLHUP once the device is gone and the ring empty.
 * Memory: @ring_records * @record_size bytes, plus a constant.
 *
 * Errors: -EINVAL (a bad field; see the kernel log with drm.debug), -EBUSY,
 * -EACCES (no CAP_PERFMON and perf_stream_paranoid 1; checked before the
 * ring is allocated, as -EBUSY first is), -ENOMEM, -ENODEV.
 */
struct drm_mali_perfcnt_stream_open {
	/** @counter_set: in, as for ENABLE. */
	__u32 counter_set;
	/** @flags: in, MALI_PERFCNT_STREAM_F_* bits. */
	__u32 flags;
	/** @jm_mask: in, PRFCNT_JM_EN (with %MALI_PERFCNT_STREAM_F_MASKS). */
	__u32 jm_mask;
	/** @tiler_mask: in, PRFCNT_TILER_EN. */
	__u32 tiler_mask;
	/** @shader_mask: in, PRFCNT_SHADER_EN. */
	__u32 shader_mask;
	/** @mmu_l2_mask: in, PRFCNT_MMU_L2_EN. */
	__u32 mmu_l2_mask;
	/**
	 * @period_ns: in, sampling period: 0 (manual) or
	 * %MALI_PERFCNT_STREAM_MIN_PERIOD_NS (1 ms without CAP_PERFMON) to
	 * %MALI_PERFCNT_STREAM_MAX_PERIOD_NS.
	 */
	__u64 period_ns;
	/** @ring_records: in, records the ring holds: 2 to %MALI_PERFCNT_STREAM_MAX_RECORDS. */
	__u32 ring_records;
	/** @fd: out, the stream file descriptor. */
	__s32 fd;
	/** @record_size: out, bytes of a SAMPLE record: header and dump. */
	__u32 record_size;
	/** @pad: must be zero. */
	__u32 pad;
	/** @reserved: must be zero. */
	__u64 reserved[2];
};

/**
 * enum drm_mali_perfcnt_record_type - what a stream record is
 * @MALI_PERFCNT_RECORD_SAMPLE: one sample; the dump follows the header.
 * @MALI_PERFCNT_RECORD_LOST: the reader fell behind: @lost records (samples
 *	and errors) between @start_ns and @end_ns were dropped; @data_flags
 *	holds their data flags ORed, @error the error of the first dropped
 *	ERROR record (0: none). The next SAMPLE's interval starts at @end_ns.
 * @MALI_PERFCNT_RECORD_ERROR: a sample failed with @error (-ETIMEDOUT,
 *	-EIO); the GPU was recovered and the stream goes on (the next SAMPLE
 *	has %MALI_PERFCNT_DATA_AFTER_RECOVERY), or, if it could not be, this is
 *	the last record.
 */
enum drm_mali_perfcnt_record_type {
	MALI_PERFCNT_RECORD_SAMPLE = 1,
	MALI_PERFCNT_RECORD_LOST = 2,
	MALI_PERFCNT_RECORD_ERROR = 3,
};

/**
 * struct drm_mali_perfcnt_record - header of every stream record
 *
 * Records are 8-byte aligned and follow each other without gaps.
 */
struct drm_mali_perfcnt_record {
	/** @type: enum drm_mali_perfcnt_record_type. */
	__u16 type;
	/** @header_size: sizeof(struct drm_mali_perfcnt_record), for growth. */
	__u16 header_size;
	/** @size: bytes of the whole record, header included. */
	__u32 size;
	/**
	 * @seqno: SAMPLE: the sample's sequence number, +1 for every sample
	 * taken (dropped ones too, and the one ENABLE takes to start a fresh
	 * interval after a DISABLE, which no record stands for: the next
	 * record has %MALI_PERFCNT_DATA_FIRST); LOST and ERROR: the last one
	 * taken.
	 */
	__u64 seqno;
	/** @start_ns: CLOCK_MONOTONIC_RAW start of the interval covered. */
	__u64 start_ns;
	/** @end_ns: CLOCK_MONOTONIC_RAW end: when the sample was taken. */
	__u64 end_ns;
	/** @data_flags: MALI_PERFCNT_DATA_* bits (SAMPLE and LOST records). */
	__u32 data_flags;
	/**
	 * @error: ERROR records: the negative errno of the failed sample;
	 * LOST records: that of the first dropped ERROR record, or 0.
	 */
	__s32 error;
	/** @lost: LOST records: samples dropped. */
	__u64 lost;
};

/* ioctls on the stream file descriptor */
/** MALI_PERFCNT_STREAM_IOCTL_ENABLE - start (or restart) sampling. */
#define MALI_PERFCNT_STREAM_IOCTL_ENABLE	_IO('M', 0x40)
/** MALI_PERFCNT_STREAM_IOCTL_DISABLE - stop sampling; the counters stay owned. */
#define MALI_PERFCNT_STREAM_IOCTL_DISABLE	_IO('M', 0x41)
/** MALI_PERFCNT_STREAM_IOCTL_SAMPLE - take one sample now (enabled streams). */
#define MALI_PERFCNT_STREAM_IOCTL_SAMPLE	_IO('M', 0x42)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_MALI_PERFCNT_DRM_H_ */
