// SPDX-License-Identifier: MIT
/*
 * The Perfetto writer (tool/perfetto.c), checked against Perfetto's own
 * schema: every trace is decoded by `protoc --decode=perfetto.protos.Trace`
 * with perfetto_trace.proto ($MPC_PERFETTO_PROTO, else the project's
 * ../shared/reference/perfetto/ next to the repository), and the
 * decoded text is read back: no field the schema does not know, every
 * counter id used is declared, timestamps increase, values are the ones
 * written. Without protoc or the schema the protoc cases are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "perfetto.h"
#include "mali_perfcnt_drm.h"

#define MAXC 64
#define MAXS 64

/* What the decoded text says. */
struct decoded {
	unsigned int nspec;
	uint32_t spec_id[MAXC];
	char spec_name[MAXC][64];
	unsigned int nevent;
	uint64_t ts[MAXS];
	unsigned int nval[MAXS];
	uint32_t id[MAXS][MAXC];
	double val[MAXS][MAXC];
	int is_int[MAXS][MAXC];
	int clock_snapshots, interned, unknown, seq_ok, iid_ok;
	char unknown_line[160];
};

static const char *schema(void)
{
	static const char *const where[] = {
		"../../shared/reference/perfetto/perfetto_trace.proto",	/* next to the repo */
		"/work/shared/reference/perfetto/perfetto_trace.proto",	/* a clone elsewhere */
	};
	const char *p = getenv("MPC_PERFETTO_PROTO");

	if (p && *p)
		return p;
	for (unsigned int i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (access(where[i], R_OK) == 0)
			return where[i];
	return where[0];
}

/* NULL when the protoc cases can run, else why not. */
static const char *no_protoc(void)
{
	static char why[300];

	if (system("command -v protoc >/dev/null 2>&1") != 0)
		return "protoc not installed (apt-get install protobuf-compiler)";
	if (access(schema(), R_OK) != 0) {
		snprintf(why, sizeof(why), "no Perfetto schema at %s (set MPC_PERFETTO_PROTO)",
			 schema());
		return why;
	}
	return NULL;
}

/* protoc's text of the trace at @path, a pipe to pclose() */
static FILE *protoc_decode(const char *path)
{
	char cmd[1024], dir[512];
	const char *sc = schema(), *slash = strrchr(sc, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - sc) : 1, slash ? sc : ".");
	snprintf(cmd, sizeof(cmd), "protoc --decode=perfetto.protos.Trace -I '%s' '%s' < '%s' 2>&1",
		 dir, sc, path);
	return popen(cmd, "r");
}

/*
 * Decode @path and parse protoc's text into a new struct decoded (NULL if
 * protoc could not). Nesting is tracked by the "name {" and "}" lines:
 * packet > gpu_counter_event > counters, and
 * packet > interned_data > gpu_counter_descriptors > counter_descriptor > specs.
 */
static struct decoded *decode(const char *path)
{
	char line[512], stack[16][48];
	int depth = 0, cur = -1;
	struct decoded *d = calloc(1, sizeof(*d));
	FILE *p = d ? protoc_decode(path) : NULL;

	if (!p) {
		free(d);
		return NULL;
	}
	d->seq_ok = d->iid_ok = 1;
	while (fgets(line, sizeof(line), p)) {
		char *s = line, name[48];
		unsigned long long u;
		double v;

		while (*s == ' ')
			s++;
		s[strcspn(s, "\n")] = 0;
		if (sscanf(s, "%47[a-z_0-9] {", name) == 1 && strchr(s, '{')) {
			if (depth < 16)
				snprintf(stack[depth], sizeof(stack[0]), "%s", name);
			depth++;
			if (depth == 2 && !strcmp(name, "gpu_counter_event")) {
				cur = d->nevent < MAXS ? (int)d->nevent++ : -1;
			} else if (depth == 2 && !strcmp(name, "clock_snapshot")) {
				d->clock_snapshots++;
			} else if (depth == 3 && !strcmp(name, "gpu_counter_descriptors")) {
				d->interned++;
			} else if (depth == 3 && !strcmp(name, "counters") && cur >= 0 &&
				   d->nval[cur] < MAXC) {
				d->nval[cur]++;
			} else if (depth == 5 && !strcmp(name, "specs") && d->nspec < MAXC) {
				d->nspec++;
			}
			if (name[0] >= '0' && name[0] <= '9' && !d->unknown++)
				snprintf(d->unknown_line, sizeof(d->unknown_line), "%.150s", s);
			continue;
		}
		if (!strcmp(s, "}")) {
			depth--;
			if (depth == 1)
				cur = -1;
			continue;
		}
		/* a field the schema does not know prints as its number */
		if (*s >= '0' && *s <= '9') {
			if (!d->unknown++)
				snprintf(d->unknown_line, sizeof(d->unknown_line), "%.150s", s);
			continue;
		}
		if (depth == 1 && sscanf(s, "timestamp: %llu", &u) == 1 && d->nevent < MAXS)
			d->ts[d->nevent] = u;	/* the packet's; its event comes after */
		if (depth == 1 && sscanf(s, "trusted_packet_sequence_id: %llu", &u) == 1 &&
		    u != 7)
			d->seq_ok = 0;
		if (depth == 2 && cur >= 0 &&
		    sscanf(s, "counter_descriptor_iid: %llu", &u) == 1 && u != 1)
			d->iid_ok = 0;
		if (depth == 3 && cur >= 0 && d->nval[cur]) {
			unsigned int k = d->nval[cur] - 1;

			if (sscanf(s, "counter_id: %llu", &u) == 1)
				d->id[cur][k] = (uint32_t)u;
			if (sscanf(s, "int_value: %lf", &v) == 1) {
				d->val[cur][k] = v;
				d->is_int[cur][k] = 1;
			}
			if (sscanf(s, "double_value: %lf", &v) == 1)
				d->val[cur][k] = v;
		}
		if (depth == 5 && d->nspec && !strcmp(stack[4], "specs")) {
			unsigned int k = d->nspec - 1;

			if (sscanf(s, "counter_id: %llu", &u) == 1)
				d->spec_id[k] = (uint32_t)u;
			if (sscanf(s, "name: \"%63[^\"]\"", d->spec_name[k]) == 1)
				continue;
		}
	}
	if (pclose(p) != 0) {
		free(d);
		return NULL;
	}
	return d;
}

static const struct pf_counter_spec specs[] = {
	{ .id = 1, .name = "GPU_ACTIVE", .description = "Cycles the GPU was active",
	  .group = PF_GROUP_SYSTEM, .select_by_default = 1 },
	{ .id = 2, .name = "L2_EXT_READ_BEATS", .description = "External read beats",
	  .num = { PF_UNIT_BYTE }, .group = PF_GROUP_MEMORY },
	{ .id = 3, .name = "GPU utilisation", .num = { PF_UNIT_PERCENT },
	  .group = PF_GROUP_SYSTEM, .select_by_default = 1 },
	{ .id = 4, .name = "Read bandwidth", .description = "Bytes per second",
	  .num = { PF_UNIT_BYTE }, .den = { PF_UNIT_SECOND }, .group = PF_GROUP_MEMORY },
};

/* Write 5 samples; sample 2's utilisation is NaN (unavailable). */
static int write_trace(const char *path)
{
	FILE *f = fopen(path, "wb");
	struct pf_trace *t = f ? pf_trace_new(f, 7) : NULL;
	int ret = 0;

	if (!t)
		return -1;
	for (unsigned int i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		ret |= pf_trace_counter(t, &specs[i]);
	ret |= pf_trace_start(t, 1000000000ull, 5000000000ull, 100000, 1000000000);
	for (unsigned int s = 0; s < 5; s++) {
		struct pf_value v[] = {
			{ .id = 1, .is_int = 1, .i = 800000 + s },
			{ .id = 2, .is_int = 1, .i = (int64_t)5000000000ll * (s + 1) },
			{ .id = 3, .d = s == 2 ? NAN : 50.0 + s / 4.0 },
			{ .id = 4, .d = 1.5e9 * (s + 1) },
		};

		ret |= pf_trace_sample(t, 1000000000ull + 1000000ull * (s + 1), v, 4);
	}
	ret |= pf_trace_end(t);
	fclose(f);
	return ret;
}

static void test_pf_trace_decodes_with_perfettos_schema(void)
{
	char path[] = "/tmp/mpc-pftrace-XXXXXX";
	const char *why = no_protoc();
	struct decoded *d;
	int fd;

	if (why) {
		t_skip("%s", why);
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
	close(fd);
	CHECK(write_trace(path) == 0, "writing the trace failed");
	d = decode(path);
	unlink(path);
	CHECK(d, "protoc could not decode the trace");
	CHECK(!d->unknown, "a field unknown to the schema: %s", d->unknown_line);
	CHECK(d->clock_snapshots == 1 && d->interned == 1,
	      "%d clock snapshots and %d interned descriptors, want 1 and 1",
	      d->clock_snapshots, d->interned);
	CHECK(d->seq_ok && d->iid_ok, "a packet with another sequence id or descriptor iid");
	CHECK(d->nspec == 4, "%u specs decoded, want 4", d->nspec);
	CHECK(!strcmp(d->spec_name[3], "Read bandwidth"), "spec 4 named '%s'", d->spec_name[3]);
	CHECK(d->nevent == 5, "%u events decoded, want 5", d->nevent);
	for (unsigned int s = 0; s < d->nevent; s++) {
		CHECK(d->ts[s] == 1000000000ull + 1000000ull * (s + 1),
		      "event %u at %" PRIu64, s, d->ts[s]);
		CHECK(!s || d->ts[s] > d->ts[s - 1], "timestamps do not increase at %u", s);
		CHECK(d->nval[s] == (s == 2 ? 3u : 4u),
		      "event %u has %u counters (a NaN must be left out, not sent as 0)",
		      s, d->nval[s]);
		for (unsigned int k = 0; k < d->nval[s]; k++) {
			uint32_t id = d->id[s][k];
			double want = id == 1 ? 800000.0 + s : id == 2 ? 5e9 * (s + 1) :
				      id == 3 ? 50.0 + s / 4.0 : 1.5e9 * (s + 1);
			int declared = 0;

			for (unsigned int j = 0; j < d->nspec; j++)
				declared |= d->spec_id[j] == id;
			CHECK(declared, "event %u uses counter id %u, not declared", s, id);
			CHECK(t_close(d->val[s][k], want), "event %u counter %u = %.17g, want %.17g",
			      s, id, d->val[s][k], want);
			CHECK(d->is_int[s][k] == (id <= 2), "event %u counter %u: wrong value kind",
			      s, id);
		}
	}
	free(d);
}

static void test_pf_trace_refuses_undeclared_and_duplicates(void)
{
	FILE *f = fopen("/dev/null", "wb");
	struct pf_trace *t;
	struct pf_value v = { .id = 9, .is_int = 1, .i = 1 };

	CHECK(f, "/dev/null: %s", strerror(errno));
	t = pf_trace_new(f, 7);
	CHECK(t, "pf_trace_new failed");
	CHECK(pf_trace_counter(t, &specs[0]) == 0, "declaring a counter failed");
	CHECK(pf_trace_counter(t, &specs[0]) == -1, "a duplicate id was accepted");
	CHECK(pf_trace_sample(t, 1, &v, 1) == -1, "a sample before the start was accepted");
	CHECK(pf_trace_start(t, 1, 1, 0, 0) == 0, "start failed");
	CHECK(pf_trace_counter(t, &specs[1]) == -1, "a counter declared after the start");
	CHECK(pf_trace_sample(t, 2, &v, 1) == -1, "an undeclared counter id was accepted");
	CHECK(pf_trace_end(t) == 0, "end failed");
	fclose(f);
	CHECK(!pf_trace_new(stdout, 0), "sequence id 0 was accepted");
}

/* the length of a trace's first @n packets (Trace.packet: tag 0x0a, length) */
static size_t packets_len(const char *b, size_t len, unsigned int n)
{
	size_t at = 0;

	while (n-- && at < len && b[at] == 0x0a) {
		uint64_t v = 0;
		unsigned int sh = 0;

		at++;
		while (at < len && (b[at] & 0x80))
			v |= (uint64_t)(b[at++] & 0x7f) << sh, sh += 7;
		v |= (uint64_t)(at < len ? b[at++] : 0) << sh;
		at += v;
	}
	return at;
}

static uint64_t vrng = 88172645463325252ull;

static uint64_t xs64(void)
{
	vrng ^= vrng << 13;
	vrng ^= vrng >> 7;
	vrng ^= vrng << 17;
	return vrng;
}

/*
 * pf_trace_values() against pf_trace_sample() by its generic loop: trace B
 * declares one counter more, first, and never sends it, so its samples
 * never take the values path; each sample's pf_value array leaves out the
 * PF_NO_INT ints, as the tool did before it called pf_trace_values(). Ids of
 * 1, 2 and 3 varint bytes, ints of every varint length (negatives: 10),
 * doubles finite and not, and ni/nd splits that change between samples.
 * The packets after the descriptor must be the same bytes.
 */
#define VN 200
/* the id of declared counter @k */
static uint32_t i_id(unsigned int k)
{
	return k < 150 ? k + 1 : 16000 + 3 * k;
}

static void test_pf_trace_values_writes_sample_bytes(void)
{
	struct { char *buf; size_t len; FILE *f; struct pf_trace *t; } a = { 0 }, b = { 0 };
	static const double odd[] = { NAN, INFINITY, -INFINITY, -0.0, 0.0, 5e-324, 1.7e308 };
	static char names[VN][16];
	struct pf_value v[VN];
	int64_t iv[VN];
	double dv[VN];
	size_t ha, hb;
	int r = 0;

	a.f = open_memstream(&a.buf, &a.len);
	b.f = open_memstream(&b.buf, &b.len);
	CHECK(a.f && b.f, "open_memstream: %s", strerror(errno));
	a.t = pf_trace_new(a.f, 0x4d501234u);
	b.t = pf_trace_new(b.f, 0x4d501234u);
	CHECK(a.t && b.t, "pf_trace_new failed");
	r |= pf_trace_counter(b.t, &(struct pf_counter_spec){ .id = 999999, .name = "unsent" });
	for (unsigned int i = 0; i < VN; i++) {
		struct pf_counter_spec sp = { .id = i_id(i), .name = names[i] };

		snprintf(names[i], sizeof(names[i]), "c%u", i);
		r |= pf_trace_counter(a.t, &sp);
		r |= pf_trace_counter(b.t, &sp);
	}
	r |= pf_trace_start(a.t, 5, 6, 0, 0);
	r |= pf_trace_start(b.t, 5, 6, 0, 0);
	CHECK(r == 0, "declaring or starting failed");
	CHECK(pf_trace_values(a.t, 1, iv, VN, dv, 1) == -1, "more values than counters accepted");
	for (unsigned int s = 0; s < 64; s++) {
		unsigned int ni = s < 20 ? 120 : s < 40 ? 150 : s < 50 ? VN : 0;
		unsigned int nd = VN - ni, n = 0;
		int odd_ones = s % 3 == 1;

		for (unsigned int k = 0; k < ni; k++) {
			uint64_t x = xs64();
			unsigned int bits = (unsigned int)(x % 65);

			iv[k] = bits == 64 ? (int64_t)x : (int64_t)(xs64() & ((1ull << bits) - 1));
			if (x % 11 == 0)
				iv[k] = x % 2 ? INT64_MAX : -1 - (int64_t)(x >> 40);
			if (odd_ones && x % 7 == 0)
				iv[k] = PF_NO_INT;
			if (iv[k] != PF_NO_INT)
				v[n++] = (struct pf_value){ .id = i_id(k), .is_int = 1,
							    .i = iv[k] };
		}
		for (unsigned int k = 0; k < nd; k++) {
			uint64_t x = xs64();

			dv[k] = (double)(int64_t)xs64() / (double)(x | 1);
			if (odd_ones && x % 5 == 0)
				dv[k] = odd[x / 5 % (sizeof(odd) / sizeof(odd[0]))];
			v[n++] = (struct pf_value){ .id = i_id(ni + k), .d = dv[k] };
		}
		r |= pf_trace_values(a.t, 1000000ull * s + s, iv, ni, dv, nd);
		r |= pf_trace_sample(b.t, 1000000ull * s + s, v, n);
	}
	CHECK(r == 0, "a sample failed");
	CHECK(pf_trace_end(a.t) == 0 && pf_trace_end(b.t) == 0, "end failed");
	fclose(a.f);
	fclose(b.f);
	ha = packets_len(a.buf, a.len, 2);
	hb = packets_len(b.buf, b.len, 2);
	CHECK(ha < a.len && hb < b.len && a.len - ha == b.len - hb &&
	      !memcmp(a.buf + ha, b.buf + hb, a.len - ha),
	      "the values path wrote other bytes (%zu and %zu bytes of samples)", a.len - ha,
	      b.len - hb);
	free(a.buf);
	free(b.buf);
}

/*
 * The same comparison with every int below 2^56 (varints of 8 bytes at
 * most: the AVX-512 ints take those samples whole, where the CPU has it)
 * and PF_NO_INT among them, values of each length by turns, and ni not a
 * multiple of 8; doubles finite but in a few samples.
 */
static void test_pf_trace_values_short_ints_same_bytes(void)
{
	struct { char *buf; size_t len; FILE *f; struct pf_trace *t; } a = { 0 }, b = { 0 };
	static char names[VN][16];
	struct pf_value v[VN];
	int64_t iv[VN];
	double dv[VN];
	size_t ha, hb;
	int r = 0;

	a.f = open_memstream(&a.buf, &a.len);
	b.f = open_memstream(&b.buf, &b.len);
	CHECK(a.f && b.f, "open_memstream: %s", strerror(errno));
	a.t = pf_trace_new(a.f, 77);
	b.t = pf_trace_new(b.f, 77);
	CHECK(a.t && b.t, "pf_trace_new failed");
	r |= pf_trace_counter(b.t, &(struct pf_counter_spec){ .id = 999999, .name = "unsent" });
	for (unsigned int i = 0; i < VN; i++) {
		struct pf_counter_spec sp = { .id = i_id(i), .name = names[i] };

		snprintf(names[i], sizeof(names[i]), "s%u", i);
		r |= pf_trace_counter(a.t, &sp);
		r |= pf_trace_counter(b.t, &sp);
	}
	r |= pf_trace_start(a.t, 5, 6, 0, 0);
	r |= pf_trace_start(b.t, 5, 6, 0, 0);
	CHECK(r == 0, "declaring or starting failed");
	for (unsigned int s = 0; s < 48; s++) {
		unsigned int ni = s < 16 ? 197 : s < 32 ? 163 : 5, nd = VN - ni, n = 0;

		for (unsigned int k = 0; k < ni; k++) {
			uint64_t x = xs64();
			/* 0 to 56 bits, the value 0 among them */
			unsigned int bits = (unsigned int)((x + k + s) % 57);

			iv[k] = (int64_t)(xs64() & ((1ull << bits) - 1));
			if (bits && x % 3 == 0)
				iv[k] |= (int64_t)(1ull << (bits - 1));
			if (s % 2 && x % 5 == 0)
				iv[k] = PF_NO_INT;
			if (iv[k] != PF_NO_INT)
				v[n++] = (struct pf_value){ .id = i_id(k), .is_int = 1,
							    .i = iv[k] };
		}
		for (unsigned int k = 0; k < nd; k++) {
			dv[k] = (double)(int64_t)xs64() / 977.0;
			if (s % 8 == 3 && k == nd / 2)
				dv[k] = NAN;
			v[n++] = (struct pf_value){ .id = i_id(ni + k), .d = dv[k] };
		}
		r |= pf_trace_values(a.t, 3000ull * s, iv, ni, dv, nd);
		r |= pf_trace_sample(b.t, 3000ull * s, v, n);
	}
	CHECK(r == 0, "a sample failed");
	CHECK(pf_trace_end(a.t) == 0 && pf_trace_end(b.t) == 0, "end failed");
	fclose(a.f);
	fclose(b.f);
	ha = packets_len(a.buf, a.len, 2);
	hb = packets_len(b.buf, b.len, 2);
	CHECK(ha < a.len && hb < b.len && a.len - ha == b.len - hb &&
	      !memcmp(a.buf + ha, b.buf + hb, a.len - ha),
	      "the values path wrote other bytes (%zu and %zu bytes of samples)", a.len - ha,
	      b.len - hb);
	free(a.buf);
	free(b.buf);
}

static void test_pf_trace_reports_a_failed_write(void)
{
	FILE *f = fopen("/dev/full", "wb");
	struct pf_trace *t;
	struct pf_value v = { .id = 1, .is_int = 1, .i = 1 };
	int r = 0;

	if (!f) {
		t_skip("no /dev/full");
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	t = pf_trace_new(f, 7);
	CHECK(t, "pf_trace_new failed");
	pf_trace_counter(t, &specs[0]);
	r |= pf_trace_start(t, 1, 1, 0, 0);
	r |= pf_trace_sample(t, 2, &v, 1);
	r |= pf_trace_end(t);
	fclose(f);
	CHECK(r == -1, "writes to a full device were not reported");
}


/* ------------------------------------------------------ job slices (--jobs) */

#define MAXJ 64

/* The tracks and slice events of a decoded trace. */
struct dslices {
	unsigned int ntrack;
	uint64_t track_uuid[8];
	char track_name[8][64];
	unsigned int nev;
	uint64_t ts[MAXJ], uuid[MAXJ];
	unsigned int clock[MAXJ];
	char type[MAXJ][24], name[MAXJ][32];
	int unknown;
	char unknown_line[160];
};

static struct dslices *decode_slices(const char *path)
{
	char line[512];
	int depth = 0, in_td = 0, in_te = 0, cur = -1;
	uint64_t pts = 0;
	unsigned int pclock = 0;
	struct dslices *d = calloc(1, sizeof(*d));
	FILE *p = d ? protoc_decode(path) : NULL;

	if (!p) {
		free(d);
		return NULL;
	}
	while (fgets(line, sizeof(line), p)) {
		char *s = line, name[48];
		unsigned long long u;

		while (*s == ' ')
			s++;
		s[strcspn(s, "\n")] = 0;
		if (*s >= '0' && *s <= '9') {
			if (!d->unknown++)
				snprintf(d->unknown_line, sizeof(d->unknown_line), "%.150s", s);
			continue;
		}
		if (sscanf(s, "%47[a-z_0-9] {", name) == 1 && strchr(s, '{')) {
			depth++;
			if (depth == 2 && !strcmp(name, "track_descriptor") && d->ntrack < 8) {
				in_td = 1;
				d->ntrack++;
			}
			if (depth == 2 && !strcmp(name, "track_event") && d->nev < MAXJ) {
				in_te = 1;
				cur = (int)d->nev++;
			}
			continue;
		}
		if (!strcmp(s, "}")) {
			if (depth == 2)
				in_td = in_te = 0;
			if (depth == 1) {
				if (cur >= 0) {
					d->ts[cur] = pts;
					d->clock[cur] = pclock;
				}
				cur = -1;
				pts = 0;
				pclock = 0;
			}
			depth--;
			continue;
		}
		if (depth == 1 && sscanf(s, "timestamp: %llu", &u) == 1)
			pts = u;
		if (depth == 1 && sscanf(s, "timestamp_clock_id: %llu", &u) == 1)
			pclock = (unsigned int)u;
		if (in_td && depth == 2) {
			if (sscanf(s, "uuid: %llu", &u) == 1)
				d->track_uuid[d->ntrack - 1] = u;
			sscanf(s, "name: \"%63[^\"]\"", d->track_name[d->ntrack - 1]);
		}
		if (in_te && depth == 2 && cur >= 0) {
			if (sscanf(s, "track_uuid: %llu", &u) == 1)
				d->uuid[cur] = u;
			sscanf(s, "type: %23s", d->type[cur]);
			sscanf(s, "name: \"%31[^\"]\"", d->name[cur]);
		}
	}
	if (pclose(p) != 0) {
		free(d);
		return NULL;
	}
	return d;
}

static void test_pf_trace_job_slices_decode(void)
{
	char path[] = "/tmp/mpc-pfjobs-XXXXXX";
	const char *why = no_protoc();
	struct dslices *d;
	struct pf_value v = { .id = 1, .is_int = 1, .i = 5 };
	FILE *f;
	struct pf_trace *t;
	int fd, r = 0;

	if (why) {
		t_skip("%s", why);
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
	f = fdopen(fd, "wb");
	CHECK(f, "fdopen: %s", strerror(errno));
	t = pf_trace_new(f, 7);
	CHECK(t, "pf_trace_new failed");
	CHECK(pf_trace_track(t, 11, "q") == -1, "a track before the start was accepted");
	r |= pf_trace_counter(t, &specs[0]);
	r |= pf_trace_start(t, 1000, 2000, 0, 0);
	r |= pf_trace_sample(t, 5000, &v, 1);
	r |= pf_trace_track(t, 11, "panfrost-js-0");
	r |= pf_trace_track(t, 12, "panfrost-js-1");
	r |= pf_trace_slice(t, 11, "job 1", 1500, 2500);
	r |= pf_trace_slice(t, 12, "job 7", 1600, 4000);
	r |= pf_trace_slice(t, 11, "job 2", 2500, 3100);
	CHECK(pf_trace_slice(t, 11, "job 3", 3100, 3000) == -1, "a slice ending before it began");
	CHECK(pf_trace_slice(t, 0, "job 3", 3100, 3200) == -1, "track uuid 0 was accepted");
	r |= pf_trace_end(t);
	fclose(f);
	CHECK(r == 0, "writing the trace failed");
	d = decode_slices(path);
	unlink(path);
	CHECK(d, "protoc could not decode the trace");
	CHECK(!d->unknown, "a field unknown to the schema: %s", d->unknown_line);
	CHECK(d->ntrack == 2 && d->track_uuid[0] == 11 && !strcmp(d->track_name[0], "panfrost-js-0") &&
	      d->track_uuid[1] == 12 && !strcmp(d->track_name[1], "panfrost-js-1"),
	      "tracks: %u, first %" PRIu64 " '%s'", d->ntrack, d->track_uuid[0], d->track_name[0]);
	CHECK(d->nev == 6, "%u track events, want 6", d->nev);
	{
		static const uint64_t ts[] = { 1500, 2500, 1600, 4000, 2500, 3100 };
		static const uint64_t uu[] = { 11, 11, 12, 12, 11, 11 };
		static const char *const nm[] = { "job 1", "", "job 7", "", "job 2", "" };

		for (unsigned int i = 0; i < 6; i++) {
			CHECK(d->ts[i] == ts[i] && d->uuid[i] == uu[i] && d->clock[i] == 5,
			      "event %u at %" PRIu64 " on %" PRIu64 " clock %u", i, d->ts[i],
			      d->uuid[i], d->clock[i]);
			CHECK(!strcmp(d->type[i], i % 2 ? "TYPE_SLICE_END" : "TYPE_SLICE_BEGIN"),
			      "event %u is %s", i, d->type[i]);
			CHECK(!strcmp(d->name[i], nm[i]), "event %u named '%s'", i, d->name[i]);
		}
	}
	free(d);
}

/* ------------------------------------------------- mali-perfcnt record */

#define REC_NODE "renderD128:panfrost:prod=0x7212,shader=0x5,l2=0x1,mem=0x100"

static char rec_dir[64], rec_err[4096];

/* Run the tool under the fake-node shim (tests/pfshim.c); stderr in rec_err. */
__attribute__((format(printf, 1, 2)))
static int rec_run(const char *fmt, ...)
{
	const char *shim = getenv("MPC_SHIM"), *tool = getenv("MPC_TOOL");
	const char *asan = getenv("ASAN_OPTIONS");
	char args[1024], cmd[2 * PATH_MAX + 2048], tool_abs[PATH_MAX], shim_abs[PATH_MAX];
	va_list ap;
	FILE *f;
	size_t n;
	int st;

	/* the tool runs in rec_dir, so its outputs land there */
	if (!realpath(tool ? tool : "build/mali-perfcnt", tool_abs) ||
	    !realpath(shim ? shim : "build/mpc-shim.so", shim_abs))
		return -1;

	if (!rec_dir[0]) {
		snprintf(rec_dir, sizeof(rec_dir), "/tmp/mpc-rectest-XXXXXX");
		if (!mkdtemp(rec_dir))
			return -1;
	}
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && MPC_TRACEFS=/nonexistent MPC_SHIM_NODES='" REC_NODE "' MPC_SHIM_DIR=%s/dri LD_PRELOAD=%s "
		 "ASAN_OPTIONS=%s%sverify_asan_link_order=0 %s %s > out 2> err", rec_dir, rec_dir,
		 shim_abs, asan ? asan : "", asan ? ":" : "", tool_abs, args);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/err", rec_dir);
	f = fopen(cmd, "r");
	n = f ? fread(rec_err, 1, sizeof(rec_err) - 1, f) : 0;
	rec_err[n] = 0;
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void test_record_perfetto_through_panfrost(void)
{
	const char *why = no_protoc();
	char path[128];
	struct decoded *d;
	unsigned int gpu_active = 0, util = 0;

	if (why) {
		t_skip("%s", why);
		return;
	}
	CHECK(rec_run("record -I 1 -n 6 -e GPU_ACTIVE,L2_EXT_READ_BEATS,MpcGPUActiveUtil "
		      "--freq 100 -o t.pftrace") == 0, "record failed: %s", rec_err);
	CHECK(strstr(rec_err, "record: 6 samples to t.pftrace (perfetto, tool loop); period 1.000 ms asked"),
	      "the closing line: %s", rec_err);
	CHECK(t_one_line(rec_err) || (strchr(rec_err, '\n') && !strchr(rec_err, '\n')[1]),
	      "more than one line on stderr: %s", rec_err);
	snprintf(path, sizeof(path), "%s/t.pftrace", rec_dir);
	d = decode(path);
	CHECK(d, "protoc could not decode the recorded trace");
	CHECK(!d->unknown, "a field unknown to the schema: %s", d->unknown_line);
	CHECK(d->nspec == 3 && !strcmp(d->spec_name[0], "GPU_ACTIVE") &&
	      !strcmp(d->spec_name[1], "L2_EXT_READ_BEATS") &&
	      !strcmp(d->spec_name[2], "MpcGPUActiveUtil"), "specs: %u", d->nspec);
	CHECK(d->nevent == 6, "%u events, want 6", d->nevent);
	for (unsigned int s = 0; s < d->nevent; s++) {
		CHECK(!s || d->ts[s] > d->ts[s - 1], "timestamps do not increase at %u", s);
		for (unsigned int k = 0; k < d->nval[s]; k++) {
			/* the shim's counters read 1000 + block slot in every dump */
			if (d->id[s][k] == 1) {
				CHECK(d->is_int[s][k] && d->val[s][k] == 1000,
				      "GPU_ACTIVE %g in event %u, want 1000", d->val[s][k], s);
				gpu_active++;
			}
			if (d->id[s][k] == 2)
				CHECK(d->val[s][k] == 2005, "L2_EXT_READ_BEATS %g, want 1002 + 1003 (2 slices)",
				      d->val[s][k]);
			if (d->id[s][k] == 3) {
				/* 1000 cycles at 100 MHz over the sample's own interval */
				double iv = s ? (double)(d->ts[s] - d->ts[s - 1]) * 1e-9 : NAN;

				CHECK(!s || t_close(d->val[s][k], 1000 / (100e6 * iv) * 100) ||
				      fabs(d->val[s][k] - 1000 / (100e6 * iv) * 100) < 1e-6,
				      "MpcGPUActiveUtil %g in event %u, interval %g s", d->val[s][k],
				      s, iv);
				util++;
			}
		}
	}
	free(d);
	CHECK(gpu_active == 6 && util == 6, "GPU_ACTIVE in %u events, the metric in %u",
	      gpu_active, util);
}


/*
 * record --jobs against a fake tracefs instance: the files it writes, and a
 * `trace` of panfrost's and the scheduler's fences, with a job that overlaps
 * the one before it on its slot and one that never ends.
 */
static void test_record_jobs_into_slices(void)
{
	static const char trace[] =
		"# tracer: nop\n#\n# entries-in-buffer/entries-written: 11/11   #P:2\n#\n"
		"     gles-client-90  [001] .....   10.000050: dma_fence_init: driver=stub timeline=stub context=0 seqno=0\n"
		"     gles-client-90  [001] .....   10.000060: dma_fence_signaled: driver=stub timeline=stub context=0 seqno=0\n"
		"  gles-client-90  [001] .....   10.000100: dma_fence_init: driver=drm_sched timeline=pan_js context=3 seqno=1\n"
		"  gles-client-90  [001] .....   10.000200: dma_fence_init: driver=panfrost timeline=panfrost-js-1 context=8 seqno=1\n"
		"  gles-client-90  [001] .....   10.000300: dma_fence_init: driver=panfrost timeline=panfrost-js-0 context=7 seqno=1\n"
		"  gles-client-90  [001] .....   10.000400: dma_fence_init: driver=panfrost timeline=panfrost-js-0 context=7 seqno=2\n"
		"          <idle>-0    [000] d.h1.   10.001300: dma_fence_signaled: driver=panfrost timeline=panfrost-js-0 context=7 seqno=1\n"
		"          <idle>-0    [000] d.h1.   10.001500: dma_fence_signaled: driver=panfrost timeline=panfrost-js-1 context=8 seqno=1\n"
		"          <idle>-0    [000] d.h1.   10.001800: dma_fence_signaled: driver=panfrost timeline=panfrost-js-0 context=7 seqno=2\n"
		"          <idle>-0    [000] d.h1.   10.001900: dma_fence_signaled: driver=drm_sched timeline=pan_js context=3 seqno=1\n"
		"  gles-client-90  [001] .....   10.002000: dma_fence_init: driver=panfrost timeline=panfrost-js-0 context=7 seqno=3\n";
	static const uint64_t want[][2] = {	/* begin, end: js-0 job 1, js-1 job 1, js-0 job 2 */
		{ 10000300000ull, 10001300000ull }, { 10000200000ull, 10001500000ull },
		{ 10001300000ull, 10001800000ull },
	};
	const char *why = no_protoc();
	char path[PATH_MAX], val[64];
	struct dslices *d;
	FILE *f;

	if (why) {
		t_skip("%s", why);
		return;
	}
	CHECK(rec_run("record -n 1 -I 1 -e GPU_ACTIVE -o j.pftrace") == 0, "record: %s", rec_err);
	/* the instance: the files tracefs has, `trace` with the events */
	snprintf(path, sizeof(path), "mkdir -p %s/inst/events/dma_fence/dma_fence_init "
		 "%s/inst/events/dma_fence/dma_fence_signaled && cd %s/inst && "
		 "touch trace_clock buffer_size_kb tracing_on events/dma_fence/dma_fence_init/enable "
		 "events/dma_fence/dma_fence_signaled/enable", rec_dir, rec_dir, rec_dir);
	CHECK(system(path) == 0, "making the fake instance failed");
	snprintf(path, sizeof(path), "%s/inst/trace", rec_dir);
	f = fopen(path, "w");
	CHECK(f && fputs(trace, f) >= 0 && !fclose(f), "writing %s failed", path);
	CHECK(rec_run("record --jobs -n 2 -I 1 -e GPU_ACTIVE -o j.pftrace") == 1 &&
	      strstr(rec_err, "--jobs: no tracefs at /nonexistent"),
	      "without tracefs (MPC_TRACEFS=/nonexistent in rec_run's env?): %s", rec_err);
	CHECK(rec_run("record --jobs --format csv -n 2 -I 1 -e GPU_ACTIVE") == 1 &&
	      strchr(rec_err, '\n') == rec_err + strlen(rec_err) - 1 &&
	      strstr(rec_err, "--format perfetto or chrome-trace"),
	      "--jobs with csv: %s", rec_err);
	setenv("MPC_TRACEFS_INSTANCE", "inst", 1);
	CHECK(rec_run("record --jobs -n 2 -I 1 -e GPU_ACTIVE -o j.pftrace") == 0, "record --jobs: %s",
	      rec_err);
	CHECK(strstr(rec_err, "record: jobs: panfrost-js-1 1 in 1.300 ms; panfrost-js-0 2 in 1.500 ms; "
		     "1 unfinished, 0 events lost"), "the jobs line: %s", rec_err);
	snprintf(path, sizeof(path), "%s/inst/trace_clock", rec_dir);
	f = fopen(path, "r");
	CHECK(f && fgets(val, sizeof(val), f) && !strcmp(val, "mono_raw"), "trace_clock: '%s'",
	      f ? val : "missing");
	fclose(f);
	CHECK(rec_run("record --jobs --format chrome-trace -n 2 -I 1 -e GPU_ACTIVE -o j.json") == 0,
	      "chrome-trace --jobs: %s", rec_err);
	unsetenv("MPC_TRACEFS_INSTANCE");
	snprintf(path, sizeof(path), "grep -q '\"name\":\"job 2\",\"cat\":\"gpu-job\",\"ph\":\"X\","
		 "\"ts\":10001300.000,\"dur\":500.000,\"pid\":1,\"tid\":3' %s/j.json", rec_dir);
	CHECK(system(path) == 0, "no js-0 job 2 X event in j.json");
	snprintf(path, sizeof(path), "%s/j.pftrace", rec_dir);
	d = decode_slices(path);
	CHECK(d, "protoc could not decode the trace");
	CHECK(!d->unknown, "a field unknown to the schema: %s", d->unknown_line);
	CHECK(d->ntrack == 2 && !strcmp(d->track_name[0], "panfrost-js-1") &&
	      !strcmp(d->track_name[1], "panfrost-js-0"), "tracks: %u '%s' '%s'", d->ntrack,
	      d->track_name[0], d->track_name[1]);
	CHECK(d->nev == 6, "%u track events, want 3 slices (no scheduler fence, no unfinished job)",
	      d->nev);
	for (unsigned int i = 0; i < 3; i++) {
		uint64_t track = i == 1 ? d->track_uuid[0] : d->track_uuid[1];

		CHECK(d->ts[2 * i] == want[i][0] && d->ts[2 * i + 1] == want[i][1],
		      "slice %u: %" PRIu64 "..%" PRIu64 ", want %" PRIu64 "..%" PRIu64, i,
		      d->ts[2 * i], d->ts[2 * i + 1], want[i][0], want[i][1]);
		CHECK(d->uuid[2 * i] == track && d->uuid[2 * i + 1] == track &&
		      d->clock[2 * i] == 5, "slice %u on track %" PRIu64 ", clock %u", i,
		      d->uuid[2 * i], d->clock[2 * i]);
	}
	free(d);
}

static void test_record_json_and_csv(void)
{
	char cmd[300];

	CHECK(rec_run("record -I 1 -n 3 -e GPU_ACTIVE --format chrome-trace -o t.json") == 0,
	      "record chrome-trace: %s", rec_err);
	CHECK(!strstr(rec_err, "deprecated") && strstr(rec_err, "(chrome-trace, "),
	      "record chrome-trace: %s", rec_err);
	/* one JSON document over several lines: fmtcheck reads one per line */
	snprintf(cmd, sizeof(cmd), "tr -d '\\n' < %s/t.json | %s json - >/dev/null 2>&1",
		 rec_dir, getenv("MPC_FMTCHECK") ? getenv("MPC_FMTCHECK") : "build/mpc-fmtcheck");
	CHECK(system(cmd) == 0, "record --format chrome-trace wrote invalid JSON");
	snprintf(cmd, sizeof(cmd), "test $(grep -c '\"ph\":\"C\"' %s/t.json) -eq 3", rec_dir);
	CHECK(system(cmd) == 0, "want 3 counter events in t.json");
	/* the old spelling still writes the trace, with one line saying the new name */
	CHECK(rec_run("record -I 1 -n 2 -e GPU_ACTIVE --format json -o old.json") == 0,
	      "record json: %s", rec_err);
	CHECK(!strncmp(rec_err, "mali-perfcnt: record --format json is deprecated", 48) &&
	      strstr(rec_err, "--format chrome-trace") && strstr(rec_err, "(chrome-trace, "),
	      "record --format json: %s", rec_err);
	snprintf(cmd, sizeof(cmd), "test $(grep -c '\"ph\":\"C\"' %s/old.json) -eq 2", rec_dir);
	CHECK(system(cmd) == 0, "want 2 counter events in old.json");
	CHECK(rec_run("record -I 1 -n 2 -e GPU_ACTIVE --format csv -o t.csv") == 0,
	      "record csv: %s", rec_err);
	snprintf(cmd, sizeof(cmd), "%s csv %s/t.csv >/dev/null 2>&1 && "
		 "test $(grep -c ',counter,jm,GPU_ACTIVE,' %s/t.csv) -eq 2",
		 getenv("MPC_FMTCHECK") ? getenv("MPC_FMTCHECK") : "build/mpc-fmtcheck", rec_dir,
		 rec_dir);
	CHECK(system(cmd) == 0, "record --format csv: want 2 valid GPU_ACTIVE rows");
}

static void test_record_runs_a_command_and_returns_its_status(void)
{
	CHECK(rec_run("record -I 5 -o t2.pftrace -- sh -c 'sleep 0.05; exit 3'") == 3,
	      "want the command's status 3: %s", rec_err);
	CHECK(strstr(rec_err, "samples to t2.pftrace"), "no closing line: %s", rec_err);
}

static void test_record_rejects_bad_options_in_one_line(void)
{
	static const char *const bad[] = {
		"record -F 0", "record -F 20000", "record -I 0.01", "record -I 5 -F 100",
		"record --format text", "record -n 0", "record -n 2 --duration 10",
		"record --format xml",
		"record -n 2 -- true",
	};
	char cmd[128];

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(rec_run("%s", bad[i]) == 1, "'%s' did not exit 1", bad[i]);
		CHECK(!strncmp(rec_err, "mali-perfcnt: ", 14) && strchr(rec_err, '\n') &&
		      !strchr(rec_err, '\n')[1], "'%s': not one line: %s", bad[i], rec_err);
	}
	/* the last record test: remove what they wrote */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", rec_dir);
	CHECK(system(cmd) == 0, "cannot remove %s", rec_dir);
	rec_dir[0] = 0;
}

/* ------------------------------------------- decode of stream captures */

static uint32_t cap_val(unsigned slot, unsigned idx, void *ctx)
{
	/* GPU_ACTIVE (job manager, index 6) = 1000 x (sample + 1) */
	return slot == 0 && idx == 6 ? 1000 * (*(unsigned *)ctx + 1) : 7;
}

/*
 * A capture as `cat perfcnt_stream` writes it, of a G52 with cores 0xb and 2
 * L2 slices: SAMPLE (first, 1 ms), SAMPLE (2 ms), LOST (3 samples, 3 ms),
 * SAMPLE (1 ms).
 */
static int write_capture(const char *path)
{
	static const struct { uint16_t type; uint64_t seq, start, end, lost; } recs[] = {
		{ MALI_PERFCNT_RECORD_SAMPLE, 1, 1000000, 2000000, 0 },
		{ MALI_PERFCNT_RECORD_SAMPLE, 2, 2000000, 4000000, 0 },
		{ MALI_PERFCNT_RECORD_LOST, 5, 4000000, 7000000, 3 },
		{ MALI_PERFCNT_RECORD_SAMPLE, 6, 7000000, 8000000, 0 },
	};
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = db ? mpc_db_find_gpu(db, "g52") : NULL;
	struct mpc_layout *l = NULL;
	struct mpc_desc d;
	struct mpc_err e;
	uint32_t *dump;
	unsigned k = 0;
	FILE *f;

	if (!g || mpc_desc_from_gpu(&d, g, 0xb, 2, &e) || mpc_layout_new(&d, &l, &e)) {
		mpc_db_free(db);
		return -1;
	}
	mpc_db_free(db);
	dump = calloc(1, d.dump_size);
	f = fopen(path, "wb");
	if (!dump || !f)
		return -1;
	for (unsigned i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		struct drm_mali_perfcnt_record h = {
			.type = recs[i].type, .header_size = sizeof(h), .size = sizeof(h),
			.seqno = recs[i].seq, .start_ns = recs[i].start, .end_ns = recs[i].end,
			.lost = recs[i].lost, .data_flags = i ? 0 : MALI_PERFCNT_DATA_FIRST,
		};

		if (h.type == MALI_PERFCNT_RECORD_SAMPLE)
			h.size += d.dump_size;
		fwrite(&h, sizeof(h), 1, f);
		if (h.type != MALI_PERFCNT_RECORD_SAMPLE)
			continue;
		t_fill_dump(l, dump, recs[i].end, 0xffff, cap_val, &k);
		/* the kernel leaves holes zero */
		for (unsigned s = 0; s < l->nslots; s++)
			if (!l->slot[s].present)
				memset(dump + s * 64, 0, 256);
		fwrite(dump, d.dump_size, 1, f);
		k++;
	}
	free(dump);
	mpc_layout_free(l);
	return fclose(f) ? -1 : 0;
}

static void test_decode_a_stream_capture(void)
{
	char path[128], cmd[PATH_MAX * 2 + 256], got[256], fmtcheck[PATH_MAX];
	const char *why = no_protoc();
	struct decoded *d;
	FILE *p;
	size_t n;

	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);	/* makes rec_dir */
	snprintf(path, sizeof(path), "%s/capture.bin", rec_dir);
	CHECK(write_capture(path) == 0, "writing the capture failed");
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -e GPU_ACTIVE --format csv capture.bin") == 0,
	      "decode: %s", rec_err);
	CHECK(strstr(rec_err, "3 samples were lost"), "the LOST record is not reported: %s", rec_err);
	CHECK(realpath(getenv("MPC_FMTCHECK") ? getenv("MPC_FMTCHECK") : "build/mpc-fmtcheck",
		       fmtcheck), "no mpc-fmtcheck");
	snprintf(cmd, sizeof(cmd), "cd %s && %s csv-get out GPU_ACTIVE | tr '\\n' ' ' && "
		 "%s csv-get out GPU_ACTIVE interval_s | tr '\\n' ' '", rec_dir, fmtcheck, fmtcheck);
	p = popen(cmd, "r");
	CHECK(p, "popen");
	n = fread(got, 1, sizeof(got) - 1, p);
	got[n] = 0;
	pclose(p);
	/* the intervals are the records' own: 1, 2 and 1 ms */
	CHECK(!strcmp(got, "1000 2000 3000 0.001000000 0.002000000 0.001000000 "),
	      "values and intervals: '%s'", got);
	/* raw dumps need --interval for a trace */
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 --format perfetto -o x.pftrace "
		      "--sum capture.bin") == 1, "--sum with perfetto accepted");
	if (why) {
		t_skip("%s", why);
		return;
	}
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -e GPU_ACTIVE --format perfetto "
		      "-o c.pftrace capture.bin") == 0, "decode perfetto: %s", rec_err);
	CHECK(strstr(rec_err, "decode: 3 samples to c.pftrace (perfetto)"), "%s", rec_err);
	snprintf(path, sizeof(path), "%s/c.pftrace", rec_dir);
	d = decode(path);
	CHECK(d, "protoc could not decode the trace of the capture");
	CHECK(!d->unknown && d->nevent == 3, "%u events, unknown field: %s", d->nevent,
	      d->unknown_line);
	CHECK(d->ts[0] == 2000000 && d->ts[1] == 4000000 && d->ts[2] == 8000000,
	      "timestamps %llu %llu %llu, want the records' ends", (unsigned long long)d->ts[0],
	      (unsigned long long)d->ts[1], (unsigned long long)d->ts[2]);
	CHECK(d->nval[2] == 1 && d->val[2][0] == 3000 && d->is_int[2][0],
	      "GPU_ACTIVE of the last sample %g", d->val[2][0]);
	free(d);
}

/* decode writes every trace format record does: Chrome trace events too */
static void test_decode_into_chrome_trace(void)
{
	char path[128], cmd[PATH_MAX + 256];

	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);	/* makes rec_dir */
	snprintf(path, sizeof(path), "%s/capture.bin", rec_dir);
	CHECK(write_capture(path) == 0, "writing the capture failed");
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -e GPU_ACTIVE --format chrome-trace "
		      "-o c.json capture.bin") == 0, "decode chrome-trace: %s", rec_err);
	CHECK(strstr(rec_err, "decode: 3 samples to c.json (chrome-trace)"), "%s", rec_err);
	snprintf(cmd, sizeof(cmd), "tr -d '\\n' < %s/c.json | %s json - >/dev/null 2>&1",
		 rec_dir, getenv("MPC_FMTCHECK") ? getenv("MPC_FMTCHECK") : "build/mpc-fmtcheck");
	CHECK(system(cmd) == 0, "decode --format chrome-trace wrote invalid JSON");
	/* the records' ends, in microseconds */
	snprintf(cmd, sizeof(cmd), "grep -o '\"ts\":[0-9.]*' %s/c.json | tr '\\n' ' ' | "
		 "grep -qx '\"ts\":2000.000 \"ts\":4000.000 \"ts\":8000.000 '", rec_dir);
	CHECK(system(cmd) == 0, "want events at 2, 4 and 8 ms in c.json");
	/* without -o: the format's own file name */
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -e GPU_ACTIVE -f chrome-trace "
		      "capture.bin") == 0 && strstr(rec_err, "to mali-perfcnt.json (chrome-trace)"),
	      "decode chrome-trace, default -o: %s", rec_err);
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -f chrome-trace --sum capture.bin") == 1 &&
	      strstr(rec_err, "drop it for --format chrome-trace"), "--sum with a trace: %s", rec_err);
}

/* Two raw dumps back to back, as `cat perfcnt_dump >> FILE` twice. */
static int write_raw(const char *path)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = db ? mpc_db_find_gpu(db, "g52") : NULL;
	struct mpc_layout *l = NULL;
	struct mpc_desc ds;
	struct mpc_err e;
	uint32_t *dump;
	unsigned k;
	FILE *f;

	if (!g || mpc_desc_from_gpu(&ds, g, 0xb, 2, &e) || mpc_layout_new(&ds, &l, &e)) {
		mpc_db_free(db);
		return -1;
	}
	mpc_db_free(db);
	dump = calloc(1, ds.dump_size);
	f = fopen(path, "wb");
	if (!dump || !f) {
		free(dump);
		if (f)
			fclose(f);
		mpc_layout_free(l);
		return -1;
	}
	for (k = 0; k < 2; k++) {
		t_fill_dump(l, dump, 100 + k, 0xffff, cap_val, &k);
		for (unsigned s = 0; s < l->nslots; s++)
			if (!l->slot[s].present)
				memset(dump + s * 64, 0, 256);
		fwrite(dump, ds.dump_size, 1, f);
	}
	free(dump);
	mpc_layout_free(l);
	return fclose(f) ? -1 : 0;
}

static void test_decode_raw_dumps_into_a_trace(void)
{
	const char *why = no_protoc();
	struct decoded *d;
	char path[128];

	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);	/* makes rec_dir */
	snprintf(path, sizeof(path), "%s/raw.bin", rec_dir);
	CHECK(write_raw(path) == 0, "writing raw.bin failed");
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 --format perfetto -o r.pftrace "
		      "raw.bin") == 1 && strstr(rec_err, "give --interval MS"),
	      "a trace of raw dumps without --interval: %s", rec_err);
	if (why) {
		t_skip("%s", why);
		return;
	}
	CHECK(rec_run("decode --gpu g52 --cores 0xb --l2 2 -e GPU_ACTIVE --interval 5 "
		      "--format perfetto -o r.pftrace raw.bin") == 0, "decode --interval: %s",
	      rec_err);
	snprintf(path, sizeof(path), "%s/r.pftrace", rec_dir);
	d = decode(path);
	CHECK(d, "protoc could not decode the trace of raw dumps");
	CHECK(d->nevent == 2 && d->ts[0] == 5000000 && d->ts[1] == 10000000,
	      "%u events at %llu, %llu (want 5 and 10 ms)", d->nevent,
	      (unsigned long long)d->ts[0], (unsigned long long)d->ts[1]);
	CHECK(d->val[1][0] == 2000, "GPU_ACTIVE of the second dump %g", d->val[1][0]);
	free(d);
}

/*
 * decode of every input kind (raw dumps, stream captures, both, standard
 * input) in every --format of the tool, and its errors: stdout and stderr
 * byte for byte as tests/data/decode-golden/ has them, which the tool wrote
 * before cmd_decode was split by input kind. MPC_DECODE_GOLDEN_WRITE=1 writes the
 * files instead (after a change meant to alter the output: review the diff).
 */
/* a few counters and metrics of each kind: the files stay small */
#define GSEL "-e GPU_ACTIVE,FRAG_ACTIVE,L2_EXT_READ_BEATS,MpcGPUActiveUtil,MaliGPUIRQUtil "
static const char *const golden_cases[] = {
	"raw.bin",
	GSEL "-f csv raw.bin",
	GSEL "-f json raw.bin",
	GSEL "--interval 5 -f csv raw.bin",
	GSEL "--interval 5 --sum raw.bin",
	GSEL "--sum -f json raw.bin",
	"--interval 5 -A -e FRAG_ACTIVE,GPU_ACTIVE,MpcGPUActiveUtil -f csv raw.bin",
	"--raw -f csv -e jm:6 raw.bin",
	"-f csv -e GPU_ACTIVE raw.bin raw.bin",
	"-f json -e GPU_ACTIVE - < raw.bin",
	GSEL "capture.bin",
	"-f csv capture.bin",
	GSEL "-f json capture.bin",
	GSEL "--sum capture.bin",
	"--sum -f csv -e GPU_ACTIVE capture.bin",
	"--interval 5 -f csv -e GPU_ACTIVE capture.bin raw.bin",
	"--freq 100 -f json -e GPU_ACTIVE,MpcGPUActiveUtil capture.bin",
	GSEL "-f csv short.bin",
	"-e GPU_ACTIVE -f csv raw.bin short.bin",
	"--format perfetto -o x.pftrace raw.bin",
	"--format perfetto --sum capture.bin",
	"-o x.txt raw.bin",
};

/* @path's bytes (at most @n - 1) into @buf, NUL-terminated; the length or -1. */
static long slurp_file(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return -1;
	got = fread(buf, 1, n - 1, f);
	buf[got] = 0;
	fclose(f);
	return (long)got;
}

/* compare (or with @write, store) rec_dir/@name as golden file @gname */
static int golden_check(const char *name, const char *gname, int write, char *why, size_t wlen)
{
	static char got[1 << 17], want[1 << 17];
	char path[PATH_MAX], gpath[PATH_MAX];
	long n, m;

	snprintf(path, sizeof(path), "%s/%s", rec_dir, name);
	snprintf(gpath, sizeof(gpath), "%s/%s", t_data("decode-golden"), gname);
	n = slurp_file(path, got, sizeof(got));
	if (n < 0 || n == (long)sizeof(got) - 1) {
		snprintf(why, wlen, "%s: missing or too large", path);
		return -1;
	}
	if (write) {
		FILE *f = fopen(gpath, "wb");

		if (!f || fwrite(got, 1, (size_t)n, f) != (size_t)n) {
			if (f)
				fclose(f);
			snprintf(why, wlen, "cannot write %s", gpath);
			return -1;
		}
		return fclose(f) ? -1 : 0;
	}
	m = slurp_file(gpath, want, sizeof(want));
	if (m != n || memcmp(got, want, (size_t)n)) {
		snprintf(why, wlen, "%s differs from %s (%ld vs %ld bytes)", path, gpath, n, m);
		return -1;
	}
	return 0;
}

static void test_decode_golden(void)
{
	int write = getenv("MPC_DECODE_GOLDEN_WRITE") && !strcmp(getenv("MPC_DECODE_GOLDEN_WRITE"), "1");
	char path[128], why[PATH_MAX * 2 + 64];
	FILE *f;

	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);	/* makes rec_dir */
	snprintf(path, sizeof(path), "%s/raw.bin", rec_dir);
	CHECK(write_raw(path) == 0, "writing raw.bin failed");
	snprintf(path, sizeof(path), "%s/capture.bin", rec_dir);
	CHECK(write_capture(path) == 0, "writing capture.bin failed");
	snprintf(path, sizeof(path), "%s/short.bin", rec_dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(rec_dir, 1, 10, f) == 10 && !fclose(f), "writing short.bin failed");
	for (unsigned i = 0; i < sizeof(golden_cases) / sizeof(golden_cases[0]); i++) {
		char gname[32];
		int st = rec_run("decode --gpu g52 --cores 0xb --l2 2 %s", golden_cases[i]);

		snprintf(gname, sizeof(gname), "%02u.status", i);
		snprintf(path, sizeof(path), "%s/status", rec_dir);
		f = fopen(path, "w");
		CHECK(f && fprintf(f, "%s\nexit %d\n", golden_cases[i], st) > 0 && !fclose(f),
		      "writing %s", path);
		CHECK(!golden_check("status", gname, write, why, sizeof(why)), "decode %s: %s",
		      golden_cases[i], why);
		snprintf(gname, sizeof(gname), "%02u.out", i);
		CHECK(!golden_check("out", gname, write, why, sizeof(why)), "decode %s: %s",
		      golden_cases[i], why);
		snprintf(gname, sizeof(gname), "%02u.err", i);
		CHECK(!golden_check("err", gname, write, why, sizeof(why)), "decode %s: %s",
		      golden_cases[i], why);
	}
}

/* --------------------------------------------------------------- top */

static void test_top_batch_replay(void)
{
	char path[128], out[8192];
	FILE *f;
	size_t n;

	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);	/* makes rec_dir */
	snprintf(path, sizeof(path), "%s/capture.bin", rec_dir);
	CHECK(write_capture(path) == 0, "writing the capture failed");
	/* GPU_ACTIVE 1000, 2000, 3000 over 1, 2, 1 ms at 1 MHz: 100, 100, 300 % */
	CHECK(rec_run("top --replay capture.bin --gpu g52 --cores 0xb --l2 2 --freq 1 -I 100 -n 3") == 0,
	      "top: %s", rec_err);
	snprintf(path, sizeof(path), "%s/out", rec_dir);
	f = fopen(path, "r");
	CHECK(f, "no output");
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	fclose(f);
	CHECK(!strchr(out, '\033'), "batch mode printed escape sequences");
	CHECK(strstr(out, "frame 3, interval 0.001 s, replay 3/3 of capture.bin"), "%s", out);
	CHECK(strstr(out, "frame 2, interval 0.002 s, replay 2/3"), "the second interval: %s", out);
	CHECK(strstr(out, "[first]"), "the first sample's flag: %s", out);
	CHECK(strstr(out, " MpcGPUActiveUtil") && strstr(out, "100.0 %") && strstr(out, "300.0 %"),
	      "GPU active utilisation: %s", out);
	CHECK(rec_run("top --view cores --replay capture.bin --gpu g52 --cores 0xb --l2 2 -I 100 -n 1") == 0,
	      "top --view cores: %s", rec_err);
	f = fopen(path, "r");
	CHECK(f, "no output");
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	fclose(f);
	CHECK(strstr(out, " core 0 ") && strstr(out, " core 1 ") && strstr(out, " core 3 ") &&
	      !strstr(out, " core 2 "), "cores 0, 1, 3 and not the absent core 2: %s", out);
	CHECK(rec_run("top -I 50") == 1 && !strncmp(rec_err, "mali-perfcnt: ", 14) &&
	      strchr(rec_err, '\n') && !strchr(rec_err, '\n')[1] &&
	      strstr(rec_err, "'top' samples every 100 to 3600000 ms"), "-I 50: %s", rec_err);
	CHECK(rec_run("top --gpu g52") == 1 && strstr(rec_err, "describe a --replay capture"),
	      "--gpu without --replay: %s", rec_err);
}

/* Run @cmd and return its output (for tmux). */
static int sh_out(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	size_t got;

	if (!p)
		return -1;
	got = fread(out, 1, n - 1, p);
	out[got] = 0;
	return pclose(p);
}

/*
 * Poll the tmux pane until @needle is on it (or, @present 0, gone); the
 * pane's text in @out. Polls, never assumes how fast the tool draws.
 */
static int wait_pane(const char *sess, const char *needle, int present, char *out, size_t n)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "tmux capture-pane -p -t %s", sess);
	for (int i = 0; i < 100; i++) {
		if (sh_out(cmd, out, n) == 0 && !!strstr(out, needle) == present)
			return 1;
		usleep(100000);
	}
	return 0;
}

/* The full-screen view in tmux: keys switch views, q quits. */
static void test_top_in_tmux(void)
{
	const char *shim = getenv("MPC_SHIM"), *tool = getenv("MPC_TOOL");
	char tool_abs[PATH_MAX], cmd[PATH_MAX + 512], out[16384];
	const char *sess = "mpc-top-test";
	int gone = 0;

	(void)shim;
	if (system("command -v tmux >/dev/null 2>&1") != 0) {
		t_skip("tmux not installed (apt-get install tmux)");
		return;
	}
	CHECK(rec_run("list --gpus") == 0, "tool: %s", rec_err);
	snprintf(cmd, sizeof(cmd), "%s/capture.bin", rec_dir);
	CHECK(write_capture(cmd) == 0, "writing the capture failed");
	CHECK(realpath(tool ? tool : "build/mali-perfcnt", tool_abs), "no tool");
	snprintf(cmd, sizeof(cmd), "tmux kill-session -t %s 2>/dev/null; cd %s && "
		 "tmux new-session -d -s %s -x 110 -y 30 '%s top --replay capture.bin --gpu g52 "
		 "--cores 0xb --l2 2 --freq 1 -I 100; sleep 5'", sess, rec_dir, sess, tool_abs);
	CHECK(system(cmd) == 0, "tmux new-session failed");
	CHECK(wait_pane(sess, "end of replay of capture.bin", 1, out, sizeof(out)) &&
	      strstr(out, "view: utilisation"), "first screen: %s", out);
	CHECK(strstr(out, "MpcGPUActiveUtil"), "no utilisation bar: %s", out);
	snprintf(cmd, sizeof(cmd), "tmux send-keys -t %s 2", sess);
	CHECK(system(cmd) == 0, "send-keys");
	CHECK(wait_pane(sess, "view: cores", 1, out, sizeof(out)) && strstr(out, " core 3 ") &&
	      !strstr(out, " core 2 "), "after key 2: %s", out);
	/* one screen: the alternate screen is redrawn in place, not scrolled */
	CHECK(strstr(out, "mali-perfcnt top") == strstr(out, "mali-perfcnt top - Mali-G52") &&
	      !strstr(strstr(out, "mali-perfcnt top") + 1, "mali-perfcnt top"),
	      "more than one frame on the screen: %s", out);
	snprintf(cmd, sizeof(cmd), "tmux send-keys -t %s q", sess);
	CHECK(system(cmd) == 0, "send-keys q");
	/* q left the alternate screen: the shell's screen is back, no view */
	gone = wait_pane(sess, "view: cores", 0, out, sizeof(out));
	snprintf(cmd, sizeof(cmd), "tmux kill-session -t %s 2>/dev/null", sess);
	gone = system(cmd) >= 0 && gone;
	CHECK(gone, "q did not quit: %s", out);
}

TESTS(tests_perfetto) = {
	{ "pf_trace_decodes_with_perfettos_schema", test_pf_trace_decodes_with_perfettos_schema },
	{ "pf_trace_refuses_undeclared_and_duplicates",
	  test_pf_trace_refuses_undeclared_and_duplicates },
	{ "pf_trace_reports_a_failed_write", test_pf_trace_reports_a_failed_write },
	{ "pf_trace_values: the bytes of pf_trace_sample()",
	  test_pf_trace_values_writes_sample_bytes },
	{ "pf_trace_values: ints below 2^56 and PF_NO_INT, the bytes of pf_trace_sample()",
	  test_pf_trace_values_short_ints_same_bytes },
	{ "pf_trace: job slices decode with Perfetto's schema", test_pf_trace_job_slices_decode },
	{ "record --jobs: tracefs fences into slices", test_record_jobs_into_slices },
	{ "record: perfetto through panfrost", test_record_perfetto_through_panfrost },
	{ "record: json and csv", test_record_json_and_csv },
	{ "record: runs a command, returns its status",
	  test_record_runs_a_command_and_returns_its_status },
	{ "decode: a stream capture, text and perfetto", test_decode_a_stream_capture },
	{ "decode: raw dumps into a trace need --interval", test_decode_raw_dumps_into_a_trace },
	{ "decode: every input kind and format as the golden outputs", test_decode_golden },
	{ "decode: into Chrome trace events", test_decode_into_chrome_trace },
	{ "top: batch replay", test_top_batch_replay },
	{ "top: full screen in tmux, keys", test_top_in_tmux },
	{ "record: bad options, one line each", test_record_rejects_bad_options_in_one_line },
	END_TESTS
};
