// SPDX-License-Identifier: MIT
/*
 * Formula engine.
 *
 * 1. mpc_expr_parse() turns the text of a metric into a small tree of nodes
 *    with a symbol table (done once, when the database is loaded).
 * 2. mpc_prog_new() resolves every symbol of every metric that applies to a
 *    GPU to a counter (block kind, index), a configuration constant or
 *    another metric, and compiles all metrics into one flat three-address
 *    program over a register file of doubles, scheduled into batches of
 *    independent instructions of one operation (done once per device).
 * 3. mpc_prog_eval() sums the block instances, loads the counters the
 *    program uses into registers and runs the batches: no names, no strings,
 *    no allocation per sample.
 *
 * "No value" is NaN: division by zero gives NaN, NaN propagates through
 * every operation including min() and max().
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpc_internal.h"

#define MAX_EXPR_LEN	4096
#define MAX_NODES	1024
#define MAX_SYMS	256
#define MAX_DEPTH	64

enum { N_NUM, N_SYM, N_NEG, N_ADD, N_SUB, N_MUL, N_DIV, N_MIN, N_MAX };

struct node {
	uint8_t op;
	uint16_t a, b;		/* children */
	uint16_t sym;
	double num;
};

struct mpc_expr {
	unsigned nnodes, root, nsyms;
	struct node *node;
	char **sym;
};

/* --------------------------------------------------------------- parsing */

struct ps {
	const char *src, *p;
	struct mpc_expr *e;
	struct mpc_err *err;
	int depth;
};

MPC_PRINTF(2, 3)
static int perr(struct ps *s, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return mpc_fail(s->err, -EINVAL, "formula '%.80s%s': %s at column %d", s->src,
			strlen(s->src) > 80 ? "..." : "", buf, (int)(s->p - s->src) + 1);
}

static void skip(struct ps *s)
{
	while (*s->p == ' ' || *s->p == '\t')
		s->p++;
}

static int new_node(struct ps *s, uint8_t op, unsigned a, unsigned b)
{
	struct node *n;

	if (s->e->nnodes >= MAX_NODES)
		return perr(s, "formula too large (more than %d terms)", MAX_NODES);
	n = &s->e->node[s->e->nnodes];
	n->op = op;
	n->a = (uint16_t)a;
	n->b = (uint16_t)b;
	return (int)s->e->nnodes++;
}

static int sym_index(struct ps *s, const char *name, size_t len)
{
	struct mpc_expr *e = s->e;

	for (unsigned i = 0; i < e->nsyms; i++)
		if (strlen(e->sym[i]) == len && !memcmp(e->sym[i], name, len))
			return (int)i;
	if (e->nsyms >= MAX_SYMS)
		return perr(s, "too many names (more than %d)", MAX_SYMS);
	e->sym[e->nsyms] = strndup(name, len);
	if (!e->sym[e->nsyms])
		return mpc_fail(s->err, -ENOMEM, "out of memory");
	return (int)e->nsyms++;
}

static int p_add(struct ps *s);

static int p_primary(struct ps *s)
{
	int r;

	skip(s);
	if (isdigit((unsigned char)*s->p) || (*s->p == '.' && isdigit((unsigned char)s->p[1]))) {
		char *end;
		double v = strtod(s->p, &end);

		if (end == s->p || !isfinite(v))
			return perr(s, "bad number");
		if (isalpha((unsigned char)*end) || *end == '_')
			return perr(s, "bad number");
		r = new_node(s, N_NUM, 0, 0);
		if (r < 0)
			return r;
		s->e->node[r].num = v;
		s->p = end;
		return r;
	}
	if (isalpha((unsigned char)*s->p) || *s->p == '_') {
		const char *b = s->p;
		size_t len;

		while (isalnum((unsigned char)*s->p) || *s->p == '_')
			s->p++;
		len = (size_t)(s->p - b);
		if (len > 63)
			return perr(s, "name too long");
		skip(s);
		if (*s->p == '(') {
			uint8_t op;
			int acc;

			if (len == 3 && !memcmp(b, "min", 3))
				op = N_MIN;
			else if (len == 3 && !memcmp(b, "max", 3))
				op = N_MAX;
			else {
				s->p = b;
				return perr(s, "unknown function '%.*s' (only min and max)", (int)len, b);
			}
			s->p++;
			acc = p_add(s);
			if (acc < 0)
				return acc;
			skip(s);
			while (*s->p == ',') {
				int arg;

				s->p++;
				arg = p_add(s);
				if (arg < 0)
					return arg;
				acc = new_node(s, op, (unsigned)acc, (unsigned)arg);
				if (acc < 0)
					return acc;
				skip(s);
			}
			if (*s->p != ')')
				return perr(s, "expected ',' or ')'");
			s->p++;
			return acc;
		}
		r = sym_index(s, b, len);
		if (r < 0)
			return r;
		int n = new_node(s, N_SYM, 0, 0);

		if (n < 0)
			return n;
		s->e->node[n].sym = (uint16_t)r;
		return n;
	}
	if (*s->p == '(') {
		s->p++;
		r = p_add(s);
		if (r < 0)
			return r;
		skip(s);
		if (*s->p != ')')
			return perr(s, "expected ')'");
		s->p++;
		return r;
	}
	if (!*s->p)
		return perr(s, "unexpected end");
	return perr(s, "unexpected '%c'", isprint((unsigned char)*s->p) ? *s->p : '?');
}

static int p_unary(struct ps *s)
{
	int r;

	skip(s);
	if (*s->p == '-' || *s->p == '+') {
		int neg = *s->p == '-';

		if (++s->depth > MAX_DEPTH)
			return perr(s, "nested too deeply");
		s->p++;
		r = p_unary(s);
		s->depth--;
		if (r < 0 || !neg)
			return r;
		return new_node(s, N_NEG, (unsigned)r, 0);
	}
	return p_primary(s);
}

static int p_mul(struct ps *s)
{
	int l = p_unary(s);

	while (l >= 0) {
		int r;
		char c;

		skip(s);
		c = *s->p;
		if (c != '*' && c != '/')
			break;
		s->p++;
		r = p_unary(s);
		if (r < 0)
			return r;
		l = new_node(s, c == '*' ? N_MUL : N_DIV, (unsigned)l, (unsigned)r);
	}
	return l;
}

static int p_add(struct ps *s)
{
	int l;

	if (++s->depth > MAX_DEPTH)
		return perr(s, "nested too deeply");
	l = p_mul(s);
	while (l >= 0) {
		int r;
		char c;

		skip(s);
		c = *s->p;
		if (c != '+' && c != '-')
			break;
		s->p++;
		r = p_mul(s);
		if (r < 0)
			return r;
		l = new_node(s, c == '+' ? N_ADD : N_SUB, (unsigned)l, (unsigned)r);
	}
	s->depth--;
	return l;
}

void mpc_expr_free(struct mpc_expr *e)
{
	if (!e)
		return;
	for (unsigned i = 0; i < e->nsyms; i++)
		free(e->sym[i]);
	free(e->sym);
	free(e->node);
	free(e);
}

int mpc_expr_parse(const char *src, struct mpc_expr **out, struct mpc_err *err)
{
	struct ps s = { .src = src, .p = src, .err = err };
	size_t len = strlen(src);
	int r;

	*out = NULL;
	if (len > MAX_EXPR_LEN)
		return mpc_fail(err, -E2BIG, "formula longer than %d characters", MAX_EXPR_LEN);
	s.e = calloc(1, sizeof(*s.e));
	if (!s.e)
		return mpc_fail(err, -ENOMEM, "out of memory");
	s.e->node = calloc(MAX_NODES, sizeof(struct node));
	s.e->sym = calloc(MAX_SYMS, sizeof(char *));
	if (!s.e->node || !s.e->sym) {
		mpc_expr_free(s.e);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	r = p_add(&s);
	if (r >= 0) {
		skip(&s);
		if (*s.p)
			r = perr(&s, "unexpected '%c' after the end of the formula",
				 isprint((unsigned char)*s.p) ? *s.p : '?');
	}
	if (r < 0) {
		mpc_expr_free(s.e);
		return r;
	}
	s.e->root = (unsigned)r;
	/* shrink */
	struct node *nn = realloc(s.e->node, s.e->nnodes * sizeof(struct node));

	if (nn)
		s.e->node = nn;
	*out = s.e;
	return 0;
}

unsigned mpc_expr_nsyms(const struct mpc_expr *e)
{
	return e->nsyms;
}

const char *mpc_expr_sym(const struct mpc_expr *e, unsigned i)
{
	return i < e->nsyms ? e->sym[i] : NULL;
}

/* ----------------------------------------------------------- configuration */

static const char *const cfg_names[MPC_CFG_COUNT] = {
	"MALI_CONFIG_SHADER_CORE_COUNT",
	"MALI_CONFIG_L2_CACHE_COUNT",
	"MALI_CONFIG_EXT_BUS_BYTE_SIZE",
	"MALI_CONFIG_TIME_SPAN",
	"MALI_CONFIG_NEURAL_ACCELERATOR_COUNT",
	"MPC_CONFIG_GPU_FREQ_HZ",
};

const char *mpc_config_name(unsigned id)
{
	return id < MPC_CFG_COUNT ? cfg_names[id] : NULL;
}

void mpc_config_init(struct mpc_config *c, const struct mpc_desc *d,
		     const struct mpc_layout *l, const struct mpc_gpu_def *gpu,
		     double time_span)
{
	unsigned bus = d ? mpc_desc_bus_bytes(d) : 0;

	for (unsigned i = 0; i < MPC_CFG_COUNT; i++)
		c->v[i] = NAN;
	if (d) {
		c->v[MPC_CFG_SHADER_CORE_COUNT] = mpc_popcount64(d->shader_present);
		if (d->gpu_freq_hz)
			c->v[MPC_CFG_GPU_FREQ_HZ] = (double)d->gpu_freq_hz;
	}
	if (l)
		c->v[MPC_CFG_L2_CACHE_COUNT] = l->ninst[MPC_BLK_L2];
	else if (d)
		c->v[MPC_CFG_L2_CACHE_COUNT] = d->nr_l2;
	if (!bus && gpu)
		bus = gpu->bus_beat_bytes;
	if (bus)
		c->v[MPC_CFG_EXT_BUS_BYTE_SIZE] = bus;
	c->v[MPC_CFG_NEURAL_ACCELERATOR_COUNT] = gpu ? gpu->neural_accelerators : 0;
	c->v[MPC_CFG_TIME_SPAN] = time_span > 0 ? time_span : NAN;
}

/* ------------------------------------------------------------- compilation */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MIN, OP_MAX, OP_NEG, OP_MOV,
       OP_DIVK,		/* d = a / b * c: the "(x / y) * 100" of most ratios, fused */
};

struct insn {
	uint8_t op;
	uint16_t d, a, b, c;
};

/*
 * The program as evaluated: the instructions sorted by dependency level and,
 * within a level, by operation, as arrays of operands; a batch is a run of
 * one operation whose instructions do not depend on each other.
 */
struct batch {
	uint8_t op;
	uint16_t n;
	uint32_t first;
};

struct input {
	uint8_t kind, shift;
	uint16_t idx;
	uint32_t off;		/* kind * counters_per_block + idx */
};

struct mpc_prog {
	const struct mpc_db *db;
	const struct mpc_gpu_def *gpu;
	unsigned cpb;
	/* metrics */
	unsigned nmet;
	struct mpc_metric *met;
	unsigned *met_db;	/* index in the db */
	uint16_t *met_reg;	/* result register (after renumbering) */
	unsigned *alias;	/* during compilation: where metric i's result lives */
	unsigned met_base;	/* first metric register */
	unsigned nfix;		/* metrics whose result lives elsewhere */
	struct { uint16_t met, reg; } *fix;
	uint32_t full_mask;	/* enable mask with every group on */
	unsigned nshifted;	/* inputs with a shift (Mali G1 and later) */
	uint16_t *shifted;
	uint8_t *state;		/* 0 new, 1 compiling, 2 done */
	char **reason;
	/* registers: inputs | config | constants | metric results | temps */
	unsigned nin, ncst, ntmp, nreg;
	struct input *in;
	double *cst;
	unsigned ncode, capcode;
	struct insn *code;
	/* the scheduled program (schedule()) */
	unsigned nbatch;
	struct batch *batch;
	uint16_t *sd, *sa, *sb, *sc;
	double *reg;
	uint64_t *sum;		/* MPC_BLK_KINDS * cpb */
	unsigned cst_cap, in_cap;
	const struct mpc_evalgen *gen;	/* generated code for this program, or NULL */
};

/*
 * Registers are numbered during compilation as follows, and renumbered once
 * at the end when the counts are known:
 *   inputs    0x0000 | i
 *   config    0x4000 | i
 *   constants 0x8000 | i
 *   metrics   0xC000 | i   (result of metric i)
 *   temps     0x2000 | depth
 */
#define R_IN	0x0000u
#define R_TMP	0x2000u
#define R_CFG	0x4000u
#define R_CST	0x8000u
#define R_MET	0xC000u
#define R_CLASS(r)	((r) & 0xE000u)
#define R_NUM(r)	((r) & 0x1FFFu)

static int emit(struct mpc_prog *p, uint8_t op, unsigned d, unsigned a, unsigned b)
{
	if (p->ncode == p->capcode) {
		unsigned nc = p->capcode ? p->capcode * 2 : 1024;
		struct insn *n = realloc(p->code, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->code = n;
		p->capcode = nc;
	}
	p->code[p->ncode++] = (struct insn){ op, (uint16_t)d, (uint16_t)a, (uint16_t)b, 0 };
	return 0;
}

static int add_const(struct mpc_prog *p, double v, unsigned *reg)
{
	for (unsigned i = 0; i < p->ncst; i++)
		if (!memcmp(&p->cst[i], &v, sizeof(v))) {
			*reg = R_CST | i;
			return 0;
		}
	if (p->ncst >= 0x1FFF)
		return -E2BIG;
	if (p->ncst == p->cst_cap) {
		unsigned nc = p->cst_cap ? p->cst_cap * 2 : 64;
		double *n = realloc(p->cst, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->cst = n;
		p->cst_cap = nc;
	}
	p->cst[p->ncst] = v;
	*reg = R_CST | p->ncst++;
	return 0;
}

static int add_input(struct mpc_prog *p, const struct mpc_counter_def *c, unsigned *reg)
{
	for (unsigned i = 0; i < p->nin; i++)
		if (p->in[i].kind == c->kind && p->in[i].idx == (uint16_t)c->index &&
		    p->in[i].shift == c->shift) {
			*reg = R_IN | i;
			return 0;
		}
	if (p->nin >= 0x1FFF)
		return -E2BIG;
	if (p->nin == p->in_cap) {
		unsigned nc = p->in_cap ? p->in_cap * 2 : 64;
		struct input *n = realloc(p->in, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->in = n;
		p->in_cap = nc;
	}
	p->in[p->nin] = (struct input){ c->kind, c->shift, (uint16_t)c->index,
					(uint32_t)(c->kind * p->cpb + (unsigned)c->index) };
	*reg = R_IN | p->nin++;
	return 0;
}

static double fold(uint8_t op, double a, double b)
{
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_DIV: return b == 0 ? NAN : a / b;
	case OP_MIN: return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b);
	case OP_MAX: return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b);
	case OP_NEG: return -a;
	}
	return NAN;
}

/* Resolve symbol @name; on "unavailable" set *why and return 1. */
static int resolve(struct mpc_prog *p, const char *name, unsigned *reg, char *why, size_t wl)
{
	const struct mpc_counter_def *c;

	for (unsigned i = 0; i < MPC_CFG_COUNT; i++)
		if (!strcmp(name, cfg_names[i])) {
			*reg = R_CFG | i;
			return 0;
		}
	c = mpc_gpu_find_counter(p->gpu, name);
	if (c) {
		if (c->index < 0) {
			if (mpc_origin_builtin(p->gpu->origin))
				snprintf(why, wl, "needs %s, whose index %s does not publish (give a "
					 "layout file with --layout)", c->name, p->gpu->name);
			else
				snprintf(why, wl, "needs %s, which the layout %s does not place",
					 c->name, p->gpu->origin ? p->gpu->origin : "file");
			return 1;
		}
		if ((unsigned)c->index >= p->cpb) {
			snprintf(why, wl, "needs %s, outside the dump's blocks", c->name);
			return 1;
		}
		return add_input(p, c, reg) ? -ENOMEM : 0;
	}
	for (unsigned i = 0; i < p->nmet; i++)
		if (!strcmp(p->met[i].def->name, name)) {
			if (p->state[i] != 2) {
				snprintf(why, wl, "its definition goes round in a circle through %s", name);
				return 1;
			}
			if (!p->met[i].available) {
				snprintf(why, wl, "needs %s, which is unavailable: %s", name,
					 p->met[i].reason);
				return 1;
			}
			*reg = p->alias[i];	/* may be a constant: folding goes on */
			return 0;
		}
	if (!strncmp(name, "MALI_CONFIG_", 12))
		snprintf(why, wl, "needs the constant %s, which this tool does not know", name);
	else
		snprintf(why, wl, "needs %s, which %s does not have", name, p->gpu->name);
	return 1;
}

/* Compile node @n; the result ends in *res (a register). */
static int compile_node(struct mpc_prog *p, const struct mpc_expr *e, unsigned n, unsigned depth,
			unsigned target, unsigned *res, char *why, size_t wl)
{
	const struct node *nd = &e->node[n];
	unsigned ra, rb, d;
	uint8_t op;
	int r;

	switch (nd->op) {
	case N_NUM:
		r = add_const(p, nd->num, res);
		return r;
	case N_SYM:
		return resolve(p, e->sym[nd->sym], res, why, wl);
	case N_NEG:
		r = compile_node(p, e, nd->a, depth, R_TMP | depth, &ra, why, wl);
		if (r)
			return r;
		if (R_CLASS(ra) == R_CST)
			return add_const(p, -p->cst[R_NUM(ra)], res);
		if (depth + 2 > p->ntmp)
			p->ntmp = depth + 2;
		d = target ? target : (R_TMP | depth);
		if (emit(p, OP_NEG, d, ra, 0))
			return -ENOMEM;
		*res = d;
		return 0;
	default:
		break;
	}
	op = nd->op == N_ADD ? OP_ADD : nd->op == N_SUB ? OP_SUB : nd->op == N_MUL ? OP_MUL :
	     nd->op == N_DIV ? OP_DIV : nd->op == N_MIN ? OP_MIN : OP_MAX;
	if (depth + 2 >= 0x1FFF)
		return -E2BIG;
	r = compile_node(p, e, nd->a, depth, 0, &ra, why, wl);
	if (r)
		return r;
	r = compile_node(p, e, nd->b, depth + 1, 0, &rb, why, wl);
	if (r)
		return r;
	if (R_CLASS(ra) == R_CST && R_CLASS(rb) == R_CST)
		return add_const(p, fold(op, p->cst[R_NUM(ra)], p->cst[R_NUM(rb)]), res);
	if (depth + 2 > p->ntmp)
		p->ntmp = depth + 2;
	d = target ? target : (R_TMP | depth);
	/* (x / y) * K or K * (x / y): fuse with the division just emitted */
	if (op == OP_MUL && p->ncode) {
		struct insn *last = &p->code[p->ncode - 1];
		unsigned k = R_CLASS(rb) == R_CST ? rb : R_CLASS(ra) == R_CST ? ra : 0;
		unsigned q = k == rb ? ra : rb;

		if (k && last->op == OP_DIV && last->d == q && R_CLASS(q) == R_TMP) {
			last->op = OP_DIVK;
			last->d = (uint16_t)d;
			last->c = (uint16_t)k;
			*res = d;
			return 0;
		}
	}
	if (emit(p, op, d, ra, rb))
		return -ENOMEM;
	*res = d;
	return 0;
}

static int compile_metric(struct mpc_prog *p, unsigned mi)
{
	const struct mpc_expr *e = mpc_metric_expr(p->db, p->met_db[mi]);
	char why[256] = "";
	unsigned code0, res;
	int r;

	if (p->state[mi])
		return 0;	/* done, or in progress (a cycle: resolve() reports it) */
	p->state[mi] = 1;
	/* compile the metrics this one uses first, so code never interleaves */
	for (unsigned s = 0; s < e->nsyms; s++) {
		const char *name = e->sym[s];
		int is_cfg = 0;

		for (unsigned i = 0; i < MPC_CFG_COUNT; i++)
			is_cfg |= !strcmp(name, cfg_names[i]);
		if (is_cfg || mpc_gpu_find_counter(p->gpu, name))
			continue;
		for (unsigned i = 0; i < p->nmet; i++)
			if (!strcmp(p->met[i].def->name, name)) {
				r = compile_metric(p, i);
				if (r < 0)
					return r;
				break;
			}
	}
	code0 = p->ncode;
	r = compile_node(p, e, e->root, 0, R_MET | mi, &res, why, sizeof(why));
	if (r < 0)
		return r;
	p->state[mi] = 2;
	if (r > 0) {
		p->ncode = code0;	/* drop partial code */
		p->met[mi].available = 0;
		p->reason[mi] = strdup(why);
		p->met[mi].reason = p->reason[mi] ? p->reason[mi] : "unavailable";
		return 0;
	}
	/* a constant, an input or another metric: no code, just an alias */
	p->alias[mi] = res;
	p->met[mi].available = 1;
	p->met[mi].reason = NULL;
	return 0;
}

static uint16_t renum(const struct mpc_prog *p, unsigned r)
{
	unsigned n = R_NUM(r);

	switch (R_CLASS(r)) {
	case R_IN:
		return (uint16_t)n;
	case R_CFG:
		return (uint16_t)(p->nin + n);
	case R_CST:
		return (uint16_t)(p->nin + MPC_CFG_COUNT + n);
	case R_TMP:
		return (uint16_t)(p->nin + MPC_CFG_COUNT + p->ncst + p->nmet + n);
	default:
		return (uint16_t)(p->nin + MPC_CFG_COUNT + p->ncst + (r - R_MET));
	}
}

void mpc_prog_free(struct mpc_prog *p)
{
	if (!p)
		return;
	if (p->reason)
		for (unsigned i = 0; i < p->nmet; i++)
			free(p->reason[i]);
	free(p->reason);
	free(p->met);
	free(p->met_db);
	free(p->met_reg);
	free(p->state);
	free(p->alias);
	free(p->fix);
	free(p->shifted);
	free(p->in);
	free(p->cst);
	free(p->code);
	free(p->batch);
	free(p->sd);
	free(p->sa);
	free(p->sb);
	free(p->sc);
	free(p->reg);
	free(p->sum);
	free(p);
}

/*
 * Schedule the compiled program for evaluation. The compiler reuses a few
 * temporary registers; renaming each temporary's definition to a register of
 * its own leaves only true dependencies, so every instruction can be given a
 * level (one more than the levels of the instructions whose results it
 * reads) and instructions of one level may run in any order. They are sorted
 * by level, then operation, into batches that the evaluator runs as tight
 * loops without a jump per instruction. Values are exactly those of running
 * the program in order: the same operations on the same operands.
 */
static int schedule(struct mpc_prog *p)
{
	unsigned tbase = p->nin + MPC_CFG_COUNT + p->ncst + p->nmet, ntnew = 0, maxlvl = 0;
	unsigned nreg, *map = NULL, *lvl = NULL, *ilvl = NULL, *order = NULL, *cnt = NULL;
	int r = -ENOMEM;

	map = calloc(p->ntmp + 1, sizeof(*map));
	ilvl = calloc(p->ncode + 1, sizeof(*ilvl));
	order = calloc(p->ncode + 1, sizeof(*order));
	if (!map || !ilvl || !order)
		goto out;
	/* SSA: a fresh temporary for each definition */
	for (unsigned i = 0; i < p->ncode; i++) {
		struct insn *in = &p->code[i];

		if (in->a >= tbase)
			in->a = (uint16_t)map[in->a - tbase];
		if (in->b >= tbase)
			in->b = (uint16_t)map[in->b - tbase];
		if (in->c >= tbase)
			in->c = (uint16_t)map[in->c - tbase];
		if (in->d >= tbase) {
			if (tbase + ntnew > 0xFFFF) {
				r = -E2BIG;
				goto out;
			}
			map[in->d - tbase] = tbase + ntnew;
			in->d = (uint16_t)(tbase + ntnew++);
		}
	}
	p->ntmp = ntnew;
	nreg = tbase + ntnew;
	lvl = calloc(nreg + 1, sizeof(*lvl));
	if (!lvl)
		goto out;
	for (unsigned i = 0; i < p->ncode; i++) {
		const struct insn *in = &p->code[i];
		unsigned l = lvl[in->a];

		if (lvl[in->b] > l)
			l = lvl[in->b];
		if (lvl[in->c] > l)
			l = lvl[in->c];
		ilvl[i] = l * 16 + in->op;	/* sort key: level, then operation */
		lvl[in->d] = l + 1;
		if (l + 1 > maxlvl)
			maxlvl = l + 1;
	}
	/* counting sort by key, stable */
	cnt = calloc((size_t)maxlvl * 16 + 1, sizeof(*cnt));
	if (!cnt)
		goto out;
	for (unsigned i = 0; i < p->ncode; i++)
		cnt[ilvl[i] + 1]++;
	for (unsigned k = 1; k <= maxlvl * 16; k++)
		cnt[k] += cnt[k - 1];
	for (unsigned i = 0; i < p->ncode; i++)
		order[cnt[ilvl[i]]++] = i;
	p->sd = calloc(p->ncode + 1, sizeof(uint16_t));
	p->sa = calloc(p->ncode + 1, sizeof(uint16_t));
	p->sb = calloc(p->ncode + 1, sizeof(uint16_t));
	p->sc = calloc(p->ncode + 1, sizeof(uint16_t));
	p->batch = calloc(p->ncode + 1, sizeof(*p->batch));
	if (!p->sd || !p->sa || !p->sb || !p->sc || !p->batch)
		goto out;
	for (unsigned k = 0; k < p->ncode; k++) {
		const struct insn *in = &p->code[order[k]];
		struct batch *b = p->nbatch ? &p->batch[p->nbatch - 1] : NULL;

		p->sd[k] = in->d;
		p->sa[k] = in->a;
		p->sb[k] = in->b;
		p->sc[k] = in->c;
		if (!b || ilvl[order[k]] != ilvl[order[k - 1]] || b->n == 0xFFFF)
			p->batch[p->nbatch++] = (struct batch){ in->op, 0, k };
		p->batch[p->nbatch - 1].n++;
	}
	r = 0;
out:
	free(map);
	free(lvl);
	free(ilvl);
	free(order);
	free(cnt);
	return r;
}

/*
 * The key of a program: everything its generated code depends on. Constants
 * and config values are read from their registers, so they are not in it.
 *   nreg, cpb, nin, (offset, shift) per input, ncode, (op, d, a, b, c) per
 *   scheduled instruction
 */
uint32_t *mpc_prog_key(const struct mpc_prog *p, unsigned *n)
{
	unsigned len = 4 + 2 * p->nin + 5 * p->ncode, k = 0;
	uint32_t *key = malloc(len * sizeof(*key));

	*n = 0;
	if (!key)
		return NULL;
	key[k++] = p->nreg;
	key[k++] = p->cpb;
	key[k++] = p->nin;
	for (unsigned i = 0; i < p->nin; i++) {
		key[k++] = p->in[i].off;
		key[k++] = p->in[i].shift;
	}
	key[k++] = p->ncode;
	for (unsigned b = 0; b < p->nbatch; b++)
		for (unsigned i = p->batch[b].first; i < p->batch[b].first + p->batch[b].n; i++) {
			key[k++] = p->batch[b].op;
			key[k++] = p->sd[i];
			key[k++] = p->sa[i];
			key[k++] = p->sb[i];
			key[k++] = p->sc[i];
		}
	*n = k;
	return key;
}

static void find_gen(struct mpc_prog *p)
{
	unsigned n;
	uint32_t *key = mpc_prog_key(p, &n);

	p->gen = NULL;
	for (unsigned i = 0; key && i < mpc_nevalgen; i++)
		if (mpc_evalgen[i].nkey == n && !memcmp(mpc_evalgen[i].key, key, n * sizeof(*key))) {
			p->gen = &mpc_evalgen[i];
			break;
		}
	free(key);
}

int mpc_prog_compiled(const struct mpc_prog *p)
{
	return p->gen != NULL;
}

/*
 * Register @r as an operand of the generated code. run() and run4() keep
 * every register in R[]; eval() and eval4() (@fused) keep the inputs in
 * locals i<n> and the temporaries in locals t<n>, defined once each (the
 * program is in SSA form after schedule()) and left to the compiler's
 * register allocation, and write the metrics' results straight into the
 * caller's out[]. A register some metric's result aliases (p->fix) is
 * stored in R[] as well.
 */
static const char *opnd(const struct mpc_prog *p, int fused, unsigned r, char *buf)
{
	unsigned tbase = p->met_base + p->nmet;

	if (fused && r < p->nin)
		sprintf(buf, "i%u", r);
	else if (fused && r >= tbase)
		sprintf(buf, "t%u", r);
	else if (fused && r >= p->met_base)
		sprintf(buf, "out[%u]", r - p->met_base);
	else
		sprintf(buf, "R[%u]", r);
	return buf;
}

/* is register @r a metric's result that lives elsewhere (read from R[])? */
static int aliased(const struct mpc_prog *p, unsigned r)
{
	for (unsigned i = 0; i < p->nfix; i++)
		if (p->fix[i].reg == r)
			return 1;
	return 0;
}

/* the start of an assignment of register @d */
static void emit_def(const struct mpc_prog *p, FILE *f, int fused, unsigned d)
{
	char b[16];

	opnd(p, fused, d, b);
	fprintf(f, "\t%s%s = ", b[0] == 'i' || b[0] == 't' ? "const double " : "", b);
	if (b[0] != 'R' && aliased(p, d))
		fprintf(f, "R[%u] = ", d);
}

/* the definition of input register @r, the first time (@loaded) */
static void emit_input(const struct mpc_prog *p, FILE *f, unsigned r, uint8_t *loaded)
{
	if (r >= p->nin || loaded[r])
		return;
	loaded[r] = 1;
	emit_def(p, f, 1, r);
	if (p->in[r].shift)
		fprintf(f, "(double)(int64_t)(S[%u] << %u);\n", p->in[r].off, p->in[r].shift);
	else
		fprintf(f, "(double)(int64_t)S[%u];\n", p->in[r].off);
}

/* register field @field ('a', 'b' or 'k') of the @m instructions from @k, as a vector */
static void emit_lanes(const struct mpc_prog *p, FILE *f, int fused, unsigned k, unsigned m,
		       char field)
{
	const uint16_t *r = field == 'a' ? p->sa : field == 'b' ? p->sb : p->sc;
	char b[16];

	fprintf(f, "(mpc_v%ud){ ", m);
	for (unsigned j = k; j < k + m; j++)
		fprintf(f, "%s%s", opnd(p, fused, r[j], b), j + 1 < k + m ? ", " : " }");
}

/*
 * The program as a C function <prefix>_<sfx>: the division batches @w at a
 * time (w = 4, 2), the rest one by one; @fused: eval(), which loads the
 * inputs itself.
 */
static int emit_run(const struct mpc_prog *p, FILE *f, const char *prefix, const char *sfx,
		    const char *attr, unsigned w, int fused)
{
	char a[16], b[16], c[16];
	uint8_t *loaded = calloc(p->nin + 1, 1);

	if (!loaded)
		return -ENOMEM;
	fprintf(f, "%sstatic void %s_%s(double *restrict R%s)\n{\n\t(void)R;\n", attr, prefix, sfx,
		fused ? ", const uint64_t *restrict S, double *restrict out" : "");
	if (fused)
		fprintf(f, "\t(void)S;\n");
	/* a metric no instruction computes: its register's NaN, or what p->fix puts there */
	for (unsigned i = 0; fused && i < p->nmet; i++) {
		unsigned k = 0;

		while (k < p->ncode && p->sd[k] != p->met_base + i)
			k++;
		if (k == p->ncode)
			fprintf(f, "\tout[%u] = R[%u];\n", i, p->met_base + i);
	}
	for (unsigned bi = 0; bi < p->nbatch; bi++) {
		const struct batch *bt = &p->batch[bi];
		unsigned end = bt->first + bt->n;

		for (unsigned k = bt->first; k < end; k++) {
			unsigned m = w == 4 && k + 3 < end ? 4 : k + 1 < end ? 2 : 1;

			/* inputs are loaded just before their first use */
			for (unsigned j = k; fused && j < k + m; j++) {
				emit_input(p, f, p->sa[j], loaded);
				emit_input(p, f, p->sb[j], loaded);
				emit_input(p, f, p->sc[j], loaded);
			}
			opnd(p, fused, p->sa[k], a);
			opnd(p, fused, p->sb[k], b);
			opnd(p, fused, p->sc[k], c);
			if ((bt->op == OP_DIV || bt->op == OP_DIVK) && m > 1) {
				/* y<k>, q<k>: the divisors and the quotients */
				fprintf(f, "\tconst mpc_v%ud y%u = ", m, k);
				emit_lanes(p, f, fused, k, m, 'b');
				fprintf(f, ";\n\tconst mpc_v%ud q%u = nan%u(", m, k, m);
				emit_lanes(p, f, fused, k, m, 'a');
				fprintf(f, " / y%u", k);
				if (bt->op == OP_DIVK) {
					fprintf(f, " * ");
					emit_lanes(p, f, fused, k, m, 'k');
				}
				fprintf(f, ", y%u);\n", k);
				for (unsigned j = 0; j < m; j++) {
					emit_def(p, f, fused, p->sd[k + j]);
					fprintf(f, "q%u[%u];\n", k, j);
				}
				k += m - 1;
				continue;
			}
			emit_def(p, f, fused, p->sd[k]);
			switch (bt->op) {
			case OP_ADD:
				fprintf(f, "%s + %s;\n", a, b);
				break;
			case OP_SUB:
				fprintf(f, "%s - %s;\n", a, b);
				break;
			case OP_MUL:
				fprintf(f, "%s * %s;\n", a, b);
				break;
			case OP_DIV:
				fprintf(f, "%s == 0 ? NAN : %s / %s;\n", b, a, b);
				break;
			case OP_DIVK:
				fprintf(f, "%s == 0 ? NAN : %s / %s * %s;\n", b, a, b, c);
				break;
			case OP_MIN:
			case OP_MAX:
				fprintf(f, "(%s != %s || %s != %s) ? NAN : (%s %c %s ? %s : %s);\n", a, a, b, b,
					a, bt->op == OP_MIN ? '<' : '>', b, a, b);
				break;
			case OP_NEG:
				fprintf(f, "-%s;\n", a);
				break;
			default:
				fprintf(f, "%s;\n", a);
				break;
			}
		}
	}
	/* inputs no instruction reads: stored for the metrics that alias them */
	for (unsigned i = 0; fused && i < p->nin; i++)
		if (aliased(p, i))
			emit_input(p, f, i, loaded);
	free(loaded);
	fprintf(f, "}\n\n");
	return 0;
}

/*
 * The generated code does what run() and load_inputs() do, in the same
 * order, with the same operations: the results are bit for bit the
 * interpreter's (the file is compiled with -ffp-contract=off). Divisions of
 * one batch are done two (or, on x86-64 with AVX2, four) in the lanes of one
 * division: each lane is rounded as a scalar division is, and a zero
 * divisor gives the scalar code's NaN.
 */
int mpc_prog_emit_c(const struct mpc_prog *p, FILE *f, const char *prefix)
{
	fprintf(f, "static void %s_load(double *restrict R, const uint64_t *restrict S)\n{\n"
		"\t(void)R;\n\t(void)S;\n", prefix);
	for (unsigned i = 0; i < p->nin; i++)
		if (p->in[i].shift)
			fprintf(f, "\tR[%u] = (double)(int64_t)(S[%u] << %u);\n", i, p->in[i].off,
				p->in[i].shift);
		else
			fprintf(f, "\tR[%u] = (double)(int64_t)S[%u];\n", i, p->in[i].off);
	fprintf(f, "}\n\n");
	if (emit_run(p, f, prefix, "run", "", 2, 0) || emit_run(p, f, prefix, "eval", "", 2, 1))
		return -ENOMEM;
	fprintf(f, "#ifdef MPC_HAVE_RUN4\n");
	if (emit_run(p, f, prefix, "run4", "MPC_AVX2 ", 4, 0) ||
	    emit_run(p, f, prefix, "eval4", "MPC_AVX2 ", 4, 1))
		return -ENOMEM;
	fprintf(f, "#endif\n\n");
	return ferror(f) ? -EIO : 0;
}

int mpc_prog_new(const struct mpc_db *db, const struct mpc_gpu_def *gpu,
		 const struct mpc_layout *l, struct mpc_prog **out, struct mpc_err *err)
{
	struct mpc_prog *p;
	unsigned nm = mpc_db_metric_count(db);
	int r = 0;

	*out = NULL;
	if (l && l->counters_per_block != gpu->counters_per_block)
		return mpc_fail(err, -EINVAL, "the dump has %u counters per block but %s has %u; "
				"wrong GPU for this dump?", l->counters_per_block, gpu->name,
				gpu->counters_per_block);
	p = calloc(1, sizeof(*p));
	if (!p)
		return mpc_fail(err, -ENOMEM, "out of memory");
	p->db = db;
	p->gpu = gpu;
	p->cpb = gpu->counters_per_block;
	p->met = calloc(nm + 1, sizeof(*p->met));
	p->met_db = calloc(nm + 1, sizeof(*p->met_db));
	p->state = calloc(nm + 1, 1);
	p->reason = calloc(nm + 1, sizeof(char *));
	p->alias = calloc(nm + 1, sizeof(unsigned));
	p->sum = calloc((size_t)MPC_BLK_KINDS * p->cpb, sizeof(uint64_t));
	if (!p->met || !p->met_db || !p->state || !p->reason || !p->alias || !p->sum) {
		mpc_prog_free(p);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	/* the metrics that apply; a later definition of a name wins */
	for (unsigned i = 0; i < nm; i++) {
		const struct mpc_metric_def *m = mpc_db_metric(db, i);
		unsigned j;

		if (!mpc_metric_applies(m, gpu))
			continue;
		for (j = 0; j < p->nmet; j++)
			if (!strcmp(p->met[j].def->name, m->name))
				break;
		p->met[j].def = m;
		p->met_db[j] = i;
		if (j == p->nmet)
			p->nmet++;
	}
	if (p->nmet >= 0x1FFF) {
		mpc_prog_free(p);
		return mpc_fail(err, -E2BIG, "too many metrics");
	}
	for (unsigned i = 0; i < p->nmet && !r; i++)
		r = compile_metric(p, i);
	if (r) {
		mpc_prog_free(p);
		return mpc_fail(err, r, "cannot compile the metrics for %s: %s", gpu->name,
				r == -E2BIG ? "program too large" : "out of memory");
	}
	p->nreg = p->nin + MPC_CFG_COUNT + p->ncst + p->nmet + p->ntmp;
	if (p->nreg > 0xFFFF) {
		mpc_prog_free(p);
		return mpc_fail(err, -E2BIG, "metric program too large");
	}
	for (unsigned i = 0; i < p->ncode; i++) {
		struct insn *in = &p->code[i];

		in->d = renum(p, in->d);
		in->a = renum(p, in->a);
		in->b = in->op == OP_NEG || in->op == OP_MOV ? in->a : renum(p, in->b);
		in->c = in->op == OP_DIVK ? renum(p, in->c) : in->a;
	}
	r = schedule(p);
	p->nreg = p->nin + MPC_CFG_COUNT + p->ncst + p->nmet + p->ntmp;
	if (r) {
		mpc_prog_free(p);
		return mpc_fail(err, r, "cannot compile the metrics for %s: %s", gpu->name,
				r == -E2BIG ? "program too large" : "out of memory");
	}
	p->reg = calloc(p->nreg + 1, sizeof(double));
	p->met_reg = calloc(p->nmet + 1, sizeof(uint16_t));
	if (!p->reg || !p->met_reg) {
		mpc_prog_free(p);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < p->ncst; i++)
		p->reg[p->nin + MPC_CFG_COUNT + i] = p->cst[i];
	p->met_base = p->nin + MPC_CFG_COUNT + p->ncst;
	p->fix = calloc(p->nmet + 1, sizeof(*p->fix));
	if (!p->fix) {
		mpc_prog_free(p);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < p->nmet; i++) {
		p->met_reg[i] = renum(p, p->met[i].available ? p->alias[i] : (R_MET | i));
		/* unavailable metrics read as NaN: nothing ever writes their register */
		p->reg[p->met_base + i] = NAN;
		if (p->met_reg[i] != p->met_base + i) {
			p->fix[p->nfix].met = (uint16_t)i;
			p->fix[p->nfix++].reg = p->met_reg[i];
		}
	}
	p->full_mask = p->cpb == 128 ? 0xffffffffu : 0xffffu;
	p->shifted = calloc(p->nin + 1, sizeof(*p->shifted));
	if (!p->shifted) {
		mpc_prog_free(p);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < p->nin; i++)
		if (p->in[i].shift)
			p->shifted[p->nshifted++] = (uint16_t)i;
	find_gen(p);
	*out = p;
	return 0;
}

unsigned mpc_prog_count(const struct mpc_prog *p)
{
	return p->nmet;
}

const struct mpc_metric *mpc_prog_metric(const struct mpc_prog *p, unsigned i)
{
	return i < p->nmet ? &p->met[i] : NULL;
}

int mpc_prog_find(const struct mpc_prog *p, const char *name)
{
	for (unsigned i = 0; i < p->nmet; i++)
		if (!strcmp(p->met[i].def->name, name))
			return (int)i;
	return -1;
}

unsigned mpc_prog_ninsns(const struct mpc_prog *p)
{
	return p->ncode;
}

/* -------------------------------------------------------------- evaluation */

int mpc_prog_reference;

static void run(struct mpc_prog *p, const struct mpc_config *c, double *out)
{
	double *R = p->reg;

	memcpy(R + p->nin, c->v, sizeof(c->v));
	for (const struct batch *bt = p->batch, *end = p->batch + p->nbatch; bt < end; bt++) {
		const uint16_t *restrict d = p->sd + bt->first, *restrict a = p->sa + bt->first;
		const uint16_t *restrict b = p->sb + bt->first, *restrict k = p->sc + bt->first;
		unsigned n = bt->n;

		/* the instructions of a batch are independent: no jump between them */
		switch (bt->op) {
		case OP_ADD:
			for (unsigned i = 0; i < n; i++)
				R[d[i]] = R[a[i]] + R[b[i]];
			break;
		case OP_SUB:
			for (unsigned i = 0; i < n; i++)
				R[d[i]] = R[a[i]] - R[b[i]];
			break;
		case OP_MUL:
			for (unsigned i = 0; i < n; i++)
				R[d[i]] = R[a[i]] * R[b[i]];
			break;
		case OP_DIV:
			for (unsigned i = 0; i < n; i++) {
				double y = R[b[i]];

				R[d[i]] = y == 0 ? NAN : R[a[i]] / y;
			}
			break;
		case OP_DIVK:
			for (unsigned i = 0; i < n; i++) {
				double y = R[b[i]];

				R[d[i]] = y == 0 ? NAN : R[a[i]] / y * R[k[i]];
			}
			break;
		case OP_MIN:
			for (unsigned i = 0; i < n; i++) {
				double x = R[a[i]], y = R[b[i]];

				R[d[i]] = (x != x || y != y) ? NAN : (x < y ? x : y);
			}
			break;
		case OP_MAX:
			for (unsigned i = 0; i < n; i++) {
				double x = R[a[i]], y = R[b[i]];

				R[d[i]] = (x != x || y != y) ? NAN : (x > y ? x : y);
			}
			break;
		case OP_NEG:
			for (unsigned i = 0; i < n; i++)
				R[d[i]] = -R[a[i]];
			break;
		default:
			for (unsigned i = 0; i < n; i++)
				R[d[i]] = R[a[i]];
			break;
		}
	}
	/* metric results are contiguous and in order; fix up the aliased ones */
	memcpy(out, R + p->met_base, p->nmet * sizeof(double));
	for (unsigned i = 0; i < p->nfix; i++)
		out[p->fix[i].met] = R[p->fix[i].reg];
}

/* was every counter the program reads collected? */
static int all_collected(const struct mpc_prog *p, const struct mpc_sample *s)
{
	return (s->kind_enable[0] & s->kind_enable[1] & s->kind_enable[2] & s->kind_enable[3]) ==
	       p->full_mask;
}

/* counter registers from per-kind totals (summed) */
static void load_inputs(struct mpc_prog *p, const struct mpc_sample *s)
{
	const uint64_t *sum = s->kind_sum;
	double *R = p->reg;

	if (!s->nsamples || s->layout->counters_per_block != p->cpb) {
		for (unsigned i = 0; i < p->nin; i++)
			R[i] = NAN;
		return;
	}
	/* values stay far below 2^63: a signed conversion is exact and fast */
	for (unsigned i = 0; i < p->nin; i++)
		R[i] = (double)(int64_t)sum[p->in[i].off];
	for (unsigned i = 0; i < p->nshifted; i++) {
		const struct input *in = &p->in[p->shifted[i]];

		R[p->shifted[i]] = (double)(int64_t)(sum[in->off] << in->shift);
	}
	/* counters outside an enable mask have no value */
	if (!all_collected(p, s))
		for (unsigned i = 0; i < p->nin; i++) {
			const struct input *in = &p->in[i];

			if (!((s->kind_enable[in->kind] >> (in->idx >> 2)) & 1))
				R[i] = NAN;
		}
}

/* counter registers with block kind @only_kind taken from one instance */
static void load_inputs_instance(struct mpc_prog *p, const struct mpc_sample *s,
				 unsigned only_kind, int instance)
{
	unsigned cpb = p->cpb;
	uint64_t *sum = p->sum;
	uint32_t mask[MPC_BLK_KINDS];
	unsigned seen[MPC_BLK_KINDS] = { 0 };

	if (!s->nsamples || s->layout->counters_per_block != cpb) {
		for (unsigned i = 0; i < p->nin; i++)
			p->reg[i] = NAN;
		return;
	}
	memset(sum, 0, (size_t)MPC_BLK_KINDS * cpb * sizeof(uint64_t));
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
		mask[k] = 0xffffffffu;
	for (unsigned i = 0; i < s->nblocks; i++) {
		const struct mpc_block *b = &s->blk[i];
		uint64_t *d;

		if (b->kind == only_kind && b->instance != instance)
			continue;
		d = sum + b->kind * cpb;
		for (unsigned j = 0; j < cpb; j++)
			d[j] += mpc_block_value(s, b, j);
		mask[b->kind] &= b->enable;
		seen[b->kind]++;
	}
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
		if (!seen[k])
			mask[k] = 0;
	for (unsigned i = 0; i < p->nin; i++) {
		const struct input *in = &p->in[i];

		p->reg[i] = ((mask[in->kind] >> (in->idx >> 2)) & 1) ?
			    (double)(int64_t)(sum[in->off] << in->shift) : NAN;
	}
}

/* counters outside an enable mask have no value */
static void mask_inputs(struct mpc_prog *p, const struct mpc_sample *s)
{
	if (!all_collected(p, s))
		for (unsigned i = 0; i < p->nin; i++) {
			const struct input *in = &p->in[i];

			if (!((s->kind_enable[in->kind] >> (in->idx >> 2)) & 1))
				p->reg[i] = NAN;
		}
}

/*
 * run() with the generated code in place of the interpreter's loops; with
 * @sum, the inputs are loaded by the code too (eval()), from these totals,
 * and the results written into @out.
 */
static void run_gen(struct mpc_prog *p, const struct mpc_config *c, const uint64_t *sum,
		    double *out)
{
	double *R = p->reg;
	int avx2 = p->gen->run4 && mpc_prog_reference != 2 && mpc_cpu_vectors() >= 1;

	memcpy(R + p->nin, c->v, sizeof(c->v));
	if (sum) {
		(avx2 ? p->gen->eval4 : p->gen->eval)(R, sum, out);
	} else {
		(avx2 ? p->gen->run4 : p->gen->run)(R);
		memcpy(out, R + p->met_base, p->nmet * sizeof(double));
	}
	for (unsigned i = 0; i < p->nfix; i++)
		out[p->fix[i].met] = R[p->fix[i].reg];
}

void mpc_prog_eval(struct mpc_prog *p, const struct mpc_sample *s,
		   const struct mpc_config *c, double *out)
{
	if (p->gen && !mpc_prog_reference) {
		if (!s->nsamples || s->layout->counters_per_block != p->cpb) {
			load_inputs(p, s);
		} else if (all_collected(p, s)) {
			run_gen(p, c, s->kind_sum, out);
			return;
		} else {
			p->gen->load(p->reg, s->kind_sum);
			mask_inputs(p, s);
		}
		run_gen(p, c, NULL, out);
		return;
	}
	load_inputs(p, s);
	run(p, c, out);
}

void mpc_prog_eval_instance(struct mpc_prog *p, const struct mpc_sample *s,
			    const struct mpc_config *c, unsigned kind, int instance,
			    double *out)
{
	if (instance < 0) {
		mpc_prog_eval(p, s, c, out);
		return;
	}
	load_inputs_instance(p, s, kind, instance);
	if (p->gen && !mpc_prog_reference)
		run_gen(p, c, NULL, out);
	else
		run(p, c, out);
}
