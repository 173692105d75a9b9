// SPDX-License-Identifier: MIT
/*
 * The device an offline capture came from (decode; top --replay): the
 * options that describe it (OFFLINE_LONGOPTS) and the description they give.
 */
#include <stdio.h>

#include "tool.h"

/*
 * Describe the device a capture came from: its saved gpu_info text, --gpu
 * with --cores/--l2, or else the local device's GET_INFO.
 */
int offline_describe(struct tool *t, const struct offline_desc *od, struct view *v, char *src,
		     size_t srclen)
{
	struct mpc_dev *dev = NULL;
	struct mpc_err e;
	int r = 0;

	if (od->gpu_info) {
		if (od->have_cores || od->have_l2)
			return tool_error(t, "--cores/--l2 and --gpu-info both describe the device; give one");
		if (mpc_desc_load_gpu_info(od->gpu_info, &v->desc, &e))
			return tool_err(t, &e);
		if (mpc_desc_counter_set(v->desc) > 0)
			v->counter_set = (unsigned)mpc_desc_counter_set(v->desc);
		snprintf(src, srclen, "%s", od->gpu_info);
	} else if (od->gpu) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(t->db, od->gpu);

		if (!g)
			return tool_error(t, "GPU '%s' is not in the database; 'mali-perfcnt list --gpus' "
					  "shows the known ones", od->gpu);
		if (!od->have_cores)
			return tool_error(t, "--gpu needs --cores MASK (SHADER_PRESENT, e.g. 0xb) and "
					  "--l2 N (L2 slices, or core groups on v4)");
		if (mpc_desc_new_from_gpu(g, od->cores, (unsigned)od->l2, &v->desc, &e))
			return tool_err(t, &e);
		snprintf(src, srclen, "--gpu %s", g->key);
	} else {
		if (od->have_cores || od->have_l2)
			return tool_error(t, "--cores/--l2 need --gpu NAME");
		if (tool_open(t, 0, &dev, &e))
			return tool_error(t, "no device description: give --gpu-info FILE (the gpu_info "
					  "saved with the dump) or --gpu/--cores/--l2 (%s)", e.msg);
		snprintf(src, srclen, "%s", mpc_dev_path(dev));
		r = mpc_desc_dup(mpc_dev_desc(dev), &v->desc, &e) ? tool_err(t, &e) : 0;
		mpc_dev_close(dev);
	}
	return r;
}

/* --gpu-info, --gpu, --cores, --l2: 0 handled, -1 not one of them, 1 error */
int offline_opt(struct tool *t, int c, const char *arg, struct offline_desc *od)
{
	switch (c) {
	case OPT_GPU_INFO:
		od->gpu_info = arg;
		return 0;
	case OPT_GPU:
		od->gpu = arg;
		return 0;
	case OPT_CORES:
		if (tool_parse_u64(t, "--cores", arg, ~0ull, &od->cores))
			return 1;
		od->have_cores = 1;
		return 0;
	case OPT_L2:
		if (tool_parse_u64(t, "--l2", arg, 16, &od->l2))
			return 1;
		if (!od->l2)
			return tool_error(t, "--l2 0: a GPU has 1..16 L2 slices (1..8 core "
					  "groups on v4); leave --l2 out for 1");
		od->have_l2 = 1;
		return 0;
	default:
		return -1;
	}
}
