// SPDX-License-Identifier: MIT
/*
 * Dump layout and decoding.
 *
 * A dump is a sequence of blocks of counters_per_block little-endian 32-bit
 * words. Words 0-1 of a block are the GPU timestamp, word 2 the enable mask
 * that was applied (bit n covers counters 4n..4n+3), word 3 is zero; the
 * counters are words 4 and up.
 *
 *  v5: jm, tiler, l2 slice 0..nr_l2-1, shader slot 0..fls64(shader_present)-1
 *      (slot i is core bit i; absent cores leave holes that are ignored).
 *  v4: per core group g (one per L2 in l2_present): shader 4g..4g+3, tiler,
 *      MMU/L2, a reserved block, jm (group 0 only; reserved in the others).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpc_internal.h"

int mpc_layout_new(const struct mpc_desc *d, struct mpc_layout **out, struct mpc_err *err)
{
	struct mpc_layout *l;
	unsigned n = d->nr_blocks, cpb = d->counters_per_block;

	*out = NULL;
	if (!n || !cpb || d->dump_size != n * cpb * 4)
		return mpc_fail(err, -EINVAL, "device description not finished (internal error)");
	l = calloc(1, sizeof(*l));
	if (!l)
		return mpc_fail(err, -ENOMEM, "out of memory");
	l->slot = calloc(n, sizeof(*l->slot));
	if (!l->slot) {
		free(l);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	l->nslots = n;
	l->counters_per_block = cpb;
	l->dump_size = d->dump_size;
	if (d->layout == MPC_LAYOUT_V5) {
		unsigned s = 0;

		l->slot[s++] = (struct mpc_slot){ MPC_BLK_JM, 1, 0, 0 };
		l->slot[s++] = (struct mpc_slot){ MPC_BLK_TILER, 1, 0, 0 };
		for (unsigned i = 0; i < d->nr_l2; i++)
			l->slot[s++] = (struct mpc_slot){ MPC_BLK_L2, 1, (uint16_t)i, 0 };
		for (unsigned i = 0; i < d->nr_shader_blocks; i++)
			l->slot[s++] = (struct mpc_slot){ MPC_BLK_SHADER,
				(uint8_t)((d->shader_present >> i) & 1), (uint16_t)i, 0 };
	} else {
		for (unsigned g = 0; g < d->nr_core_groups; g++) {
			struct mpc_slot *s = &l->slot[g * 8];

			for (unsigned k = 0; k < 4; k++) {
				unsigned core = 4 * g + k;

				s[k] = (struct mpc_slot){ MPC_BLK_SHADER,
					(uint8_t)((d->shader_present >> core) & 1), (uint16_t)core, 0 };
			}
			s[4] = (struct mpc_slot){ MPC_BLK_TILER, 1, (uint16_t)g, 0 };
			s[5] = (struct mpc_slot){ MPC_BLK_L2, 1, (uint16_t)g, 0 };
			s[6] = (struct mpc_slot){ MPC_BLK_JM, 0, 0, 0 };
			s[7] = (struct mpc_slot){ MPC_BLK_JM, g == 0, 0, 0 };
		}
	}
	for (unsigned i = 0; i < n; i++) {
		l->slot[i].word = i * cpb;
		if (l->slot[i].present)
			l->ninst[l->slot[i].kind]++;
	}
	*out = l;
	return 0;
}

void mpc_layout_free(struct mpc_layout *l)
{
	if (l) {
		free(l->slot);
		free(l);
	}
}

int mpc_sample_new(const struct mpc_layout *l, struct mpc_sample **out, struct mpc_err *err)
{
	struct mpc_sample *s;
	unsigned n = 0, cpb = l->counters_per_block;

	*out = NULL;
	for (unsigned i = 0; i < l->nslots; i++)
		n += l->slot[i].present;
	s = calloc(1, sizeof(*s));
	if (!s)
		return mpc_fail(err, -ENOMEM, "out of memory");
	s->blk = calloc(n ? n : 1, sizeof(*s->blk));
	/* 64-byte aligned rows help the summing loops */
	if (posix_memalign((void **)&s->storage, 64, (size_t)(n ? n : 1) * cpb * sizeof(uint64_t)))
		s->storage = NULL;
	if (!s->blk || !s->storage) {
		free(s->blk);
		free(s->storage);
		free(s);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	s->layout = l;
	s->nblocks = n;
	n = 0;
	for (unsigned i = 0; i < l->nslots; i++) {
		if (!l->slot[i].present)
			continue;
		s->blk[n].kind = l->slot[i].kind;
		s->blk[n].instance = l->slot[i].instance;
		s->blk[n].v = s->storage + (size_t)n * cpb;
		n++;
	}
	mpc_sample_reset(s);
	*out = s;
	return 0;
}

void mpc_sample_reset(struct mpc_sample *s)
{
	memset(s->storage, 0, (size_t)s->nblocks * s->layout->counters_per_block * sizeof(uint64_t));
	for (unsigned i = 0; i < s->nblocks; i++) {
		s->blk[i].timestamp = 0;
		s->blk[i].enable = 0;
		s->blk[i].saturated[0] = s->blk[i].saturated[1] = 0;
	}
	s->nsamples = 0;
}

void mpc_sample_free(struct mpc_sample *s)
{
	if (s) {
		free(s->blk);
		free(s->storage);
		free(s);
	}
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static const char *slot_name(const struct mpc_slot *sl, char *buf, size_t n)
{
	if (sl->kind == MPC_BLK_JM)
		return "jm";
	snprintf(buf, n, "%s.%u", mpc_block_name(sl->kind), sl->instance);
	return buf;
}

int mpc_decode(struct mpc_sample *s, const void *dump, size_t len, struct mpc_err *err)
{
	const struct mpc_layout *l = s->layout;
	const unsigned char *base = dump;
	unsigned cpb = l->counters_per_block;
	uint32_t full = cpb == 128 ? 0xffffffffu : 0xffffu;
	unsigned bi = 0;

	if (len != l->dump_size)
		return mpc_fail(err, -EINVAL, "a dump of this GPU is %u bytes, got %zu; check the GPU "
				"description (cores, L2 slices) against the one the dump came from",
				l->dump_size, len);
	/* check every header first, so that a bad dump changes nothing */
	for (unsigned i = 0; i < l->nslots; i++) {
		const struct mpc_slot *sl = &l->slot[i];
		const unsigned char *b = base + (size_t)sl->word * 4;
		uint32_t en = ld32(b + 8), w3 = ld32(b + 12);
		char nb[24];

		if (!sl->present)
			continue;
		if (w3 != 0 || (en & ~full))
			return mpc_fail(err, -EINVAL, "block %u (%s) has a bad header (enable 0x%08x, word 3 "
					"0x%08x): not a mali_perfcnt dump, or the GPU description "
					"does not match the dump", i, slot_name(sl, nb, sizeof(nb)), en, w3);
	}
	for (unsigned i = 0; i < l->nslots; i++) {
		const struct mpc_slot *sl = &l->slot[i];
		const unsigned char *b = base + (size_t)sl->word * 4;
		struct mpc_block *blk;
		uint32_t en;
		uint64_t *v;
		uint32_t sat = 0;

		if (!sl->present)
			continue;
		blk = &s->blk[bi++];
		v = blk->v;
		en = ld32(b + 8);
		blk->timestamp = (uint64_t)ld32(b) | ((uint64_t)ld32(b + 4) << 32);
		blk->enable = s->nsamples ? (blk->enable & en) : en;
		if (en == full) {
			for (unsigned j = 4; j < cpb; j++) {
				uint32_t r = ld32(b + 4 * j);

				v[j] += r;
				sat |= (r == 0xffffffffu);
			}
		} else {
			for (unsigned j = 4; j < cpb; j++) {
				uint32_t r = ld32(b + 4 * j);

				if (!((en >> (j >> 2)) & 1))
					continue;
				v[j] += r;
				sat |= (r == 0xffffffffu);
			}
		}
		if (sat) {
			for (unsigned j = 4; j < cpb; j++)
				if (((en >> (j >> 2)) & 1) && ld32(b + 4 * j) == 0xffffffffu)
					blk->saturated[j >> 6] |= 1ull << (j & 63);
		}
	}
	s->nsamples++;
	return 0;
}

unsigned mpc_counter_value(const struct mpc_sample *s, const struct mpc_counter_def *c,
			   int instance, uint64_t *value)
{
	unsigned flags = 0, n = 0;
	uint64_t sum = 0;

	*value = 0;
	if (c->index < 0 || (unsigned)c->index >= s->layout->counters_per_block)
		return MPC_VAL_UNKNOWN;
	for (unsigned i = 0; i < s->nblocks; i++) {
		const struct mpc_block *b = &s->blk[i];

		if (b->kind != c->kind || (instance >= 0 && b->instance != instance))
			continue;
		n++;
		if (!mpc_block_collected(b, (unsigned)c->index)) {
			flags |= MPC_VAL_NOT_COLLECTED;
			continue;
		}
		sum += b->v[c->index];
		if ((b->saturated[c->index >> 6] >> (c->index & 63)) & 1)
			flags |= MPC_VAL_SATURATED;
	}
	if (!n)
		return MPC_VAL_UNKNOWN;
	if (!s->nsamples)
		flags |= MPC_VAL_NOT_COLLECTED;
	*value = sum << c->shift;
	return flags;
}
