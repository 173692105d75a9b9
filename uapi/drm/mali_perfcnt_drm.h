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
#define MALI_PERFCNT_UAPI_VERSION	MALI_PERFCNT_UAPI_VERSION_V3

/**
 * MALI_PERFCNT_UAPI_VERSION_V3 - the revision that added sessions
 *
 * Revision 3: GET_INFO_V3 (block types and counts, no layout enum and no
 * fixed counters per block), SESSION_OPEN (several sessions at once, each
 * with its own masks, accumulated in 64 bits by the kernel, read as
 * self-describing samples: &struct drm_mali_perfcnt_sample_header then per
 * block &struct drm_mali_perfcnt_block_header and its values). GET_INFO,
 * ENABLE, DUMP and STREAM_OPEN (revision 2) are deprecated: they keep
 * working for one release, and own the counters alone (a session's START
 * gets -EBUSY while they do, and they get -EBUSY while a session runs).
 * A sample, an enable or a stream record that a GPU or MMU fault ended
 * fails with -ENXIO when the GPU was recovered (revision 2 said -EIO);
 * -EIO now always means that the GPU could not be recovered or is dead.
 */
#define MALI_PERFCNT_UAPI_VERSION_V3	3

#define DRM_MALI_PERFCNT_GET_INFO	0x00
#define DRM_MALI_PERFCNT_ENABLE		0x01
#define DRM_MALI_PERFCNT_DUMP		0x02
#define DRM_MALI_PERFCNT_STREAM_OPEN	0x03
#define DRM_MALI_PERFCNT_GET_INFO_V3	0x04
#define DRM_MALI_PERFCNT_SESSION_OPEN	0x05

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
#define DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3 \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_GET_INFO_V3, \
		 struct drm_mali_perfcnt_get_info_v3)
#define DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN \
	DRM_IOW(DRM_COMMAND_BASE + DRM_MALI_PERFCNT_SESSION_OPEN, \
		struct drm_mali_perfcnt_session_open)

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
 * Deprecated since revision 3 (use &struct drm_mali_perfcnt_get_info_v3);
 * kept for one release. Anyone who can open the render node may call this; it does not need
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
 * Deprecated since revision 3 (use SESSION_OPEN); kept for one release.
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
 * An earlier sample failed (-ETIMEDOUT, -ENXIO or an interrupted DUMP) and the
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
 * MALI_PERFCNT_DATA_OVERFLOW - a session's ring had no room for a sample
 *
 * Revision 3, session samples only. At one or more periods of this sample's
 * interval the session's ring (%MALI_PERFCNT_PROP_RING_SAMPLES) was full:
 * no sample was queued then and the interval went on, so this sample
 * covers those periods too (nothing is dropped: the 64-bit sums hold the
 * whole interval). &drm_mali_perfcnt_sample_header.lost says how many
 * periods' samples it stands for besides its own. Read more often, or give
 * a larger ring.
 */
#define MALI_PERFCNT_DATA_OVERFLOW		_BITUL(4)

/**
 * struct drm_mali_perfcnt_dump - take one sample and copy it out
 *
 * Deprecated since revision 3 (use a session's SAMPLE); kept for one release.
 *
 * The counters are cleared by each sample, so every dump holds the activity
 * of [@interval_start_ns, @timestamp_ns]: since the previous sample, since
 * ENABLE, or since the recovery that restarted them (see @data_flags).
 *
 * Errors: -EPERM when another file owns the counters, -ENODATA when they
 * are not enabled, -ENOSPC when @buf_size is smaller than the dump (the
 * needed size is written back to @buf_size), -EFAULT for a bad pointer,
 * -ETIMEDOUT when the GPU did not finish the sample in time, -ENXIO when
 * a GPU or MMU fault ended it, -EIO when the GPU could not be recovered
 * or is dead, -EINTR when a fatal signal ended the wait for another
 * file's sample (a sample already issued is let finish, within the
 * timeout, and the GPU is not reset for it), -ENODEV once the device is
 * gone (unbound). The counters stay enabled after -ETIMEDOUT and -ENXIO:
 * the GPU is reset and the counters restarted, and the next sample has
 * %MALI_PERFCNT_DATA_AFTER_RECOVERY. If the GPU could not be recovered
 * (-EIO), the counters are disabled and later dumps get -ENODATA
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
 * Deprecated since revision 3 (use SESSION_OPEN); kept for one release.
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
 *	-ENXIO); the GPU was recovered and the stream goes on (the next SAMPLE
 *	has %MALI_PERFCNT_DATA_AFTER_RECOVERY), or, if it could not be (-EIO),
 *	this is the last record.
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

/*
 * ioctls on the stream file descriptor (deprecated with the v2 stream). Their
 * type 'M' is shared with other drivers in ioctl-number.rst; the session
 * ioctls below have a type of their own.
 */
/** MALI_PERFCNT_STREAM_IOCTL_ENABLE - start (or restart) sampling. */
#define MALI_PERFCNT_STREAM_IOCTL_ENABLE	_IO('M', 0x40)
/** MALI_PERFCNT_STREAM_IOCTL_DISABLE - stop sampling; the counters stay owned. */
#define MALI_PERFCNT_STREAM_IOCTL_DISABLE	_IO('M', 0x41)
/** MALI_PERFCNT_STREAM_IOCTL_SAMPLE - take one sample now (enabled streams). */
#define MALI_PERFCNT_STREAM_IOCTL_SAMPLE	_IO('M', 0x42)

/*
 * Revision 3: sessions and self-describing samples.
 */

/**
 * enum drm_mali_perfcnt_block_type - what kind of unit a counter block counts
 * @MALI_PERFCNT_BLOCK_JM: the job manager (front end), one instance.
 * @MALI_PERFCNT_BLOCK_TILER: the tiler, one instance.
 * @MALI_PERFCNT_BLOCK_MMU_L2: the MMU and an L2 cache slice, one instance
 *	per slice (per core group on the v4 layout).
 * @MALI_PERFCNT_BLOCK_SHADER: a shader core; instances are the bit
 *	positions of shader_present (physical core numbers).
 */
enum drm_mali_perfcnt_block_type {
	MALI_PERFCNT_BLOCK_JM = 1,
	MALI_PERFCNT_BLOCK_TILER = 2,
	MALI_PERFCNT_BLOCK_MMU_L2 = 3,
	MALI_PERFCNT_BLOCK_SHADER = 4,
};

/** MALI_PERFCNT_MAX_BLOCK_TYPES - block types GET_INFO_V3 can describe. */
#define MALI_PERFCNT_MAX_BLOCK_TYPES	8

/**
 * struct drm_mali_perfcnt_block_type_info - one block type of the GPU
 */
struct drm_mali_perfcnt_block_type_info {
	/** @type: &enum drm_mali_perfcnt_block_type. */
	__u32 type;
	/** @nr_instances: blocks of this type in a sample. */
	__u16 nr_instances;
	/**
	 * @nr_values: 64-bit values per block of this type in a sample
	 * (64; values 0-3 are the hardware's header words and read 0).
	 */
	__u16 nr_values;
	/**
	 * @instance_mask: the physical instance numbers present, one bit
	 * each (shader_present for shader cores).
	 */
	__u64 instance_mask;
};

/**
 * struct drm_mali_perfcnt_get_info_v3 - describe the GPU and its counters
 *
 * Anyone who can open the render node may call this. The GPU's blocks are
 * described by type and count: a sample (see &struct
 * drm_mali_perfcnt_sample_header) describes its own layout, so no product
 * table and no layout rule is needed to read one.
 *
 * Errors: -EINVAL for a non-zero @flags, @pad or @reserved, -EFAULT when
 * @block_types_ptr cannot be written. When @nr_block_types is smaller than
 * the GPU's count, only that many are written and @nr_block_types is set to
 * the full count (call with 0 to size the array).
 */
struct drm_mali_perfcnt_get_info_v3 {
	/** @gpu_id: out, raw GPU_ID register. */
	__u32 gpu_id;
	/** @uapi_version: out, %MALI_PERFCNT_UAPI_VERSION of the driver. */
	__u32 uapi_version;
	/** @shader_present: out, raw SHADER_PRESENT. */
	__u64 shader_present;
	/** @l2_present: out, raw L2_PRESENT. */
	__u64 l2_present;
	/** @gpu_freq_hz: out, GPU clock rate in Hz, 0 when unknown. */
	__u64 gpu_freq_hz;
	/**
	 * @block_types_ptr: in, user address of an array of
	 * @nr_block_types &struct drm_mali_perfcnt_block_type_info, or 0.
	 */
	__u64 block_types_ptr;
	/** @nr_block_types: in: entries at @block_types_ptr; out: the GPU's count. */
	__u32 nr_block_types;
	/** @nr_counter_sets: out, 1 on Midgard, 2 on Bifrost and later. */
	__u32 nr_counter_sets;
	/** @max_sessions: out, sessions the device takes at once. */
	__u32 max_sessions;
	/** @sample_size: out, bytes of one session sample, headers included. */
	__u32 sample_size;
	/** @caps: out, MALI_PERFCNT_CAP_* bits. */
	__u64 caps;
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
 * struct drm_mali_perfcnt_user_extension - one link of an extension chain
 *
 * As xe's and i915's: every extension starts with this header, and
 * @next_extension links the next one (0 ends the chain), followed in
 * order until the first bad link. At most %MALI_PERFCNT_MAX_EXTENSIONS
 * links: a longer chain gets -E2BIG, an unknown @name -EINVAL. Every
 * extension of revision 3 sets a property, and a property may be set
 * once, so a loop (or a seventh link) gets -EINVAL before the limit.
 */
struct drm_mali_perfcnt_user_extension {
	/** @next_extension: user address of the next extension, or 0. */
	__u64 next_extension;
	/** @name: MALI_PERFCNT_EXT_* id of this extension. */
	__u32 name;
	/** @pad: must be zero. */
	__u32 pad;
};

/** MALI_PERFCNT_MAX_EXTENSIONS - longest extension chain SESSION_OPEN follows. */
#define MALI_PERFCNT_MAX_EXTENSIONS	16

/**
 * MALI_PERFCNT_EXT_SET_PROPERTY - extension: &struct drm_mali_perfcnt_ext_set_property
 */
#define MALI_PERFCNT_EXT_SET_PROPERTY	0

/**
 * enum drm_mali_perfcnt_session_property - what a SET_PROPERTY extension sets
 * @MALI_PERFCNT_PROP_JM_MASK: PRFCNT_JM_EN-style mask of the job manager
 *	block: bit n selects counters 4n..4n+3, bits 16-31 must be zero.
 *	Default (not given): every counter.
 * @MALI_PERFCNT_PROP_TILER_MASK: likewise for the tiler.
 * @MALI_PERFCNT_PROP_SHADER_MASK: likewise for every shader core.
 * @MALI_PERFCNT_PROP_MMU_L2_MASK: likewise for every MMU/L2 block.
 * @MALI_PERFCNT_PROP_PERIOD_NS: the longest time the kernel lets the
 *	hardware count for this session without accumulating: 0 (default)
 *	for the watchdog's 1 s, else %MALI_PERFCNT_STREAM_MIN_PERIOD_NS (or
 *	sysctl dev.mali_perfcnt.session_min_period_unpriv_us without
 *	CAP_PERFMON) to 1 s.
 *	A session with a period and %MALI_PERFCNT_PROP_RING_SAMPLES queues a
 *	sample into its ring every period while it runs, for read() (see
 *	&struct drm_mali_perfcnt_session_open); without a ring the period
 *	only bounds how long the hardware counts unaccumulated, and SAMPLE
 *	returns everything since the last SAMPLE.
 * @MALI_PERFCNT_PROP_USER_DATA: an opaque value every sample header of
 *	the session carries (&drm_mali_perfcnt_sample_header.user_data).
 * @MALI_PERFCNT_PROP_RING_SAMPLES: give a session with a
 *	%MALI_PERFCNT_PROP_PERIOD_NS a ring of this many samples, 2 to
 *	%MALI_PERFCNT_SESSION_MAX_RING_SAMPLES: its periodic samples are read
 *	with read(). Without it a session has no ring. Without a period, or
 *	out of that range: -EINVAL.
 *
 * Setting a property twice gets -EINVAL.
 */
enum drm_mali_perfcnt_session_property {
	MALI_PERFCNT_PROP_JM_MASK = 1,
	MALI_PERFCNT_PROP_TILER_MASK = 2,
	MALI_PERFCNT_PROP_SHADER_MASK = 3,
	MALI_PERFCNT_PROP_MMU_L2_MASK = 4,
	MALI_PERFCNT_PROP_PERIOD_NS = 5,
	MALI_PERFCNT_PROP_USER_DATA = 6,
	MALI_PERFCNT_PROP_RING_SAMPLES = 7,
};

/** MALI_PERFCNT_SESSION_MAX_RING_SAMPLES - largest ring %MALI_PERFCNT_PROP_RING_SAMPLES gives. */
#define MALI_PERFCNT_SESSION_MAX_RING_SAMPLES		1024

/**
 * struct drm_mali_perfcnt_ext_set_property - extension: set one session property
 */
struct drm_mali_perfcnt_ext_set_property {
	/** @base: @base.name is %MALI_PERFCNT_EXT_SET_PROPERTY. */
	struct drm_mali_perfcnt_user_extension base;
	/** @property: &enum drm_mali_perfcnt_session_property. */
	__u32 property;
	/** @pad: must be zero. */
	__u32 pad;
	/** @value: the property's value. */
	__u64 value;
};

/** MALI_PERFCNT_SESSION_F_CLOEXEC - the session fd is O_CLOEXEC. */
#define MALI_PERFCNT_SESSION_F_CLOEXEC	0x1U
/** MALI_PERFCNT_SESSION_F_START - start the session at once (as START). */
#define MALI_PERFCNT_SESSION_F_START	0x2U

/** MALI_PERFCNT_SESSION_WATCHDOG_NS - the longest span the kernel leaves unaccumulated. */
#define MALI_PERFCNT_SESSION_WATCHDOG_NS	1000000000ULL

/**
 * struct drm_mali_perfcnt_session_open - open a counter session
 *
 * Returns a new file descriptor, the session, as the ioctl's return value
 * (nothing is written back: there is no window in which another thread
 * could close a descriptor the ioctl reported). Up to
 * &drm_mali_perfcnt_get_info_v3.max_sessions sessions run at once, each
 * with its own masks: the hardware counts the union of the running
 * sessions' masks and each session reads exactly its own counters,
 * accumulated by the kernel in 64 bits over its own intervals. A session
 * is opened stopped unless %MALI_PERFCNT_SESSION_F_START is given.
 *
 * Periodic sessions (%MALI_PERFCNT_PROP_PERIOD_NS given) also deliver
 * their samples through the fd: each period while the session runs, the
 * kernel queues the session's sample of that period (the bytes SAMPLE
 * would return) into the session's ring of %MALI_PERFCNT_PROP_RING_SAMPLES
 * samples. read() returns whole samples, as many as fit in its buffer, and
 * blocks until one is queued (-EAGAIN instead with O_NONBLOCK, set with
 * fcntl()). A buffer smaller than one sample
 * (&drm_mali_perfcnt_get_info_v3.sample_size) gets -ENOSPC, a read of 0
 * bytes returns 0, and a session without a period -EINVAL. poll() reports
 * EPOLLIN when read() has a sample, EPOLLERR when read() would fail at
 * once with the error that stopped the session, EPOLLHUP (and EPOLLERR)
 * once the device is gone. When the ring is full at a period, no sample is
 * queued and the interval goes on: the next sample delivered covers the
 * missed periods, with %MALI_PERFCNT_DATA_OVERFLOW and their count in
 * &drm_mali_perfcnt_sample_header.lost. Every interval of the session is
 * delivered exactly once, by read() or by SAMPLE: SAMPLE (which a ring
 * session may still call) returns the interval since the last sample
 * either of them delivered and ends the ring's current interval. STOP
 * ends the last interval: read() returns it once the ring is drained,
 * then, on a stopped session with nothing left, -ENODATA (without
 * blocking), or once the error that stopped the session (-EIO: the GPU was
 * not recovered; -ENODEV: the device is gone), and -ENODEV for every read
 * after the device is gone. A reader blocked in read() is woken by a
 * sample, by STOP and by the loss of the counters (unbind: -ENODEV after
 * the last sample); close() of the fd in another thread does not end the
 * read (the file lives until it returns); a signal ends it with -EINTR
 * (-ERESTARTSYS), and system sleep freezes and restarts it. Memory: the
 * ring, RING_SAMPLES * sample_size bytes, charged to the opener.
 *
 * Errors: -EINVAL (a bad field, flag, property or value; a property set
 * twice), -E2BIG (a chain longer than %MALI_PERFCNT_MAX_EXTENSIONS),
 * -EFAULT (an unreadable extension), -EACCES (no CAP_PERFMON while
 * dev.mali_perfcnt.perf_stream_paranoid is 1), -EMFILE (max_sessions
 * open), -ENOMEM, -ENODEV; with %MALI_PERFCNT_SESSION_F_START also those of
 * %MALI_PERFCNT_SESSION_IOCTL_START.
 */
struct drm_mali_perfcnt_session_open {
	/** @extensions: user address of the first extension, or 0. */
	__u64 extensions;
	/** @flags: in, MALI_PERFCNT_SESSION_F_* bits. */
	__u32 flags;
	/**
	 * @counter_set: in, PERFCNT_CFG.SETSEL, 0 or (Bifrost and later) 1.
	 * Sessions of different sets cannot run at once: START gets -EBUSY.
	 */
	__u32 counter_set;
	/** @reserved: must be zero. */
	__u64 reserved[2];
};

/**
 * enum drm_mali_perfcnt_clock_id - the clock of a sample's timestamps
 * @MALI_PERFCNT_CLOCK_MONOTONIC_RAW: CLOCK_MONOTONIC_RAW, in ns.
 */
enum drm_mali_perfcnt_clock_id {
	MALI_PERFCNT_CLOCK_MONOTONIC_RAW = 4,
};

/**
 * enum drm_mali_perfcnt_power_state - a block's power over a sample's interval
 * @MALI_PERFCNT_POWER_ON: powered for all of it: the values are complete.
 * @MALI_PERFCNT_POWER_PARTIAL: powered for part of it: the values count
 *	what happened while it was.
 * @MALI_PERFCNT_POWER_OFF: powered for none of it: the values are 0.
 */
enum drm_mali_perfcnt_power_state {
	MALI_PERFCNT_POWER_ON = 0,
	MALI_PERFCNT_POWER_PARTIAL = 1,
	MALI_PERFCNT_POWER_OFF = 2,
};

/**
 * struct drm_mali_perfcnt_sample_header - first 64 bytes of a session sample
 *
 * Followed by @nr_blocks blocks, each a &struct drm_mali_perfcnt_block_header
 * and its &drm_mali_perfcnt_block_header.nr_values __u64 values, in the
 * CPU's byte order.
 */
struct drm_mali_perfcnt_sample_header {
	/** @start_ns: start of the interval the values cover, in @clock_id. */
	__u64 start_ns;
	/** @end_ns: its end: when the last hardware sample of it was taken. */
	__u64 end_ns;
	/** @clock_id: &enum drm_mali_perfcnt_clock_id of @start_ns and @end_ns. */
	__u32 clock_id;
	/**
	 * @flags: MALI_PERFCNT_DATA_* of the interval: SATURATED only when
	 * one hardware interval of it had a selected counter at 0xffffffff
	 * (the 64-bit sums themselves never saturate); FIRST for the first
	 * sample after START; AFTER_RECOVERY and AFTER_POWER_LOSS as for DUMP;
	 * OVERFLOW when it stands for periods its ring had no room for.
	 */
	__u32 flags;
	/**
	 * @gpu_cycles: GPU clock cycles over the interval at the nominal
	 * rate (&drm_mali_perfcnt_get_info_v3.gpu_freq_hz), 0 when unknown.
	 */
	__u64 gpu_cycles;
	/** @user_data: the session's %MALI_PERFCNT_PROP_USER_DATA. */
	__u64 user_data;
	/** @seqno: the session's sample number, from 1. */
	__u64 seqno;
	/** @nr_blocks: blocks that follow. */
	__u32 nr_blocks;
	/** @size: bytes of the whole sample, this header included. */
	__u32 size;
	/**
	 * @lost: with %MALI_PERFCNT_DATA_OVERFLOW, the periods of a ring
	 * session whose sample had no room in the ring and whose counts this
	 * sample therefore holds besides its own period's; else 0.
	 */
	__u32 lost;
	/** @reserved: 0. */
	__u32 reserved;
};

/**
 * struct drm_mali_perfcnt_block_header - 24 bytes before each block's values
 */
struct drm_mali_perfcnt_block_header {
	/** @block_type: &enum drm_mali_perfcnt_block_type. */
	__u32 block_type;
	/** @instance: physical instance (shader core or L2 slice number). */
	__u32 instance;
	/** @power_state: &enum drm_mali_perfcnt_power_state over the interval. */
	__u32 power_state;
	/** @nr_values: __u64 values that follow. */
	__u32 nr_values;
	/**
	 * @enable_mask: bit n set: value n was counted for this session
	 * (values that are clear read 0).
	 */
	__u64 enable_mask;
};

/**
 * struct drm_mali_perfcnt_session_sample - argument of %MALI_PERFCNT_SESSION_IOCTL_SAMPLE
 *
 * Accumulates the hardware into every running session, then copies this
 * session's sums since its last sample (SAMPLE, a sample its ring
 * delivered, or START) to @buf_ptr and starts its next interval. A stopped
 * session returns what it counted up to STOP once (unless read() took it),
 * then -ENODATA.
 *
 * Errors: -EINVAL (@flags or @pad), -ENOSPC (@buf_size smaller than
 * &drm_mali_perfcnt_get_info_v3.sample_size, written back), -EFAULT (the
 * interval's sums are then lost; the next sample's start shows the gap),
 * -ENODATA, -ETIMEDOUT, -ENXIO and -EIO (as DUMP), -ENODEV. As with DUMP,
 * after -ETIMEDOUT or -ENXIO the session runs on when the GPU recovered (the next
 * sample has %MALI_PERFCNT_DATA_AFTER_RECOVERY); when it could not be, the
 * counters are lost: that error is returned once, the session is stopped,
 * returns what it counted up to the loss (when any), then -ENODATA until
 * START.
 */
struct drm_mali_perfcnt_session_sample {
	/** @buf_ptr: in, user address of the destination. */
	__u64 buf_ptr;
	/** @buf_size: in/out, its size; the sample's size is written back. */
	__u32 buf_size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u64 pad;
};

/*
 * ioctls on the session file descriptor: type 0xBC, numbers 0x00-0x0f
 * (free in ioctl-number.rst of Linux 6.1 and 6.12; the panfrost series
 * registers it there).
 */
#define MALI_PERFCNT_SESSION_IOCTL_TYPE		0xBC
/**
 * MALI_PERFCNT_SESSION_IOCTL_START - start counting for the session
 *
 * Errors: -EALREADY (started), -EBUSY (a v2 ENABLE or stream owns the
 * counters, or a running session uses the other counter set), -EIO,
 * -ENODEV, -EAGAIN (system sleep).
 */
#define MALI_PERFCNT_SESSION_IOCTL_START	_IO(MALI_PERFCNT_SESSION_IOCTL_TYPE, 0x00)
/**
 * MALI_PERFCNT_SESSION_IOCTL_STOP - stop counting; what was counted is kept
 * for the next SAMPLE. Errors: -EALREADY (not started).
 */
#define MALI_PERFCNT_SESSION_IOCTL_STOP		_IO(MALI_PERFCNT_SESSION_IOCTL_TYPE, 0x01)
/** MALI_PERFCNT_SESSION_IOCTL_SAMPLE - see &struct drm_mali_perfcnt_session_sample. */
#define MALI_PERFCNT_SESSION_IOCTL_SAMPLE \
	_IOWR(MALI_PERFCNT_SESSION_IOCTL_TYPE, 0x02, struct drm_mali_perfcnt_session_sample)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_MALI_PERFCNT_DRM_H_ */
