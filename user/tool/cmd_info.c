// SPDX-License-Identifier: MIT
/* "info": the device (GET_INFO or a saved gpu_info) and the GPU recognised. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "mali_perfcnt_drm.h"

static void kv_str(struct tool *t, const char *key, const char *val)
{
	out_kv(t, key, CELL_S(val));
}

/* hex > 0: print as 0x%0*llx with that many digits (a string in JSON) */
static void kv_num(struct tool *t, const char *key, unsigned long long v, int hex)
{
	char b[64];

	if (hex)
		snprintf(b, sizeof(b), "0x%0*llx", hex, v);
	else
		snprintf(b, sizeof(b), "%llu", v);
	out_kv(t, key, hex ? CELL_S(b) : CELL_N(b));
}

int cmd_info(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "gpu-info", required_argument, NULL, OPT_GPU_INFO },
		{ NULL, 0, NULL, 0 },
	};
	const char *gpu_info = NULL, *path = NULL, *debugfs = NULL;
	struct mpc_dev *dev = NULL;
	struct mpc_desc *own = NULL;
	const struct mpc_desc *d;
	struct mpc_err e;
	const struct mpc_gpu_def *g;
	char b[160], owner[96] = "";
	int c, r = 0;

	while ((c = tool_next_opt(t, "info", 0, argc, argv, "", opts, &r)) > 0) {
		if (c != OPT_GPU_INFO)
			return tool_bad_option(t, "info", c, argv);
		gpu_info = optarg;
	}
	if (c == TOOL_OPTS_EXIT)
		return r;
	if (optind < argc)
		return tool_error(t, "'info' takes no arguments (got '%s')", argv[optind]);
	if (tool_load_db(t))
		return 1;
	if (gpu_info) {
		if (mpc_desc_load_gpu_info(gpu_info, &own, &e))
			return tool_err(t, &e);
		d = own;
		path = gpu_info;
		snprintf(owner, sizeof(owner), "%s", mpc_desc_owner(d));
	} else {
		if (tool_open(t, 0, &dev, &e))
			return tool_err(t, &e);
		d = mpc_dev_desc(dev);
		path = mpc_dev_path(dev);
		debugfs = mpc_dev_debugfs(dev);
		mpc_dev_owner(dev, owner, sizeof(owner));
	}
	g = mpc_db_match_gpu_id(t->db, mpc_desc_gpu_id(d));
	kv_str(t, gpu_info ? "source" : "device", path);
	if (dev) {
		kv_str(t, "backend", mpc_dev_backend(dev)->name);
		kv_str(t, "driver", mpc_dev_driver(dev)[0] ? mpc_dev_driver(dev) : NULL);
		kv_str(t, "interface", mpc_dev_backend(dev)->interface);
		/* what record's kernel stream is at its default period (10 ms) */
		kv_str(t, "kernel_stream", mpc_dev_stream_kind(dev, 10000000ull));
	}
	kv_str(t, "product", mpc_desc_product(d));
	kv_num(t, "gpu_id", mpc_desc_gpu_id(d), 8);
	kv_num(t, "product_id", mpc_desc_gpu_id(d) >> 16, 4);
	snprintf(b, sizeof(b), "r%up%u status %u", (mpc_desc_gpu_id(d) >> 12) & 0xf,
		 (mpc_desc_gpu_id(d) >> 4) & 0xff, mpc_desc_gpu_id(d) & 0xf);
	kv_str(t, "version", b);
	kv_str(t, "recognised", g ? g->name : NULL);
	kv_str(t, "database_key", g ? g->key : NULL);
	kv_str(t, "architecture", g ? g->arch : NULL);
	kv_str(t, "layout", mpc_desc_layout(d) == 4 ? "v4" : "v5");
	kv_num(t, "shader_present", mpc_desc_shader_present(d), 16);
	kv_num(t, "shader_cores", mpc_desc_core_count(d), 0);
	kv_num(t, "l2_present", mpc_desc_l2_present(d), 16);
	kv_num(t, "nr_l2", mpc_desc_nr_l2(d), 0);
	kv_num(t, "nr_core_groups", mpc_desc_nr_core_groups(d), 0);
	kv_num(t, "nr_shader_blocks", mpc_desc_nr_shader_blocks(d), 0);
	kv_num(t, "nr_blocks", mpc_desc_nr_blocks(d), 0);
	kv_num(t, "nr_fw_blocks", mpc_desc_nr_csf_blocks(d, MPC_BLK_FW), 0);
	kv_num(t, "nr_csg_blocks", mpc_desc_nr_csf_blocks(d, MPC_BLK_CSG), 0);
	kv_num(t, "counters_per_block", mpc_desc_counters_per_block(d), 0);
	kv_num(t, "dump_size", mpc_desc_dump_size(d), 0);
	kv_num(t, "counter_sets", mpc_desc_nr_counter_sets(d), 0);
	kv_num(t, "l2_features", mpc_desc_l2_features(d), 8);
	kv_num(t, "mem_features", mpc_desc_mem_features(d), 8);
	kv_num(t, "ext_bus_bytes", mpc_desc_bus_bytes(d) ? mpc_desc_bus_bytes(d) :
	       (g ? g->bus_beat_bytes : 0), 0);
	kv_num(t, "gpu_freq_hz", mpc_desc_gpu_freq_hz(d), 0);
	if (dev && !strcmp(mpc_dev_backend(dev)->name, "mali_perfcnt")) {
		kv_num(t, "uapi_version", mpc_desc_uapi_version(d), 0);
		kv_num(t, "caps", mpc_desc_caps(d), 1);
	}
	kv_str(t, "simulated", mpc_desc_simulated(d) < 0 ? NULL :
	       mpc_desc_simulated(d) ? "yes" : "no");
	if (!gpu_info)
		kv_str(t, "debugfs", debugfs);
	kv_str(t, "owner", owner[0] ? owner : NULL);
	if (dev) {
		const struct mpc_backend_info *bi = mpc_dev_backend(dev);
		unsigned nlim = 0;

		kv_num(t, "dump_alloc", bi->dump_alloc, 0);
		kv_num(t, "max_sample_interval_ms", bi->max_sample_interval_ns / 1000000, 0);
		kv_str(t, "counters_usable", mpc_dev_usable(dev, &e) ? e.msg : "yes");
		while (nlim < 8 && bi->limits[nlim])
			nlim++;
		/* text: a "limit" line each; CSV and JSON: "limits", joined */
		out_kv_list(t, "limit", "limits", bi->limits, nlim);
	}
	if (g) {
		struct mpc_prog *p;
		unsigned placed = 0, avail = 0;

		for (unsigned i = 0; i < g->ncounters; i++)
			placed += g->counters[i].index >= 0;
		if (!mpc_prog_new(t->db, g, NULL, &p, &e)) {
			for (unsigned i = 0; i < mpc_prog_count(p); i++)
				avail += mpc_prog_metric(p, i)->available;
			kv_num(t, "counters_known", placed, 0);
			kv_num(t, "metrics_available", avail, 0);
			kv_num(t, "metrics_total", mpc_prog_count(p), 0);
			mpc_prog_free(p);
		}
	}
	out_doc_end(t);
	mpc_desc_free(own);
	mpc_dev_close(dev);
	return 0;
}
