/* SPDX-License-Identifier: MIT */
/*
 * The parts of Arm kbase's counter uAPI (/dev/mali<N>) that a counter tool
 * uses, written down from the facts public sources state: ioctl numbers,
 * structure layouts, item and block type values (see
 * Documentation/mali-perfcnt-tool.rst, "The kbase backend"). Not installed;
 * the names are this project's. Shared by the kbase backend, the host
 * tests' kbase shim and the test-only kbase double (which has its own
 * kernel-side copy of the numbers).
 */
#ifndef MPC_KBASE_UAPI_H
#define MPC_KBASE_UAPI_H

#include <stdint.h>
#include <linux/ioctl.h>

#define MPC_KB_IOC	0x80		/* the device's ioctls */
#define MPC_KB_VINSTR_IOC 0xbe		/* a legacy reader's fd */
#define MPC_KB_KINSTR_IOC 0xbf		/* a kinstr_prfcnt reader's fd */

/* ------------------------------------------------------------ device fd */

struct mpc_kb_version_check {
	uint16_t major;
	uint16_t minor;
};

/* pre-r21 ("UK") kernels: one ioctl number per struct size, a header first */
struct mpc_kb_uk_version_check {
	uint64_t header;		/* in: function id 0; out: status */
	uint16_t major;
	uint16_t minor;
	uint8_t pad[4];
};

struct mpc_kb_set_flags {
	uint32_t create_flags;
};

struct mpc_kb_get_gpuprops {
	uint64_t buffer;		/* 0: the kernel returns the size needed */
	uint32_t size;
	uint32_t flags;			/* 0 */
};

struct mpc_kb_hwcnt_reader_setup {
	uint32_t buffer_count;		/* power of 2, 1..32 */
	uint32_t fe_bm, shader_bm, tiler_bm, mmu_l2_bm;	/* 1 bit per 4 counters */
};

struct mpc_kb_prfcnt_enum_info {
	uint32_t info_item_size;
	uint32_t info_item_count;
	uint64_t info_list_ptr;		/* 0: the kernel fills in size and count */
};

union mpc_kb_prfcnt_setup {
	struct {
		uint32_t request_item_count;
		uint32_t request_item_size;
		uint64_t requests_ptr;
	} in;
	struct {
		uint32_t prfcnt_metadata_item_size;
		uint32_t prfcnt_mmap_size_bytes;
	} out;
};

struct mpc_kb_hwcnt_values {		/* the NO_MALI model's HWCNT_SET */
	uint64_t data;
	uint32_t size;
	uint32_t padding;
};

#define MPC_KB_IOCTL_VERSION_CHECK_JM	_IOWR(MPC_KB_IOC, 0, struct mpc_kb_version_check)
#define MPC_KB_IOCTL_VERSION_CHECK_CSF	_IOWR(MPC_KB_IOC, 52, struct mpc_kb_version_check)
#define MPC_KB_IOCTL_UK_VERSION_CHECK	_IOWR(MPC_KB_IOC, 0, struct mpc_kb_uk_version_check)
#define MPC_KB_IOCTL_SET_FLAGS		_IOW(MPC_KB_IOC, 1, struct mpc_kb_set_flags)
#define MPC_KB_IOCTL_GET_GPUPROPS	_IOW(MPC_KB_IOC, 3, struct mpc_kb_get_gpuprops)
#define MPC_KB_IOCTL_HWCNT_READER_SETUP	_IOW(MPC_KB_IOC, 8, struct mpc_kb_hwcnt_reader_setup)
#define MPC_KB_IOCTL_HWCNT_SET		_IOW(MPC_KB_IOC, 32, struct mpc_kb_hwcnt_values)
#define MPC_KB_IOCTL_PRFCNT_ENUM_INFO	_IOWR(MPC_KB_IOC, 56, struct mpc_kb_prfcnt_enum_info)
#define MPC_KB_IOCTL_PRFCNT_SETUP	_IOWR(MPC_KB_IOC, 57, union mpc_kb_prfcnt_setup)

/* SET_FLAGS: the context never submits work (what a counter tool asks) */
#define MPC_KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED (1u << 1)

/* GET_GPUPROPS: packed (u32 key, value) pairs; key bits 1:0 the value size */
enum {
	MPC_KB_PROP_SIZE_U8 = 0, MPC_KB_PROP_SIZE_U16 = 1,
	MPC_KB_PROP_SIZE_U32 = 2, MPC_KB_PROP_SIZE_U64 = 3,
};
enum {
	MPC_KB_PROP_L2_NUM_L2_SLICES = 15,
	MPC_KB_PROP_RAW_SHADER_PRESENT = 25,
	MPC_KB_PROP_RAW_L2_PRESENT = 27,
	MPC_KB_PROP_RAW_MEM_FEATURES = 31,
	MPC_KB_PROP_RAW_GPU_ID = 55,
};

/* ------------------------------------------------- legacy reader (vinstr) */

struct mpc_kb_reader_metadata {
	uint64_t timestamp;
	uint32_t event_id;
	uint32_t buffer_idx;
};

struct mpc_kb_reader_metadata_cycles {
	uint64_t timestamp;
	uint32_t event_id;
	uint32_t buffer_idx;
	uint64_t top_cycles;
	uint64_t shader_cycles;
};

struct mpc_kb_reader_api_version {
	uint32_t version;
	uint32_t features;		/* bit 0 top cycles, bit 1 shader cycles */
};

#define MPC_KB_READER_GET_HWVER		_IOR(MPC_KB_VINSTR_IOC, 0x00, uint32_t)
#define MPC_KB_READER_GET_BUFFER_SIZE	_IOR(MPC_KB_VINSTR_IOC, 0x01, uint32_t)
#define MPC_KB_READER_DUMP		_IOW(MPC_KB_VINSTR_IOC, 0x10, uint32_t)
#define MPC_KB_READER_CLEAR		_IOW(MPC_KB_VINSTR_IOC, 0x11, uint32_t)
#define MPC_KB_READER_GET_BUFFER	_IOR(MPC_KB_VINSTR_IOC, 0x20, struct mpc_kb_reader_metadata)
#define MPC_KB_READER_GET_BUFFER_CYCLES	\
	_IOR(MPC_KB_VINSTR_IOC, 0x20, struct mpc_kb_reader_metadata_cycles)
#define MPC_KB_READER_PUT_BUFFER	_IOW(MPC_KB_VINSTR_IOC, 0x21, struct mpc_kb_reader_metadata)
#define MPC_KB_READER_PUT_BUFFER_CYCLES	\
	_IOW(MPC_KB_VINSTR_IOC, 0x21, struct mpc_kb_reader_metadata_cycles)
#define MPC_KB_READER_SET_INTERVAL	_IOW(MPC_KB_VINSTR_IOC, 0x30, uint32_t)
#define MPC_KB_READER_GET_API_VERSION	_IOW(MPC_KB_VINSTR_IOC, 0xff, uint32_t)
#define MPC_KB_READER_GET_API_VERSION_FEATURES \
	_IOW(MPC_KB_VINSTR_IOC, 0xff, struct mpc_kb_reader_api_version)

#define MPC_KB_READER_MAX_BUFFERS	32
#define MPC_KB_READER_FEATURE_CYCLES_TOP 1u

/* ------------------------------------------------------- kinstr_prfcnt */

/* every item: {u16 type; u16 version; u8 pad[4]} then the body at 8 */
struct mpc_kb_item_header {
	uint16_t item_type;
	uint16_t item_version;
	uint8_t pad[4];
};

struct mpc_kb_enum_block {
	uint8_t block_type;
	uint8_t set;
	uint8_t pad[2];
	uint16_t num_instances;
	uint16_t num_values;		/* 64 or 128, the 4 header values included */
	uint64_t counter_mask[2];
};

struct mpc_kb_enum_request {
	uint16_t request_item_type;	/* MPC_KB_REQ_* & 0xfff */
	uint16_t pad;
	uint32_t versions_mask;
};

struct mpc_kb_enum_sample_info {
	uint32_t num_clock_domains;
	uint32_t pad;
};

struct mpc_kb_enum_item {
	struct mpc_kb_item_header hdr;
	union {
		struct mpc_kb_enum_block block;
		struct mpc_kb_enum_request request;
		struct mpc_kb_enum_sample_info sample_info;
	} u;
};

struct mpc_kb_request_mode {
	uint8_t mode;			/* MPC_KB_MODE_* */
	uint8_t pad[7];
	uint64_t period_ns;
};

struct mpc_kb_request_enable {
	uint8_t block_type;
	uint8_t set;
	uint8_t pad[6];
	uint64_t enable_mask[2];	/* 1 bit per counter */
};

struct mpc_kb_request_scope {
	uint8_t scope;			/* 0: global */
	uint8_t pad[7];
};

struct mpc_kb_request_item {
	struct mpc_kb_item_header hdr;
	union {
		struct mpc_kb_request_mode mode;
		struct mpc_kb_request_enable enable;
		struct mpc_kb_request_scope scope;
	} u;
};

struct mpc_kb_meta_sample {
	uint64_t timestamp_start;	/* CLOCK_MONOTONIC_RAW ns */
	uint64_t timestamp_end;
	uint64_t seq;
	uint64_t user_data;
	uint32_t flags;			/* MPC_KB_SAMPLE_FLAG_* */
	uint32_t pad;
};

struct mpc_kb_meta_clock {
	uint32_t num_domains;
	uint32_t pad;
	uint64_t cycles[4];
};

struct mpc_kb_meta_block {
	uint8_t block_type;
	uint8_t block_idx;		/* dense: the n-th present instance */
	uint8_t set;
	uint8_t pad_u8;
	uint32_t block_state;		/* MPC_KB_STATE_* */
	uint32_t values_offset;		/* from the mmap's start; u64 values */
	uint32_t pad_u32;
};

struct mpc_kb_metadata {
	struct mpc_kb_item_header hdr;
	union {
		struct mpc_kb_meta_sample sample;
		struct mpc_kb_meta_clock clock;
		struct mpc_kb_meta_block block;
	} u;
};

struct mpc_kb_control_cmd {
	uint16_t cmd;			/* MPC_KB_CMD_* */
	uint16_t pad[3];
	uint64_t user_data;
};

struct mpc_kb_sample_access {
	uint64_t sequence;
	uint64_t sample_offset_bytes;	/* of the sample's metadata, from the mmap's start */
};

#define MPC_KB_PRFCNT_CMD	_IOW(MPC_KB_KINSTR_IOC, 0x00, struct mpc_kb_control_cmd)
#define MPC_KB_PRFCNT_GET_SAMPLE _IOR(MPC_KB_KINSTR_IOC, 0x01, struct mpc_kb_sample_access)
#define MPC_KB_PRFCNT_PUT_SAMPLE _IOW(MPC_KB_KINSTR_IOC, 0x10, struct mpc_kb_sample_access)

#define MPC_KB_FLEX(type, sub)	((uint16_t)(((type) & 0xf) << 12 | (sub)))
enum {
	MPC_KB_ITEM_NONE = 0,		/* ends a list (equal to ENUM BLOCK) */
	MPC_KB_ENUM_BLOCK = MPC_KB_FLEX(0, 0),
	MPC_KB_ENUM_REQUEST = MPC_KB_FLEX(0, 1),
	MPC_KB_ENUM_SAMPLE_INFO = MPC_KB_FLEX(0, 2),
	MPC_KB_REQ_MODE = MPC_KB_FLEX(1, 0),
	MPC_KB_REQ_ENABLE = MPC_KB_FLEX(1, 1),
	MPC_KB_REQ_SCOPE = MPC_KB_FLEX(1, 2),
	MPC_KB_META_SAMPLE = MPC_KB_FLEX(2, 0),
	MPC_KB_META_CLOCK = MPC_KB_FLEX(2, 1),
	MPC_KB_META_BLOCK = MPC_KB_FLEX(2, 2),
};

enum {
	MPC_KB_BLOCK_FE = 0, MPC_KB_BLOCK_TILER = 1, MPC_KB_BLOCK_MEMORY = 2,
	MPC_KB_BLOCK_SHADER = 3, MPC_KB_BLOCK_FW = 4, MPC_KB_BLOCK_CSG = 5,
	MPC_KB_BLOCK_NE = 6, MPC_KB_BLOCK_TYPES = 7,
};

enum { MPC_KB_MODE_MANUAL = 0, MPC_KB_MODE_PERIODIC = 1 };
enum {
	MPC_KB_CMD_START = 1, MPC_KB_CMD_STOP = 2, MPC_KB_CMD_SAMPLE_SYNC = 3,
	MPC_KB_CMD_DISCARD = 5,
};
enum {
	MPC_KB_STATE_ON = 1, MPC_KB_STATE_OFF = 2, MPC_KB_STATE_AVAILABLE = 4,
	MPC_KB_STATE_UNAVAILABLE = 8, MPC_KB_STATE_NORMAL = 16, MPC_KB_STATE_PROTECTED = 32,
};
enum { MPC_KB_SAMPLE_FLAG_OVERFLOW = 1u << 0, MPC_KB_SAMPLE_FLAG_ERROR = 1u << 30 };

#define MPC_KB_PRFCNT_API_VERSION	0
#define MPC_KB_PRFCNT_MIN_PERIOD_NS	100000ull
#define MPC_KB_PRFCNT_SLOTS		32

/* the numbers and sizes as public sources state them */
_Static_assert(MPC_KB_IOCTL_VERSION_CHECK_JM == 0xC0048000, "VERSION_CHECK (JM)");
_Static_assert(MPC_KB_IOCTL_VERSION_CHECK_CSF == 0xC0048034, "VERSION_CHECK (CSF)");
_Static_assert(MPC_KB_IOCTL_SET_FLAGS == 0x40048001, "SET_FLAGS");
_Static_assert(MPC_KB_IOCTL_GET_GPUPROPS == 0x40108003, "GET_GPUPROPS");
_Static_assert(MPC_KB_IOCTL_HWCNT_READER_SETUP == 0x40148008, "HWCNT_READER_SETUP");
_Static_assert(MPC_KB_IOCTL_HWCNT_SET == 0x40108020, "HWCNT_SET");
_Static_assert(MPC_KB_IOCTL_PRFCNT_ENUM_INFO == 0xC0108038, "KINSTR_PRFCNT_ENUM_INFO");
_Static_assert(MPC_KB_IOCTL_PRFCNT_SETUP == 0xC0108039, "KINSTR_PRFCNT_SETUP");
_Static_assert(MPC_KB_PRFCNT_CMD == 0x4010BF00, "KINSTR_PRFCNT_CMD");
_Static_assert(MPC_KB_PRFCNT_GET_SAMPLE == 0x8010BF01, "KINSTR_PRFCNT_GET_SAMPLE");
_Static_assert(MPC_KB_PRFCNT_PUT_SAMPLE == 0x4010BF10, "KINSTR_PRFCNT_PUT_SAMPLE");
_Static_assert(MPC_KB_READER_GET_HWVER == 0x8004BE00, "GET_HWVER");
_Static_assert(MPC_KB_READER_GET_BUFFER_SIZE == 0x8004BE01, "GET_BUFFER_SIZE");
_Static_assert(MPC_KB_READER_DUMP == 0x4004BE10, "DUMP");
_Static_assert(MPC_KB_READER_GET_BUFFER == 0x8010BE20, "GET_BUFFER");
_Static_assert(MPC_KB_READER_GET_BUFFER_CYCLES == 0x8020BE20, "GET_BUFFER_WITH_CYCLES");
_Static_assert(MPC_KB_READER_PUT_BUFFER == 0x4010BE21, "PUT_BUFFER");
_Static_assert(MPC_KB_READER_PUT_BUFFER_CYCLES == 0x4020BE21, "PUT_BUFFER_WITH_CYCLES");
_Static_assert(MPC_KB_READER_SET_INTERVAL == 0x4004BE30, "SET_INTERVAL");
_Static_assert(MPC_KB_READER_GET_API_VERSION == 0x4004BEFF, "GET_API_VERSION");
_Static_assert(MPC_KB_READER_GET_API_VERSION_FEATURES == 0x4008BEFF, "..._WITH_FEATURES");
_Static_assert(sizeof(struct mpc_kb_enum_item) == 32, "prfcnt_enum_item");
_Static_assert(sizeof(struct mpc_kb_request_item) == 32, "prfcnt_request_item");
_Static_assert(sizeof(struct mpc_kb_metadata) == 48, "prfcnt_metadata");
_Static_assert(sizeof(struct mpc_kb_uk_version_check) == 16, "uku_version_check_args");

#endif
