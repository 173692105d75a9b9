// SPDX-License-Identifier: MIT
/*
 * uAPI revision 3 of mali_perfcnt, the library's side: a session sample
 * (a 64-byte header, then per block a 24-byte header and 64-bit values,
 * uapi/drm/mali_perfcnt_drm.h) laid out again as the dump the rest of the
 * library decodes (32-bit words by block slot of the description). A sum
 * above 0xffffffff is written as 0xffffffff and flags the sample
 * SATURATED (a lower bound), as a 32-bit hardware counter would.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mpc_internal.h"
#include "mali_perfcnt_drm.h"

/* The dump slot of block @type instance @inst in @d's layout, or -1. */
int mpc_v3_slot(const struct mpc_desc *d, uint32_t type, uint32_t inst)
{
	int slot = -1;

	if (d->layout == MPC_LAYOUT_V4) {
		/* per core group: cores 0-3, tiler, MMU/L2, reserved, jm (group 0) */
		switch (type) {
		case MALI_PERFCNT_BLOCK_JM:
			slot = inst ? -1 : 7;
			break;
		case MALI_PERFCNT_BLOCK_TILER:
			slot = (int)(inst * 8 + 4);
			break;
		case MALI_PERFCNT_BLOCK_MMU_L2:
			slot = (int)(inst * 8 + 5);
			break;
		case MALI_PERFCNT_BLOCK_SHADER:
			slot = (int)((inst / 4) * 8 + inst % 4);
			break;
		}
	} else {
		switch (type) {
		case MALI_PERFCNT_BLOCK_JM:
			slot = inst ? -1 : 0;
			break;
		case MALI_PERFCNT_BLOCK_TILER:
			slot = inst ? -1 : 1;
			break;
		case MALI_PERFCNT_BLOCK_MMU_L2:
			slot = inst < d->nr_l2 ? (int)(2 + inst) : -1;
			break;
		case MALI_PERFCNT_BLOCK_SHADER:
			slot = (int)(2 + d->nr_l2 + inst);
			break;
		}
	}
	if (inst >= 64 || slot < 0 || (unsigned)slot >= d->nr_blocks)
		return -1;
	if (type == MALI_PERFCNT_BLOCK_SHADER && !(d->shader_present >> inst & 1))
		return -1;	/* a hole: an absent core */
	return slot;
}

static void st32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int mpc_v3_to_dump(const struct mpc_desc *d, const void *sample, size_t len, void *dump,
		   size_t dump_size, uint32_t *data_flags, struct mpc_err *err)
{
	const struct drm_mali_perfcnt_sample_header *h = sample;
	const unsigned char *p = (const unsigned char *)sample + sizeof(*h);
	const unsigned char *end = (const unsigned char *)sample + len;
	unsigned cpb = d->counters_per_block;
	uint32_t flags;

	if (len < sizeof(*h) || h->size > len || h->size < sizeof(*h))
		return mpc_fail(err, -EPROTO, "a session sample of %zu bytes says %u: the driver and "
				"this tool do not match", len, len < sizeof(*h) ? 0 : h->size);
	if (dump_size < d->dump_size || cpb != 64)
		return mpc_fail(err, -EINVAL, "the dump buffer (%zu bytes) does not fit %u", dump_size,
				d->dump_size);
	end = (const unsigned char *)sample + h->size;
	flags = h->flags;
	memset(dump, 0, d->dump_size);
	for (uint32_t b = 0; b < h->nr_blocks; b++) {
		struct drm_mali_perfcnt_block_header bh;
		unsigned char *w;
		uint32_t en = 0;
		int slot;

		if ((size_t)(end - p) < sizeof(bh))
			return mpc_fail(err, -EPROTO, "session sample: block %u past the end", b);
		memcpy(&bh, p, sizeof(bh));
		p += sizeof(bh);
		if (bh.nr_values != 64 || (size_t)(end - p) < (size_t)bh.nr_values * 8)
			return mpc_fail(err, -EPROTO, "session sample: block %u has %u values", b,
					bh.nr_values);
		slot = mpc_v3_slot(d, bh.block_type, bh.instance);
		if (slot < 0)
			return mpc_fail(err, -EPROTO, "session sample: block type %u instance %u is "
					"not in the GPU's description", bh.block_type, bh.instance);
		w = (unsigned char *)dump + (size_t)slot * cpb * 4;
		for (unsigned g = 0; g < 16; g++)
			if ((bh.enable_mask >> (4 * g)) & 0xf)
				en |= 1u << g;
		if (en)
			en |= 1;	/* the header group, which the values leave out */
		st32(w + 8, en);
		for (unsigned c = 4; c < 64; c++) {
			uint64_t v;

			memcpy(&v, p + (size_t)c * 8, 8);
			if (v > UINT32_MAX) {
				v = UINT32_MAX;
				flags |= MALI_PERFCNT_DATA_SATURATED;
			}
			st32(w + 4 * c, (uint32_t)v);
		}
		p += (size_t)bh.nr_values * 8;
	}
	*data_flags = flags;
	return 0;
}

unsigned mpc_data_flags_from_uapi(uint32_t data_flags)
{
	unsigned f = 0;

	if (data_flags & MALI_PERFCNT_DATA_SATURATED)
		f |= MPC_DATA_SATURATED;
	if (data_flags & MALI_PERFCNT_DATA_AFTER_RECOVERY)
		f |= MPC_DATA_AFTER_RECOVERY;
	if (data_flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS)
		f |= MPC_DATA_AFTER_POWER_LOSS;
	if (data_flags & MALI_PERFCNT_DATA_FIRST)
		f |= MPC_DATA_FIRST;
	return f;
}

void mpc_v3_open_args(const struct mpc_enable *cfg, struct drm_mali_perfcnt_session_open *o,
		      struct drm_mali_perfcnt_ext_set_property *p)
{
	memset(p, 0, 4 * sizeof(*p));
	memset(o, 0, sizeof(*o));
	o->flags = MALI_PERFCNT_SESSION_F_CLOEXEC | MALI_PERFCNT_SESSION_F_START;
	if (!cfg)
		return;
	o->counter_set = cfg->counter_set;
	if (cfg->use_masks) {
		const uint32_t v[4] = { cfg->jm, cfg->tiler, cfg->shader, cfg->l2 };
		const uint32_t prop[4] = {
			MALI_PERFCNT_PROP_JM_MASK, MALI_PERFCNT_PROP_TILER_MASK,
			MALI_PERFCNT_PROP_SHADER_MASK, MALI_PERFCNT_PROP_MMU_L2_MASK,
		};

		for (unsigned n = 0; n < 4; n++) {
			p[n].base.name = MALI_PERFCNT_EXT_SET_PROPERTY;
			p[n].property = prop[n];
			p[n].value = v[n];
			if (n)
				p[n - 1].base.next_extension = (uint64_t)(uintptr_t)&p[n];
		}
		o->extensions = (uint64_t)(uintptr_t)&p[0];
	}
}

int mpc_v3_sample_dump(const struct mpc_desc *d, const void *sample, size_t size, void *dump,
		       size_t len, struct mpc_dump_info *di, struct mpc_err *err)
{
	const struct drm_mali_perfcnt_sample_header *h = sample;
	uint32_t flags;
	int ret = mpc_v3_to_dump(d, sample, size, dump, len, &flags, err);

	if (ret)
		return ret;
	di->seqno = h->seqno;
	di->timestamp_ns = h->end_ns;
	di->interval_start_ns = h->start_ns;
	di->flags = mpc_data_flags_from_uapi(flags);
	return 0;
}
