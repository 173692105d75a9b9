// SPDX-License-Identifier: MIT
/*
 * Counter database: parser of the mali-perfcnt text format (GPU files and
 * metric files, see Documentation/mali-perfcnt-tool.rst) and lookups.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mpc_internal.h"

#define MAX_LINE	4096
#define MAX_COUNTERS	(MPC_BLK_KINDS * MPC_MAX_COUNTERS)

struct gpu_entry {
	struct mpc_gpu_def def;
	struct mpc_counter_def *ctr;
};

struct metric_entry {
	struct mpc_metric_def def;
	struct mpc_expr *expr;
};

struct mpc_db {
	struct mpc_arena arena;
	struct gpu_entry **gpu;
	unsigned ngpu, gcap;
	struct metric_entry *met;
	unsigned nmet, mcap;
};

static const char *const block_names[MPC_BLK_KINDS] = {
	"jm", "tiler", "l2", "shader", "fw", "csg"
};

const char *mpc_block_name(unsigned kind)
{
	return kind < MPC_BLK_KINDS ? block_names[kind] : "?";
}

int mpc_block_from_name(const char *name)
{
	for (unsigned i = 0; i < MPC_BLK_KINDS; i++)
		if (!strcmp(name, block_names[i]))
			return (int)i;
	return -1;
}

int mpc_db_new(struct mpc_db **db, struct mpc_err *err)
{
	*db = calloc(1, sizeof(**db));
	if (!*db)
		return mpc_fail(err, -ENOMEM, "out of memory");
	return 0;
}

void mpc_db_free(struct mpc_db *db)
{
	if (!db)
		return;
	for (unsigned i = 0; i < db->nmet; i++)
		mpc_expr_free(db->met[i].expr);
	free(db->met);
	free(db->gpu);
	mpc_arena_free(&db->arena);
	free(db);
}

unsigned mpc_db_gpu_count(const struct mpc_db *db)
{
	return db->ngpu;
}

const struct mpc_gpu_def *mpc_db_gpu(const struct mpc_db *db, unsigned i)
{
	return i < db->ngpu ? &db->gpu[i]->def : NULL;
}

unsigned mpc_db_metric_count(const struct mpc_db *db)
{
	return db->nmet;
}

const struct mpc_metric_def *mpc_db_metric(const struct mpc_db *db, unsigned i)
{
	return i < db->nmet ? &db->met[i].def : NULL;
}

struct mpc_expr *mpc_metric_expr(const struct mpc_db *db, unsigned i)
{
	return i < db->nmet ? db->met[i].expr : NULL;
}

static int name_eq(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

const struct mpc_gpu_def *mpc_db_find_gpu(const struct mpc_db *db, const char *name)
{
	if (!name)
		return NULL;
	for (unsigned i = 0; i < db->ngpu; i++) {
		const struct mpc_gpu_def *g = &db->gpu[i]->def;

		if (name_eq(g->key, name) || name_eq(g->name, name))
			return g;
		if (!strncasecmp(g->name, "Mali-", 5) && name_eq(g->name + 5, name))
			return g;
		if (!strncasecmp(name, "mali ", 5) && !strncasecmp(g->name, "Mali-", 5) &&
		    name_eq(g->name + 5, name + 5))
			return g;
	}
	return NULL;
}

const struct mpc_gpu_def *mpc_db_match_gpu_id(const struct mpc_db *db, uint32_t gpu_id)
{
	const struct mpc_gpu_def *best = NULL;
	unsigned prod = gpu_id >> 16, best_bits = 0;

	for (unsigned i = 0; i < db->ngpu; i++) {
		const struct mpc_gpu_def *g = &db->gpu[i]->def;

		for (unsigned m = 0; m < g->nmatch; m++) {
			unsigned bits = mpc_popcount64(g->match[m].mask);

			if ((prod & g->match[m].mask) == g->match[m].id && bits > best_bits) {
				best = g;
				best_bits = bits;
			}
		}
	}
	return best;
}

int mpc_metric_applies(const struct mpc_metric_def *m, const struct mpc_gpu_def *gpu)
{
	const char *p = m->gpus;

	if (!strcmp(p, "*"))
		return 1;
	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if ((strlen(gpu->key) == n && !strncasecmp(gpu->key, p, n)) ||
		    (gpu->arch && strlen(gpu->arch) == n && !strncasecmp(gpu->arch, p, n)))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

const struct mpc_counter_def *mpc_gpu_find_counter(const struct mpc_gpu_def *gpu,
						   const char *name)
{
	for (unsigned i = 0; i < gpu->ncounters; i++) {
		const struct mpc_counter_def *c = &gpu->counters[i];

		if (!strcmp(c->name, name) || (c->lgc && !strcmp(c->lgc, name)) ||
		    (c->alias && !strcmp(c->alias, name)))
			return c;
	}
	return NULL;
}

/* ------------------------------------------------------------------ parser */

struct parser {
	struct mpc_db *db;
	const char *origin;
	unsigned line;
	struct mpc_err *err;
	int kind;		/* 0 unknown, 1 gpu, 2 metrics */
	/* gpu file state */
	struct mpc_gpu_def g;
	unsigned set_layout : 1, set_cpb : 1, set_bus : 1, set_arch : 1, set_na : 1, set_maxc : 1;
	int block;
	struct mpc_counter_def *ctr;
	unsigned *ctr_line;
	unsigned nctr;
	char notes[2048];
	const char *set;
};

#define PFAIL(p, code, ...) \
	perr((p), (code), __VA_ARGS__)

MPC_PRINTF(3, 4)
static int perr(struct parser *p, int code, const char *fmt, ...)
{
	char buf[MPC_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return mpc_fail(p->err, code, "%s:%u: %s", p->origin, p->line, buf);
}

static int is_hw_name(const char *s)
{
	if (!isupper((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int is_key(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 31)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return 0;
	return 1;
}

static int is_word(const char *s)
{
	if (!*s || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return 0;
	return 1;
}

/* a metric's GPU list: keys and architectures, comma-separated, or "*" */
static int is_gpu_list(const char *s)
{
	if (!*s || strlen(s) > 511)
		return 0;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return 0;
	return 1;
}

/* split on blanks into at most @max tokens; the last one keeps the rest */
static unsigned split(char *s, char **tok, unsigned max)
{
	unsigned n = 0;

	while (*s && n < max) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		tok[n++] = s;
		if (n == max)
			break;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
	}
	/* trim the trailing blanks of the last token */
	if (n) {
		char *e = tok[n - 1] + strlen(tok[n - 1]);

		while (e > tok[n - 1] && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
	}
	return n;
}

static int want_kind(struct parser *p, int kind, const char *what)
{
	if (p->kind && p->kind != kind)
		return PFAIL(p, -EINVAL, "'%s' is not allowed in a %s file; GPU files and "
			     "metric files are separate", what, p->kind == 1 ? "GPU" : "metrics");
	p->kind = kind;
	return 0;
}

static int parse_counter(struct parser *p, char *line)
{
	char *tok[16];
	unsigned n = split(line, tok, 16);
	struct mpc_counter_def c = { 0 };
	uint64_t v;

	if (p->block < 0)
		return PFAIL(p, -EINVAL, "counter line before any 'block' line; add 'block jm|tiler|l2|shader'");
	if (n < 2)
		return PFAIL(p, -EINVAL, "a counter line needs '<index> <NAME> [key=value...]'");
	if (!strcmp(tok[0], "-")) {
		c.index = -1;
	} else {
		if (mpc_parse_u64(tok[0], &v) || v >= MPC_MAX_COUNTERS)
			return PFAIL(p, -EINVAL, "bad counter index '%s'; use 4..%d or '-' when unknown",
				     tok[0], MPC_MAX_COUNTERS - 1);
		c.index = (int16_t)v;
	}
	if (!is_hw_name(tok[1]) || strlen(tok[1]) > 63)
		return PFAIL(p, -EINVAL, "bad counter name '%s'; hardware names are A-Z, 0-9 and _",
			     tok[1]);
	c.name = tok[1];
	c.kind = (uint8_t)p->block;
	for (unsigned i = 2; i < n; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i] || !eq[1])
			return PFAIL(p, -EINVAL, "bad attribute '%s'; use key=value (lgc, unit, alias, shift)",
				     tok[i]);
		*eq++ = 0;
		if (!strcmp(tok[i], "lgc")) {
			if (!is_ident(eq) || strlen(eq) > 63)
				return PFAIL(p, -EINVAL, "bad libGPUCounters name '%s'", eq);
			c.lgc = eq;
		} else if (!strcmp(tok[i], "unit")) {
			if (!is_word(eq))
				return PFAIL(p, -EINVAL, "bad unit '%s'", eq);
			c.unit = eq;
		} else if (!strcmp(tok[i], "alias")) {
			if (!is_hw_name(eq) || strlen(eq) > 63)
				return PFAIL(p, -EINVAL, "bad alias '%s'", eq);
			c.alias = eq;
		} else if (!strcmp(tok[i], "shift")) {
			if (mpc_parse_u64(eq, &v) || v > 31)
				return PFAIL(p, -EINVAL, "bad shift '%s'; use 0..31", eq);
			c.shift = (uint8_t)v;
		} else {
			return PFAIL(p, -EINVAL, "unknown attribute '%s'; known: lgc, unit, alias, shift",
				     tok[i]);
		}
	}
	if (p->nctr >= MAX_COUNTERS)
		return PFAIL(p, -E2BIG, "too many counters (more than %d)", MAX_COUNTERS);
	/* keep strings in the arena */
	struct mpc_arena *a = &p->db->arena;

	c.name = mpc_arena_strdup(a, c.name);
	c.lgc = mpc_arena_strdup(a, c.lgc);
	c.unit = mpc_arena_strdup(a, c.unit);
	c.alias = mpc_arena_strdup(a, c.alias);
	if (!c.name)
		return PFAIL(p, -ENOMEM, "out of memory");
	p->ctr[p->nctr] = c;
	p->ctr_line[p->nctr++] = p->line;
	return 0;
}

static int parse_gpu_directive(struct parser *p, char **tok, unsigned n)
{
	uint64_t v;
	const char *d = tok[0];

	if (want_kind(p, 1, d))
		return -EINVAL;
	if (!strcmp(d, "gpu")) {
		if (p->g.key)
			return PFAIL(p, -EINVAL, "second 'gpu' line; one GPU per file");
		if (n < 3 || !is_key(tok[1]) || !is_word(tok[2]))
			return PFAIL(p, -EINVAL, "use 'gpu <key> <name>', e.g. 'gpu g52 Mali-G52' (key: a-z 0-9 -)");
		p->g.key = mpc_arena_strdup(&p->db->arena, tok[1]);
		p->g.name = mpc_arena_strdup(&p->db->arena, tok[2]);
		return 0;
	}
	if (!p->g.key)
		return PFAIL(p, -EINVAL, "'%s' before the 'gpu' line; start with 'gpu <key> <name>'", d);
	if (!strcmp(d, "arch")) {
		if (n != 2 || !is_word(tok[1]))
			return PFAIL(p, -EINVAL, "use 'arch <name>'");
		p->g.arch = mpc_arena_strdup(&p->db->arena, tok[1]);
		p->set_arch = 1;
	} else if (!strcmp(d, "match")) {
		char *sl;
		uint64_t id, mask = 0xffff;

		if (n != 2)
			return PFAIL(p, -EINVAL, "use 'match <product id>[/<mask>]', e.g. 'match 0x7002/0xf00f'");
		sl = strchr(tok[1], '/');
		if (sl)
			*sl++ = 0;
		if (mpc_parse_u64(tok[1], &id) || id > 0xffff ||
		    (sl && (mpc_parse_u64(sl, &mask) || mask > 0xffff || !mask)))
			return PFAIL(p, -EINVAL, "bad product id or mask; both are 16-bit numbers");
		if (id & ~mask)
			return PFAIL(p, -EINVAL, "product id 0x%04llx has bits outside mask 0x%04llx; it can never match",
				     (unsigned long long)id, (unsigned long long)mask);
		if (p->g.nmatch >= MPC_MAX_MATCH)
			return PFAIL(p, -E2BIG, "at most %d match lines", MPC_MAX_MATCH);
		p->g.match[p->g.nmatch].id = (uint16_t)id;
		p->g.match[p->g.nmatch++].mask = (uint16_t)mask;
	} else if (!strcmp(d, "layout")) {
		if (n != 2 || (strcmp(tok[1], "v4") && strcmp(tok[1], "v5")))
			return PFAIL(p, -EINVAL, "use 'layout v4' (T60x/T62x/T72x) or 'layout v5'");
		p->g.layout = tok[1][1] == '4' ? 4 : 5;
		p->set_layout = 1;
	} else if (!strcmp(d, "counters-per-block")) {
		if (n != 2 || mpc_parse_u64(tok[1], &v) || (v != 64 && v != 128))
			return PFAIL(p, -EINVAL, "counters-per-block must be 64 or 128");
		p->g.counters_per_block = (unsigned)v;
		p->set_cpb = 1;
	} else if (!strcmp(d, "max-cores")) {
		if (n != 2 || mpc_parse_u64(tok[1], &v) || !v || v > 64)
			return PFAIL(p, -EINVAL, "max-cores must be 1..64 (the most shader cores of the "
				     "product)");
		p->g.max_cores = (unsigned)v;
		p->set_maxc = 1;
	} else if (!strcmp(d, "bus-beat-bytes")) {
		if (n != 2 || mpc_parse_u64(tok[1], &v) || !v || v > 1024)
			return PFAIL(p, -EINVAL, "bus-beat-bytes must be 1..1024");
		p->g.bus_beat_bytes = (unsigned)v;
		p->set_bus = 1;
	} else if (!strcmp(d, "counter-set")) {
		if (n != 2 || strcmp(tok[1], "0"))
			return PFAIL(p, -EINVAL, "only counter set 0 can be described ('counter-set 0')");
	} else if (!strcmp(d, "config")) {
		double dv;

		if (n != 3 || strcmp(tok[1], "MALI_CONFIG_NEURAL_ACCELERATOR_COUNT") ||
		    mpc_parse_double(tok[2], &dv) || dv < 0 || dv > 4096)
			return PFAIL(p, -EINVAL, "use 'config MALI_CONFIG_NEURAL_ACCELERATOR_COUNT <n>' "
				     "(the other constants come from the device)");
		p->g.neural_accelerators = dv;
		p->set_na = 1;
	} else if (!strcmp(d, "block")) {
		int b = n == 2 ? mpc_block_from_name(tok[1]) : -1;

		if (b < 0)
			return PFAIL(p, -EINVAL, "use 'block jm|tiler|l2|shader|fw|csg'");
		p->block = b;
	} else {
		return PFAIL(p, -EINVAL, "unknown line '%s'; see the database format in mali-perfcnt-tool.rst", d);
	}
	return 0;
}

static int parse_metric(struct parser *p, char *line)
{
	char *tok[5];
	unsigned n;
	struct metric_entry *m;
	struct mpc_expr *e;
	int ret;

	if (want_kind(p, 2, "metric"))
		return -EINVAL;
	if (!p->set)
		return PFAIL(p, -EINVAL, "'metric' before the 'metrics <set>' line");
	n = split(line, tok, 5);
	if (n != 5 || strncmp(tok[4], "= ", 2) || !is_ident(tok[1]) || strlen(tok[1]) > 63 ||
	    !is_word(tok[2]) || !is_gpu_list(tok[3]))
		return PFAIL(p, -EINVAL, "use 'metric <Name> <unit> <gpu,gpu|*> = <expression>'");
	{
		struct mpc_err e2;

		ret = mpc_expr_parse(tok[4] + 2, &e, &e2);
		if (ret)
			return PFAIL(p, ret, "metric %s: %s", tok[1], e2.msg);
	}
	if (p->db->nmet == p->db->mcap) {
		unsigned nc = p->db->mcap ? p->db->mcap * 2 : 256;
		struct metric_entry *nm = realloc(p->db->met, nc * sizeof(*nm));

		if (!nm) {
			mpc_expr_free(e);
			return PFAIL(p, -ENOMEM, "out of memory");
		}
		p->db->met = nm;
		p->db->mcap = nc;
	}
	m = &p->db->met[p->db->nmet];
	m->def.name = mpc_arena_strdup(&p->db->arena, tok[1]);
	m->def.unit = mpc_arena_strdup(&p->db->arena, tok[2]);
	m->def.gpus = mpc_arena_strdup(&p->db->arena, tok[3]);
	m->def.expr = mpc_arena_strdup(&p->db->arena, tok[4] + 2);
	m->def.set = p->set;
	m->expr = e;
	if (!m->def.name || !m->def.unit || !m->def.gpus || !m->def.expr) {
		mpc_expr_free(e);
		return PFAIL(p, -ENOMEM, "out of memory");
	}
	p->db->nmet++;
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	char *tok[4] = { NULL };
	char copy[MAX_LINE + 1];
	unsigned n;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '#')
		return 0;
	strcpy(copy, line);
	n = split(copy, tok, 3);
	if (!n)
		return 0;
	if (!strcmp(tok[0], "mali-perfcnt-db")) {
		if (n != 2 || strcmp(tok[1], "1"))
			return PFAIL(p, -EINVAL, "unsupported database format '%s'; this tool reads version 1",
				     n > 1 ? tok[1] : "");
		return 0;
	}
	if (!strcmp(tok[0], "source") || !strcmp(tok[0], "note")) {
		if (!strcmp(tok[0], "note") && n > 1) {
			size_t l = strlen(p->notes);

			line += 4;
			while (*line == ' ' || *line == '\t')
				line++;
			snprintf(p->notes + l, sizeof(p->notes) - l, "%s%s", l ? "\n" : "", line);
		}
		return 0;
	}
	if (isdigit((unsigned char)tok[0][0]) || !strcmp(tok[0], "-")) {
		if (want_kind(p, 1, "counter"))
			return -EINVAL;
		if (!p->g.key)
			return PFAIL(p, -EINVAL, "counter line before the 'gpu' line");
		return parse_counter(p, line);
	}
	if (!strcmp(tok[0], "metrics")) {
		if (want_kind(p, 2, "metrics"))
			return -EINVAL;
		if (n != 2 || !is_word(tok[1]))
			return PFAIL(p, -EINVAL, "use 'metrics <set name>'");
		p->set = mpc_arena_strdup(&p->db->arena, tok[1]);
		return 0;
	}
	if (!strcmp(tok[0], "metric"))
		return parse_metric(p, line);
	n = split(line, tok, 4);
	return parse_gpu_directive(p, tok, n);
}

static struct gpu_entry *find_entry(struct mpc_db *db, const char *key, unsigned *pos)
{
	for (unsigned i = 0; i < db->ngpu; i++)
		if (!strcmp(db->gpu[i]->def.key, key)) {
			*pos = i;
			return db->gpu[i];
		}
	return NULL;
}

static const struct mpc_counter_def *find_by_name(const struct mpc_counter_def *c, unsigned n,
						  const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(c[i].name, name) || (c[i].alias && !strcmp(c[i].alias, name)))
			return &c[i];
	return NULL;
}

/* Check and store the GPU of a finished GPU file, merging a layout overlay. */
static int finish_gpu(struct parser *p)
{
	struct mpc_db *db = p->db;
	struct gpu_entry *old, *e;
	unsigned pos = 0, cpb, total;
	struct mpc_counter_def *ctr;

	if (!p->g.key)
		return mpc_fail(p->err, -EINVAL, "%s: no 'gpu <key> <name>' line; is it a mali-perfcnt database file?",
				p->origin);
	old = find_entry(db, p->g.key, &pos);
	cpb = p->set_cpb ? p->g.counters_per_block : old ? old->def.counters_per_block : 64;
	if ((p->set_layout ? p->g.layout : old ? old->def.layout : 5) == 4 && cpb != 64)
		return mpc_fail(p->err, -EINVAL, "%s: layout v4 has 64 counters per block", p->origin);
	/* per block: indices in range and unique; names unique in the GPU */
	for (unsigned i = 0; i < p->nctr; i++) {
		const struct mpc_counter_def *c = &p->ctr[i];

		p->line = p->ctr_line[i];
		/* a layout file places the counters the database knows, no others */
		if (old && !find_by_name(old->ctr, old->def.ncounters, c->name))
			return PFAIL(p, -ENOENT, "%s is not a counter of %s in the database; a layout "
				     "file only places known counters (check the name against "
				     "'mali-perfcnt list --gpu %s')", c->name, old->def.name,
				     old->def.key);
		if (c->index >= 0 && (c->index < 4 || (unsigned)c->index >= cpb))
			return PFAIL(p, -ERANGE, "%s index %d is out of range; counters are 4..%u "
				     "(0-3 are the block header)", c->name, c->index, cpb - 1);
		for (unsigned j = 0; j < i; j++) {
			const struct mpc_counter_def *o = &p->ctr[j];

			if (!strcmp(o->name, c->name) || (o->alias && !strcmp(o->alias, c->name)) ||
			    (c->alias && (!strcmp(o->name, c->alias))))
				return PFAIL(p, -EEXIST, "counter %s is listed twice (first on line %u)",
					     c->name, p->ctr_line[j]);
			if (o->kind == c->kind && c->index >= 0 && o->index == c->index)
				return PFAIL(p, -EEXIST, "%s and %s share index %d of block %s",
					     o->name, c->name, c->index, mpc_block_name(c->kind));
		}
	}
	total = p->nctr;
	if (old)
		for (unsigned i = 0; i < old->def.ncounters; i++)
			if (!find_by_name(p->ctr, p->nctr, old->ctr[i].name))
				total++;
	e = mpc_arena_alloc(&db->arena, sizeof(*e));
	ctr = mpc_arena_alloc(&db->arena, (total ? total : 1) * sizeof(*ctr));
	if (!e || !ctr)
		return mpc_fail(p->err, -ENOMEM, "out of memory");
	memcpy(ctr, p->ctr, p->nctr * sizeof(*ctr));
	e->def = p->g;
	e->def.origin = mpc_arena_strdup(&db->arena, p->origin);
	e->def.notes = p->notes[0] ? mpc_arena_strdup(&db->arena, p->notes) : NULL;
	if (old) {
		/* a layout file: fill what it leaves out from the shipped entry */
		const struct mpc_gpu_def *o = &old->def;
		unsigned k = p->nctr;

		for (unsigned i = 0; i < p->nctr; i++) {
			const struct mpc_counter_def *oc = find_by_name(old->ctr, o->ncounters, ctr[i].name);

			if (!oc)
				continue;
			if (!ctr[i].lgc)
				ctr[i].lgc = oc->lgc;
			if (!ctr[i].unit)
				ctr[i].unit = oc->unit;
			if (!ctr[i].alias && strcmp(oc->name, ctr[i].name))
				ctr[i].alias = oc->name;
			else if (!ctr[i].alias)
				ctr[i].alias = oc->alias;
			if (!ctr[i].shift)
				ctr[i].shift = oc->shift;
		}
		for (unsigned i = 0; i < o->ncounters; i++)
			if (!find_by_name(p->ctr, p->nctr, old->ctr[i].name)) {
				ctr[k] = old->ctr[i];
				ctr[k++].index = -1;	/* the layout does not place it */
			}
		if (!p->g.name || !strcmp(p->g.name, o->name))
			e->def.name = o->name;
		if (!p->set_arch)
			e->def.arch = o->arch;
		if (!p->g.nmatch) {
			e->def.nmatch = o->nmatch;
			memcpy(e->def.match, o->match, sizeof(o->match));
		}
		if (!p->set_layout)
			e->def.layout = o->layout;
		if (!p->set_bus)
			e->def.bus_beat_bytes = o->bus_beat_bytes;
		if (!p->set_na)
			e->def.neural_accelerators = o->neural_accelerators;
		if (!p->set_maxc)
			e->def.max_cores = o->max_cores;
		if (!e->def.notes)
			e->def.notes = o->notes;
	} else {
		if (!p->set_layout)
			e->def.layout = 5;
		if (!p->set_bus)
			e->def.bus_beat_bytes = 16;
		if (!p->set_arch)
			e->def.arch = "unknown";
	}
	e->def.counters_per_block = cpb;
	e->def.ncounters = total;
	e->def.counters = ctr;
	e->ctr = ctr;
	if (old) {
		db->gpu[pos] = e;
		return 0;
	}
	if (db->ngpu == db->gcap) {
		unsigned nc = db->gcap ? db->gcap * 2 : 32;
		struct gpu_entry **ng = realloc(db->gpu, nc * sizeof(*ng));

		if (!ng)
			return mpc_fail(p->err, -ENOMEM, "out of memory");
		db->gpu = ng;
		db->gcap = nc;
	}
	db->gpu[db->ngpu++] = e;
	return 0;
}

int mpc_db_add_text(struct mpc_db *db, const char *origin, const char *text, size_t len,
		    struct mpc_err *err)
{
	struct parser p = { .db = db, .origin = origin, .err = err, .block = -1 };
	unsigned nmet0 = db->nmet;
	size_t pos = 0;
	int seen_magic = 0, ret = 0;
	char line[MAX_LINE + 1];

	if (memchr(text, 0, len))
		return mpc_fail(err, -EINVAL, "%s contains a NUL byte; give a text database file", origin);
	p.ctr = calloc(MAX_COUNTERS, sizeof(*p.ctr));
	p.ctr_line = calloc(MAX_COUNTERS, sizeof(*p.ctr_line));
	if (!p.ctr || !p.ctr_line) {
		ret = mpc_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		const char *s;

		p.line++;
		if (n > MAX_LINE) {
			ret = PFAIL(&p, -E2BIG, "line longer than %d characters", MAX_LINE);
			goto out;
		}
		memcpy(line, text + pos, n);
		line[n] = 0;
		if (n && line[n - 1] == '\r')
			line[n - 1] = 0;
		pos += n + (nl ? 1 : 0);
		s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		for (const char *c = s; *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t') {
				ret = PFAIL(&p, -EINVAL, "control character 0x%02x; the file must be plain text",
					    (unsigned char)*c);
				goto out;
			}
		if (!seen_magic) {
			if (strncmp(s, "mali-perfcnt-db", 15)) {
				ret = PFAIL(&p, -EINVAL, "not a mali-perfcnt database: the first line must be "
					    "'mali-perfcnt-db 1'");
				goto out;
			}
			seen_magic = 1;
		}
		ret = parse_line(&p, line);
		if (ret)
			goto out;
	}
	if (!seen_magic) {
		ret = mpc_fail(err, -EINVAL, "%s is empty; a database file starts with 'mali-perfcnt-db 1'",
			       origin);
		goto out;
	}
	if (p.kind == 1)
		ret = finish_gpu(&p);
	else if (p.kind == 0)
		ret = mpc_fail(err, -EINVAL, "%s has no 'gpu' or 'metrics' line; nothing to load", origin);
out:
	if (ret) {
		/* drop metrics added by this file */
		while (db->nmet > nmet0)
			mpc_expr_free(db->met[--db->nmet].expr);
	}
	free(p.ctr);
	free(p.ctr_line);
	return ret;
}

int mpc_db_add_file(struct mpc_db *db, const char *path, struct mpc_err *err)
{
	char *buf;
	size_t len;
	int ret = mpc_read_file(path, 1 << 20, &buf, &len, err);

	if (ret)
		return ret;
	ret = mpc_db_add_text(db, path, buf, len, err);
	free(buf);
	return ret;
}

int mpc_origin_builtin(const char *origin)
{
	for (unsigned i = 0; origin && i < mpc_builtin_nfiles; i++)
		if (!strcmp(origin, mpc_builtin_files[i].name))
			return 1;
	return 0;
}

int mpc_db_new_builtin(struct mpc_db **db, struct mpc_err *err)
{
	int ret = mpc_db_new(db, err);

	if (ret)
		return ret;
	for (unsigned i = 0; i < mpc_builtin_nfiles; i++) {
		const struct mpc_builtin_file *f = &mpc_builtin_files[i];

		ret = mpc_db_add_text(*db, f->name, f->text, strlen(f->text), err);
		if (ret) {
			mpc_db_free(*db);
			*db = NULL;
			return ret;
		}
	}
	return 0;
}
