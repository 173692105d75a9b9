// SPDX-License-Identifier: MIT
/*
 * Perfetto trace writer for GPU counters (see perfetto.h).
 *
 * Layout of a trace:
 *   packet 1: ClockSnapshot { MONOTONIC_RAW, BOOTTIME }, so the file merges
 *             with a system trace recorded on the same device;
 *   packet 2: SEQ_INCREMENTAL_STATE_CLEARED, first_packet_on_sequence, and
 *             InternedData.gpu_counter_descriptors { iid 1: every counter };
 *   then one packet per sample: SEQ_NEEDS_INCREMENTAL_STATE, timestamp in
 *             MONOTONIC_RAW, GpuCounterEvent { counter_descriptor_iid 1,
 *             counters }.
 * record --jobs adds, after the samples, one TrackDescriptor packet per job
 * queue and a TrackEvent SLICE_BEGIN/SLICE_END pair per job (no incremental
 * state: names are inline strings).
 * The descriptor is interned (sent once, referred to by iid) and its counter
 * ids are scoped to our packet sequence, so a trace of ours merged with
 * another producer's GPU counters does not mix their ids.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto.h"

/* protobuf wire types */
#define WT_VARINT	0
#define WT_FIXED64	1
#define WT_LEN		2

/* field numbers, Perfetto's */
#define TRACE_PACKET			1
#define PKT_CLOCK_SNAPSHOT		6
#define PKT_TIMESTAMP			8
#define PKT_TRUSTED_SEQ_ID		10
#define PKT_INTERNED_DATA		12
#define PKT_SEQUENCE_FLAGS		13
#define PKT_GPU_COUNTER_EVENT		52
#define PKT_TIMESTAMP_CLOCK_ID		58
#define PKT_FIRST_ON_SEQUENCE		87
#define PKT_TRACK_EVENT			11
#define PKT_TRACK_DESCRIPTOR		60
#define TD_UUID				1
#define TD_NAME				2
#define TE_TYPE				9
#define TE_TRACK_UUID			11
#define TE_NAME				23
#define TE_TYPE_SLICE_BEGIN		1
#define TE_TYPE_SLICE_END		2
#define SEQ_INCREMENTAL_STATE_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL_STATE	2
#define CLOCKS_CLOCK			1
#define CLOCKS_PRIMARY			2
#define CLOCK_ID			1
#define CLOCK_TIMESTAMP			2
#define INTERNED_GPU_DESCRIPTORS	47
#define IGCD_IID			1
#define IGCD_DESCRIPTOR			2
#define DESC_SPECS			1
#define DESC_MIN_PERIOD			3
#define DESC_MAX_PERIOD			4
#define SPEC_ID				1
#define SPEC_NAME			2
#define SPEC_DESCRIPTION		3
#define SPEC_NUM_UNITS			7
#define SPEC_DEN_UNITS			8
#define SPEC_SELECT_BY_DEFAULT		9
#define SPEC_GROUPS			10
#define SPEC_VALUE_DIRECTION		11
#define VALUE_DIRECTION_BACKWARDS_LOOKING 1
#define EVENT_COUNTERS			2
#define EVENT_DESCRIPTOR_IID		4
#define COUNTER_ID			1
#define COUNTER_INT			2
#define COUNTER_DOUBLE			3

#define DESCRIPTOR_IID			1
/* counter ids are small: one per counter and metric recorded */
#define PF_MAX_ID			(1u << 20)

struct pf_buf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

struct pf_trace {
	FILE *out;
	uint32_t seq_id;
	int started, failed;
	struct pf_counter_spec *spec;
	unsigned int nspec, capspec;
	/*
	 * Each declared id's bytes before its value in an event, as a
	 * little-endian word: GpuCounter's tag and length, counter_id's tag
	 * and the id, the value's tag (int: the length without the value's;
	 * double: all of it), 4 to 7 bytes, and their count in the last byte,
	 * which the value's store overwrites; 0 for an undeclared id. Indexed
	 * by id up to max_id: the per-sample check is O(1).
	 */
	uint64_t *pre_int, *pre_dbl;
	uint32_t max_id;
	/*
	 * The same words by declaration order (pf_trace_values()): slot k's
	 * as an int and as a double. The doubles of slots dt_first to
	 * dt_first + dt_n - 1 also as one template: their bytes in a row,
	 * each value's 8 left at dt_off[k], so that a sample whose doubles
	 * are all finite is the template and a store per value.
	 */
	uint64_t *slot_int, *slot_dbl;
	uint8_t *dt;
	uint32_t *dt_off;
	size_t dt_len;
	unsigned int dt_first, dt_n;
	/*
	 * The same bytes by 64-byte blocks (the AVX-512 doubles): block b's
	 * template bytes, then its byte permutation (0-63: byte of the 8
	 * doubles from dtv_first[b], the first dtv_cnt[b] of them loaded;
	 * 64-127: template byte); NULL when a block would need more doubles
	 */
	uint8_t *dtv, *dtv_cnt;
	uint32_t *dtv_first;
	size_t dtv_n;
	int dt_built;
	/*
	 * The AVX-512 ints' scratch (put_ints()): per slot the 16 bytes that
	 * begin at its counter (the prefix, then the varint) and their count;
	 * by slot the prefix word without its byte 7, the prefix's length,
	 * that in bits (a shift) and 64 less that
	 */
	uint64_t *vb_bytes, *vb_len, *vb_pre, *vb_pl, *vb_sh, *vb_rsh;
	/* pf_trace_sample()'s values in that form, when they are in that order */
	int64_t *scr_i;
	double *scr_d;
	/* reused per packet: the packet, the message inside it, one level below */
	struct pf_buf pkt, msg, sub, leaf;
	/* the packets not yet written, and a sample packet's last header length */
	struct pf_buf pending;
	size_t sample_hlen;
};

/* pending packets are written when they reach this size, and at the end */
#define PF_WRITE_AT	(64 * 1024)

static inline void buf_reserve(struct pf_buf *b, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (b->oom || b->len + n <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

static void put_bytes(struct pf_buf *b, const void *s, size_t n)
{
	buf_reserve(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void put_raw_varint(struct pf_buf *b, uint64_t v)
{
	uint8_t *p;

	buf_reserve(b, 10);
	if (b->oom)
		return;
	p = b->p + b->len;
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	b->len = (size_t)(p - b->p);
}

static inline unsigned int vlen(uint64_t v)
{
	return (unsigned int)(64 - __builtin_clzll(v | 1) + 6) / 7;
}

static inline uint8_t *wvar(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* vlen() by the index of the highest bit set (63 - clz: a bsr) */
static const uint8_t vlen_bit[64] = {
	1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3,
	4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6,
	7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10,
};

static inline unsigned int vlen_fast(uint64_t v)
{
	return vlen_bit[63 ^ __builtin_clzll(v | 1)];
}

/* the continuation bits of a varint of n bytes (n <= 8): all but the last */
static const uint64_t cont_bits[9] = {
	0, 0, 0x80, 0x8080, 0x808080, 0x80808080, 0x8080808080ull, 0x808080808080ull,
	0x80808080808080ull,
};

/* @v's 7-bit groups, one a byte (below 2^56) */
#define SPREAD_C(v)								\
	(((v) & 0x7f) | ((v) << 1 & 0x7f00) | ((v) << 2 & 0x7f0000) |		\
	 ((v) << 3 & 0x7f000000) | ((v) << 4 & 0x7f00000000ull) |		\
	 ((v) << 5 & 0x7f0000000000ull) | ((v) << 6 & 0x7f000000000000ull) |	\
	 ((v) << 7 & 0x7f00000000000000ull))

/*
 * The counters of a sample after the event's descriptor iid, from @p;
 * NULL for an undeclared id. Each is one 8-byte store of its id's prefix
 * word (an int's length byte gains the value's varint length), then the
 * value: a double's 8 bytes, or an int's varint without a branch per byte:
 * below 2^56 its 7-bit groups are spread over 8 bytes (SPREAD), the
 * continuation bits set on all but the last, and the 8 bytes stored at once
 * (the caller has room); p moves by the lengths only. Defined twice: with
 * BMI2's pdep on x86-64 CPUs that have it, and with shifts and masks.
 */
#define DEFINE_ENCODE(name, attr, SPREAD)					\
attr static uint8_t *name(uint8_t *p, const struct pf_trace *t,		\
			  const struct pf_value *v, unsigned int n)		\
{										\
	const uint64_t *pre_int = t->pre_int, *pre_dbl = t->pre_dbl;		\
	uint32_t max_id = t->max_id;						\
										\
	for (unsigned int i = 0; i < n; i++) {					\
		uint32_t id = v[i].id;						\
		uint64_t pre;							\
		unsigned int pl;						\
										\
		if (id > max_id)						\
			return NULL;						\
		pre = v[i].is_int ? pre_int[id] : pre_dbl[id];			\
		if (!pre)							\
			return NULL;						\
		pl = (unsigned int)(pre >> 56);					\
		if (v[i].is_int) {						\
			uint64_t u = (uint64_t)v[i].i, w, x;			\
			unsigned int vl = vlen_fast(u);				\
										\
			w = htole64(pre + ((uint64_t)vl << 8));			\
			memcpy(p, &w, 8);					\
			p += pl;						\
			if (vl > 8) {						\
				p = wvar(p, u);					\
				continue;					\
			}							\
			x = SPREAD(u) | cont_bits[vl];				\
			x = htole64(x);						\
			memcpy(p, &x, 8);					\
			p += vl;						\
		} else if (isfinite(v[i].d)) {					\
			uint64_t u, w = htole64(pre);				\
										\
			/* unavailable is never a value: no counter, not a 0 */ \
			memcpy(&u, &v[i].d, sizeof(u));				\
			u = htole64(u);						\
			memcpy(p, &w, 8);					\
			memcpy(p + pl, &u, 8);					\
			p += pl + 8;						\
		}								\
	}									\
	return p;								\
}

/*
 * By the index of a value's highest bit set (up to 55: 8 bytes at most),
 * what its varint adds to an int's prefix word (its length, into the
 * length byte), its length and its continuation bits: one look-up each,
 * all at the same index, so that none waits for another.
 */
#define X7(x) x, x, x, x, x, x, x
static const uint64_t vl_add[56] = {
	X7(0x100), X7(0x200), X7(0x300), X7(0x400), X7(0x500), X7(0x600), X7(0x700), X7(0x800),
};
static const uint64_t vl_len[56] = { X7(1), X7(2), X7(3), X7(4), X7(5), X7(6), X7(7), X7(8) };
static const uint64_t vl_cont[56] = {
	X7(0), X7(0x80), X7(0x8080), X7(0x808080), X7(0x80808080), X7(0x8080808080ull),
	X7(0x808080808080ull), X7(0x80808080808080ull),
};
#undef X7

/*
 * pf_trace_values()'s ints: @n values of consecutive slots from @iv, @slot
 * their prefix words in the same order, as encode() writes them but
 * without an id to look up or a type to test; PF_NO_INT (a varint of 10
 * bytes, so behind the test for the long ones) is left out.
 */
#define DEFINE_INTS(name, attr, SPREAD)						\
attr static uint8_t *name(uint8_t *p, const uint64_t *slot, const int64_t *iv,	\
			  unsigned int n)					\
{										\
	for (unsigned int k = 0; k < n; k++) {					\
		uint64_t u = (uint64_t)iv[k], w = slot[k], x, pl = w >> 56;	\
		unsigned long b = 63 ^ (unsigned long)__builtin_clzll(u | 1);	\
										\
		if (b >= 56) {							\
			if (iv[k] == PF_NO_INT)					\
				continue;					\
			w = htole64(w + ((uint64_t)vlen_fast(u) << 8));		\
			memcpy(p, &w, 8);					\
			p = wvar(p + pl, u);					\
			continue;						\
		}								\
		w = htole64(w + vl_add[b]);					\
		memcpy(p, &w, 8);						\
		x = htole64(SPREAD(u) | vl_cont[b]);				\
		memcpy(p + pl, &x, 8);						\
		p += pl + vl_len[b];						\
	}									\
	return p;								\
}

DEFINE_ENCODE(encode_c, , SPREAD_C)
DEFINE_INTS(ints_c, , SPREAD_C)

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPREAD_PDEP(v) _pdep_u64((v), 0x7f7f7f7f7f7f7f7full)
DEFINE_ENCODE(encode_bmi2, __attribute__((target("bmi2"))), SPREAD_PDEP)
DEFINE_INTS(ints_bmi2, __attribute__((target("bmi2"))), SPREAD_PDEP)

static int use_bmi2(void)
{
	static int bmi2 = -1;

	if (bmi2 < 0)
#ifdef __SANITIZE_ADDRESS__
		bmi2 = 0;	/* the sanitizer builds test the portable loops */
#else
		bmi2 = __builtin_cpu_supports("bmi2") ? 1 : 0;
#endif
	return bmi2;
}

/*
 * The ints by AVX-512 (F, BW, CD, VL and VBMI), 8 a step, in two passes.
 * The first makes each int's bytes without a branch: its varint's 7-bit
 * groups by one byte shuffle (vpmultishiftqb), its length from its leading
 * zeros (vplzcntq, then a byte table), the continuation bits by that length
 * from a table of 8, the prefix word's length byte plus the length, and the
 * varint shifted in behind the prefix: 16 bytes (at most 7 + 8) and their
 * count, PF_NO_INT's 0. The second pass stores each int's 16 bytes where the
 * last one's end, so the next overwrites the zeros behind (the caller has
 * room: 29 a counter). A varint longer than 8 bytes that is not PF_NO_INT
 * (a value of 2^56 or more) is not done there: the first pass tells, and
 * the caller writes that sample's ints by the scalar loop.
 */
#define AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi")))

/* the varint length by the value's leading zeros mod 64 (0: 64, the value 0) */
static const uint8_t vl_by_lz[64] = {
	1, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7,
	6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4,
	3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
};



AVX512_TARGET static int ints_avx512_prep(const struct pf_trace *t, const int64_t *iv,
					  unsigned int n)
{
	/* the continuation bits by the length mod 8 (0: 8 bytes) */
	const __m512i cont = _mm512_set_epi64(0x808080808080ll, 0x8080808080ll, 0x80808080ll,
					      0x808080ll, 0x8080ll, 0x80ll, 0,
					      0x80808080808080ll);
	const __m512i groups = _mm512_set1_epi64(0x312a231c150e0700ll);
	const __m512i lzt = _mm512_loadu_si512(vl_by_lz);
	const __m512i lo7 = _mm512_set1_epi64(0x7f7f7f7f7f7f7f7fll);
	const __m512i no_int = _mm512_set1_epi64(PF_NO_INT);
	const __m512i mix_lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
	const __m512i mix_hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
	uint64_t *bytes = t->vb_bytes, *len = t->vb_len;
	const uint64_t *pre = t->vb_pre, *pls = t->vb_pl, *sh = t->vb_sh, *rsh = t->vb_rsh;
	/* the fewest leading zeros of an int that is not PF_NO_INT */
	__m512i least = _mm512_set1_epi64(64);

	for (unsigned int k = 0; k < n; k += 8) {
		__mmask8 m = n - k >= 8 ? 0xff : (__mmask8)((1u << (n - k)) - 1);
		__m512i u = _mm512_maskz_loadu_epi64(m, iv + k);
		__m512i pl = _mm512_loadu_si512(pls + k);
		__mmask8 is = _mm512_cmpneq_epi64_mask(u, no_int);
		__m512i lz = _mm512_lzcnt_epi64(u);
		/* the length in each word's low byte, 0 above */
		__m512i vl = _mm512_maskz_permutexvar_epi8(0x0101010101010101ull, lz, lzt);
		__m512i x, lo, hi;

		least = _mm512_mask_min_epu64(least, is, least, lz);
		x = _mm512_multishift_epi64_epi8(groups, u);
		/* (x & lo7) | cont[vl] */
		x = _mm512_ternarylogic_epi64(x, lo7, _mm512_permutexvar_epi64(vl, cont), 0xea);
		/* the prefix with its length byte grown, bytes pl to 7 the varint's first */
		lo = _mm512_add_epi64(_mm512_loadu_si512(pre + k), _mm512_slli_epi64(vl, 8));
		lo = _mm512_or_si512(lo, _mm512_sllv_epi64(x, _mm512_loadu_si512(sh + k)));
		hi = _mm512_srlv_epi64(x, _mm512_loadu_si512(rsh + k));
		_mm512_storeu_si512(bytes + 2 * k, _mm512_permutex2var_epi64(lo, mix_lo, hi));
		_mm512_storeu_si512(bytes + 2 * k + 8, _mm512_permutex2var_epi64(lo, mix_hi, hi));
		_mm512_storeu_si512(len + k, _mm512_maskz_add_epi64(is, pl, vl));
	}
	/* a varint of more than 8 bytes */
	return _mm512_cmplt_epu64_mask(least, _mm512_set1_epi64(8)) ? -1 : 0;
}

/* NULL: a varint of more than 8 bytes, not done */
static uint8_t *ints_avx512(uint8_t *p, const struct pf_trace *t, const int64_t *iv,
			    unsigned int n)
{
	const uint64_t *bytes = t->vb_bytes, *len = t->vb_len;
	size_t k;

	if (ints_avx512_prep(t, iv, n))
		return NULL;
	for (k = 0; k + 4 <= n; k += 4) {
		memcpy(p, bytes + 2 * k, 16);
		p += len[k];
		memcpy(p, bytes + 2 * k + 2, 16);
		p += len[k + 1];
		memcpy(p, bytes + 2 * k + 4, 16);
		p += len[k + 2];
		memcpy(p, bytes + 2 * k + 6, 16);
		p += len[k + 3];
	}
	for (; k < n; k++) {
		memcpy(p, bytes + 2 * k, 16);
		p += len[k];
	}
	return p;
}

/*
 * pf_trace_values()'s doubles by the blocks of build_dt(): per 64 bytes of
 * output one load of the doubles, one byte permutation with the template,
 * one store (the caller has room behind the last); the doubles not finite
 * tell (nonzero), and their bytes are then not these.
 */
AVX512_TARGET static int doubles_avx512(uint8_t *p, const struct pf_trace *t, const double *dv)
{
	const __m512i expo = _mm512_set1_epi64(0x7ff0000000000000ll);
	const __m512i step = _mm512_set1_epi64(1ll << 52);
	const uint8_t *blk = t->dtv, *cnt = t->dtv_cnt;
	const uint32_t *first = t->dtv_first;
	size_t nb = t->dtv_n;
	__m512i bad = _mm512_setzero_si512();

	for (size_t b = 0; b < nb; b++, blk += 128) {
		__mmask8 m = (__mmask8)((1u << cnt[b]) - 1);
		__m512i d = _mm512_maskz_loadu_epi64(m, dv + first[b]);

		/* bit 63 set when the exponent is all ones: NaN or infinite */
		bad = _mm512_or_si512(bad, _mm512_add_epi64(_mm512_and_si512(d, expo), step));
		d = _mm512_permutex2var_epi8(d, _mm512_loadu_si512(blk + 64),
					     _mm512_loadu_si512(blk));
		_mm512_storeu_si512(p + 64 * b, d);
	}
	return _mm512_cmplt_epi64_mask(bad, _mm512_setzero_si512()) != 0;
}

static int use_avx512(void)
{
	static int avx512 = -1;

	if (avx512 < 0)
#ifdef __SANITIZE_ADDRESS__
		avx512 = 0;
#else
		avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
			 __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vl") &&
			 __builtin_cpu_supports("avx512vbmi") && use_bmi2();
#endif
	return avx512;
}

static uint8_t *encode(uint8_t *p, const struct pf_trace *t, const struct pf_value *v,
		       unsigned int n)
{
	return use_bmi2() ? encode_bmi2(p, t, v, n) : encode_c(p, t, v, n);
}

static uint8_t *put_ints(uint8_t *p, struct pf_trace *t, const int64_t *iv, unsigned int n)
{
	uint8_t *end = use_avx512() ? ints_avx512(p, t, iv, n) : NULL;

	if (end)
		return end;
	return use_bmi2() ? ints_bmi2(p, t->slot_int, iv, n) : ints_c(p, t->slot_int, iv, n);
}
#else
#define encode encode_c
#define put_ints(p, t, iv, n) ints_c((p), (t)->slot_int, (iv), (n))
#endif

/*
 * pf_trace_values()'s doubles, slots dt_first to dt_first + dt_n - 1: the
 * template, then each value into its place. A value that is not finite is
 * left out, which moves the values after it: then they are written again
 * one by one, as encode() does.
 */
static uint8_t *put_doubles(uint8_t *p, const struct pf_trace *t, const double *dv)
{
	const uint64_t *slot = t->slot_dbl + t->dt_first;
	const uint32_t *off = t->dt_off;
	unsigned int n = t->dt_n;
	uint64_t bad = 0;

#if defined(__x86_64__) && defined(__GNUC__)
	if (t->dtv && use_avx512()) {
		if (!doubles_avx512(p, t, dv))
			return p + t->dt_len;
		goto one_by_one;
	}
#endif
	memcpy(p, t->dt, t->dt_len);
	for (unsigned int k = 0; k < n; k++) {
		uint64_t u;

		memcpy(&u, &dv[k], sizeof(u));
		/* bit 63 set when the exponent is all ones: NaN or infinite */
		bad |= (u & 0x7ff0000000000000ull) + (1ull << 52);
		u = htole64(u);
		memcpy(p + off[k], &u, 8);
	}
	if (!(bad >> 63))
		return p + t->dt_len;
#if defined(__x86_64__) && defined(__GNUC__)
one_by_one:
#endif
	for (unsigned int k = 0; k < n; k++) {
		uint64_t u, w = htole64(slot[k]);
		unsigned int pl = (unsigned int)(slot[k] >> 56);

		if (!isfinite(dv[k]))
			continue;
		memcpy(&u, &dv[k], sizeof(u));
		u = htole64(u);
		memcpy(p, &w, 8);
		memcpy(p + pl, &u, 8);
		p += pl + 8;
	}
	return p;
}

/* tag of field @f with wire type @wt; both fit two bytes for our fields */
static inline uint8_t *wtag(uint8_t *p, unsigned int f, unsigned int wt)
{
	return wvar(p, (uint64_t)f << 3 | wt);
}

static void put_tag(struct pf_buf *b, unsigned int field, unsigned int wt)
{
	put_raw_varint(b, (uint64_t)field << 3 | wt);
}

static void put_varint(struct pf_buf *b, unsigned int field, uint64_t v)
{
	put_tag(b, field, WT_VARINT);
	put_raw_varint(b, v);
}

static void put_string(struct pf_buf *b, unsigned int field, const char *s)
{
	size_t n = strlen(s);

	put_tag(b, field, WT_LEN);
	put_raw_varint(b, n);
	put_bytes(b, s, n);
}

/* Append @child as field @field of @b, and empty @child for reuse. */
static void put_msg(struct pf_buf *b, unsigned int field, struct pf_buf *child)
{
	if (child->oom)
		b->oom = 1;
	put_tag(b, field, WT_LEN);
	put_raw_varint(b, child->len);
	put_bytes(b, child->p, child->len);
	child->len = 0;
}

/* Start a packet with the fields every packet of ours carries. */
static void packet_begin(struct pf_trace *t, uint32_t flags)
{
	t->pkt.len = 0;
	put_varint(&t->pkt, PKT_TRUSTED_SEQ_ID, t->seq_id);
	if (flags)
		put_varint(&t->pkt, PKT_SEQUENCE_FLAGS, flags);
}

/* Write the pending packets once there are PF_WRITE_AT bytes of them (@all: now). */
static int write_pending(struct pf_trace *t, int all)
{
	if (t->pending.len < (all ? 1 : PF_WRITE_AT))
		return 0;
	if (fwrite(t->pending.p, 1, t->pending.len, t->out) != t->pending.len) {
		t->failed = 1;
		return -1;
	}
	t->pending.len = 0;
	return 0;
}

/* Queue the packet as one Trace.packet field. */
static int packet_end(struct pf_trace *t)
{
	put_tag(&t->pending, TRACE_PACKET, WT_LEN);
	put_raw_varint(&t->pending, t->pkt.len);
	put_bytes(&t->pending, t->pkt.p, t->pkt.len);
	if (t->pkt.oom || t->pending.oom) {
		t->failed = 1;
		return -1;
	}
	return write_pending(t, 0);
}

struct pf_trace *pf_trace_new(FILE *out, uint32_t seq_id)
{
	struct pf_trace *t;

	if (!out || !seq_id)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->out = out;
	t->seq_id = seq_id;
	return t;
}

static const struct pf_counter_spec *find_spec(const struct pf_trace *t, uint32_t id)
{
	for (unsigned int i = 0; i < t->nspec; i++)
		if (t->spec[i].id == id)
			return &t->spec[i];
	return NULL;
}

int pf_trace_counter(struct pf_trace *t, const struct pf_counter_spec *s)
{
	if (t->started || !s->id || !s->name || find_spec(t, s->id))
		return -1;
	if (t->nspec == t->capspec) {
		unsigned int cap = t->capspec ? 2 * t->capspec : 64;
		struct pf_counter_spec *n = realloc(t->spec, cap * sizeof(*n));

		if (!n)
			return -1;
		t->spec = n;
		t->capspec = cap;
	}
	t->spec[t->nspec] = *s;
	/* the strings are the trace's own: callers may pass temporaries */
	t->spec[t->nspec].name = strdup(s->name);
	t->spec[t->nspec].description = s->description ? strdup(s->description) : NULL;
	if (!t->spec[t->nspec].name || (s->description && !t->spec[t->nspec].description)) {
		free((char *)t->spec[t->nspec].name);
		free((char *)t->spec[t->nspec].description);
		return -1;
	}
	t->nspec++;
	return 0;
}

static void put_spec(struct pf_buf *b, const struct pf_counter_spec *s)
{
	put_varint(b, SPEC_ID, s->id);
	put_string(b, SPEC_NAME, s->name);
	if (s->description && *s->description)
		put_string(b, SPEC_DESCRIPTION, s->description);
	for (int i = 0; i < PF_MAX_UNITS && s->num[i] != PF_UNIT_NONE; i++)
		put_varint(b, SPEC_NUM_UNITS, s->num[i]);
	for (int i = 0; i < PF_MAX_UNITS && s->den[i] != PF_UNIT_NONE; i++)
		put_varint(b, SPEC_DEN_UNITS, s->den[i]);
	put_varint(b, SPEC_SELECT_BY_DEFAULT, !!s->select_by_default);
	put_varint(b, SPEC_GROUPS, s->group);
	/* a value covers the interval that ends at its event's timestamp */
	put_varint(b, SPEC_VALUE_DIRECTION, VALUE_DIRECTION_BACKWARDS_LOOKING);
}

int pf_trace_start(struct pf_trace *t, uint64_t raw_ns, uint64_t boot_ns,
		   uint64_t min_period_ns, uint64_t max_period_ns)
{
	if (t->started)
		return -1;
	t->started = 1;
	for (unsigned int i = 0; i < t->nspec; i++)
		if (t->spec[i].id > t->max_id)
			t->max_id = t->spec[i].id;
	if (t->max_id > PF_MAX_ID) {
		t->failed = 1;
		return -1;
	}
	t->pre_int = calloc((size_t)t->max_id + 1, sizeof(uint64_t));
	t->pre_dbl = calloc((size_t)t->max_id + 1, sizeof(uint64_t));
	t->slot_int = calloc((size_t)t->nspec + 1, sizeof(uint64_t));
	t->slot_dbl = calloc((size_t)t->nspec + 1, sizeof(uint64_t));
	t->scr_i = calloc((size_t)t->nspec + 1, sizeof(int64_t));
	t->scr_d = calloc((size_t)t->nspec + 1, sizeof(double));
	/* whole steps of 8 */
	t->vb_bytes = calloc(((size_t)t->nspec + 8) * 2, sizeof(uint64_t));
	t->vb_len = calloc((size_t)t->nspec + 8, sizeof(uint64_t));
	t->vb_pre = calloc((size_t)t->nspec + 8, sizeof(uint64_t));
	t->vb_pl = calloc((size_t)t->nspec + 8, sizeof(uint64_t));
	t->vb_sh = calloc((size_t)t->nspec + 8, sizeof(uint64_t));
	t->vb_rsh = calloc((size_t)t->nspec + 8, sizeof(uint64_t));
	if (!t->pre_int || !t->pre_dbl || !t->slot_int || !t->slot_dbl || !t->scr_i ||
	    !t->scr_d || !t->vb_bytes || !t->vb_len || !t->vb_pre || !t->vb_pl || !t->vb_sh ||
	    !t->vb_rsh) {
		t->failed = 1;
		return -1;
	}
	for (unsigned int i = 0; i < t->nspec; i++) {
		uint32_t id = t->spec[i].id;
		uint8_t b[8] = { 0 };
		unsigned int il;
		uint64_t w;

		/* ids are at most PF_MAX_ID: a varint of 3 bytes at most */
		il = (unsigned int)(wvar(b + 3, id) - (b + 3));
		b[0] = (uint8_t)(EVENT_COUNTERS << 3 | WT_LEN);
		b[2] = (uint8_t)(COUNTER_ID << 3 | WT_VARINT);
		b[7] = (uint8_t)(4 + il);
		b[1] = (uint8_t)(1 + il + 1);
		b[3 + il] = (uint8_t)(COUNTER_INT << 3 | WT_VARINT);
		memcpy(&w, b, 8);
		t->pre_int[id] = le64toh(w);
		b[1] = (uint8_t)(1 + il + 9);
		b[3 + il] = (uint8_t)(COUNTER_DOUBLE << 3 | WT_FIXED64);
		memcpy(&w, b, 8);
		t->pre_dbl[id] = le64toh(w);
		t->slot_int[i] = t->pre_int[id];
		t->slot_dbl[i] = t->pre_dbl[id];
		t->vb_pre[i] = t->pre_int[id] & 0x00ffffffffffffffull;
		t->vb_pl[i] = 4 + il;
		t->vb_sh[i] = 8 * (4 + il);
		t->vb_rsh[i] = 64 - 8 * (4 + il);
	}

	/* The clock snapshot: its own packet, timestamped in BOOTTIME. */
	packet_begin(t, 0);
	put_varint(&t->pkt, PKT_TIMESTAMP, boot_ns);
	put_varint(&t->sub, CLOCK_ID, PF_CLOCK_MONOTONIC_RAW);
	put_varint(&t->sub, CLOCK_TIMESTAMP, raw_ns);
	put_msg(&t->msg, CLOCKS_CLOCK, &t->sub);
	put_varint(&t->sub, CLOCK_ID, PF_CLOCK_BOOTTIME);
	put_varint(&t->sub, CLOCK_TIMESTAMP, boot_ns);
	put_msg(&t->msg, CLOCKS_CLOCK, &t->sub);
	put_varint(&t->msg, CLOCKS_PRIMARY, PF_CLOCK_BOOTTIME);
	put_msg(&t->pkt, PKT_CLOCK_SNAPSHOT, &t->msg);
	if (packet_end(t))
		return -1;

	/* The interned descriptor: InternedData { gpu_counter_descriptors }. */
	packet_begin(t, SEQ_INCREMENTAL_STATE_CLEARED);
	put_varint(&t->pkt, PKT_FIRST_ON_SEQUENCE, 1);
	put_varint(&t->pkt, PKT_TIMESTAMP, raw_ns);
	put_varint(&t->pkt, PKT_TIMESTAMP_CLOCK_ID, PF_CLOCK_MONOTONIC_RAW);
	for (unsigned int i = 0; i < t->nspec; i++) {
		put_spec(&t->leaf, &t->spec[i]);
		put_msg(&t->sub, DESC_SPECS, &t->leaf);
	}
	if (min_period_ns)
		put_varint(&t->sub, DESC_MIN_PERIOD, min_period_ns);
	if (max_period_ns)
		put_varint(&t->sub, DESC_MAX_PERIOD, max_period_ns);
	put_varint(&t->msg, IGCD_IID, DESCRIPTOR_IID);
	put_msg(&t->msg, IGCD_DESCRIPTOR, &t->sub);
	put_msg(&t->sub, INTERNED_GPU_DESCRIPTORS, &t->msg);
	put_msg(&t->pkt, PKT_INTERNED_DATA, &t->sub);
	return packet_end(t);
}

/*
 * The per-sample packet, written in one pass into the pending output:
 *   Trace.packet { trusted_packet_sequence_id, sequence_flags, timestamp,
 *     timestamp_clock_id, gpu_counter_event { counter_descriptor_iid,
 *     counters { counter_id, int_value | double_value } ... } }
 * The counters go first, behind room for the headers (whose lengths depend
 * on theirs): as much room as the last sample's headers took, which is
 * almost always what this one's take; the counters are moved where it is
 * not. A counter's bytes but its value's were made once, by
 * pf_trace_start() (a prefix word per id and per declared counter) and
 * the first pf_trace_values() (the doubles' template): per sample only the
 * values and the headers are encoded. The bytes are those the generic
 * put_*() helpers would write (tests/test_golden.c).
 */
#define SAMPLE_HEADROOM	48	/* >= 4 + 6 + 2 + 11 + 3 + 5: frame, packet fields, event tag */

/* Room for a sample packet of @n counters; where its body starts (NULL: out of memory). */
static uint8_t *sample_begin(struct pf_trace *t, unsigned int n, uint8_t **start)
{
	uint8_t *body;

	/*
	 * at most 2 + 10 + 1 + 5 + 1 + 10 bytes a counter, and 64 for the
	 * last store (8 bytes; 16 and 64 by the AVX-512 ints and doubles)
	 */
	buf_reserve(&t->pending, SAMPLE_HEADROOM + 2 + (size_t)n * 29 + 64);
	if (t->pending.oom) {
		t->failed = 1;
		return NULL;
	}
	*start = t->pending.p + t->pending.len;
	body = *start + (t->sample_hlen ? t->sample_hlen : SAMPLE_HEADROOM);
	body = wtag(body, EVENT_DESCRIPTOR_IID, WT_VARINT);
	return wvar(body, DESCRIPTOR_IID);
}

/* The headers in front of the counters @start + headroom to @p; queue the packet. */
static int sample_end(struct pf_trace *t, uint64_t ts_ns, uint8_t *start, uint8_t *p)
{
	uint8_t hdr[SAMPLE_HEADROOM], *body, *h;
	size_t blen, plen, hlen;

	body = start + (t->sample_hlen ? t->sample_hlen : SAMPLE_HEADROOM);
	blen = (size_t)(p - body);
	/* the packet's fields before the event, then the event's tag and length */
	h = hdr;
	h = wtag(h, PKT_TRUSTED_SEQ_ID, WT_VARINT);
	h = wvar(h, t->seq_id);
	h = wtag(h, PKT_SEQUENCE_FLAGS, WT_VARINT);
	h = wvar(h, SEQ_NEEDS_INCREMENTAL_STATE);
	h = wtag(h, PKT_TIMESTAMP, WT_VARINT);
	h = wvar(h, ts_ns);
	h = wtag(h, PKT_TIMESTAMP_CLOCK_ID, WT_VARINT);
	h = wvar(h, PF_CLOCK_MONOTONIC_RAW);
	h = wtag(h, PKT_GPU_COUNTER_EVENT, WT_LEN);
	h = wvar(h, blen);
	plen = (size_t)(h - hdr) + blen;
	/* and in front of all that, the Trace.packet tag and the packet's length */
	hlen = 1 + vlen(plen) + (size_t)(h - hdr);
	if (body != start + hlen)
		memmove(start + hlen, body, blen);
	t->sample_hlen = hlen;
	p = wtag(start, TRACE_PACKET, WT_LEN);
	p = wvar(p, plen);
	memcpy(p, hdr, (size_t)(h - hdr));
	t->pending.len += hlen + blen;
	return write_pending(t, 0);
}

/* The template's blocks (see struct pf_trace); none is no error, the template serves */
static int build_dtv(struct pf_trace *t)
{
	size_t nb = (t->dt_len + 63) / 64, b;
	uint8_t *v = calloc(nb ? nb : 1, 128), *cnt = calloc(nb ? nb : 1, 1);
	uint32_t *first = calloc(nb ? nb : 1, sizeof(*first));
	unsigned int k = 0;

	free(t->dtv);
	free(t->dtv_cnt);
	free(t->dtv_first);
	t->dtv = NULL;
	t->dtv_cnt = NULL;
	t->dtv_first = NULL;
	t->dtv_n = 0;
	if (!v || !cnt || !first)
		goto none;
	for (b = 0; b < nb; b++) {
		size_t lo = 64 * b;

		/* the first double with a byte in the block */
		while (k < t->dt_n && t->dt_off[k] + 8 <= lo)
			k++;
		first[b] = k;
		cnt[b] = (uint8_t)(t->dt_n - k < 8 ? t->dt_n - k : 8);
		for (size_t q = lo; q < lo + 64; q++) {
			unsigned int j = k;

			v[128 * b + 64 + (q - lo)] = (uint8_t)(64 + (q - lo));
			if (q >= t->dt_len)
				continue;
			v[128 * b + (q - lo)] = t->dt[q];
			while (j < t->dt_n && t->dt_off[j] + 8 <= q)
				j++;
			if (j == t->dt_n || q < t->dt_off[j])
				continue;
			if (j - k >= 8)
				goto none;
			v[128 * b + 64 + (q - lo)] = (uint8_t)(8 * (j - k) + (q - t->dt_off[j]));
		}
	}
	t->dtv = v;
	t->dtv_cnt = cnt;
	t->dtv_first = first;
	t->dtv_n = nb;
	return 0;
none:
	free(v);
	free(cnt);
	free(first);
	return 0;
}

/* The doubles' template of slots @first to @first + @n - 1 (see struct pf_trace). */
static int build_dt(struct pf_trace *t, unsigned int first, unsigned int n)
{
	size_t len = 0;
	uint8_t *dt;
	uint32_t *off;

	for (unsigned int k = 0; k < n; k++)
		len += (t->slot_dbl[first + k] >> 56) + 8;
	dt = malloc(len + 8);
	off = malloc(((size_t)n + 1) * sizeof(*off));
	if (!dt || !off) {
		free(dt);
		free(off);
		t->failed = 1;
		return -1;
	}
	len = 0;
	for (unsigned int k = 0; k < n; k++) {
		uint64_t w = htole64(t->slot_dbl[first + k]);
		unsigned int pl = (unsigned int)(t->slot_dbl[first + k] >> 56);

		memcpy(dt + len, &w, pl);
		memset(dt + len + pl, 0, 8);
		off[k] = (uint32_t)(len + pl);
		len += pl + 8;
	}
	free(t->dt);
	free(t->dt_off);
	t->dt = dt;
	t->dt_off = off;
	t->dt_len = len;
	t->dt_first = first;
	t->dt_n = n;
	t->dt_built = 1;
	return build_dtv(t);
}

int pf_trace_values(struct pf_trace *t, uint64_t ts_ns, const int64_t *iv, unsigned int ni,
		    const double *dv, unsigned int nd)
{
	uint8_t *start, *p;

	if (!t->started || ni > t->nspec || nd > t->nspec - ni)
		return -1;
	if ((!t->dt_built || t->dt_first != ni || t->dt_n != nd) && build_dt(t, ni, nd))
		return -1;
	p = sample_begin(t, ni + nd, &start);
	if (!p)
		return -1;
	p = put_ints(p, t, iv, ni);
	p = put_doubles(p, t, dv);
	return sample_end(t, ts_ns, start, p);
}

/*
 * Values in declaration order, the ints first, no int PF_NO_INT: the
 * values path's form, the same bytes made faster (tests/test_golden.c
 * holds its output); anything else, by encode().
 */
int pf_trace_sample(struct pf_trace *t, uint64_t ts_ns, const struct pf_value *v,
		    unsigned int n)
{
	uint8_t *start, *p;
	unsigned int ni = 0, k;

	if (!t->started)
		return -1;
	for (k = 0; k < n && k < t->nspec && v[k].id == t->spec[k].id; k++) {
		if (v[k].is_int && ni == k && v[k].i != PF_NO_INT)
			t->scr_i[ni++] = v[k].i;
		else if (!v[k].is_int)
			t->scr_d[k - ni] = v[k].d;
		else
			break;
	}
	if (k == n)
		return pf_trace_values(t, ts_ns, t->scr_i, ni, t->scr_d, n - ni);
	p = sample_begin(t, n, &start);
	if (!p)
		return -1;
	/* an undeclared id: nothing is written (the event is not sent) */
	p = encode(p, t, v, n);
	if (!p)
		return -1;
	return sample_end(t, ts_ns, start, p);
}

int pf_trace_track(struct pf_trace *t, uint64_t uuid, const char *name)
{
	if (!t->started || !uuid || !name)
		return -1;
	packet_begin(t, 0);
	put_varint(&t->msg, TD_UUID, uuid);
	put_string(&t->msg, TD_NAME, name);
	put_msg(&t->pkt, PKT_TRACK_DESCRIPTOR, &t->msg);
	return packet_end(t);
}

/* One TrackEvent packet: a slice's begin (with its name) or its end. */
static int track_event(struct pf_trace *t, uint64_t uuid, const char *name, uint64_t ts_ns,
		       unsigned int type)
{
	packet_begin(t, 0);
	put_varint(&t->pkt, PKT_TIMESTAMP, ts_ns);
	put_varint(&t->pkt, PKT_TIMESTAMP_CLOCK_ID, PF_CLOCK_MONOTONIC_RAW);
	put_varint(&t->msg, TE_TYPE, type);
	put_varint(&t->msg, TE_TRACK_UUID, uuid);
	if (name)
		put_string(&t->msg, TE_NAME, name);
	put_msg(&t->pkt, PKT_TRACK_EVENT, &t->msg);
	return packet_end(t);
}

int pf_trace_slice(struct pf_trace *t, uint64_t uuid, const char *name, uint64_t begin_ns,
		   uint64_t end_ns)
{
	if (!t->started || !uuid || !name || end_ns < begin_ns)
		return -1;
	if (track_event(t, uuid, name, begin_ns, TE_TYPE_SLICE_BEGIN))
		return -1;
	return track_event(t, uuid, NULL, end_ns, TE_TYPE_SLICE_END);
}

int pf_trace_end(struct pf_trace *t)
{
	int ret;

	if (!t)
		return -1;
	ret = write_pending(t, 1) || t->failed || fflush(t->out) ? -1 : 0;
	for (unsigned int i = 0; i < t->nspec; i++) {
		free((char *)t->spec[i].name);
		free((char *)t->spec[i].description);
	}
	free(t->spec);
	free(t->pre_int);
	free(t->pre_dbl);
	free(t->slot_int);
	free(t->slot_dbl);
	free(t->dt);
	free(t->dt_off);
	free(t->dtv);
	free(t->dtv_cnt);
	free(t->dtv_first);
	free(t->scr_i);
	free(t->scr_d);
	free(t->vb_bytes);
	free(t->vb_len);
	free(t->vb_pre);
	free(t->vb_pl);
	free(t->vb_sh);
	free(t->vb_rsh);
	free(t->pkt.p);
	free(t->msg.p);
	free(t->sub.p);
	free(t->leaf.p);
	free(t->pending.p);
	free(t);
	return ret;
}
