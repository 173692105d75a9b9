// SPDX-License-Identifier: MIT
/*
 * Device descriptions: from the GET_INFO ioctl, from the debugfs gpu_info
 * text, or from explicit parameters; all end in mpc_desc_finish(), which
 * checks them and computes the dump geometry the same way the driver does.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpc_internal.h"
#include "mali_perfcnt_drm.h"

/* a debugfs gpu_info text is well under 1 KiB; anything this big is not one */
#define GPU_INFO_MAX 65536

unsigned mpc_desc_bus_bytes(const struct mpc_desc *d)
{
	unsigned v = (d->l2_features >> 24) & 0xff;	/* log2(bus width in bits) */

	if (v < 3 || v > 16)
		return 0;
	return (1u << v) / 8;
}

int mpc_desc_finish(struct mpc_desc *d, struct mpc_err *err)
{
	uint32_t groups, shader_blocks, blocks, size, cpb;

	if (d->layout != MPC_LAYOUT_V4 && d->layout != MPC_LAYOUT_V5)
		return mpc_fail(err, -EINVAL, "unknown dump layout %u; only v4 and v5 exist", d->layout);
	cpb = d->counters_per_block ? d->counters_per_block : 64;
	if (cpb != 64 && cpb != 128)
		return mpc_fail(err, -EINVAL, "%u counters per block is not supported (64 or 128)", cpb);
	if (d->layout == MPC_LAYOUT_V4 && cpb != 64)
		return mpc_fail(err, -EINVAL, "the v4 layout has 64 counters per block, not %u", cpb);
	if (!d->shader_present)
		return mpc_fail(err, -EINVAL, "shader_present is 0: a GPU has at least one shader core; "
				"give the core mask (e.g. --cores 0xf)");
	if (d->layout == MPC_LAYOUT_V5) {
		if (!d->nr_l2)
			d->nr_l2 = ((d->mem_features >> 8) & 0xf) + 1;
		if (d->nr_l2 > 16)
			return mpc_fail(err, -EINVAL, "%u L2 slices is impossible (MEM_FEATURES allows 1..16)",
					d->nr_l2);
		if (!d->l2_present)
			d->l2_present = 1;
		groups = 1;
		shader_blocks = mpc_fls64(d->shader_present);
		if (d->nr_fw > 1 || d->nr_csg > 32)
			return mpc_fail(err, -EINVAL, "%u firmware and %u CSG blocks: a CSF GPU has at "
					"most 1 and 32", d->nr_fw, d->nr_csg);
		blocks = 2 + d->nr_l2 + shader_blocks + d->nr_fw + d->nr_csg;
	} else {
		if (!d->l2_present)
			return mpc_fail(err, -EINVAL, "l2_present is 0: the v4 layout needs one bit per core group");
		groups = mpc_popcount64(d->l2_present);
		if (groups > 8)
			return mpc_fail(err, -EINVAL, "%u core groups is more than a v4 GPU has", groups);
		if (mpc_fls64(d->shader_present) > 4 * groups)
			return mpc_fail(err, -EINVAL, "shader_present 0x%llx has cores beyond the 4 per core "
					"group of the v4 layout (%u group%s); check l2_present",
					(unsigned long long)d->shader_present, groups, groups > 1 ? "s" : "");
		if (!d->nr_l2)
			d->nr_l2 = groups;
		shader_blocks = 4 * groups;
		blocks = 8 * groups;
	}
	size = blocks * cpb * 4;
#define AGREE(field, val, what)							\
	do {									\
		if (d->field && d->field != (val))				\
			return mpc_fail(err, -EINVAL, "%s is %u but the core and L2 masks give %u; " \
					"the description is inconsistent (wrong file?)", \
					what, (unsigned)d->field, (unsigned)(val)); \
		d->field = (val);						\
	} while (0)
	AGREE(nr_core_groups, groups, "nr_core_groups");
	AGREE(nr_shader_blocks, shader_blocks, "nr_shader_blocks");
	AGREE(nr_blocks, blocks, "nr_blocks");
	AGREE(counters_per_block, cpb, "counters_per_block");
	AGREE(dump_size, size, "dump_size");
#undef AGREE
	if (!d->nr_counter_sets)
		d->nr_counter_sets = 1;
	return 0;
}

static void desc_init(struct mpc_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->enabled = -1;
	d->counter_set = -1;
	d->simulated = -1;
}

int mpc_desc_from_get_info(struct mpc_desc *d, const struct drm_mali_perfcnt_get_info *in,
			   struct mpc_err *err)
{
	desc_init(d);
	d->gpu_id = in->gpu_id;
	d->layout = in->layout;
	d->shader_present = in->shader_present;
	d->l2_present = in->l2_present;
	d->nr_l2 = in->nr_l2;
	d->nr_core_groups = in->nr_core_groups;
	d->nr_shader_blocks = in->nr_shader_blocks;
	d->nr_blocks = in->nr_blocks;
	d->counters_per_block = in->counters_per_block;
	d->dump_size = in->dump_size;
	d->nr_counter_sets = in->nr_counter_sets;
	d->l2_features = in->l2_features;
	d->mem_features = in->mem_features;
	d->uapi_version = in->uapi_version;
	d->caps = in->caps;
	d->gpu_freq_hz = in->gpu_freq_hz;
	/* not in GET_INFO since uAPI revision 2: the backend reads debugfs */
	d->simulated = -1;
	memcpy(d->product, in->product, sizeof(d->product));
	d->product[sizeof(d->product) - 1] = 0;
	for (char *p = d->product; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	if (!d->nr_l2 || !d->nr_blocks || !d->dump_size)
		return mpc_fail(err, -EPROTO, "GET_INFO returned an empty description; the driver is "
				"too old or broken (uapi_version %u)", d->uapi_version);
	return mpc_desc_finish(d, err);
}

int mpc_desc_from_gpu(struct mpc_desc *d, const struct mpc_gpu_def *gpu, uint64_t cores,
		      unsigned l2, struct mpc_err *err)
{
	desc_init(d);
	if (!cores)
		return mpc_fail(err, -EINVAL, "a core mask is needed with --gpu (e.g. --cores 0xf)");
	if (gpu->max_cores && (unsigned)__builtin_popcountll(cores) > gpu->max_cores)
		return mpc_fail(err, -EINVAL, "--cores 0x%llx has %u cores but a %s has at most %u; "
				"give its SHADER_PRESENT", (unsigned long long)cores,
				(unsigned)__builtin_popcountll(cores), gpu->name, gpu->max_cores);
	d->gpu_id = gpu->nmatch ? (uint32_t)gpu->match[0].id << 16 : 0;
	d->layout = gpu->layout;
	d->counters_per_block = gpu->counters_per_block;
	d->shader_present = cores;
	if (!l2)
		l2 = 1;
	if (gpu->layout == MPC_LAYOUT_V4) {
		if (l2 > 8)
			return mpc_fail(err, -EINVAL, "--l2 %u: a v4 GPU has 1..8 core groups", l2);
		d->l2_present = (1ull << l2) - 1;
		d->nr_l2 = l2;
	} else {
		if (l2 > 16)
			return mpc_fail(err, -EINVAL, "--l2 %u: a GPU has 1..16 L2 slices", l2);
		d->l2_present = 1;
		d->nr_l2 = l2;
	}
	d->nr_counter_sets = strcmp(gpu->arch, "midgard") ? 2 : 1;
	snprintf(d->product, sizeof(d->product), "%s", gpu->name);
	return mpc_desc_finish(d, err);
}

/* ------------------------------------------------------------ gpu_info text */

enum {
	K_PRODUCT, K_GPU_ID, K_PRODUCT_ID, K_VERSION, K_SHADER, K_L2P, K_NR_L2, K_L2F, K_MEMF,
	K_LAYOUT, K_GROUPS, K_SBLOCKS, K_BLOCKS, K_CPB, K_SIZE, K_SETS, K_FREQ, K_SIM, K_8186,
	K_ENABLED, K_SET, K_MASKS, K_OWNER, K_NKEYS
};

static const char *const keys[K_NKEYS] = {
	"product", "gpu_id", "product_id", "version", "shader_present", "l2_present", "nr_l2",
	"l2_features", "mem_features", "layout", "nr_core_groups", "nr_shader_blocks",
	"nr_blocks", "counters_per_block", "dump_size", "counter_sets", "gpu_freq_hz",
	"simulated", "hw_issue_8186", "enabled", "counter_set", "masks", "owner",
};

int mpc_desc_parse_gpu_info(struct mpc_desc *d, const char *text, size_t len,
			    const char *origin, struct mpc_err *err)
{
	unsigned char seen[K_NKEYS] = { 0 };
	unsigned lineno = 0;
	size_t pos = 0;
	uint64_t product_id = 0;
	char line[512];

	desc_init(d);
	if (!origin)
		origin = "gpu_info";
	if (len > GPU_INFO_MAX)
		return mpc_fail(err, -EFBIG, "%s is too large for a gpu_info file", origin);
	if (memchr(text, 0, len))
		return mpc_fail(err, -EINVAL, "%s contains NUL bytes; give the text of debugfs gpu_info, "
				"not a dump", origin);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *colon, *val, *key;
		int k = -1;
		uint64_t v = 0;

		lineno++;
		if (n >= sizeof(line))
			return mpc_fail(err, -EINVAL, "%s:%u: line too long; is this a gpu_info file?",
					origin, lineno);
		memcpy(line, text + pos, n);
		line[n] = 0;
		pos += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		if (!n)
			continue;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
				return mpc_fail(err, -EINVAL, "%s:%u: control characters; give the text "
						"of debugfs gpu_info", origin, lineno);
		colon = strchr(line, ':');
		if (!colon || colon == line)
			return mpc_fail(err, -EINVAL, "%s:%u: expected 'key: value'; is this the debugfs "
					"gpu_info text?", origin, lineno);
		*colon = 0;
		key = line;
		for (char *c = key; *c; c++)
			if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
				return mpc_fail(err, -EINVAL, "%s:%u: bad key '%s'", origin, lineno, key);
		val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		for (char *e = val + strlen(val); e > val && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = 0;
		for (int i = 0; i < K_NKEYS; i++)
			if (!strcmp(key, keys[i]))
				k = i;
		if (k < 0)
			continue;	/* keys we do not know are skipped */
		if (seen[k])
			return mpc_fail(err, -EINVAL, "%s:%u: '%s' appears twice", origin, lineno, key);
		seen[k] = 1;
		switch (k) {
		case K_PRODUCT:
			if (strlen(val) >= sizeof(d->product))
				return mpc_fail(err, -EINVAL, "%s:%u: product name too long", origin, lineno);
			strcpy(d->product, val);
			continue;
		case K_OWNER:
			snprintf(d->owner, sizeof(d->owner), "%s", val);
			continue;
		case K_VERSION:
		case K_MASKS:
			continue;
		case K_LAYOUT:
			if (!strcmp(val, "v4"))
				d->layout = MPC_LAYOUT_V4;
			else if (!strcmp(val, "v5"))
				d->layout = MPC_LAYOUT_V5;
			else
				return mpc_fail(err, -EINVAL, "%s:%u: layout '%s' is neither v4 nor v5",
						origin, lineno, val);
			continue;
		default:
			break;
		}
		if (mpc_parse_u64(val, &v))
			return mpc_fail(err, -EINVAL, "%s:%u: '%s' value '%.40s' is not a number",
					origin, lineno, key, val);
		if (k != K_SHADER && k != K_L2P && k != K_FREQ && v > 0xffffffffull)
			return mpc_fail(err, -ERANGE, "%s:%u: '%s' value %s does not fit 32 bits",
					origin, lineno, key, val);
		switch (k) {
		case K_GPU_ID: d->gpu_id = (uint32_t)v; break;
		case K_PRODUCT_ID: product_id = v; break;
		case K_SHADER: d->shader_present = v; break;
		case K_L2P: d->l2_present = v; break;
		case K_NR_L2:
			if (!v || v > 16)
				return mpc_fail(err, -EINVAL, "%s:%u: nr_l2 %llu is not 1..16", origin,
						lineno, (unsigned long long)v);
			d->nr_l2 = (uint32_t)v;
			break;
		case K_L2F: d->l2_features = (uint32_t)v; break;
		case K_MEMF: d->mem_features = (uint32_t)v; break;
		case K_GROUPS: d->nr_core_groups = (uint32_t)v; break;
		case K_SBLOCKS: d->nr_shader_blocks = (uint32_t)v; break;
		case K_BLOCKS: d->nr_blocks = (uint32_t)v; break;
		case K_CPB: d->counters_per_block = (uint32_t)v; break;
		case K_SIZE: d->dump_size = (uint32_t)v; break;
		case K_SETS: d->nr_counter_sets = (uint32_t)v; break;
		case K_FREQ: d->gpu_freq_hz = v; break;
		case K_SIM:
		case K_8186:
		case K_ENABLED:
			if (v > 1)
				return mpc_fail(err, -EINVAL, "%s:%u: '%s' must be 0 or 1", origin, lineno, key);
			if (k == K_SIM)
				d->simulated = (int)v;
			else if (k == K_ENABLED)
				d->enabled = (int)v;
			break;
		case K_SET:
			if (v > 3)
				return mpc_fail(err, -EINVAL, "%s:%u: counter_set %llu is not 0..3", origin,
						lineno, (unsigned long long)v);
			d->counter_set = (int)v;
			break;
		}
	}
	if (!seen[K_GPU_ID] || !seen[K_LAYOUT] || !seen[K_SHADER])
		return mpc_fail(err, -EINVAL, "%s lacks %s; save it with 'cat .../gpu_info > FILE' on the "
				"board", origin, !seen[K_GPU_ID] ? "gpu_id" : !seen[K_LAYOUT] ? "layout" :
				"shader_present");
	if (d->layout == MPC_LAYOUT_V5 && !seen[K_NR_L2] && !seen[K_MEMF])
		return mpc_fail(err, -EINVAL, "%s lacks nr_l2 (and mem_features); cannot size the dump",
				origin);
	if (d->layout == MPC_LAYOUT_V4 && !seen[K_L2P])
		return mpc_fail(err, -EINVAL, "%s lacks l2_present, needed for the v4 layout", origin);
	if (seen[K_PRODUCT_ID] && product_id != (d->gpu_id >> 16))
		return mpc_fail(err, -EINVAL, "%s: product_id 0x%04llx does not match gpu_id 0x%08x",
				origin, (unsigned long long)product_id, d->gpu_id);
	{
		struct mpc_err e2;
		int r = mpc_desc_finish(d, &e2);

		if (r)
			return mpc_fail(err, r, "%s: %s", origin, e2.msg);
	}
	return 0;
}

/* ---------------------------------------------------------- public objects */

static int desc_alloc(struct mpc_desc **out, struct mpc_err *err)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : mpc_fail(err, -ENOMEM, "out of memory");
}

/* hand @d to the caller when @r is 0, else free it */
static int desc_done(struct mpc_desc *d, int r, struct mpc_desc **out)
{
	if (r) {
		free(d);
		d = NULL;
	}
	*out = d;
	return r;
}

int mpc_desc_new_from_get_info(const struct drm_mali_perfcnt_get_info *info,
			       struct mpc_desc **out, struct mpc_err *err)
{
	struct mpc_desc *d;
	int r = desc_alloc(&d, err);

	return r ? r : desc_done(d, mpc_desc_from_get_info(d, info, err), out);
}

int mpc_desc_new_from_gpu_info(const char *text, size_t len, const char *origin,
			       struct mpc_desc **out, struct mpc_err *err)
{
	struct mpc_desc *d;
	int r = desc_alloc(&d, err);

	return r ? r : desc_done(d, mpc_desc_parse_gpu_info(d, text, len, origin, err), out);
}

int mpc_desc_load_gpu_info(const char *path, struct mpc_desc **out, struct mpc_err *err)
{
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	ret = mpc_read_file(path, GPU_INFO_MAX, &text, &len, err);
	if (ret)
		return ret;
	ret = mpc_desc_new_from_gpu_info(text, len, path, out, err);
	free(text);
	return ret;
}

int mpc_desc_new_from_gpu(const struct mpc_gpu_def *gpu, uint64_t cores, unsigned l2,
			  struct mpc_desc **out, struct mpc_err *err)
{
	struct mpc_desc *d;
	int r = desc_alloc(&d, err);

	return r ? r : desc_done(d, mpc_desc_from_gpu(d, gpu, cores, l2, err), out);
}

int mpc_desc_dup(const struct mpc_desc *d, struct mpc_desc **out, struct mpc_err *err)
{
	int r = desc_alloc(out, err);

	if (!r)
		**out = *d;
	return r;
}

void mpc_desc_free(struct mpc_desc *d)
{
	free(d);
}

uint32_t mpc_desc_gpu_id(const struct mpc_desc *d) { return d->gpu_id; }
const char *mpc_desc_product(const struct mpc_desc *d) { return d->product; }
unsigned mpc_desc_layout(const struct mpc_desc *d) { return d->layout; }
uint64_t mpc_desc_shader_present(const struct mpc_desc *d) { return d->shader_present; }
unsigned mpc_desc_core_count(const struct mpc_desc *d) { return mpc_popcount64(d->shader_present); }
uint64_t mpc_desc_l2_present(const struct mpc_desc *d) { return d->l2_present; }
unsigned mpc_desc_nr_l2(const struct mpc_desc *d) { return d->nr_l2; }
unsigned mpc_desc_nr_core_groups(const struct mpc_desc *d) { return d->nr_core_groups; }
unsigned mpc_desc_nr_shader_blocks(const struct mpc_desc *d) { return d->nr_shader_blocks; }
unsigned mpc_desc_nr_blocks(const struct mpc_desc *d) { return d->nr_blocks; }
unsigned mpc_desc_nr_csf_blocks(const struct mpc_desc *d, unsigned kind)
{
	return kind == MPC_BLK_FW ? d->nr_fw : kind == MPC_BLK_CSG ? d->nr_csg : 0;
}
unsigned mpc_desc_counters_per_block(const struct mpc_desc *d) { return d->counters_per_block; }
uint32_t mpc_desc_dump_size(const struct mpc_desc *d) { return d->dump_size; }
unsigned mpc_desc_nr_counter_sets(const struct mpc_desc *d) { return d->nr_counter_sets; }
uint32_t mpc_desc_l2_features(const struct mpc_desc *d) { return d->l2_features; }
uint32_t mpc_desc_mem_features(const struct mpc_desc *d) { return d->mem_features; }
uint64_t mpc_desc_gpu_freq_hz(const struct mpc_desc *d) { return d->gpu_freq_hz; }
uint32_t mpc_desc_uapi_version(const struct mpc_desc *d) { return d->uapi_version; }
uint64_t mpc_desc_caps(const struct mpc_desc *d) { return d->caps; }
int mpc_desc_simulated(const struct mpc_desc *d) { return d->simulated; }
int mpc_desc_enabled(const struct mpc_desc *d) { return d->enabled; }
int mpc_desc_counter_set(const struct mpc_desc *d) { return d->counter_set; }
const char *mpc_desc_owner(const struct mpc_desc *d) { return d->owner; }
