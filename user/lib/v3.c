// SPDX-License-Identifier: MIT
/*
 * uAPI revision 3 of mali_perfcnt, the library's side: a session sample
 * (a 64-byte header, then per block a 24-byte header and 64-bit values,
 * uapi/drm/mali_perfcnt_drm.h) added to a sample's 64-bit accumulators
 * exactly (mpc_sample_add_session(): what the tool and mpc_dev_sample_add()
 * use), or laid out again as a 32-bit dump for mpc_dev_sample(), whose
 * callers want one: there a sum above 0xffffffff cannot be written, it
 * becomes 0xffffffff and flags the dump SATURATED (a lower bound).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* the enable word (bit g: counters 4g..4g+3) of a block's 64-bit @enable_mask */
static uint32_t v3_enable_word(uint64_t enable_mask)
{
	uint32_t en = 0;

	for (unsigned g = 0; g < 16; g++)
		if ((enable_mask >> (4 * g)) & 0xf)
			en |= 1u << g;
	if (en)
		en |= 1;	/* the header group, which the values leave out */
	return en;
}

/* the sample's block (index + 1) of session block @type @inst, 0 if none */
static unsigned v3_block(const struct mpc_sample *s, uint32_t type, uint32_t inst)
{
	static const uint8_t kind[] = {
		[MALI_PERFCNT_BLOCK_JM] = MPC_BLK_JM,
		[MALI_PERFCNT_BLOCK_TILER] = MPC_BLK_TILER,
		[MALI_PERFCNT_BLOCK_MMU_L2] = MPC_BLK_L2,
		[MALI_PERFCNT_BLOCK_SHADER] = MPC_BLK_SHADER,
	};

	if (type < MALI_PERFCNT_BLOCK_JM || type > MALI_PERFCNT_BLOCK_SHADER || inst >= 64)
		return 0;
	return s->by_instance[kind[type]][inst];
}

/* the enum mpc_power_state of a block's MALI_PERFCNT_POWER_* (a newer one: unknown) */
static unsigned v3_power(uint32_t power_state)
{
	switch (power_state) {
	case MALI_PERFCNT_POWER_ON:
		return MPC_POWER_ON;
	case MALI_PERFCNT_POWER_PARTIAL:
		return MPC_POWER_PARTIAL;
	case MALI_PERFCNT_POWER_OFF:
		return MPC_POWER_OFF;
	}
	return MPC_POWER_UNKNOWN;
}

unsigned mpc_v3_data_flags(const void *sample, size_t size, uint32_t uapi_flags)
{
	const struct drm_mali_perfcnt_sample_header *h = sample;
	const unsigned char *p = (const unsigned char *)sample + sizeof(*h);
	const unsigned char *end;
	unsigned f = mpc_data_flags_from_uapi(uapi_flags);

	if (size < sizeof(*h))
		return f;
	end = (const unsigned char *)sample + (h->size < size ? h->size : size);
	for (uint32_t b = 0; b < h->nr_blocks; b++) {
		struct drm_mali_perfcnt_block_header bh;

		if (p > end || (size_t)(end - p) < sizeof(bh))
			break;
		memcpy(&bh, p, sizeof(bh));
		switch (v3_power(bh.power_state)) {
		case MPC_POWER_PARTIAL:
			f |= MPC_DATA_POWER_PARTIAL;
			break;
		case MPC_POWER_OFF:
			f |= MPC_DATA_POWER_OFF;
			break;
		}
		if ((size_t)(end - p) - sizeof(bh) < (size_t)bh.nr_values * 8)
			break;
		p += sizeof(bh) + (size_t)bh.nr_values * 8;
	}
	return f;
}

int mpc_sample_add_session(struct mpc_sample *s, const void *sample, size_t len,
			   struct mpc_dump_info *di, struct mpc_err *err)
{
	const struct drm_mali_perfcnt_sample_header *h = sample;
	const unsigned char *p, *end;
	unsigned cpb = s->layout->counters_per_block;
	int first = s->nsamples == 0, power_known = first || s->power_known;
	uint32_t kind_en[MPC_BLK_KINDS];
	uint64_t seen[4] = { 0 };
	struct mpc_dump_info info;

	if (len < sizeof(*h) || h->size > len || h->size < sizeof(*h))
		return mpc_fail(err, -EPROTO, "a session sample of %zu bytes says %u: the driver and "
				"this library do not match", len, len < sizeof(*h) ? 0 : h->size);
	if (cpb != 64)
		return mpc_fail(err, -EINVAL, "session samples are of 64-counter blocks, this "
				"sample's layout has %u: make it from the device's description", cpb);
	if (s->nblocks > 256)
		return mpc_fail(err, -EINVAL, "a layout of %u blocks is not a session's GPU",
				s->nblocks);
	/* check every block first, so that a bad sample changes nothing */
	p = (const unsigned char *)sample + sizeof(*h);
	end = (const unsigned char *)sample + h->size;
	for (uint32_t b = 0; b < h->nr_blocks; b++) {
		struct drm_mali_perfcnt_block_header bh;
		unsigned i;

		if ((size_t)(end - p) < sizeof(bh))
			return mpc_fail(err, -EPROTO, "session sample: block %u past the end", b);
		memcpy(&bh, p, sizeof(bh));
		p += sizeof(bh);
		if (bh.nr_values != cpb || (size_t)(end - p) < (size_t)bh.nr_values * 8)
			return mpc_fail(err, -EPROTO, "session sample: block %u has %u values", b,
					bh.nr_values);
		i = v3_block(s, bh.block_type, bh.instance);
		if (!i)
			return mpc_fail(err, -EPROTO, "session sample: block type %u instance %u is "
					"not in the GPU's description", bh.block_type, bh.instance);
		i--;
		if ((seen[i >> 6] >> (i & 63)) & 1)
			return mpc_fail(err, -EPROTO, "session sample: block type %u instance %u "
					"twice", bh.block_type, bh.instance);
		seen[i >> 6] |= 1ull << (i & 63);
		p += (size_t)bh.nr_values * 8;
	}
	/*
	 * the sums so far into acc (the last dump's words too), the words
	 * zeroed: a block's value is then acc alone, this sample's included
	 */
	for (unsigned i = 0; i < s->nblocks; i++) {
		struct mpc_block *blk = &s->blk[i];
		uint32_t *w = s->dst[i];

		for (unsigned j = 4; j < cpb; j++)
			blk->acc[j] = (s->acc_live ? blk->acc[j] : 0) + (first ? 0 : w[j]);
		memset(w, 0, cpb * sizeof(*w));
		blk->timestamp = 0;
		if (!((seen[i >> 6] >> (i & 63)) & 1)) {
			blk->enable = 0;	/* not in this sample: nothing collected */
			blk->power = (uint8_t)(first ? MPC_POWER_UNKNOWN :
					       mpc_power_join(blk->power, MPC_POWER_UNKNOWN));
		}
	}
	s->acc_live = 1;
	if (first)
		memset(s->kind_sum, 0, (size_t)MPC_BLK_KINDS * cpb * sizeof(uint64_t));
	p = (const unsigned char *)sample + sizeof(*h);
	for (uint32_t b = 0; b < h->nr_blocks; b++) {
		struct drm_mali_perfcnt_block_header bh;
		struct mpc_block *blk;
		uint64_t *ks;
		uint32_t en;

		memcpy(&bh, p, sizeof(bh));
		p += sizeof(bh);
		blk = &s->blk[v3_block(s, bh.block_type, bh.instance) - 1];
		ks = s->kind_sum + (size_t)blk->kind * cpb;
		en = v3_enable_word(bh.enable_mask);
		blk->enable = first ? en : (blk->enable & en);
		blk->power = (uint8_t)(first ? v3_power(bh.power_state) :
				       mpc_power_join(blk->power, v3_power(bh.power_state)));
		/* values 0-3 are the header words; a value not counted counts 0 */
		for (unsigned j = 4; j < cpb; j++) {
			uint64_t v;

			if (!((bh.enable_mask >> j) & 1))
				continue;
			memcpy(&v, p + (size_t)j * 8, 8);
			blk->acc[j] += v;
			ks[j] += v;
		}
		p += (size_t)bh.nr_values * 8;
	}
	for (unsigned r = 0; r < s->nruns; r++)
		kind_en[s->runs[r].kind] = 0xffffffffu;
	for (unsigned i = 0; i < s->nblocks; i++)
		kind_en[s->blk[i].kind] &= s->blk[i].enable;
	for (unsigned r = 0; r < s->nruns; r++) {
		unsigned k = s->runs[r].kind;

		s->kind_enable[k] = first ? kind_en[k] : (s->kind_enable[k] & kind_en[k]);
	}
	s->nsamples++;
	s->power_known = power_known;
	memset(&info, 0, sizeof(info));
	info.seqno = h->seqno;
	info.timestamp_ns = h->end_ns;
	info.interval_start_ns = h->start_ns;
	info.flags = mpc_v3_data_flags(sample, len, h->flags);
	mpc_sample_join(s, &info);
	if (di) {
		di->seqno = info.seqno;
		di->timestamp_ns = info.timestamp_ns;
		di->interval_start_ns = info.interval_start_ns;
		di->flags = info.flags;
	}
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
	if (data_flags & MALI_PERFCNT_DATA_OVERFLOW)
		f |= MPC_DATA_OVERFLOW;
	return f;
}

/*
 * SESSION_OPEN's arguments: the masks of @cfg, then @period (0: none) and
 * @ring (0: none) as properties, chained in @p
 */
static void v3_args(const struct mpc_enable *cfg, uint64_t period, unsigned ring,
		    struct drm_mali_perfcnt_session_open *o,
		    struct drm_mali_perfcnt_ext_set_property *p, unsigned nprops)
{
	unsigned n = 0;

	memset(p, 0, nprops * sizeof(*p));
	memset(o, 0, sizeof(*o));
	o->flags = MALI_PERFCNT_SESSION_F_CLOEXEC | MALI_PERFCNT_SESSION_F_START;
	if (cfg && cfg->use_masks) {
		const uint32_t v[4] = { cfg->jm, cfg->tiler, cfg->shader, cfg->l2 };
		const uint32_t prop[4] = {
			MALI_PERFCNT_PROP_JM_MASK, MALI_PERFCNT_PROP_TILER_MASK,
			MALI_PERFCNT_PROP_SHADER_MASK, MALI_PERFCNT_PROP_MMU_L2_MASK,
		};

		for (; n < 4; n++) {
			p[n].property = prop[n];
			p[n].value = v[n];
		}
	}
	if (period) {
		p[n].property = MALI_PERFCNT_PROP_PERIOD_NS;
		p[n++].value = period;
	}
	if (ring) {
		p[n].property = MALI_PERFCNT_PROP_RING_SAMPLES;
		p[n++].value = ring;
	}
	for (unsigned i = 0; i < n; i++) {
		p[i].base.name = MALI_PERFCNT_EXT_SET_PROPERTY;
		if (i)
			p[i - 1].base.next_extension = (uint64_t)(uintptr_t)&p[i];
	}
	if (n)
		o->extensions = (uint64_t)(uintptr_t)&p[0];
	if (cfg)
		o->counter_set = cfg->counter_set;
}

void mpc_v3_open_args(const struct mpc_enable *cfg, uint64_t gpu_freq_hz,
		      struct drm_mali_perfcnt_session_open *o,
		      struct drm_mali_perfcnt_ext_set_property *p)
{
	uint64_t period = 0;

	/*
	 * The kernel's watchdog accumulates the hardware every second: a
	 * 32-bit counter of a clock above 4.29 GHz saturates within that.
	 * A GPU whose 2^30 cycles take less than a second asks for that span.
	 */
	if (gpu_freq_hz > (1ull << 30))
		period = (uint64_t)((double)(1ull << 30) * 1e9 / (double)gpu_freq_hz);
	if (period && period < MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS)
		period = MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS;
	v3_args(cfg, period, 0, o, p, MPC_V3_OPEN_PROPS);
}

void mpc_v3_ring_args(const struct mpc_enable *cfg, uint64_t period_ns, unsigned ring,
		      struct drm_mali_perfcnt_session_open *o,
		      struct drm_mali_perfcnt_ext_set_property *p)
{
	v3_args(cfg, period_ns, ring, o, p, MPC_V3_RING_PROPS);
}

int mpc_v3_ring_init(struct mpc_v3_ring *r, int fd, uint32_t sample_size)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->sample_size = sample_size;
	/* a few samples a read(): a reader woken late takes what queued up */
	r->cap = (size_t)sample_size * 8;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		close(fd);
		r->fd = -1;
		return -ENOMEM;
	}
	return 0;
}

void mpc_v3_ring_fini(struct mpc_v3_ring *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

int mpc_v3_ring_next(struct mpc_v3_ring *r, const void **sample, size_t *size,
		     struct mpc_err *err)
{
	struct drm_mali_perfcnt_sample_header h;

	if (r->off >= r->len) {
		ssize_t n = read(r->fd, r->buf, r->cap);

		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		r->len = (size_t)n;
		r->off = 0;
	}
	if (r->len - r->off < sizeof(h))
		return mpc_fail(err, -EPROTO, "a session read() of %zu bytes ends inside a sample; "
				"the driver and this library do not match", r->len);
	memcpy(&h, r->buf + r->off, sizeof(h));
	if (h.size < sizeof(h) || h.size > r->len - r->off || h.size > r->sample_size)
		return mpc_fail(err, -EPROTO, "a session sample says it is %u bytes, %zu were read "
				"and GET_INFO_V3 says %u; the driver and this library do not match",
				h.size, r->len - r->off, r->sample_size);
	*sample = r->buf + r->off;
	*size = h.size;
	/* the kernel writes whole samples of sample_size bytes back to back */
	r->off += r->sample_size;
	return 0;
}

void mpc_v3_ring_record(const void *sample, struct mpc_record *rec)
{
	struct drm_mali_perfcnt_sample_header h;

	memcpy(&h, sample, sizeof(h));
	memset(rec, 0, sizeof(*rec));
	rec->type = MPC_REC_SAMPLE;
	rec->data_flags = mpc_v3_data_flags(sample, h.size, h.flags);
	rec->seqno = h.seqno;
	rec->start_ns = h.start_ns;
	rec->end_ns = h.end_ns;
	rec->lost = (h.flags & MALI_PERFCNT_DATA_OVERFLOW) ? h.lost : 0;
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
	di->flags = mpc_v3_data_flags(sample, size, flags);
	return 0;
}
