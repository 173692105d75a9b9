// SPDX-License-Identifier: MIT
/*
 * Cross-check of the built-in database against public reference data that
 * the project did not write: every product's index -> name table against the
 * libGPUCounters hardware layouts and Mesa's hardware layouts and per-GPU
 * event lists (../shared/reference; MPC_REFERENCE overrides the folder).
 *
 * Both directions are checked, per block: every counter a source places at
 * an index is the database's counter there (by name or alias), and every
 * database counter is placed there by at least one source. Where the
 * database knowingly departs from a source, the difference is listed in
 * accepted[] below with the reason; an accepted difference that no longer
 * occurs fails too, so the list cannot go stale.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

#define MAX_REF 1024

struct ref_ctr {
	unsigned kind;
	int index;
	int shift;
	char name[64];
};

struct ref_src {
	const char *file;		/* under the reference folder */
	int mesa_list;			/* a Mesa <event> list (else a <CounterBlock> layout) */
	unsigned n;
	struct ref_ctr c[MAX_REF];
};

/* GPU key -> its sources (libGPUCounters layout, Mesa layout, Mesa list) */
static const struct {
	const char *key;
	const char *files[3];
} sources[] = {
	{ "t600", { "mesa-panfrost-perf/T76x.xml" } },	/* no public T60x source: see accepted[] */
	{ "t620", { "mesa-panfrost-perf/T76x.xml" } },
	{ "t720", { "mesa-panfrost-perf/database/hardwarelayout/Mali-T720.xml",
		    "mesa-panfrost-perf/T72x.xml" } },
	{ "t760", { "mesa-panfrost-perf/database/hardwarelayout/Mali-T760.xml",
		    "mesa-panfrost-perf/T76x.xml" } },
	{ "t820", { "mesa-panfrost-perf/T82x.xml" } },
	{ "t830", { "mesa-panfrost-perf/database/hardwarelayout/Mali-T830.xml",
		    "mesa-panfrost-perf/T83x.xml" } },
	{ "t860", { "mesa-panfrost-perf/T86x.xml" } },
	{ "t880", { "mesa-panfrost-perf/database/hardwarelayout/Mali-T880.xml",
		    "mesa-panfrost-perf/T88x.xml" } },
#define LGC "libgpucounters/database/hardwarelayout/"
	{ "g31", { LGC "Mali-G31.xml", "mesa-panfrost-perf/G31.xml" } },
	{ "g51", { LGC "Mali-G51.xml", "mesa-panfrost-perf/G51.xml" } },
	{ "g52", { LGC "Mali-G52.xml", "mesa-panfrost-perf/G52.xml" } },
	{ "g71", { LGC "Mali-G71.xml", "mesa-panfrost-perf/G71.xml" } },
	{ "g72", { LGC "Mali-G72.xml", "mesa-panfrost-perf/G72.xml" } },
	{ "g76", { LGC "Mali-G76.xml", "mesa-panfrost-perf/G76.xml" } },
	/* libGPUCounters has no G57/G68 layout: Mesa lists them as G77/G78 */
	{ "g57", { LGC "Mali-G77.xml", "mesa-panfrost-perf/G57.xml" } },
	{ "g68", { LGC "Mali-G78.xml", "mesa-panfrost-perf/G68.xml" } },
	{ "g77", { LGC "Mali-G77.xml", "mesa-panfrost-perf/G77.xml" } },
	{ "g78", { LGC "Mali-G78.xml", "mesa-panfrost-perf/G78.xml" } },
	/* CSF: each product with the layout Mali-ProductInfo.xml's DatabaseKey names */
	{ "g310", { LGC "Mali-G710.xml" } },
	{ "g510", { LGC "Mali-G710.xml" } },
	{ "g610", { LGC "Mali-G710.xml" } },
	{ "g710", { LGC "Mali-G710.xml" } },
	{ "g615", { LGC "Mali-G715.xml" } },
	{ "g715", { LGC "Mali-G715.xml" } },
	{ "g620", { LGC "Mali-G720.xml" } },
	{ "g720", { LGC "Mali-G720.xml" } },
	{ "g625", { LGC "Mali-G725.xml" } },
	{ "g725", { LGC "Mali-G725.xml" } },
	{ "g1", { LGC "Mali-G1.xml", "mesa-panfrost-perf/database/hardwarelayout/Mali-G1.xml" } },
#undef LGC
};

/*
 * The accepted differences. src is a file name's start ("T76x", "Mali-G1",
 * "G31"); name is the source's counter at block[index] (NULL: the source has
 * none there), have the database's (NULL: none). Each has its reason.
 */
static const struct accepted {
	const char *gpu, *src, *block;
	int index;
	const char *name, *have;
	const char *why;
} accepted[] = {
	/* issue 26 item 1: Arm's current lists have the FPK counter only at 11 */
#define FPK(g, s) { g, s, "shader", 8, "FRAG_CYCLES_FPKQ_ACTIVE", NULL, \
		    "gator 9.7.1: nothing at shader 8; the counter is FRAG_FPK_ACTIVE@11" }
	FPK("t760", "T76x"), FPK("t820", "T82x"), FPK("t830", "T83x"), FPK("t860", "T86x"),
	FPK("t880", "T88x"),
#undef FPK
	/* issue 26 item 2: T600/T620 are checked against the T76x list they
	 * start from; these are the slots where gator's T6xx list differs */
#define T6(g, b, i, n, h) { g, "T76x", b, i, n, h, "gator <= 5.x T6xx list differs from T76x" }
#define T6X(g) \
	T6(g, "shader", 17, "FRAG_THREADS_LZS_TEST", "FRAG_QUADS_LZS_TEST"), \
	T6(g, "shader", 18, "FRAG_THREADS_LZS_KILLED", "FRAG_QUADS_LZS_KILLED"), \
	T6(g, "shader", 42, "TEX_ISSUES", "TEX_THREADS"), \
	T6(g, "shader", 49, "LSC_READ_OP", "LSC_READ_MISSES"), \
	T6(g, "shader", 51, "LSC_WRITE_OP", "LSC_WRITE_MISSES"), \
	T6(g, "shader", 53, "LSC_ATOMIC_OP", "LSC_ATOMIC_MISSES"), \
	T6(g, "l2", 55, NULL, "L2_EXT_R_BUF_FULL"), \
	T6(g, "l2", 60, "L2_EXT_R_BUF_FULL", "L2_EXT_R_W_HAZARD")
	T6X("t600"), T6X("t620"),
	T6("t600", "shader", 8, "FRAG_CYCLES_FPKQ_ACTIVE", "FRAG_CYCLES_PLR"),
	T6("t620", "shader", 8, "FRAG_CYCLES_FPKQ_ACTIVE", NULL),
#undef T6X
#undef T6
	/* reference README: Mesa's G31 list swaps these two; its G52 list and
	 * libGPUCounters agree with each other */
	{ "g31", "G31", "shader", 61, "BEATS_WR_LSC_OTHER", "BEATS_WR_LSC_WB",
	  "Mesa's G31 list swaps 61/63; libGPUCounters and Mesa's G52 list do not" },
	{ "g31", "G31", "shader", 63, "BEATS_WR_LSC_WB", "BEATS_WR_LSC_OTHER",
	  "Mesa's G31 list swaps 61/63; libGPUCounters and Mesa's G52 list do not" },
};

/*
 * Counters the database takes from Arm's gator 9.7.1 Midgard tables, which
 * ../shared/reference does not hold (issue 26 item 6): accepted where no
 * reference source places anything at their index.
 */
#define JSW(g, b) { g, "jm", b, "WAIT_READ" }, { g, "jm", b + 1, "WAIT_ISSUE" }, \
		  { g, "jm", b + 2, "WAIT_DEPEND" }, { g, "jm", b + 3, "WAIT_FINISH" }
#define T_JM(g) { g, "jm", 4, "MESSAGES_SENT" }, { g, "jm", 5, "MESSAGES_RECEIVED" }, \
		JSW(g, 12), JSW(g, 20), JSW(g, 28)
#define T_L2(g) { g, "l2", 4, "MMU_HIT" }, { g, "l2", 8, "MMU_TABLE_WALK" }, \
		{ g, "l2", 9, "MMU_REQUESTS" }, { g, "l2", 32, "L2_ANY_LOOKUP" }
#define T_TILER(g) { g, "tiler", 9, "VCACHE_HIT" }, { g, "tiler", 10, "VCACHE_MISS" }, \
		   { g, "tiler", 36, "PCACHE_HIT" }, { g, "tiler", 37, "PCACHE_MISS" }, \
		   { g, "tiler", 40, "WRBUF_HIT" }, { g, "tiler", 41, "WRBUF_MISS" }, \
		   { g, "tiler", 59, "UTLB_TRANS_HIT" }, { g, "tiler", 63, "UTLB_TRANS_STALL" }
/* Bifrost (G31, G51, G52, G71, G72, G76): the same 38 slots on each */
#define BT(g, i, n) { g, "tiler", i, n }
#define BIF(g) { g, "jm", 4, "MESSAGES_SENT" }, { g, "jm", 5, "MESSAGES_RECEIVED" }, \
	{ g, "shader", 8, "FRAG_STARVING" }, { g, "l2", 54, "L2_EXT_SNOOP_RESP_CLEAN" }, \
	{ g, "l2", 55, "L2_EXT_SNOOP_RESP_DATA" }, { g, "l2", 56, "L2_EXT_SNOOP_INTERNAL" }, \
	BT(g, 5, "JOBS_PROCESSED"), BT(g, 15, "BIN_ALLOC_INIT"), BT(g, 16, "BIN_ALLOC_OVERFLOW"), \
	BT(g, 20, "LOADING_DESC"), BT(g, 22, "IDVS_POS_SHAD_WAIT"), BT(g, 25, "PREFETCH_STALL"), \
	BT(g, 28, "VCACHE_LINE_WAIT"), BT(g, 29, "VFETCH_POS_READ_WAIT"), \
	BT(g, 30, "VFETCH_VERTEX_WAIT"), BT(g, 32, "PRIMASSY_STALL"), BT(g, 33, "BBOX_GEN_STALL"), \
	BT(g, 36, "IDVS_VBU_LINE_DEALLOCATE"), BT(g, 39, "BINNER_STALL"), BT(g, 40, "ITER_STALL"), \
	BT(g, 41, "COMPRESS_MISS"), BT(g, 42, "COMPRESS_STALL"), BT(g, 43, "PCACHE_HIT"), \
	BT(g, 44, "PCACHE_MISS"), BT(g, 45, "PCACHE_MISS_STALL"), BT(g, 46, "PCACHE_EVICT_STALL"), \
	BT(g, 47, "PMGR_PTR_WR_STALL"), BT(g, 48, "PMGR_PTR_RD_STALL"), \
	BT(g, 49, "PMGR_CMD_WR_STALL"), BT(g, 50, "WRBUF_ACTIVE"), BT(g, 51, "WRBUF_HIT"), \
	BT(g, 52, "WRBUF_MISS"), BT(g, 53, "WRBUF_NO_FREE_LINE_STALL"), BT(g, 59, "UTLB_TRANS"), \
	BT(g, 60, "UTLB_TRANS_HIT"), BT(g, 61, "UTLB_TRANS_STALL"), \
	BT(g, 62, "UTLB_TRANS_MISS_DELAY"), BT(g, 63, "UTLB_MMU_REQ")
/* Valhall (G57, G77, G68, G78): 42 slots, the same on each */
#define VAL(g) { g, "jm", 4, "MESSAGES_SENT" }, { g, "jm", 5, "MESSAGES_RECEIVED" }, \
	{ g, "shader", 8, "FRAG_STARVING" }, { g, "l2", 54, "L2_EXT_SNOOP_RESP_CLEAN" }, \
	{ g, "l2", 55, "L2_EXT_SNOOP_RESP_DATA" }, { g, "l2", 56, "L2_EXT_SNOOP_INTERNAL" }, \
	BT(g, 5, "JOBS_PROCESSED"), BT(g, 15, "BIN_ALLOC_INIT"), BT(g, 16, "BIN_ALLOC_OVERFLOW"), \
	BT(g, 18, "BUS_WRITE_UTLB0"), \
	BT(g, 20, "LOADING_DESC"), BT(g, 22, "IDVS_POS_SHAD_WAIT"), BT(g, 25, "PREFETCH_STALL"), \
	BT(g, 28, "VCACHE_LINE_WAIT"), BT(g, 29, "VFETCH_POS_READ_WAIT"), \
	BT(g, 30, "VFETCH_VERTEX_WAIT"), BT(g, 32, "PRIMASSY_STALL"), BT(g, 33, "BBOX_GEN_STALL"), \
	BT(g, 36, "IDVS_VBU_LINE_DEALLOCATE"), BT(g, 39, "BINNER_STALL"), BT(g, 40, "ITER_STALL"), \
	BT(g, 41, "COMPRESS_MISS"), BT(g, 42, "COMPRESS_STALL"), BT(g, 43, "PCACHE_HIT"), \
	BT(g, 44, "PCACHE_MISS"), BT(g, 45, "PCACHE_MISS_STALL"), BT(g, 46, "PCACHE_EVICT_STALL"), \
	BT(g, 47, "PMGR_PTR_WR_STALL"), BT(g, 48, "PMGR_PTR_RD_STALL"), \
	BT(g, 49, "PMGR_CMD_WR_STALL"), BT(g, 50, "WRBUF_ACTIVE"), BT(g, 51, "WRBUF_HIT"), \
	BT(g, 52, "WRBUF_MISS"), BT(g, 53, "WRBUF_NO_FREE_LINE_STALL"), \
	BT(g, 56, "UTLB0_TRANS"), BT(g, 57, "UTLB0_TRANS_HIT"), BT(g, 58, "UTLB0_TRANS_STALL"), \
	BT(g, 59, "UTLB0_MMU_REQ"), BT(g, 60, "UTLB1_TRANS"), BT(g, 61, "UTLB1_TRANS_HIT"), \
	BT(g, 62, "UTLB1_TRANS_STALL"), BT(g, 63, "UTLB1_MMU_REQ")
static const struct gator_add {
	const char *gpu, *block;
	int index;
	const char *name;	/* JSn_ names: the part after "JSn_" */
} gator_added[] = {
	T_JM("t760"), T_JM("t820"), T_JM("t830"), T_JM("t860"), T_JM("t880"),
	T_L2("t760"), T_L2("t820"), T_L2("t830"), T_L2("t860"), T_L2("t880"),
	T_TILER("t760"), T_TILER("t860"), T_TILER("t880"),
	{ "t820", "shader", 11, "FRAG_FPK_ACTIVE" }, { "t860", "shader", 11, "FRAG_FPK_ACTIVE" },
	BIF("g31"), BIF("g51"), BIF("g52"), BIF("g71"), BIF("g72"), BIF("g76"),
	VAL("g57"), VAL("g77"), VAL("g68"), VAL("g78"),
};
#undef VAL
#undef BT
#undef BIF
#undef JSW
#undef T_JM
#undef T_L2
#undef T_TILER

static int from_gator(const char *gpu, const struct mpc_counter_def *c)
{
	for (unsigned i = 0; i < ARRAY_SIZE(gator_added); i++) {
		const struct gator_add *a = &gator_added[i];
		const char *n = c->name;

		if (!strncmp(n, "JS", 2) && n[2] >= '0' && n[2] <= '2' && n[3] == '_')
			n += 4;
		if (!strcmp(a->gpu, gpu) && !strcmp(a->block, mpc_block_name(c->kind)) &&
		    a->index == c->index && !strcmp(a->name, n))
			return 1;
	}
	return 0;
}

static int accepted_hit[sizeof(accepted) / sizeof(accepted[0])];

static const char *ref_dir(void)
{
	const char *d = getenv("MPC_REFERENCE");

	return d && *d ? d : "../../shared/reference";
}

/* value of attribute @attr in the tag text @tag, into @out */
static int attr(const char *tag, const char *end, const char *attr, char *out, size_t n)
{
	size_t al = strlen(attr);

	for (const char *p = tag; p && p < end; p = strchr(p + 1, ' ')) {
		const char *a = p + 1;
		const char *q;

		if (strncmp(a, attr, al) || a[al] != '=' || a[al + 1] != '"')
			continue;
		a += al + 2;
		q = memchr(a, '"', (size_t)(end - a));
		if (!q || (size_t)(q - a) >= n)
			return -1;
		memcpy(out, a, (size_t)(q - a));
		out[q - a] = 0;
		return 0;
	}
	return -1;
}

static int kind_of(const char *type)
{
	static const struct { const char *t; unsigned k; } map[] = {
		{ "GPU Front-end", MPC_BLK_JM }, { "Job Manager", MPC_BLK_JM },
		{ "Tiler", MPC_BLK_TILER }, { "Memory System", MPC_BLK_L2 },
		{ "L2 Cache", MPC_BLK_L2 }, { "Shader Core", MPC_BLK_SHADER },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(map[i].t, type))
			return (int)map[i].k;
	return -1;
}

/*
 * Read one source: the <CounterBlock type=...> / <Counter name index shift>
 * schema, or Mesa's <category name=...> / <event offset counter> one. In the
 * T-series lists tiler counters carry a TI_ prefix; TI_ACTIVE is TILER_ACTIVE.
 */
static int load_src(struct ref_src *s, const char *file, char *why, size_t wn)
{
	char path[1024], v[128];
	FILE *f;
	char *text;
	long len;
	int kind = -1;

	snprintf(path, sizeof(path), "%s/%s", ref_dir(), file);
	f = fopen(path, "rb");
	if (!f)
		return snprintf(why, wn, "%s: %s", path, strerror(errno)), -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(text);
		return snprintf(why, wn, "%s: read failed", path), -1;
	}
	fclose(f);
	text[len] = 0;
	s->file = file;
	s->n = 0;
	s->mesa_list = strstr(text, "<metrics") != NULL;
	for (char *p = strchr(text, '<'); p; p = strchr(p + 1, '<')) {
		char *end = strchr(p, '>');
		struct ref_ctr *c;

		if (!end)
			break;
		if (!strncmp(p, "<CounterBlock ", 14) || !strncmp(p, "<category ", 10)) {
			if (attr(p, end, s->mesa_list ? "name" : "type", v, sizeof(v)) ||
			    (kind = kind_of(v)) < 0) {
				free(text);
				return snprintf(why, wn, "%s: unknown block '%s'", file, v), -1;
			}
			continue;
		}
		if (strncmp(p, s->mesa_list ? "<event " : "<Counter ", s->mesa_list ? 7 : 9))
			continue;
		if (kind < 0 || s->n == MAX_REF) {
			free(text);
			return snprintf(why, wn, "%s: counter outside a block, or too many", file), -1;
		}
		c = &s->c[s->n];
		c->kind = (unsigned)kind;
		if (attr(p, end, s->mesa_list ? "counter" : "name", c->name, sizeof(c->name)) ||
		    attr(p, end, s->mesa_list ? "offset" : "index", v, sizeof(v))) {
			free(text);
			return snprintf(why, wn, "%s: a counter without name or index", file), -1;
		}
		c->index = atoi(v);
		c->shift = attr(p, end, "shift", v, sizeof(v)) ? 0 : atoi(v);
		if (s->mesa_list && kind == MPC_BLK_TILER && !strncmp(c->name, "TI_", 3)) {
			char t[sizeof(c->name)];

			snprintf(t, sizeof(t), "%s", !strcmp(c->name, "TI_ACTIVE") ? "TILER_ACTIVE" :
				 c->name + 3);
			memcpy(c->name, t, sizeof(t));
		}
		s->n++;
	}
	free(text);
	return 0;
}

static const char *src_tag(const char *file)
{
	const char *b = strrchr(file, '/');

	return b ? b + 1 : file;
}

/* is this difference listed? (and mark it seen) */
static int is_accepted(const char *gpu, const char *file, unsigned kind, int index,
		       const char *name, const char *have)
{
	for (unsigned i = 0; i < ARRAY_SIZE(accepted); i++) {
		const struct accepted *a = &accepted[i];

		if (strcmp(a->gpu, gpu) || strncmp(a->src, src_tag(file), strlen(a->src)) ||
		    strcmp(a->block, mpc_block_name(kind)) || a->index != index ||
		    (a->name == NULL) != (name == NULL) || (name && strcmp(a->name, name)) ||
		    (a->have == NULL) != (have == NULL) || (have && strcmp(a->have, have)))
			continue;
		accepted_hit[i] = 1;
		return 1;
	}
	return 0;
}

static const struct mpc_counter_def *db_at(const struct mpc_gpu_def *g, unsigned kind, int idx)
{
	for (unsigned i = 0; i < g->ncounters; i++)
		if (g->counters[i].kind == kind && g->counters[i].index == idx)
			return &g->counters[i];
	return NULL;
}

static int same(const struct mpc_counter_def *c, const char *name)
{
	return c && (!strcmp(c->name, name) || (c->alias && !strcmp(c->alias, name)));
}

static void add_why(char *why, size_t wn, unsigned *nbad, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add_why(char *why, size_t wn, unsigned *nbad, const char *fmt, ...)
{
	size_t l = strlen(why);
	va_list ap;

	if (++*nbad > 6 || l + 2 >= wn)
		return;
	if (l)
		why[l++] = ';', why[l++] = ' ', why[l] = 0;
	va_start(ap, fmt);
	vsnprintf(why + l, wn - l, fmt, ap);
	va_end(ap);
}

static void test_xcheck_reference(void)
{
	static struct ref_src src[3];
	struct mpc_db *db;
	char why[900] = "";
	unsigned nbad = 0, ngpu = 0, nchk = 0;
	struct stat st;

	if (stat(ref_dir(), &st) || !S_ISDIR(st.st_mode)) {
		t_skip("no reference data at %s (CI clones the repository with shared/ beside it; "
		       "set MPC_REFERENCE=DIR)", ref_dir());
		return;
	}
	memset(accepted_hit, 0, sizeof(accepted_hit));
	db = t_db();
	for (unsigned gi = 0; gi < mpc_db_gpu_count(db); gi++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(db, gi);
		unsigned ns = 0, si;

		for (si = 0; si < ARRAY_SIZE(sources) && strcmp(sources[si].key, g->key); si++)
			;
		if (si == ARRAY_SIZE(sources)) {
			/* the G2 has no public indices: a user --layout gives them */
			if (strcmp(g->key, "g2"))
				add_why(why, sizeof(why), &nbad, "%s: no reference source listed", g->key);
			continue;
		}
		ngpu++;
		for (unsigned f = 0; f < 3 && sources[si].files[f]; f++, ns++)
			if (load_src(&src[ns], sources[si].files[f], why + strlen(why),
				     sizeof(why) - strlen(why))) {
				mpc_db_free(db);
				CHECK(0, "%s", why);
			}
		/* every source counter is the database's counter at that index */
		for (unsigned f = 0; f < ns; f++)
			for (unsigned i = 0; i < src[f].n; i++) {
				const struct ref_ctr *r = &src[f].c[i];
				const struct mpc_counter_def *c = db_at(g, r->kind, r->index);

				nchk++;
				if (same(c, r->name)) {
					if (!src[f].mesa_list && c->shift != r->shift)
						add_why(why, sizeof(why), &nbad, "%s: %s shift %u, %s says %d",
							g->key, c->name, c->shift, src_tag(src[f].file),
							r->shift);
					continue;
				}
				if (!is_accepted(g->key, src[f].file, r->kind, r->index, r->name,
						 c ? c->name : NULL))
					add_why(why, sizeof(why), &nbad, "%s: %s[%d] is %s, %s says %s", g->key,
						mpc_block_name(r->kind), r->index, c ? c->name : "nothing",
						src_tag(src[f].file), r->name);
			}
		/* every database counter is placed there by a source */
		for (unsigned i = 0; i < g->ncounters; i++) {
			const struct mpc_counter_def *c = &g->counters[i];
			int found = 0, placed = 0;

			for (unsigned f = 0; f < ns && !found; f++)
				for (unsigned k = 0; k < src[f].n && !found; k++) {
					const struct ref_ctr *r = &src[f].c[k];

					if (r->kind == c->kind && r->index == c->index) {
						placed = 1;
						found = same(c, r->name);
					}
				}
			if (found || placed)	/* a different name there is reported above */
				continue;
			found = from_gator(g->key, c);
			for (unsigned f = 0; f < ns && !found; f++)
				found = is_accepted(g->key, src[f].file, c->kind, c->index, NULL, c->name);
			if (!found)
				add_why(why, sizeof(why), &nbad, "%s: %s[%d] %s is in no reference source",
					g->key, mpc_block_name(c->kind), c->index, c->name);
		}
	}
	mpc_db_free(db);
	for (unsigned i = 0; i < ARRAY_SIZE(accepted); i++)
		if (!accepted_hit[i])
			add_why(why, sizeof(why), &nbad, "accepted difference %s %s %s[%d] %s no longer "
				"occurs; remove it", accepted[i].gpu, accepted[i].src, accepted[i].block,
				accepted[i].index, accepted[i].name ? accepted[i].name : "-");
	CHECK(!nbad, "%u differences: %s%s", nbad, why, nbad > 6 ? "; ..." : "");
	CHECK(ngpu == 29 && nchk > 2000, "only %u GPUs and %u counters checked", ngpu, nchk);
}

/* the checker itself: a wrong entry is found (not every entry accepted) */
static void test_xcheck_finds_errors(void)
{
	static struct ref_src s;
	char why[256] = "";
	struct stat st;
	struct mpc_db *db;
	const struct mpc_gpu_def *g;
	unsigned bad = 0, n = 0;
	static const char swap[] =
		"mali-perfcnt-db 1\ngpu g52 Mali-G52\nblock jm\n7 GPU_ACTIVE\n6 IRQ_ACTIVE\n";
	struct mpc_err err;

	if (stat(ref_dir(), &st) || !S_ISDIR(st.st_mode)) {
		t_skip("no reference data at %s", ref_dir());
		return;
	}
	if (load_src(&s, "libgpucounters/database/hardwarelayout/Mali-G52.xml", why, sizeof(why)))
		CHECK(0, "%s", why);
	db = t_db();
	if (mpc_db_add_text(db, "swap", swap, strlen(swap), &err)) {
		mpc_db_free(db);
		CHECK(0, "%s", err.msg);
	}
	g = mpc_db_find_gpu(db, "g52");
	for (unsigned i = 0; i < s.n; i++) {
		const struct mpc_counter_def *c = db_at(g, s.c[i].kind, s.c[i].index);

		n += c != NULL;
		bad += c && !same(c, s.c[i].name);
	}
	mpc_db_free(db);
	CHECK(s.n > 100 && n >= 2, "G52 layout: %u counters, %u matched", s.n, n);
	CHECK(bad == 2, "a GPU_ACTIVE/IRQ_ACTIVE swap gave %u differences, want 2", bad);
}

TESTS(tests_xcheck) = {
	{ "xcheck: every product against libGPUCounters and Mesa (accepted differences listed)",
	  test_xcheck_reference },
	{ "xcheck: a swapped pair is reported", test_xcheck_finds_errors },
	END_TESTS
};
