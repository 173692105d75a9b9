// SPDX-License-Identifier: MIT
/*
 * Backend "kbase": Arm's vendor driver, a misc device /dev/mali<N>. The
 * version handshake is probed (the job-manager number first, then the CSF
 * one; an old "UK" kernel answers neither and is refused), GET_GPUPROPS
 * describes the GPU, and the counters are read through one of two
 * interfaces:
 *
 *  - kinstr_prfcnt (JM 11.37+, CSF 1.17+): enumerate the blocks, set up a
 *    session (manual or periodic, a per-counter enable mask per block type),
 *    then each sample is a list of metadata items in an mmap'ed ring of 32
 *    slots, u64 values per block with dense instance numbers;
 *  - the legacy hwcnt reader (JM 11.0 to 11.39, CSF before 1.21): a context,
 *    then a reader fd whose mmap'ed buffers hold the hardware's own dump
 *    layout in u32 values that saturate.
 *
 * Both are turned into this library's raw dump (v5 layout, 64 or 128
 * counters a block), so the decoder and the database apply unchanged. A CSF
 * kernel's firmware and CSG blocks follow the shader blocks in that dump
 * (kinds MPC_BLK_FW and MPC_BLK_CSG; the legacy reader has neither).
 * MPC_KBASE_INTERFACE=kinstr|legacy chooses the interface when a kernel has
 * both (JM 11.37 to 11.39).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "kbase_uapi.h"

#define DRIVER_NAME	"kbase"
/* a per-sample value above 2^32 - 1 does not fit the dump: sample at least this often */
#define MAX_INTERVAL_NS	500000000ull
#define WAIT_MS		2000

enum kb_iface { KB_KINSTR = 1, KB_LEGACY = 2 };

/* struct kb_enum - what ENUM_INFO said about one block type */
struct kb_enum {
	int present;
	unsigned set, instances, values;
	uint64_t mask[2];
};

struct kb {
	int csf;			/* the CSF version numbering answered */
	unsigned major, minor;
	enum kb_iface iface;
	int has_context;
	int has_scope;			/* ENUM_INFO lists the SCOPE request */
	unsigned clock_domains;
	struct kb_enum blk[MPC_KB_BLOCK_TYPES];
	uint16_t core_of[64];		/* dense shader index -> core bit */
	unsigned ncores;
	/* the session */
	int rfd;			/* reader fd, -1 when none */
	void *map;
	size_t map_size;
	uint32_t md_size;		/* kinstr: metadata item stride */
	uint32_t buf_size;		/* legacy: bytes of one buffer */
	unsigned nbufs;			/* legacy: buffers */
	int cycles;			/* legacy: GET_BUFFER_WITH_CYCLES */
	int periodic;
	uint32_t group_mask[MPC_BLK_KINDS];	/* word 2 of each kind's blocks */
	uint64_t last_ns;		/* previous sample's end: the next one's start */
	uint64_t last_seq;
	uint64_t user_data;
	int first;
	/*
	 * a stream's sample held back behind the LOST record it came with
	 * (2: with its blocks' power states)
	 */
	int pending;
	void *pending_buf;
	struct mpc_record pending_rec;
	uint8_t *pending_power;		/* its block power states, or NULL: none */
};

/* ------------------------------------------------------------ discovery */

static void kb_enumerate(struct mpc_cands *c)
{
	struct dirent *e;
	DIR *d = opendir("/dev");
	char *names[64];
	unsigned n = 0;

	if (!d)
		return;
	while ((e = readdir(d)) && n < ARRAY_SIZE(names)) {
		const char *p = e->d_name + 4;

		if (strncmp(e->d_name, "mali", 4) || !*p || strspn(p, "0123456789") != strlen(p))
			continue;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	for (unsigned i = 0; i < n; i++) {
		char path[64];
		unsigned j = i;

		/* mali0 .. mali9 before mali10 */
		for (unsigned k = i + 1; k < n; k++)
			if (strlen(names[k]) < strlen(names[j]) ||
			    (strlen(names[k]) == strlen(names[j]) && strcmp(names[k], names[j]) < 0))
				j = k;
		{
			char *t = names[i];

			names[i] = names[j];
			names[j] = t;
		}
		snprintf(path, sizeof(path), "/dev/%.32s", names[i]);
		if (c->n < MPC_MAX_CANDS) {
			int fd = open(path, O_RDWR | O_CLOEXEC);

			if (fd < 0) {
				if ((errno == EACCES || errno == EPERM) && !c->denied[0])
					snprintf(c->denied, sizeof(c->denied), "%s", path);
			} else {
				close(fd);
				snprintf(c->c[c->n].path, sizeof(c->c[0].path), "%s", path);
				c->c[c->n].ops = &mpc_be_kbase;
				c->n++;
			}
		}
	}
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/*
 * The handshake: {0, 0} asks the kernel for its own version (a kernel whose
 * major differs writes its own numbers back). A JM kernel answers nr 0 and
 * refuses nr 52 (EPERM), a CSF kernel the other way round.
 */
static int handshake(int fd, struct kb *kb, const char *path, struct mpc_err *err)
{
	struct mpc_kb_version_check v = { 0, 0 };
	struct mpc_kb_uk_version_check uk;
	int r;

	r = xioctl(fd, MPC_KB_IOCTL_VERSION_CHECK_JM, &v);
	if (r >= 0 && v.major) {
		kb->csf = 0;
		kb->major = v.major;
		kb->minor = v.minor;
		return 0;
	}
	memset(&v, 0, sizeof(v));
	r = xioctl(fd, MPC_KB_IOCTL_VERSION_CHECK_CSF, &v);
	if (r >= 0 && v.major) {
		kb->csf = 1;
		kb->major = v.major;
		kb->minor = v.minor;
		return 0;
	}
	/* pre-r21: one ioctl number per argument size, function id 0 first */
	memset(&uk, 0, sizeof(uk));
	if (xioctl(fd, MPC_KB_IOCTL_UK_VERSION_CHECK, &uk) >= 0 && uk.major)
		return mpc_fail(err, -EPROTONOSUPPORT, "%s is Arm kbase with the pre-r21 \"UK\" "
				"interface (version %u.%u), which this tool does not read; upgrade "
				"the GPU kernel driver to r21p0 or later (UK 11.x)", path,
				uk.major, uk.minor);
	return mpc_fail(err, -ENODEV, "%s does not answer kbase's version handshake (%s); it is "
			"not an Arm kbase GPU device", path, strerror(r < 0 ? -r : EPROTO));
}

static int set_flags(int fd, struct kb *kb, const char *path, struct mpc_err *err)
{
	struct mpc_kb_set_flags f = { MPC_KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED };
	int r;

	if (kb->has_context)
		return 0;
	r = xioctl(fd, MPC_KB_IOCTL_SET_FLAGS, &f);
	if (r < 0)
		return mpc_fail(err, r, "kbase refused to create a context on %s (SET_FLAGS: %s); "
				"see dmesg", path, strerror(-r));
	kb->has_context = 1;
	return 0;
}

static uint64_t get_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* GET_GPUPROPS: the size, then the packed (key, value) list */
static int gpuprops(int fd, struct mpc_desc *desc, unsigned *slices, const char *path,
		    struct mpc_err *err)
{
	struct mpc_kb_get_gpuprops q = { 0, 0, 0 };
	unsigned char *buf;
	int have_id = 0, have_sp = 0, n, r;
	size_t pos = 0;

	n = xioctl(fd, MPC_KB_IOCTL_GET_GPUPROPS, &q);
	if (n <= 0 || n > (1 << 20))
		return mpc_fail(err, n < 0 ? n : -EPROTO, "kbase GET_GPUPROPS failed on %s (%s); the "
				"driver and this tool disagree on the uAPI", path,
				n < 0 ? strerror(-n) : "no properties");
	buf = calloc(1, (size_t)n);
	if (!buf)
		return mpc_fail(err, -ENOMEM, "out of memory");
	q.buffer = (uint64_t)(uintptr_t)buf;
	q.size = (uint32_t)n;
	r = xioctl(fd, MPC_KB_IOCTL_GET_GPUPROPS, &q);
	if (r < 0 || r > n) {
		free(buf);
		return mpc_fail(err, r < 0 ? r : -EPROTO, "kbase GET_GPUPROPS failed on %s (%s)",
				path, r < 0 ? strerror(-r) : "more bytes than it asked for");
	}
	while (pos + 4 <= (size_t)r) {
		uint32_t key = (uint32_t)get_le(buf + pos, 4);
		unsigned sz = 1u << (key & 3);
		uint64_t v;

		pos += 4;
		if (pos + sz > (size_t)r)
			break;
		v = get_le(buf + pos, sz);
		pos += sz;
		switch (key >> 2) {
		case MPC_KB_PROP_RAW_GPU_ID:
			desc->gpu_id = (uint32_t)v;
			have_id = 1;
			break;
		case MPC_KB_PROP_RAW_SHADER_PRESENT:
			desc->shader_present = v;
			have_sp = 1;
			break;
		case MPC_KB_PROP_RAW_L2_PRESENT:
			desc->l2_present = v;
			break;
		case MPC_KB_PROP_RAW_MEM_FEATURES:
			desc->mem_features = (uint32_t)v;
			break;
		case MPC_KB_PROP_L2_NUM_L2_SLICES:
			*slices = (unsigned)v;
			break;
		default:
			break;
		}
	}
	free(buf);
	if (!have_id || !have_sp)
		return mpc_fail(err, -EPROTO, "kbase GET_GPUPROPS on %s has no %s; the driver and "
				"this tool disagree on the property list", path,
				have_id ? "RAW_SHADER_PRESENT" : "RAW_GPU_ID");
	return 0;
}

static int enum_info(int fd, struct kb *kb, const char *path, struct mpc_err *err)
{
	struct mpc_kb_prfcnt_enum_info q = { 0, 0, 0 };
	struct mpc_kb_enum_item *it;
	int r;

	r = xioctl(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q);
	if (r < 0)
		return mpc_fail(err, r, "kbase KINSTR_PRFCNT_ENUM_INFO failed on %s: %s", path,
				strerror(-r));
	if (q.info_item_size != sizeof(*it) || !q.info_item_count || q.info_item_count > 256)
		return mpc_fail(err, -EPROTO, "kbase KINSTR_PRFCNT_ENUM_INFO on %s lists %u items of "
				"%u bytes; this tool reads items of %zu bytes", path,
				q.info_item_count, q.info_item_size, sizeof(*it));
	it = calloc(q.info_item_count, sizeof(*it));
	if (!it)
		return mpc_fail(err, -ENOMEM, "out of memory");
	q.info_list_ptr = (uint64_t)(uintptr_t)it;
	r = xioctl(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q);
	if (r < 0) {
		free(it);
		return mpc_fail(err, r, "kbase KINSTR_PRFCNT_ENUM_INFO failed on %s: %s", path,
				strerror(-r));
	}
	/* the list is bounded by the count; the last item is a NONE sentinel */
	for (unsigned i = 0; i + 1 < q.info_item_count; i++) {
		switch (it[i].hdr.item_type) {
		case MPC_KB_ENUM_BLOCK: {
			const struct mpc_kb_enum_block *b = &it[i].u.block;
			struct kb_enum *e;

			if (b->block_type >= MPC_KB_BLOCK_TYPES)
				break;		/* a block type of a newer driver */
			if (b->num_values != 64 && b->num_values != 128) {
				unsigned nv = b->num_values;

				free(it);
				return mpc_fail(err, -EPROTO, "kbase on %s enumerates blocks of %u "
						"values; this tool reads 64 or 128", path, nv);
			}
			e = &kb->blk[b->block_type];
			e->present = 1;
			e->set = b->set;
			e->instances = b->num_instances;
			e->values = b->num_values;
			e->mask[0] = b->counter_mask[0];
			e->mask[1] = b->counter_mask[1];
			break;
		}
		case MPC_KB_ENUM_REQUEST:
			if (it[i].u.request.request_item_type == (MPC_KB_REQ_SCOPE & 0xfff))
				kb->has_scope = 1;
			break;
		case MPC_KB_ENUM_SAMPLE_INFO:
			kb->clock_domains = it[i].u.sample_info.num_clock_domains;
			break;
		default:
			break;
		}
	}
	free(it);
	if (!kb->blk[MPC_KB_BLOCK_SHADER].present || !kb->blk[MPC_KB_BLOCK_MEMORY].present)
		return mpc_fail(err, -EPROTO, "kbase on %s enumerates no %s block; the driver and "
				"this tool disagree on the uAPI", path,
				kb->blk[MPC_KB_BLOCK_SHADER].present ? "memory" : "shader core");
	return 0;
}

static int kinstr_version(const struct kb *kb)
{
	return kb->csf ? (kb->major == 1 && kb->minor >= 17) || kb->major > 1
		       : (kb->major == 11 && kb->minor >= 37) || kb->major > 11;
}

static int legacy_version(const struct kb *kb)
{
	return kb->csf ? kb->major == 1 && kb->minor < 21 : kb->major == 11 && kb->minor < 40;
}

static void kb_close(struct mpc_dev *d);

static int kb_open(struct mpc_dev *d, const char *path, unsigned flags, struct mpc_err *err)
{
	struct mpc_desc *desc = &d->desc;
	const char *force = getenv("MPC_KBASE_INTERFACE");
	unsigned slices = 0, cpb = 64;
	struct stat st;
	struct kb *kb;
	int fd, r;

	(void)flags;
	/* ioctls of ours go to character devices outside /dev/dri only */
	if (!strncmp(path, "/dev/dri/", 9) || (!stat(path, &st) && !S_ISCHR(st.st_mode)))
		return mpc_fail(err, -ENODEV, "%s is not a kbase device node (/dev/mali<N>)", path);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			return mpc_fail(err, -e, "cannot open %s: %s; add your user to the group "
					"owning it (see its udev rule) or run as root", path,
					strerror(e));
		return mpc_fail(err, -e, "cannot open %s: %s; give the /dev/mali<N> node of the "
				"GPU, or omit --device", path, strerror(e));
	}
	kb = calloc(1, sizeof(*kb));
	if (!kb) {
		close(fd);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	kb->rfd = -1;
	d->priv = kb;
	d->fd = fd;
	memset(desc, 0, sizeof(*desc));
	desc->enabled = -1;
	desc->counter_set = -1;
	desc->simulated = -1;
	r = handshake(fd, kb, path, err);
	if (!r && kb->major < (kb->csf ? 1u : 11u))
		r = mpc_fail(err, -EPROTONOSUPPORT, "%s is Arm kbase %s %u.%u, older than this tool "
			     "reads; upgrade the GPU kernel driver to r21p0 or later", path,
			     kb->csf ? "CSF" : "JM", kb->major, kb->minor);
	if (!r)
		r = gpuprops(fd, desc, &slices, path, err);
	if (r)
		goto fail;
	if (kinstr_version(kb) && !(force && !strcmp(force, "legacy") && legacy_version(kb))) {
		r = enum_info(fd, kb, path, err);
		if (r)
			goto fail;
		kb->iface = KB_KINSTR;
		cpb = kb->blk[MPC_KB_BLOCK_SHADER].values;
		if (kb->blk[MPC_KB_BLOCK_FW].present)
			desc->nr_fw = kb->blk[MPC_KB_BLOCK_FW].instances;
		if (kb->blk[MPC_KB_BLOCK_CSG].present)
			desc->nr_csg = kb->blk[MPC_KB_BLOCK_CSG].instances;
	} else {
		/* every version from 11.0 / 1.0 on has one of the two */
		if (force && !strcmp(force, "kinstr")) {
			r = mpc_fail(err, -EOPNOTSUPP, "MPC_KBASE_INTERFACE=kinstr but %s (kbase %s "
				     "%u.%u) has no usable kinstr_prfcnt (JM 11.37 or CSF 1.17 on)",
				     path, kb->csf ? "CSF" : "JM", kb->major, kb->minor);
			goto fail;
		}
		kb->iface = KB_LEGACY;
	}
	if (force && strcmp(force, "kinstr") && strcmp(force, "legacy")) {
		r = mpc_fail(err, -EINVAL, "MPC_KBASE_INTERFACE='%s': use kinstr or legacy", force);
		goto fail;
	}
	desc->layout = MPC_LAYOUT_V5;
	desc->counters_per_block = cpb;
	desc->nr_l2 = slices ? slices : ((desc->mem_features >> 8) & 0xf) + 1;
	if (desc->nr_l2 > 16)
		desc->nr_l2 = ((desc->mem_features >> 8) & 0xf) + 1;
	desc->l2_present = desc->l2_present ? desc->l2_present : 1;
	/* the build's default set only; the tool checks --set against this */
	desc->nr_counter_sets = kb->iface == KB_KINSTR ? kb->blk[MPC_KB_BLOCK_SHADER].set + 1 : 1;
	desc->gpu_freq_hz = mpc_devfreq_hz("misc", path);
	for (unsigned i = 0; i < 64 && kb->ncores < ARRAY_SIZE(kb->core_of); i++)
		if ((desc->shader_present >> i) & 1)
			kb->core_of[kb->ncores++] = (uint16_t)i;
	mpc_desc_name_gpu(desc);
	{
		struct mpc_err e;

		r = mpc_desc_finish(desc, &e);
		if (r) {
			r = mpc_fail(err, r, "%s (kbase, GPU_ID 0x%08x): %s", path, desc->gpu_id, e.msg);
			goto fail;
		}
	}
	snprintf(d->driver, sizeof(d->driver), "kbase %s %u.%u", kb->csf ? "CSF" : "JM",
		 kb->major, kb->minor);
	d->info.interface = kb->iface == KB_KINSTR ? "kinstr_prfcnt" : "hwcnt reader (legacy)";
	d->info.caps = MPC_BE_KERNEL_TIMESTAMP | MPC_BE_PERIODIC |
		       (kb->iface == KB_KINSTR ? MPC_BE_BLOCK_MASKS | MPC_BE_SEQNO : MPC_BE_BLOCK_MASKS);
	d->info.max_sample_interval_ns = MAX_INTERVAL_NS;
	d->info.dump_alloc = desc->dump_size;
	{
		unsigned n = 0;

		d->info.limits[n++] = "counter set: the one the kernel was built with only";
		d->info.limits[n++] = kb->iface == KB_KINSTR ?
			"values are 64-bit in the kernel but 32-bit in a dump: a sample over "
			"2^32 - 1 reads saturated (sample at least every 500 ms)" :
			"32-bit values that saturate at 2^32 - 1 (sample at least every 500 ms)";
		d->info.limits[n++] = "periods of at least 0.1 ms; the kernel's ring holds 32 samples";
		if (kb->iface == KB_LEGACY && kb->csf)
			d->info.limits[n++] = "CSF firmware and CSG blocks: kinstr_prfcnt only";
		if (!desc->gpu_freq_hz)
			d->info.limits[n++] = "no GPU clock rate (no devfreq): give --freq MHz";
		d->info.limits[n] = NULL;
	}
	return 0;
fail:
	kb_close(d);
	return r;
}

/* ---------------------------------------------------------------- session */

static uint64_t group_bits(uint32_t groups, unsigned word)
{
	uint64_t m = 0;

	for (unsigned g = 0; g < 16; g++)
		if ((groups >> (word * 16 + g)) & 1)
			m |= 0xfull << (4 * g);
	return m;
}

static void session_close(struct kb *kb)
{
	if (kb->map)
		munmap(kb->map, kb->map_size);
	kb->map = NULL;
	if (kb->rfd >= 0)
		close(kb->rfd);
	kb->rfd = -1;
}

static int map_kind(unsigned type)
{
	switch (type) {
	case MPC_KB_BLOCK_FE: return MPC_BLK_JM;
	case MPC_KB_BLOCK_TILER: return MPC_BLK_TILER;
	case MPC_KB_BLOCK_MEMORY: return MPC_BLK_L2;
	case MPC_KB_BLOCK_SHADER: return MPC_BLK_SHADER;
	case MPC_KB_BLOCK_FW: return MPC_BLK_FW;
	case MPC_KB_BLOCK_CSG: return MPC_BLK_CSG;
	default: return -1;
	}
}

static int setup_error(struct mpc_dev *d, const struct mpc_enable *cfg, int r, struct mpc_err *err)
{
	struct kb *kb = d->priv;

	switch (-r) {
	case EBUSY:
		return mpc_fail(err, r, "kbase has no free counter session on %s (EBUSY); another "
				"client may hold them: stop it and try again", d->path);
	case ENOMEM:
		return mpc_fail(err, r, "kbase could not allocate the sample buffers on %s (ENOMEM)",
				d->path);
	case EINVAL:
		if (cfg && kb->blk[MPC_KB_BLOCK_SHADER].set != cfg->counter_set)
			return mpc_fail(err, r, "this kbase counts set %u only (its build's "
					"default set); drop --set or use --set %u",
					kb->blk[MPC_KB_BLOCK_SHADER].set,
					kb->blk[MPC_KB_BLOCK_SHADER].set);
		return mpc_fail(err, r, "kbase rejected the counter session on %s (EINVAL); see "
				"dmesg", d->path);
	default:
		return mpc_fail(err, r, "setting up the counters of %s failed: %s", d->path,
				strerror(-r));
	}
}

static int kinstr_setup(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			struct mpc_err *err)
{
	struct kb *kb = d->priv;
	struct mpc_kb_request_item req[2 + MPC_KB_BLOCK_TYPES];
	union mpc_kb_prfcnt_setup s;
	unsigned n = 0, set = cfg ? cfg->counter_set : 0;
	int r;

	if (set != kb->blk[MPC_KB_BLOCK_SHADER].set)
		return mpc_fail(err, -EINVAL, "this kbase counts set %u only (its build's default "
				"set); drop --set or use --set %u", kb->blk[MPC_KB_BLOCK_SHADER].set,
				kb->blk[MPC_KB_BLOCK_SHADER].set);
	memset(req, 0, sizeof(req));
	req[n].hdr.item_type = MPC_KB_REQ_MODE;
	req[n].hdr.item_version = MPC_KB_PRFCNT_API_VERSION;
	req[n].u.mode.mode = period_ns ? MPC_KB_MODE_PERIODIC : MPC_KB_MODE_MANUAL;
	req[n].u.mode.period_ns = period_ns;
	n++;
	for (unsigned t = 0; t < MPC_KB_BLOCK_TYPES; t++) {
		int kind = map_kind(t);
		uint32_t groups;

		if (kind < 0 || !kb->blk[t].present)
			continue;
		groups = d->desc.counters_per_block == 128 ? 0xffffffffu : 0xffffu;
		/* --masks has no firmware or CSG mask: those blocks count all */
		if (cfg && cfg->use_masks && kind <= MPC_BLK_SHADER)
			groups = kind == MPC_BLK_JM ? cfg->jm : kind == MPC_BLK_TILER ? cfg->tiler :
				 kind == MPC_BLK_L2 ? cfg->l2 : cfg->shader;
		/* the kernel always captures group 0 (the header) */
		groups |= 1;
		if (d->desc.counters_per_block == 64)
			groups &= 0xffff;
		kb->group_mask[kind] = groups;
		req[n].hdr.item_type = MPC_KB_REQ_ENABLE;
		req[n].u.enable.block_type = (uint8_t)t;
		req[n].u.enable.set = (uint8_t)set;
		req[n].u.enable.enable_mask[0] = group_bits(groups, 0);
		req[n].u.enable.enable_mask[1] = group_bits(groups, 1);
		n++;
	}
	if (kb->has_scope) {
		req[n].hdr.item_type = MPC_KB_REQ_SCOPE;
		n++;
	}
	n++;	/* the NONE item ends the list */
	memset(&s, 0, sizeof(s));
	s.in.request_item_count = n;
	s.in.request_item_size = sizeof(req[0]);
	s.in.requests_ptr = (uint64_t)(uintptr_t)req;
	r = xioctl(d->fd, MPC_KB_IOCTL_PRFCNT_SETUP, &s);
	if (r < 0)
		return setup_error(d, cfg, r, err);
	kb->rfd = r;
	if (fcntl(kb->rfd, F_SETFD, FD_CLOEXEC) < 0) {
		/* harmless: only a child would inherit it */
	}
	kb->md_size = s.out.prfcnt_metadata_item_size;
	kb->map_size = s.out.prfcnt_mmap_size_bytes;
	if (kb->md_size < sizeof(struct mpc_kb_metadata) || !kb->map_size) {
		session_close(kb);
		return mpc_fail(err, -EPROTO, "kbase KINSTR_PRFCNT_SETUP on %s gave metadata items of "
				"%u bytes and a %zu-byte buffer; this tool reads 48-byte items",
				d->path, kb->md_size, kb->map_size);
	}
	kb->map = mmap(NULL, kb->map_size, PROT_READ, MAP_SHARED, kb->rfd, 0);
	if (kb->map == MAP_FAILED) {
		int x = errno;

		kb->map = NULL;
		session_close(kb);
		return mpc_fail(err, -x, "mapping the sample buffer of %s (%zu bytes) failed: %s",
				d->path, kb->map_size, strerror(x));
	}
	return 0;
}

static int kinstr_cmd(struct mpc_dev *d, unsigned cmd, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	struct mpc_kb_control_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	c.cmd = (uint16_t)cmd;
	c.user_data = ++kb->user_data;
	r = xioctl(kb->rfd, MPC_KB_PRFCNT_CMD, &c);
	if (r >= 0)
		return 0;
	if (r == -EBUSY)
		return mpc_fail(err, r, "kbase's sample ring on %s is full (EBUSY): samples were "
				"not read back in time", d->path);
	return mpc_fail(err, r, "kbase counter command %s failed on %s: %s",
			cmd == MPC_KB_CMD_START ? "START" : cmd == MPC_KB_CMD_STOP ? "STOP" :
			cmd == MPC_KB_CMD_SAMPLE_SYNC ? "SAMPLE_SYNC" : "DISCARD", d->path,
			strerror(-r));
}

static int wait_readable(struct mpc_dev *d, int fd, int timeout_ms, struct mpc_err *err)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int r = poll(&p, 1, timeout_ms);

	if (r < 0) {
		if (errno == EINTR)
			return -EINTR;
		return mpc_fail(err, -errno, "waiting for a sample of %s failed: %s", d->path,
				strerror(errno));
	}
	if (r == 0)
		return mpc_fail(err, -ETIMEDOUT, "kbase delivered no sample on %s within %d ms; "
				"the GPU may be hung (see dmesg)", d->path, timeout_ms);
	if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
		return mpc_fail(err, -EIO, "kbase's counter reader of %s reported an error; see "
				"dmesg", d->path);
	return 0;
}

static int bad_sample(const struct mpc_dev *d, const char *what, struct mpc_err *err)
{
	return mpc_fail(err, -EPROTO, "a malformed kbase sample on %s (%s); the driver and this "
			"tool disagree on the uAPI", d->path, what);
}

/*
 * The enum mpc_power_state of a kinstr_prfcnt block's MPC_KB_STATE_* over
 * the sample's interval: ON and OFF both say it was powered for part of it.
 */
static unsigned kb_power(uint32_t block_state)
{
	unsigned on = !!(block_state & MPC_KB_STATE_ON), off = !!(block_state & MPC_KB_STATE_OFF);

	if (on && off)
		return MPC_POWER_PARTIAL;
	if (on)
		return MPC_POWER_ON;
	if (off)
		return MPC_POWER_OFF;
	return MPC_POWER_UNKNOWN;
}

/*
 * one sample out of the ring into @buf as a v5 dump, its blocks' power
 * states into d->power (d->power_valid); the slot is put back
 */
static int kinstr_fetch(struct mpc_dev *d, void *buf, uint64_t *start, uint64_t *end,
			uint64_t *seq, unsigned *flags, int *failed, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	const struct mpc_desc *desc = &d->desc;
	struct mpc_kb_sample_access a;
	const unsigned char *base = kb->map;
	uint32_t cpb = desc->counters_per_block, *w = buf;
	int r, have_sample = 0, sat = 0, perr = 0;
	unsigned power, pflags = 0;
	size_t off;

	memset(&a, 0, sizeof(a));
	r = xioctl(kb->rfd, MPC_KB_PRFCNT_GET_SAMPLE, &a);
	if (r < 0)
		return mpc_fail(err, r, "kbase GET_SAMPLE failed on %s: %s", d->path, strerror(-r));
	memset(buf, 0, desc->dump_size);
	if (!d->power)
		d->power = calloc(desc->nr_blocks, 1);	/* none: no states said */
	if (d->power)
		memset(d->power, MPC_POWER_UNKNOWN, desc->nr_blocks);
	for (off = a.sample_offset_bytes; ; off += kb->md_size) {
		const struct mpc_kb_metadata *m;

		if (off > kb->map_size || kb->map_size - off < sizeof(*m)) {
			perr = bad_sample(d, "metadata beyond the buffer", err);
			break;
		}
		m = (const void *)(base + off);
		if (m->hdr.item_type == MPC_KB_ITEM_NONE)
			break;
		if (m->hdr.item_type == MPC_KB_META_SAMPLE) {
			*start = m->u.sample.timestamp_start;
			*end = m->u.sample.timestamp_end;
			*seq = m->u.sample.seq;
			*failed = !!(m->u.sample.flags & MPC_KB_SAMPLE_FLAG_ERROR);
			have_sample = 1;
		} else if (m->hdr.item_type == MPC_KB_META_BLOCK) {
			const struct mpc_kb_meta_block *b = &m->u.block;
			int kind = map_kind(b->block_type);
			unsigned slot, vals = kb->blk[b->block_type < MPC_KB_BLOCK_TYPES ?
						       b->block_type : 0].values;
			const unsigned char *v;
			uint32_t *blk;

			if (kind < 0)
				continue;
			if (b->block_type >= MPC_KB_BLOCK_TYPES || !vals)
				continue;
			if (kind == MPC_BLK_JM || kind == MPC_BLK_TILER) {
				if (b->block_idx)
					continue;
				slot = kind == MPC_BLK_JM ? 0 : 1;
			} else if (kind == MPC_BLK_L2) {
				if (b->block_idx >= desc->nr_l2)
					continue;
				slot = 2 + b->block_idx;
			} else if (kind == MPC_BLK_FW || kind == MPC_BLK_CSG) {
				if (b->block_idx >= (kind == MPC_BLK_FW ? desc->nr_fw : desc->nr_csg))
					continue;
				slot = 2 + desc->nr_l2 + desc->nr_shader_blocks + b->block_idx +
				       (kind == MPC_BLK_CSG ? desc->nr_fw : 0);
			} else {
				/* dense: the n-th present core */
				if (b->block_idx >= kb->ncores)
					continue;
				slot = 2 + desc->nr_l2 + kb->core_of[b->block_idx];
			}
			if (b->values_offset > kb->map_size ||
			    kb->map_size - b->values_offset < (size_t)vals * 8) {
				perr = bad_sample(d, "block values beyond the buffer", err);
				break;
			}
			v = base + b->values_offset;
			blk = w + (size_t)slot * cpb;
			power = kb_power(b->block_state);
			if (d->power)
				d->power[slot] = (uint8_t)power;
			if (power == MPC_POWER_PARTIAL)
				pflags |= MPC_DATA_POWER_PARTIAL;
			else if (power == MPC_POWER_OFF)
				pflags |= MPC_DATA_POWER_OFF;
			blk[0] = (uint32_t)*end;
			blk[1] = (uint32_t)(*end >> 32);
			blk[2] = kb->group_mask[kind];
			blk[3] = 0;
			for (unsigned i = 4; i < cpb && i < vals; i++) {
				uint64_t x;

				memcpy(&x, v + 8 * i, 8);
				if (x >= 0xffffffffull) {
					x = 0xffffffffull;
					sat = 1;
				}
				blk[i] = (uint32_t)x;
			}
		}
		/* CLOCK items: the cycle counts are not part of the dump */
	}
	r = xioctl(kb->rfd, MPC_KB_PRFCNT_PUT_SAMPLE, &a);
	if (r < 0 && !perr)
		return mpc_fail(err, r, "kbase PUT_SAMPLE failed on %s: %s", d->path, strerror(-r));
	if (perr)
		return perr;
	if (!have_sample)
		return bad_sample(d, "no SAMPLE item", err);
	if (sat)
		*flags |= MPC_DATA_SATURATED;
	*flags |= pflags;
	d->power_valid = !!d->power;
	return 0;
}

static int legacy_setup(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			struct mpc_err *err)
{
	struct kb *kb = d->priv;
	struct mpc_kb_hwcnt_reader_setup s;
	struct mpc_kb_reader_api_version av = { 0, 0 };
	uint32_t hwver = 0, size = 0, all = 0xffff;
	int r;

	if (cfg && cfg->counter_set)
		return mpc_fail(err, -EINVAL, "kbase's legacy reader counts the build's default set "
				"only; drop --set");
	r = set_flags(d->fd, kb, d->path, err);
	if (r)
		return r;
	memset(&s, 0, sizeof(s));
	s.fe_bm = s.shader_bm = s.tiler_bm = s.mmu_l2_bm = all;
	if (cfg && cfg->use_masks) {
		s.fe_bm = cfg->jm;
		s.shader_bm = cfg->shader;
		s.tiler_bm = cfg->tiler;
		s.mmu_l2_bm = cfg->l2;
	}
	kb->group_mask[MPC_BLK_JM] = s.fe_bm;
	kb->group_mask[MPC_BLK_TILER] = s.tiler_bm;
	kb->group_mask[MPC_BLK_L2] = s.mmu_l2_bm;
	kb->group_mask[MPC_BLK_SHADER] = s.shader_bm;
	/* as many buffers as the kernel will give, halving on ENOMEM */
	for (s.buffer_count = MPC_KB_READER_MAX_BUFFERS; ; s.buffer_count /= 2) {
		r = xioctl(d->fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s);
		if (r >= 0 || r != -ENOMEM || s.buffer_count == 1)
			break;
	}
	if (r < 0)
		return setup_error(d, cfg, r, err);
	kb->rfd = r;
	kb->nbufs = s.buffer_count;
	r = xioctl(kb->rfd, MPC_KB_READER_GET_HWVER, &hwver);
	if (r >= 0 && hwver != 5)
		r = mpc_fail(err, -EPROTONOSUPPORT, "kbase's legacy reader on %s has hardware "
			     "layout version %u; this tool reads version 5", d->path, hwver);
	else if (r < 0)
		r = mpc_fail(err, r, "kbase GET_HWVER failed on %s: %s", d->path, strerror(-r));
	if (r < 0)
		goto fail;
	if (xioctl(kb->rfd, MPC_KB_READER_GET_API_VERSION_FEATURES, &av) >= 0)
		kb->cycles = !!(av.features & MPC_KB_READER_FEATURE_CYCLES_TOP);
	r = xioctl(kb->rfd, MPC_KB_READER_GET_BUFFER_SIZE, &size);
	if (r < 0) {
		r = mpc_fail(err, r, "kbase GET_BUFFER_SIZE failed on %s: %s", d->path, strerror(-r));
		goto fail;
	}
	if (size != d->desc.dump_size) {
		r = mpc_fail(err, -EPROTO, "kbase's legacy reader on %s has %u-byte buffers but the "
			     "GPU's properties give a %u-byte dump (cores 0x%llx, %u L2 slices)",
			     d->path, size, d->desc.dump_size,
			     (unsigned long long)d->desc.shader_present, d->desc.nr_l2);
		goto fail;
	}
	kb->buf_size = size;
	kb->map_size = (size_t)size * kb->nbufs;
	kb->map = mmap(NULL, kb->map_size, PROT_READ, MAP_SHARED, kb->rfd, 0);
	if (kb->map == MAP_FAILED) {
		int x = errno;

		kb->map = NULL;
		r = mpc_fail(err, -x, "mapping the buffers of %s (%zu bytes) failed: %s", d->path,
			     kb->map_size, strerror(x));
		goto fail;
	}
	{
		uint32_t iv = (uint32_t)period_ns;

		if (period_ns > 0xffffffffull) {
			r = mpc_fail(err, -EINVAL, "kbase's legacy reader takes periods up to 4.29 s");
			goto fail;
		}
		r = xioctl(kb->rfd, MPC_KB_READER_SET_INTERVAL, &iv);
		if (r < 0) {
			r = mpc_fail(err, r, "kbase SET_INTERVAL failed on %s: %s", d->path,
				     strerror(-r));
			goto fail;
		}
	}
	return 0;
fail:
	session_close(kb);
	return r;
}

static int legacy_fetch(struct mpc_dev *d, void *buf, uint64_t *ts, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	struct mpc_kb_reader_metadata_cycles m;
	unsigned long get = kb->cycles ? MPC_KB_READER_GET_BUFFER_CYCLES : MPC_KB_READER_GET_BUFFER;
	unsigned long put = kb->cycles ? MPC_KB_READER_PUT_BUFFER_CYCLES : MPC_KB_READER_PUT_BUFFER;
	int r;

	memset(&m, 0, sizeof(m));
	r = xioctl(kb->rfd, get, &m);
	if (r < 0)
		return mpc_fail(err, r, "kbase GET_BUFFER failed on %s: %s", d->path, strerror(-r));
	if (m.buffer_idx >= kb->nbufs) {
		xioctl(kb->rfd, put, &m);
		return bad_sample(d, "buffer index out of range", err);
	}
	memcpy(buf, (const unsigned char *)kb->map + (size_t)m.buffer_idx * kb->buf_size,
	       d->desc.dump_size);
	*ts = m.timestamp;
	r = xioctl(kb->rfd, put, &m);
	if (r < 0)
		return mpc_fail(err, r, "kbase PUT_BUFFER failed on %s: %s", d->path, strerror(-r));
	return 0;
}

/* One manual sample of the legacy reader into @buf: DUMP, then its buffer. */
static int legacy_dump(struct mpc_dev *d, void *buf, uint64_t *ts, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	uint32_t zero = 0;
	int r;

	r = xioctl(kb->rfd, MPC_KB_READER_DUMP, &zero);
	if (r < 0)
		return mpc_fail(err, r, "kbase DUMP failed on %s: %s", d->path, strerror(-r));
	r = wait_readable(d, kb->rfd, WAIT_MS, err);
	if (r == -EINTR)
		r = wait_readable(d, kb->rfd, WAIT_MS, err);
	return r ? r : legacy_fetch(d, buf, ts, err);
}

/*
 * The legacy reader counts from somewhere inside its setup and says nothing
 * of when: one dump right after it, thrown away, starts the first interval at
 * a time the kernel states (the dump's timestamp), however long the setup took.
 */
static int legacy_first_dump(struct mpc_dev *d, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	uint64_t end = 0;
	void *scratch;
	int r;

	scratch = malloc(d->desc.dump_size);
	if (!scratch)
		return mpc_fail(err, -ENOMEM, "out of memory for a dump of %s", d->path);
	r = legacy_dump(d, scratch, &end, err);
	if (!r)
		kb->last_ns = end;
	free(scratch);
	return r;
}

static int kb_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	int r;

	if (kb->rfd >= 0)
		return mpc_fail(err, -EALREADY, "the counters of %s are already enabled by this "
				"process", d->path);
	kb->periodic = 0;
	kb->last_ns = mpc_now_raw_ns();
	r = kb->iface == KB_KINSTR ? kinstr_setup(d, cfg, 0, err) : legacy_setup(d, cfg, 0, err);
	if (r)
		return r;
	if (kb->iface == KB_KINSTR)
		r = kinstr_cmd(d, MPC_KB_CMD_START, err);
	else
		r = legacy_first_dump(d, err);
	if (r) {
		session_close(kb);
		return r;
	}
	kb->first = 1;
	return 0;
}

static int kb_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		     struct mpc_err *err)
{
	struct kb *kb = d->priv;
	uint64_t start = 0, end = 0, seq = 0;
	unsigned flags = 0;
	int r, failed = 0;

	(void)len;
	if (kb->rfd < 0 || kb->periodic)
		return mpc_fail(err, -ENODATA, "the counters of %s are not enabled", d->path);
	di->start_ns = mpc_now_raw_ns();
	if (kb->iface == KB_KINSTR) {
		r = kinstr_cmd(d, MPC_KB_CMD_SAMPLE_SYNC, err);
		if (!r)
			r = wait_readable(d, kb->rfd, WAIT_MS, err);
		if (r == -EINTR)
			r = wait_readable(d, kb->rfd, WAIT_MS, err);
		if (!r)
			r = kinstr_fetch(d, buf, &start, &end, &seq, &flags, &failed, err);
		if (r)
			return r;
		if (failed)
			return mpc_fail(err, -EIO, "kbase marked the sample of %s as failed (ERROR "
					"flag); see dmesg", d->path);
		di->seqno = seq;
		di->timestamp_ns = end;
		di->interval_start_ns = start;
	} else {
		r = legacy_dump(d, buf, &end, err);
		if (r)
			return r;
		di->timestamp_ns = end;
		di->interval_start_ns = kb->last_ns;
		if (mpc_dump_saturated(buf, d->desc.nr_blocks, d->desc.counters_per_block))
			flags |= MPC_DATA_SATURATED;
	}
	di->end_ns = mpc_now_raw_ns();
	kb->last_ns = di->timestamp_ns;
	di->flags = flags | (kb->first ? MPC_DATA_FIRST : 0);
	kb->first = 0;
	return 0;
}

static int kb_disable(struct mpc_dev *d, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	int r = 0;

	if (kb->rfd < 0)
		return 0;
	if (kb->iface == KB_KINSTR)
		r = kinstr_cmd(d, MPC_KB_CMD_STOP, err);
	session_close(kb);
	return r;
}

static int kb_stream_start(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			   unsigned ring, struct mpc_err *err)
{
	struct kb *kb = d->priv;
	int r;

	(void)ring;	/* kbase's ring size is its own */
	if (kb->rfd >= 0)
		return mpc_fail(err, -EALREADY, "the counters of %s are already enabled by this "
				"process", d->path);
	if (!kb->pending_buf && !(kb->pending_buf = malloc(d->desc.dump_size)))
		return mpc_fail(err, -ENOMEM, "out of memory");
	if (!kb->pending_power && !(kb->pending_power = calloc(d->desc.nr_blocks, 1)))
		return mpc_fail(err, -ENOMEM, "out of memory");
	if (period_ns < MPC_KB_PRFCNT_MIN_PERIOD_NS)
		return mpc_fail(err, -EINVAL, "kbase samples at most every 0.1 ms, not every %llu "
				"ns; give a longer period", (unsigned long long)period_ns);
	kb->periodic = 1;
	kb->last_ns = mpc_now_raw_ns();
	r = kb->iface == KB_KINSTR ? kinstr_setup(d, cfg, period_ns, err)
				   : legacy_setup(d, cfg, period_ns, err);
	if (!r && kb->iface == KB_KINSTR) {
		r = kinstr_cmd(d, MPC_KB_CMD_START, err);
		if (r)
			session_close(kb);
	}
	if (r) {
		kb->periodic = 0;
		return r;
	}
	kb->last_seq = 0;
	kb->first = 1;
	kb->pending = 0;
	return 0;
}

static int kb_stream_next(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			  struct mpc_err *err)
{
	struct kb *kb = d->priv;
	uint64_t start = 0, end = 0, seq = 0;
	unsigned flags = 0;
	int r, failed = 0;

	(void)len;
	memset(rec, 0, sizeof(*rec));
	if (kb->pending) {
		/* the sample read with the LOST record before it */
		memcpy(buf, kb->pending_buf, d->desc.dump_size);
		*rec = kb->pending_rec;
		if (kb->pending == 2 && d->power) {
			memcpy(d->power, kb->pending_power, d->desc.nr_blocks);
			d->power_valid = 1;
		}
		kb->pending = 0;
		return 0;
	}
	r = wait_readable(d, kb->rfd, -1, err);
	if (r)
		return r;
	if (kb->iface == KB_KINSTR) {
		r = kinstr_fetch(d, buf, &start, &end, &seq, &flags, &failed, err);
		if (r)
			return r;
	} else {
		r = legacy_fetch(d, buf, &end, err);
		if (r)
			return r;
		start = kb->last_ns;
		if (mpc_dump_saturated(buf, d->desc.nr_blocks, d->desc.counters_per_block))
			flags |= MPC_DATA_SATURATED;
	}
	rec->type = failed ? MPC_REC_ERROR : MPC_REC_SAMPLE;
	rec->error = failed ? -EIO : 0;
	rec->seqno = seq;
	rec->start_ns = start;
	rec->end_ns = end;
	rec->data_flags = failed ? 0 : flags | (kb->first ? MPC_DATA_FIRST : 0);
	if (!failed)
		kb->first = 0;
	if (kb->iface == KB_KINSTR && kb->last_seq && seq > kb->last_seq + 1 &&
	    kb->pending_buf) {
		/* samples the ring could not hold: a LOST record, then this one */
		memcpy(kb->pending_buf, buf, d->desc.dump_size);
		kb->pending_rec = *rec;
		kb->pending = 1;
		if (d->power_valid && kb->pending_power) {
			memcpy(kb->pending_power, d->power, d->desc.nr_blocks);
			kb->pending = 2;
		}
		d->power_valid = 0;	/* a LOST record has no dump */
		memset(rec, 0, sizeof(*rec));
		rec->type = MPC_REC_LOST;
		rec->lost = seq - kb->last_seq - 1;
		rec->start_ns = kb->last_ns;
		rec->end_ns = start;
	}
	if (kb->iface == KB_KINSTR)
		kb->last_seq = seq;
	kb->last_ns = end;
	return 0;
}

static int kb_stream_stop(struct mpc_dev *d, struct mpc_err *err)
{
	struct kb *kb = d->priv;

	kb->periodic = 0;
	return kb_disable(d, err);
}

static void kb_close(struct mpc_dev *d)
{
	struct kb *kb = d->priv;

	if (kb) {
		session_close(kb);
		free(kb->pending_buf);
		free(kb->pending_power);
	}
	free(kb);
	d->priv = NULL;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static int kb_none(unsigned flags, struct mpc_err *err)
{
	(void)flags;
	return mpc_fail(err, -ENODEV, "no kbase GPU found: no /dev/mali<N> node; load Arm's "
			"mali_kbase driver (vendor kernels), or omit --backend");
}

const struct mpc_backend_ops mpc_be_kbase = {
	.name = "kbase",
	.driver = DRIVER_NAME,
	.enumerate = kb_enumerate,
	.open = kb_open,
	.enable = kb_enable,
	.sample = kb_sample,
	.disable = kb_disable,
	.stream_start = kb_stream_start,
	.stream_next = kb_stream_next,
	.stream_stop = kb_stream_stop,
	.close = kb_close,
	.none = kb_none,
};
