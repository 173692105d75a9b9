// SPDX-License-Identifier: MIT
/*
 * Dump layout and decoding.
 *
 * A dump is a sequence of blocks of counters_per_block little-endian 32-bit
 * words. Words 0-1 of a block are the GPU timestamp, word 2 the enable mask
 * that was applied (bit n covers counters 4n..4n+3; bits beyond the block's
 * groups are ignored: panfrost programs all-ones masks), word 3 is zero; the
 * counters are words 4 and up.
 *
 *  v5: jm, tiler, l2 slice 0..nr_l2-1, shader slot 0..fls64(shader_present)-1
 *      (slot i is core bit i; absent cores leave holes that are ignored),
 *      then, from kbase's CSF kinstr_prfcnt only, the firmware block and the
 *      CSG blocks (this library's own layout: no hardware dump has them).
 *  v4: per core group g (one per L2 in l2_present): shader 4g..4g+3, tiler,
 *      MMU/L2, a reserved block, jm (group 0 only; reserved in the others).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpc_internal.h"

/* blocks in a run: ksum32_avx2() sums 16-bit halves of up to this many in 32 bits */
#define MPC_MAX_RUN 64

/* can the dump's words be read in place (little-endian host, aligned)? */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LE_ALIGNED(p) ((((uintptr_t)(p)) & 3) == 0)
#else
#define LE_ALIGNED(p) 0
#endif

int mpc_layout_new(const struct mpc_desc *d, struct mpc_layout **out, struct mpc_err *err)
{
	struct mpc_layout *l;
	unsigned n = d->nr_blocks, cpb = d->counters_per_block;

	*out = NULL;
	if (!n || !cpb || d->dump_size != n * cpb * 4 ||
	    d->nr_shader_blocks > 64 || d->nr_core_groups > 16 ||
	    (d->layout == MPC_LAYOUT_V5 ? n != 2 + d->nr_l2 + d->nr_shader_blocks + d->nr_fw +
					       d->nr_csg
					 : n != 8 * d->nr_core_groups || d->nr_fw || d->nr_csg))
		return mpc_fail(err, -EINVAL, "device description not finished or changed after "
				"mpc_desc_finish(); finish it again");
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
		for (unsigned i = 0; i < d->nr_fw; i++)
			l->slot[s++] = (struct mpc_slot){ MPC_BLK_FW, 1, (uint16_t)i, 0 };
		for (unsigned i = 0; i < d->nr_csg; i++)
			l->slot[s++] = (struct mpc_slot){ MPC_BLK_CSG, 1, (uint16_t)i, 0 };
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
	/* 64-byte aligned rows help the vector loops */
	if (posix_memalign((void **)&s->storage, 64, (size_t)(n ? n : 1) * cpb * sizeof(uint64_t)))
		s->storage = NULL;
	if (posix_memalign((void **)&s->kind_sum, 64, (size_t)MPC_BLK_KINDS * cpb * sizeof(uint64_t)))
		s->kind_sum = NULL;
	if (posix_memalign((void **)&s->raw, 64, l->dump_size))
		s->raw = NULL;
	if (!s->blk || !s->storage || !s->kind_sum || !s->raw) {
		mpc_sample_free(s);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	s->off = calloc(n ? n : 1, sizeof(*s->off));
	s->dst = calloc(n ? n : 1, sizeof(*s->dst));
	s->runs = calloc(n ? n : 1, sizeof(*s->runs));
	if (!s->off || !s->dst || !s->runs) {
		mpc_sample_free(s);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	memset(s->storage, 0, (size_t)(n ? n : 1) * cpb * sizeof(uint64_t));
	memset(s->kind_sum, 0, (size_t)MPC_BLK_KINDS * cpb * sizeof(uint64_t));
	memset(s->raw, 0, l->dump_size);
	s->layout = l;
	s->nblocks = n;
	n = 0;
	for (unsigned i = 0; i < l->nslots; i++) {
		if (!l->slot[i].present)
			continue;
		s->blk[n].kind = l->slot[i].kind;
		s->blk[n].instance = l->slot[i].instance;
		s->blk[n].raw = s->raw + l->slot[i].word;
		s->blk[n].acc = s->storage + (size_t)n * cpb;
		s->off[n] = l->slot[i].word;
		s->dst[n] = s->raw + l->slot[i].word;
		if (!s->nruns || s->runs[s->nruns - 1].kind != l->slot[i].kind ||
		    s->runs[s->nruns - 1].n >= MPC_MAX_RUN)
			s->runs[s->nruns++] = (struct mpc_run){ l->slot[i].kind, (uint16_t)n, 0 };
		s->runs[s->nruns - 1].n++;
		if (l->slot[i].kind < 4 && l->slot[i].instance < 64)
			s->by_instance[l->slot[i].kind][l->slot[i].instance] = (uint16_t)(n + 1);
		n++;
	}
	mpc_sample_reset(s);
	*out = s;
	return 0;
}

/*
 * The decoder stores a block's timestamp and enable mask as the four words of
 * its header, with one 16-byte store over both (and the padding after).
 */
_Static_assert(offsetof(struct mpc_block, enable) == offsetof(struct mpc_block, timestamp) + 8 &&
	       offsetof(struct mpc_block, saturated) >= offsetof(struct mpc_block, timestamp) + 16,
	       "struct mpc_block: timestamp, enable and padding no longer fill 16 bytes");

/*
 * Resetting only forgets: the next decode overwrites instead of adding. A
 * block's timestamp and mask are left for it to overwrite (the accessors
 * answer 0 without a dump); its saturation bits, which decoding only ever
 * sets, and sets with its kind's, are cleared when some are set.
 */
void mpc_sample_reset(struct mpc_sample *s)
{
	uint64_t sat = 0;

	for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
		sat |= s->kind_saturated[k][0] | s->kind_saturated[k][1];
	for (unsigned i = 0; sat && i < s->nblocks; i++)
		s->blk[i].saturated[0] = s->blk[i].saturated[1] = 0;
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++) {
		s->kind_enable[k] = 0;
		s->kind_saturated[k][0] = s->kind_saturated[k][1] = 0;
	}
	s->nsamples = 0;
	s->acc_live = 0;
	s->seqno = s->timestamp_ns = s->interval_start_ns = 0;
	s->data_flags = 0;
	s->timed = 0;
	s->power_known = 0;
}

void mpc_sample_free(struct mpc_sample *s)
{
	if (s) {
		free(s->blk);
		free(s->storage);
		free(s->kind_sum);
		free(s->raw);
		free(s->off);
		free(s->dst);
		free(s->runs);
		free(s);
	}
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}


/* the saturation bits of the blocks of @run (some counter read 0xffffffff) */
static void mark_saturated(struct mpc_sample *s, const struct mpc_run *run, unsigned cpb)
{
	for (unsigned b = run->first; b < run->first + run->n; b++)
		for (unsigned j = 4; j < cpb; j++)
			if (s->blk[b].raw[j] == 0xffffffffu) {
				s->blk[b].saturated[j >> 6] |= 1ull << (j & 63);
				s->kind_saturated[run->kind][j >> 6] |= 1ull << (j & 63);
			}
}

/*
 * The hot loops. ksum() adds the counters of a run of blocks of the same kind
 * to the totals of that kind and reports whether any read 0xffffffff;
 * fold() adds a block's previous words to its 64-bit accumulator.
 * The portable versions are plain loops the compiler vectorises; on x86-64
 * an AVX2 version keeps 8 groups of 4 totals in registers while it walks the
 * blocks, and is chosen at run time.
 */
static uint32_t ksum_c(uint64_t *restrict ks, const uint32_t *const *restrict w,
		       uint32_t *const *restrict dst, unsigned n, unsigned cpb, int add)
{
	uint32_t sat = 0;

	if (!add)
		memset(ks, 0, cpb * sizeof(uint64_t));
	for (unsigned i = 0; i < n; i++) {
		const uint32_t *restrict b = w[i];
		uint32_t *restrict d = dst[i];

		for (unsigned j = 4; j < cpb; j++) {
			d[j] = b[j];
			ks[j] += b[j];
			sat |= (uint32_t)(b[j] == 0xffffffffu);
		}
	}
	return sat;
}

static void fold_c(uint64_t *restrict acc, const uint32_t *restrict w, unsigned cpb, int add)
{
	if (add)
		for (unsigned j = 4; j < cpb; j++)
			acc[j] += w[j];
	else
		for (unsigned j = 4; j < cpb; j++)
			acc[j] = w[j];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MPC_HAVE_AVX2 1

/*
 * 32 words (4 vectors of 8) from word c0 of each of n blocks: the words and
 * their high 16-bit halves are summed in 32-bit lanes. The high halves' sum
 * does not overflow (n <= MPC_MAX_RUN blocks), nor does the low halves',
 * which is the words' sum less 2^16 times the high halves' (mod 2^32): no
 * mask, no widening shuffle per load. The halves are joined
 * into the 64-bit totals once per run. The running unsigned maximum tells
 * whether any counter read 0xffffffff. Header lanes (words 0-3) are zeroed
 * before they are summed and not stored over the header the decoder wrote.
 */
__attribute__((target("avx2"), always_inline))
static inline __m256i ksum32_avx2(uint64_t *ks, const uint32_t *const *w, uint32_t *const *dst,
				  unsigned n, unsigned c0, int add, __m256i mx)
{
	const __m256i hdr = _mm256_setr_epi32(0, 0, 0, 0, -1, -1, -1, -1);
	__m256i lo0 = _mm256_setzero_si256(), lo1 = lo0, lo2 = lo0, lo3 = lo0;
	__m256i hi0 = lo0, hi1 = lo0, hi2 = lo0, hi3 = lo0;

	for (unsigned i = 0; i < n; i++) {
		const uint32_t *b = w[i] + c0;
		uint32_t *o = dst[i] + c0;
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)b);
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(b + 8));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(const void *)(b + 16));
		__m256i x3 = _mm256_loadu_si256((const __m256i *)(const void *)(b + 24));

		if (!c0)
			x0 = _mm256_and_si256(x0, hdr);
		if (b != o) {
			if (c0)
				_mm256_store_si256((__m256i *)(void *)o, x0);
			else
				_mm_store_si128((__m128i *)(void *)(o + 4), _mm256_extracti128_si256(x0, 1));
			_mm256_store_si256((__m256i *)(void *)(o + 8), x1);
			_mm256_store_si256((__m256i *)(void *)(o + 16), x2);
			_mm256_store_si256((__m256i *)(void *)(o + 24), x3);
		}
		mx = _mm256_max_epu32(mx, _mm256_max_epu32(_mm256_max_epu32(x0, x1),
							   _mm256_max_epu32(x2, x3)));
		lo0 = _mm256_add_epi32(lo0, x0);
		hi0 = _mm256_add_epi32(hi0, _mm256_srli_epi32(x0, 16));
		lo1 = _mm256_add_epi32(lo1, x1);
		hi1 = _mm256_add_epi32(hi1, _mm256_srli_epi32(x1, 16));
		lo2 = _mm256_add_epi32(lo2, x2);
		hi2 = _mm256_add_epi32(hi2, _mm256_srli_epi32(x2, 16));
		lo3 = _mm256_add_epi32(lo3, x3);
		hi3 = _mm256_add_epi32(hi3, _mm256_srli_epi32(x3, 16));
	}
	{
		__m256i lo[4] = { lo0, lo1, lo2, lo3 }, hi[4] = { hi0, hi1, hi2, hi3 };

		/* the low halves' sums: the words' sums (mod 2^32) less the high halves' */
		for (unsigned v = 0; v < 4; v++)
			lo[v] = _mm256_sub_epi32(lo[v], _mm256_slli_epi32(hi[v], 16));
		for (unsigned v = 0; v < 4; v++)
			for (unsigned h = 0; h < 2; h++) {
				__m128i l = h ? _mm256_extracti128_si256(lo[v], 1) : _mm256_castsi256_si128(lo[v]);
				__m128i u = h ? _mm256_extracti128_si256(hi[v], 1) : _mm256_castsi256_si128(hi[v]);
				__m256i t = _mm256_add_epi64(_mm256_cvtepu32_epi64(l),
							     _mm256_slli_epi64(_mm256_cvtepu32_epi64(u), 16));
				__m256i *d = (__m256i *)(void *)(ks + c0 + 8 * v + 4 * h);

				_mm256_store_si256(d, add ? _mm256_add_epi64(_mm256_load_si256(d), t) : t);
			}
	}
	return mx;
}

__attribute__((target("avx2")))
static uint32_t ksum_avx2(uint64_t *ks, const uint32_t *const *w, uint32_t *const *dst,
			  unsigned n, unsigned cpb, int add)
{
	__m256i mx = _mm256_setzero_si256();

	for (unsigned c0 = 0; c0 < cpb; c0 += 32)
		mx = ksum32_avx2(ks, w, dst, n, c0, add, mx);
	return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi32(mx, _mm256_set1_epi32(-1)));
}

__attribute__((target("avx2")))
static void fold_avx2(uint64_t *acc, const uint32_t *w, unsigned cpb, int add)
{
	for (unsigned g = 1; g < cpb / 4; g++) {
		__m256i x = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(w + 4 * g)));
		__m256i *d = (__m256i *)(acc + 4 * g);

		_mm256_store_si256(d, add ? _mm256_add_epi64(_mm256_load_si256(d), x) : x);
	}
}

/*
 * ksum_avx2() with 16 words a vector: half the instructions, which is what
 * bounds the AVX2 loop. The header words (0-3) are left out of the load
 * and the store by masks.
 */
#define AVX512	__attribute__((target("avx512f")))

/* the low (@h 0) or high 8 words of @x (the extraction wants a constant) */
AVX512 __attribute__((always_inline))
static inline __m256i half512(__m512i x, unsigned h)
{
	return h ? _mm512_extracti64x4_epi64(x, 1) : _mm512_castsi512_si256(x);
}

AVX512 __attribute__((always_inline))
static inline __m512i ksum64_avx512(uint64_t *ks, const uint32_t *const *w, uint32_t *const *dst,
				    unsigned n, unsigned c0, int add, __m512i mx)
{
	__m512i lo[4], hi[4];
	__mmask16 m0 = c0 ? 0xffff : 0xfff0;

	for (unsigned v = 0; v < 4; v++)
		lo[v] = hi[v] = _mm512_setzero_si512();
	for (unsigned i = 0; i < n; i++) {
		const uint32_t *b = w[i] + c0;
		uint32_t *o = dst[i] + c0;
		__m512i x[4];

		x[0] = _mm512_maskz_loadu_epi32(m0, b);
		for (unsigned v = 1; v < 4; v++)
			x[v] = _mm512_loadu_si512(b + 16 * v);
		if (b != o) {
			_mm512_mask_storeu_epi32(o, m0, x[0]);
			for (unsigned v = 1; v < 4; v++)
				_mm512_store_si512(o + 16 * v, x[v]);
		}
		mx = _mm512_max_epu32(mx, _mm512_max_epu32(_mm512_max_epu32(x[0], x[1]),
							   _mm512_max_epu32(x[2], x[3])));
		for (unsigned v = 0; v < 4; v++) {
			lo[v] = _mm512_add_epi32(lo[v], x[v]);
			hi[v] = _mm512_add_epi32(hi[v], _mm512_srli_epi32(x[v], 16));
		}
	}
	/* one block (a JM, a tiler): its words are the totals, no halves to join */
	for (unsigned v = 0; v < 4; v++) {
		if (n > 1)
			lo[v] = _mm512_sub_epi32(lo[v], _mm512_slli_epi32(hi[v], 16));
		for (unsigned h = 0; h < 2; h++) {
			__m512i t = _mm512_cvtepu32_epi64(half512(lo[v], h));
			uint64_t *d = ks + c0 + 16 * v + 8 * h;

			if (n > 1)
				t = _mm512_add_epi64(t, _mm512_slli_epi64(_mm512_cvtepu32_epi64(
					half512(hi[v], h)), 16));

			_mm512_store_si512(d, add ? _mm512_add_epi64(_mm512_load_si512(d), t) : t);
		}
	}
	return mx;
}

AVX512 static uint32_t ksum_avx512(uint64_t *ks, const uint32_t *const *w, uint32_t *const *dst,
				   unsigned n, unsigned cpb, int add)
{
	__m512i mx = _mm512_setzero_si512();

	for (unsigned c0 = 0; c0 < cpb; c0 += 64)
		mx = ksum64_avx512(ks, w, dst, n, c0, add, mx);
	return _mm512_cmpeq_epi32_mask(mx, _mm512_set1_epi32(-1));
}

/*
 * One run of @n blocks of one kind, words c0..c0+63 of each: copied from the
 * dump (@off: the blocks' word offsets) to @dst and summed into @ks (added
 * to it with @add); with @ts, each block's header words 0-3 stored over its
 * timestamp and mask. Returns the lanes that read 0xffffffff.
 *
 * The words are summed in 32-bit lanes, with their running maximum, which
 * tells both whether a counter read 0xffffffff and whether the sums are
 * exact: no word of the run above @lim, 2^(32 - ceil(log2(n))) - 1, and n of
 * them cannot wrap. A run that could is summed again, from the copy, by
 * ksum64_avx512(), which keeps the high halves apart. Two vector operations
 * a vector (ksum64_avx512(): four) and four stores a block: the loop runs
 * at the speed of its stores.
 */
AVX512 __attribute__((always_inline))
static inline uint32_t run64_avx512(uint64_t *restrict ks, const uint32_t *restrict base,
				    const uint32_t *restrict off, uint32_t *const *restrict dst,
				    unsigned n, unsigned c0, int add, __m512i lim, __m512i fullv,
				    unsigned char *ts)
{
	__m512i lo0 = _mm512_setzero_si512(), lo1 = lo0, lo2 = lo0, lo3 = lo0, mx = lo0, mx0 = lo0;
	__m512i lo[4];

	for (unsigned i = 0; i < n; i++) {
		const uint32_t *b = base + off[i] + c0;
		uint32_t *o = dst[i] + c0;
		__m512i x0 = _mm512_loadu_si512(b), x1 = _mm512_loadu_si512(b + 16);
		__m512i x2 = _mm512_loadu_si512(b + 32), x3 = _mm512_loadu_si512(b + 48);

		if (!c0) {
			/* the header: word 2 is the mask (full), word 3 was 0 */
			x0 = _mm512_mask_mov_epi32(x0, 1u << 2, fullv);
			/* timestamp and mask in one store (words 0-3), or the timestamp */
			if (ts)
				_mm_storeu_si128((__m128i *)(void *)(ts + i * sizeof(struct mpc_block)),
						 _mm512_castsi512_si128(x0));
		}
		_mm512_store_si512(o, x0);
		_mm512_store_si512(o + 16, x1);
		_mm512_store_si512(o + 32, x2);
		_mm512_store_si512(o + 48, x3);
		/* the first vector's maximum apart: its header lanes are dropped */
		mx0 = _mm512_max_epu32(mx0, x0);
		mx = _mm512_max_epu32(mx, _mm512_max_epu32(_mm512_max_epu32(x1, x2), x3));
		lo0 = _mm512_add_epi32(lo0, x0);
		lo1 = _mm512_add_epi32(lo1, x1);
		lo2 = _mm512_add_epi32(lo2, x2);
		lo3 = _mm512_add_epi32(lo3, x3);
	}
	if (!c0) {
		lo0 = _mm512_maskz_mov_epi32(0xfff0, lo0);
		mx0 = _mm512_maskz_mov_epi32(0xfff0, mx0);
	}
	mx = _mm512_max_epu32(mx, mx0);
	if (_mm512_cmpgt_epu32_mask(mx, lim)) {
		/* the 32-bit sums may have wrapped: sum again, from the copy */
		ksum64_avx512(ks, (const uint32_t *const *)dst, dst, n, c0, add, mx);
		return _mm512_cmpeq_epi32_mask(mx, _mm512_set1_epi32(-1));
	}
	lo[0] = lo0;
	lo[1] = lo1;
	lo[2] = lo2;
	lo[3] = lo3;
	for (unsigned v = 0; v < 4; v++)
		for (unsigned h = 0; h < 2; h++) {
			__m512i t = _mm512_cvtepu32_epi64(half512(lo[v], h));
			uint64_t *d = ks + c0 + 16 * v + 8 * h;

			_mm512_store_si512(d, add ? _mm512_add_epi64(_mm512_load_si512(d), t) : t);
		}
	return _mm512_cmpeq_epi32_mask(mx, _mm512_set1_epi32(-1));
}

/*
 * mpc_decode() of a dump whose headers are good and whose groups are all
 * enabled (nearly every dump), in one pass over it: run64_avx512() per run
 * of blocks of one kind. Returns 1, having changed nothing, for a dump the
 * general path decodes (a bad header, a disabled group, an unaligned buffer).
 */
AVX512 static int decode_avx512(struct mpc_sample *s, const unsigned char *base, int first)
{
	unsigned cpb = s->layout->counters_per_block, nb = s->nblocks;
	uint32_t full = cpb == 128 ? 0xffffffffu : 0xffffu, seen = 0;
	const __m512i fullv = _mm512_set1_epi32((int)full);
	const uint32_t *restrict off = s->off;
	const uint32_t *words = (const uint32_t *)(const void *)base;
	uint64_t hor = 0, hand = ~0ull;

	if (cpb % 64 || !LE_ALIGNED(base))
		return 1;
	/* words 2 (the mask) and 3 of every header */
	for (unsigned i = 0; i < nb; i++) {
		uint64_t h;

		memcpy(&h, words + off[i] + 2, 8);
		hor |= h;
		hand &= h;
	}
	if ((hor >> 32) || ((uint32_t)hand & full) != full)
		return 1;
	if (!first) {
		for (unsigned i = 0; i < nb; i++)
			fold_avx2(s->blk[i].acc, s->blk[i].raw, cpb, s->acc_live);
		s->acc_live = 1;
	}
	for (unsigned r = 0; r < s->nruns; r++) {
		const struct mpc_run *run = &s->runs[r];
		unsigned k = run->kind, n = run->n, f0 = run->first;
		uint64_t *ks = s->kind_sum + (size_t)k * cpb;
		/* n words below 2^(32 - ceil(log2(n))) each do not wrap */
		const __m512i lim = _mm512_set1_epi32((int)(n > 1 ? 0xffffffffu >> (32 - __builtin_clz(n - 1))
								  : 0xffffffffu));
		/* the first run of a kind in a fresh sample stores */
		int add = !first || ((seen >> k) & 1);
		unsigned char *ts = (unsigned char *)&s->blk[f0] + offsetof(struct mpc_block, timestamp);
		uint32_t sat;

		seen |= 1u << k;
		/* every mask is full: a fresh sample's are, an older one's stay */
		if (first) {
			s->kind_enable[k] = full;
		} else {
			uint32_t en = full;

			for (unsigned i = f0; i < f0 + n; i++) {
				en &= s->blk[i].enable;
				memcpy(&s->blk[i].timestamp, words + off[i], 8);
			}
			s->kind_enable[k] &= en;
		}
		sat = run64_avx512(ks, words, off + f0, s->dst + f0, n, 0, add, lim, fullv,
				   first ? ts : NULL);
		for (unsigned c0 = 64; c0 < cpb; c0 += 64)
			sat |= run64_avx512(ks, words, off + f0, s->dst + f0, n, c0, add, lim, fullv, NULL);
		if (sat)
			mark_saturated(s, run, cpb);
	}
	return 0;
}
#endif

int mpc_decode_vec_max = 2;

#ifdef MPC_HAVE_AVX2
/* the vectors the decoder uses: the CPU's, up to mpc_decode_vec_max */
static int vec_level(void)
{
#ifdef __SANITIZE_ADDRESS__
	return 0;	/* exercise the portable loops under the sanitizers */
#else
	int v = mpc_cpu_vectors();

	return v < mpc_decode_vec_max ? v : mpc_decode_vec_max;
#endif
}
#endif

static uint32_t ksum(uint64_t *ks, const uint32_t *const *w, uint32_t *const *dst, unsigned n,
		     unsigned cpb, int add)
{
#ifdef MPC_HAVE_AVX2
	if (vec_level() == 2)
		return ksum_avx512(ks, w, dst, n, cpb, add);
	if (vec_level() == 1)
		return ksum_avx2(ks, w, dst, n, cpb, add);
#endif
	return ksum_c(ks, w, dst, n, cpb, add);
}

static void fold(uint64_t *acc, const uint32_t *w, unsigned cpb, int add)
{
#ifdef MPC_HAVE_AVX2
	if (vec_level()) {
		fold_avx2(acc, w, cpb, add);
		return;
	}
#endif
	fold_c(acc, w, cpb, add);
}

int mpc_dump_saturated(const void *dump, uint32_t nr_blocks, uint32_t counters_per_block)
{
	const unsigned char *p = dump;

	for (uint32_t b = 0; b < nr_blocks; b++)
		for (uint32_t i = 4; i < counters_per_block; i++)
			if (ld32(p + 4 * ((size_t)b * counters_per_block + i)) == 0xffffffffu)
				return 1;
	return 0;
}

int mpc_decode(struct mpc_sample *s, const void *dump, size_t len, struct mpc_err *err)
{
	const struct mpc_layout *l = s->layout;
	const unsigned char *base = dump;
	unsigned cpb = l->counters_per_block, nb = s->nblocks;
	uint32_t full = cpb == 128 ? 0xffffffffu : 0xffffu;
	int first = s->nsamples == 0;
	const uint32_t *src[MPC_BLK_KINDS * MPC_MAX_RUN];
	uint32_t bad = 0;

	if (len != l->dump_size)
		return mpc_fail(err, -EINVAL, "a dump of this GPU is %u bytes, got %zu; check the GPU "
				"description (cores, L2 slices) against the one the dump came from",
				l->dump_size, len);
#ifdef MPC_HAVE_AVX2
	if (vec_level() == 2 && !decode_avx512(s, base, first)) {
		s->nsamples++;
		s->power_known = 0;	/* a raw dump has no power states */
		return 0;
	}
#endif
	/* check every header first, so that a bad dump changes nothing */
	for (unsigned i = 0; i < nb; i++) {
		const unsigned char *b = base + (size_t)s->off[i] * 4;

		bad |= ld32(b + 12);
	}
	if (bad)
		for (unsigned i = 0; i < nb; i++) {
			const unsigned char *b = base + (size_t)s->off[i] * 4;
			uint32_t en = ld32(b + 8), w3 = ld32(b + 12);
			char nm[24];

			if (w3 != 0)
				return mpc_fail(err, -EINVAL, "block %u (%s) has a bad header (enable 0x%08x, "
						"word 3 0x%08x): not a mali_perfcnt dump, or the GPU "
						"description does not match the dump",
						s->off[i] / cpb,
						s->blk[i].kind == MPC_BLK_JM ? "jm" :
						(snprintf(nm, sizeof(nm), "%s.%u",
							  mpc_block_name(s->blk[i].kind),
							  s->blk[i].instance), nm), en, w3);
		}
	/* accumulating: the previous dump's words join the 64-bit sums */
	if (!first) {
		for (unsigned i = 0; i < nb; i++)
			fold(s->blk[i].acc, s->blk[i].raw, cpb, s->acc_live);
		s->acc_live = 1;
	}
	/* headers; counters of disabled groups were not written: they count 0 */
	for (unsigned i = 0; i < nb; i++) {
		const unsigned char *b = base + (size_t)s->off[i] * 4;
		uint32_t *w = s->dst[i];
		struct mpc_block *blk = &s->blk[i];
		/* a 64-counter block has 16 groups: the high half means nothing */
		uint32_t h0 = ld32(b), h1 = ld32(b + 4), en = ld32(b + 8) & full;

		w[0] = h0;
		w[1] = h1;
		w[2] = en;
		w[3] = 0;
		src[i] = (const uint32_t *)(const void *)b;
		if (en != full || !LE_ALIGNED(b)) {
			/* rare: copy by hand, zeroing the disabled groups */
			for (unsigned j = 4; j < cpb; j++)
				w[j] = ((en >> (j >> 2)) & 1) ? ld32(b + 4 * j) : 0;
			src[i] = w;
		}
		/* (from registers: a 64-bit load of the two words just stored
		 * would defeat store forwarding) */
		blk->timestamp = (uint64_t)h0 | ((uint64_t)h1 << 32);
		blk->enable = first ? en : (blk->enable & en);
	}
	/* copy the counters and add them to the per-kind totals, run by run */
	for (unsigned r = 0; r < s->nruns; r++) {
		const struct mpc_run *run = &s->runs[r];
		unsigned k = run->kind;
		/* the first run of a kind in a fresh sample stores */
		int add = !first;
		uint32_t en = 0xffffffffu;

		for (unsigned q = 0; q < r; q++)
			add |= s->runs[q].kind == k;
		for (unsigned i = run->first; i < run->first + run->n; i++)
			en &= s->blk[i].enable;
		s->kind_enable[k] = add ? (s->kind_enable[k] & en) : en;
		if (ksum(s->kind_sum + (size_t)k * cpb, src + run->first, s->dst + run->first, run->n,
			 cpb, add))
			mark_saturated(s, run, cpb);
	}
	s->nsamples++;
	s->power_known = 0;	/* a raw dump has no power states */
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
		sum += mpc_block_value(s, b, (unsigned)c->index);
		if ((b->saturated[c->index >> 6] >> (c->index & 63)) & 1)
			flags |= MPC_VAL_SATURATED;
	}
	if (!n)
		return MPC_VAL_UNKNOWN;
	if (!s->nsamples) {
		*value = 0;
		return MPC_VAL_NOT_COLLECTED;
	}
	*value = sum << c->shift;
	return flags;
}

void mpc_sample_join(struct mpc_sample *s, const struct mpc_dump_info *di)
{
	if (!s->timed)
		s->interval_start_ns = di->interval_start_ns;
	s->timed = 1;
	s->seqno = di->seqno;
	s->timestamp_ns = di->timestamp_ns;
	s->data_flags |= di->flags;
}

int mpc_sample_add(struct mpc_sample *s, const void *dump, size_t len,
		   const struct mpc_dump_info *di, struct mpc_err *err)
{
	int r = mpc_decode(s, dump, len, err);

	if (r || !di)
		return r;
	mpc_sample_join(s, di);
	return 0;
}

unsigned mpc_power_join(unsigned a, unsigned b)
{
	if (a == b)
		return a;
	if (a == MPC_POWER_UNKNOWN || b == MPC_POWER_UNKNOWN)
		return MPC_POWER_UNKNOWN;
	return MPC_POWER_PARTIAL;	/* on for some of the time, off for the rest */
}

int mpc_sample_add_power(struct mpc_sample *s, const void *dump, size_t len,
			 const struct mpc_dump_info *di, const uint8_t *slot_power,
			 struct mpc_err *err)
{
	unsigned cpb = s->layout->counters_per_block;
	int first = s->nsamples == 0, known = first || s->power_known;
	int r = mpc_sample_add(s, dump, len, di, err);

	if (r || !slot_power || !known)
		return r;
	for (unsigned i = 0; i < s->nblocks; i++) {
		struct mpc_block *blk = &s->blk[i];
		unsigned p = slot_power[s->off[i] / cpb];

		blk->power = (uint8_t)(first ? p : mpc_power_join(blk->power, p));
	}
	s->power_known = 1;
	return 0;
}

unsigned mpc_sample_counter(const struct mpc_sample *s, const struct mpc_gpu_def *gpu,
			    const char *name, int instance, uint64_t *value)
{
	const struct mpc_counter_def *c = gpu && name ? mpc_gpu_find_counter(gpu, name) : NULL;

	*value = 0;
	return c ? mpc_counter_value(s, c, instance, value) : MPC_VAL_UNKNOWN;
}

unsigned mpc_sample_block_value(const struct mpc_sample *s, unsigned b, unsigned idx,
				uint64_t *value)
{
	const struct mpc_block *blk;
	unsigned flags = 0;

	*value = 0;
	if (b >= s->nblocks || idx >= s->layout->counters_per_block)
		return MPC_VAL_UNKNOWN;
	blk = &s->blk[b];
	if (!s->nsamples || !mpc_block_collected(blk, idx))
		return MPC_VAL_NOT_COLLECTED;
	if ((blk->saturated[idx >> 6] >> (idx & 63)) & 1)
		flags |= MPC_VAL_SATURATED;
	*value = mpc_block_value(s, blk, idx);
	return flags;
}

const struct mpc_layout *mpc_sample_layout(const struct mpc_sample *s) { return s->layout; }
unsigned mpc_sample_ndumps(const struct mpc_sample *s) { return s->nsamples; }
uint64_t mpc_sample_seqno(const struct mpc_sample *s) { return s->seqno; }
uint64_t mpc_sample_timestamp_ns(const struct mpc_sample *s) { return s->timestamp_ns; }
uint64_t mpc_sample_interval_start_ns(const struct mpc_sample *s) { return s->interval_start_ns; }
unsigned mpc_sample_data_flags(const struct mpc_sample *s) { return s->data_flags; }
unsigned mpc_sample_nblocks(const struct mpc_sample *s) { return s->nblocks; }

/*
 * Two versions of the accessors that answer a block kind (libmaliperfcnt.sym):
 * programs linked against LIBMALIPERFCNT_1 were built with four kinds and
 * MPC_BLK_KINDS = 4 as "no such block"; they get that for a firmware or CSG
 * block too (and a reserved slot), never a kind they would index arrays with.
 */
#define MPC_BLK_KINDS_1	4

#ifdef MPC_SYMVER
__asm__(".symver mpc_sample_block_kind_1, mpc_sample_block_kind@LIBMALIPERFCNT_1");
__asm__(".symver mpc_layout_slot_1, mpc_layout_slot@LIBMALIPERFCNT_1");
__asm__(".symver mpc_sample_block_kind_1_1, mpc_sample_block_kind@@LIBMALIPERFCNT_1.1");
__asm__(".symver mpc_layout_slot_1_1, mpc_layout_slot@@LIBMALIPERFCNT_1.1");
#define mpc_sample_block_kind mpc_sample_block_kind_1_1
#define mpc_layout_slot mpc_layout_slot_1_1
unsigned mpc_sample_block_kind(const struct mpc_sample *s, unsigned b);
int mpc_layout_slot(const struct mpc_layout *l, unsigned i, unsigned *kind, unsigned *instance);
#endif

unsigned mpc_sample_block_kind(const struct mpc_sample *s, unsigned b)
{
	return b < s->nblocks ? s->blk[b].kind : MPC_BLK_NONE;
}

unsigned mpc_sample_block_kind_1(const struct mpc_sample *s, unsigned b)
{
	unsigned k = mpc_sample_block_kind(s, b);

	return k < MPC_BLK_KINDS_1 ? k : MPC_BLK_KINDS_1;
}

unsigned mpc_sample_block_instance(const struct mpc_sample *s, unsigned b)
{
	return b < s->nblocks ? s->blk[b].instance : 0;
}

uint64_t mpc_sample_block_timestamp(const struct mpc_sample *s, unsigned b)
{
	return b < s->nblocks && s->nsamples ? s->blk[b].timestamp : 0;
}

uint32_t mpc_sample_block_enable(const struct mpc_sample *s, unsigned b)
{
	return b < s->nblocks && s->nsamples ? s->blk[b].enable : 0;
}

int mpc_sample_block_power(const struct mpc_sample *s, unsigned b)
{
	if (!s)
		return -EINVAL;
	if (b >= s->nblocks)
		return -ERANGE;
	if (!s->nsamples || !s->power_known)
		return MPC_POWER_UNKNOWN;
	return s->blk[b].power;
}

uint32_t mpc_layout_dump_size(const struct mpc_layout *l) { return l->dump_size; }
unsigned mpc_layout_counters_per_block(const struct mpc_layout *l) { return l->counters_per_block; }
unsigned mpc_layout_nslots(const struct mpc_layout *l) { return l->nslots; }

unsigned mpc_layout_instances(const struct mpc_layout *l, unsigned kind)
{
	return kind < MPC_BLK_KINDS ? l->ninst[kind] : 0;
}

int mpc_layout_slot(const struct mpc_layout *l, unsigned i, unsigned *kind, unsigned *instance)
{
	if (i >= l->nslots)
		return -EINVAL;
	*kind = l->slot[i].kind;
	*instance = l->slot[i].instance;
	return l->slot[i].present;
}

int mpc_layout_slot_1(const struct mpc_layout *l, unsigned i, unsigned *kind, unsigned *instance)
{
	int r = mpc_layout_slot(l, i, kind, instance);

	if (r > 0 && *kind >= MPC_BLK_KINDS_1) {
		*kind = MPC_BLK_JM;	/* a reserved slot, as v4's are */
		*instance = 0;
		r = 0;
	}
	return r;
}
