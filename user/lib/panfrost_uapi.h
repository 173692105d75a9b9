/* SPDX-License-Identifier: MIT */
/*
 * The parts of upstream panfrost's uAPI (include/uapi/drm/panfrost_drm.h,
 * identical in Linux 6.1 and 6.12) that a counter tool uses, written down
 * from the facts: ioctl numbers, structure layouts and GET_PARAM ids. Not
 * installed; the names are this project's.
 */
#ifndef MPC_PANFROST_UAPI_H
#define MPC_PANFROST_UAPI_H

#include <stdint.h>

#include <drm.h>

#define MPC_PF_DRIVER_NAME	"panfrost"

struct mpc_pf_get_param {
	uint32_t param;
	uint32_t pad;			/* must be 0 */
	uint64_t value;
};

struct mpc_pf_perfcnt_enable {
	uint32_t enable;		/* 1 take, 0 release */
	uint32_t counterset;		/* 0; 1 only on Bifrost and later */
};

struct mpc_pf_perfcnt_dump {
	uint64_t buf_ptr;		/* the kernel copies its whole buffer here */
};

/* command numbers: DRM_COMMAND_BASE + 0x04, 0x06, 0x07 */
#define MPC_PF_IOCTL_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + 0x04, struct mpc_pf_get_param)
#define MPC_PF_IOCTL_PERFCNT_ENABLE \
	DRM_IOW(DRM_COMMAND_BASE + 0x06, struct mpc_pf_perfcnt_enable)
#define MPC_PF_IOCTL_PERFCNT_DUMP \
	DRM_IOW(DRM_COMMAND_BASE + 0x07, struct mpc_pf_perfcnt_dump)

_Static_assert(sizeof(struct mpc_pf_get_param) == 16, "GET_PARAM is 16 bytes");
_Static_assert(sizeof(struct mpc_pf_perfcnt_enable) == 8, "PERFCNT_ENABLE is 8 bytes");
_Static_assert(sizeof(struct mpc_pf_perfcnt_dump) == 8, "PERFCNT_DUMP is 8 bytes");

/* GET_PARAM ids (unknown ids: -EINVAL) */
enum {
	MPC_PF_PARAM_GPU_PROD_ID = 0,		/* GPU_ID >> 16; T60x's 0x6956 reads 0x0600 */
	MPC_PF_PARAM_GPU_REVISION = 1,		/* GPU_ID & 0xffff */
	MPC_PF_PARAM_SHADER_PRESENT = 2,
	MPC_PF_PARAM_TILER_PRESENT = 3,
	MPC_PF_PARAM_L2_PRESENT = 4,
	MPC_PF_PARAM_L2_FEATURES = 8,
	MPC_PF_PARAM_MEM_FEATURES = 11,
	MPC_PF_PARAM_MMU_FEATURES = 12,
	MPC_PF_PARAM_COHERENCY_FEATURES = 17,
	MPC_PF_PARAM_NR_CORE_GROUPS = 38,	/* hweight64(L2_PRESENT) */
	/* panfrost patched with this project's series (panfrost/): MPC_PF_PERFCNT_F_* */
	MPC_PF_PARAM_PERFCNT_FEATURES = 41,
};

/*
 * The patched panfrost's counter sessions: PERFCNT_QUERY is mali_perfcnt's
 * GET_INFO_V3, PERFCNT_SESSION_OPEN its SESSION_OPEN (the return value is the
 * session's fd, whose ioctls are mali_perfcnt's session ioctls).
 */
#define MPC_PF_PERFCNT_F_SESSIONS	(1u << 2)
#define MPC_PF_IOCTL_PERFCNT_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + 0x0b, struct drm_mali_perfcnt_get_info_v3)
#define MPC_PF_IOCTL_PERFCNT_SESSION_OPEN \
	DRM_IOW(DRM_COMMAND_BASE + 0x0c, struct drm_mali_perfcnt_session_open)

#endif
