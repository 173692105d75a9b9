// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the mali_perfcnt selftests.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "mpc_lib.h"

#define DEBUGFS_DRI	"/sys/kernel/debug/dri"
#define SIM_DEVICE	"mali-perfcnt-sim"

/* The QEMU mali-gpu test-control window (qemu/include/hw/misc/mali_gpu.h) */
#define CTL_SIZE	0x1000
#define CTL_ID		0x000
#define CTL_EXEC	0x008
#define CTL_CMD		0x100
#define CTL_RESULT	0x200
#define CTL_TEXT	0x100
#define CTL_MAGIC	0x4d504354
#define CTL_OK		0

const char *mpc_module_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("MPC_MODULE");
	struct utsname u;

	if (env && *env)
		return env;
	if (!path[0]) {
		uname(&u);
		snprintf(path, sizeof(path),
			 "/lib/modules/%s/extra/" MPC_MODULE_NAME ".ko",
			 u.release);
	}
	return path;
}

const char *mpc_extra_params(void)
{
	const char *env = getenv("MPC_MODULE_PARAMS");

	return env ?: "";
}

bool mpc_kernel_has_symbol(const char *name)
{
	char line[512], *sym, *save;
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return false;
	/* "address type name [module]" */
	while (!found && fgets(line, sizeof(line), f)) {
		if (!strtok_r(line, " \t\n", &save) ||
		    !strtok_r(NULL, " \t\n", &save))
			continue;
		sym = strtok_r(NULL, " \t\n", &save);
		found = sym && !strcmp(sym, name);
	}
	fclose(f);
	return found;
}

/*
 * The writer MPC_MODULE_PARAMS forces with pgtable=, if any; else
 * io-pgtable on arm64, whose Debian kernels have the ARM_MALI_LPAE
 * io-pgtable, and builtin elsewhere (x86_64), unless that kernel has
 * io-pgtable too (debug kernels built with COMPILE_TEST): its allocator is
 * in /proc/kallsyms then.
 */
const char *mpc_expected_pgtable(void)
{
	static const char key[] = "pgtable=";
	static char forced[32];
	char buf[512], *tok, *save;

	/* The last one counts, as when the kernel parses them. */
	forced[0] = '\0';
	snprintf(buf, sizeof(buf), "%s", mpc_extra_params());
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		if (!strncmp(tok, key, sizeof(key) - 1))
			snprintf(forced, sizeof(forced), "%s",
				 tok + sizeof(key) - 1);
	if (forced[0] && strcmp(forced, "auto"))
		return forced;
#if defined(__aarch64__)
	return "io-pgtable";
#else
	return mpc_kernel_has_symbol("arm_mali_lpae_alloc_pgtable") ?
	       "io-pgtable" : "builtin";
#endif
}

bool mpc_module_loaded(void)
{
	return access("/sys/module/" MPC_MODULE_NAME, F_OK) == 0;
}

/* modprobe the in-tree modules named in the .ko's "depends=" modinfo. */
static void load_deps(const char *path)
{
	static const char key[] = "depends=";
	char *buf, *p, *end, *name, *save;
	char cmd[300];
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return;
	}
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		close(fd);
		return;
	}
	close(fd);
	buf[st.st_size] = '\0';
	end = buf + st.st_size;
	for (p = buf; p < end; p += strlen(p) + 1) {
		if (strncmp(p, key, sizeof(key) - 1))
			continue;
		p += sizeof(key) - 1;
		for (name = strtok_r(p, ",", &save); name;
		     name = strtok_r(NULL, ",", &save)) {
			snprintf(cmd, sizeof(cmd), "modprobe -q %s", name);
			if (system(cmd))
				fprintf(stderr, "# %s failed\n", cmd);
		}
		break;
	}
	free(buf);
}

int mpc_module_load(const char *params)
{
	const char *path = mpc_module_path();
	int fd, ret, tries;

	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = syscall(SYS_finit_module, fd, params ?: "", 0);
		ret = ret ? -errno : 0;
		close(fd);
		/* -ENOENT: an unknown symbol, the DRM modules are missing. */
		if (ret != -ENOENT)
			break;
		load_deps(path);
	}
	return ret;
}

int mpc_module_unload(void)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!syscall(SYS_delete_module, MPC_MODULE_NAME, O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		if (errno != EAGAIN && errno != EBUSY && errno != EWOULDBLOCK)
			return -errno;
		mpc_sleep_ms(10);
	}
	return -EBUSY;
}

/*
 * The one render-node finder of the tests and test tools: the first
 * /dev/dri/renderD* whose DRM driver is mali_perfcnt, left open (its fd),
 * its path copied to @path when not NULL; -ENODEV if there is none.
 */
static int find_render(char *path, size_t len)
{
	char name[64];
	struct drm_version v;
	glob_t g;
	size_t i;
	int fd, ret = -ENODEV;

	if (glob("/dev/dri/renderD*", 0, NULL, &g))
		return -ENODEV;
	for (i = 0; i < g.gl_pathc; i++) {
		fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) &&
		    !strcmp(name, MPC_MODULE_NAME)) {
			if (path)
				snprintf(path, len, "%s", g.gl_pathv[i]);
			ret = fd;
			break;
		}
		close(fd);
	}
	globfree(&g);
	return ret;
}

int mpc_open_render(void)
{
	return find_render(NULL, 0);
}

int mpc_find_render(char *path, size_t len)
{
	int fd = find_render(path, len);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int mpc_find_debugfs(char *dir, size_t len)
{
	char path[PATH_MAX], name[128];
	struct dirent *de;
	DIR *d;
	int ret = -ENOENT;

	d = opendir(DEBUGFS_DRI);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), DEBUGFS_DRI "/%s", de->d_name);
		if (mpc_dbg_read(path, "name", name, sizeof(name)) <= 0)
			continue;
		if (strncmp(name, MPC_MODULE_NAME, strlen(MPC_MODULE_NAME)))
			continue;
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "/gpu_info");
		if (access(path, R_OK))
			continue;
		snprintf(dir, len, DEBUGFS_DRI "/%s", de->d_name);
		ret = 0;
		break;
	}
	closedir(d);
	return ret;
}

ssize_t mpc_dbg_read(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += n;
	}
	buf[got] = '\0';
	close(fd);
	return got;
}

int mpc_write_file(const char *path, const char *text)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(text))
		ret = -EIO;
	close(fd);
	return ret;
}

const char *mpc_sleep_state(char *states, size_t len)
{
	ssize_t n = -1;
	int fd;

	fd = open("/sys/power/state", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, states, len - 1);
		close(fd);
	}
	states[n > 0 ? n : 0] = '\0';
	if (access("/sys/power/pm_test", W_OK))
		return NULL;
	return strstr(states, "mem") ? "mem" : strstr(states, "freeze") ? "freeze" : NULL;
}

int mpc_system_sleep(const char *state)
{
	int ret, undo;

	ret = mpc_write_file("/sys/power/pm_test", "platform");
	if (!ret)
		ret = mpc_write_file("/sys/power/state", state);
	undo = mpc_write_file("/sys/power/pm_test", "none");
	return ret ?: undo;
}

int mpc_dbg_write(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return mpc_write_file(path, text);
}

int mpc_dbg_key(const char *dir, const char *file, const char *key,
		char *val, size_t len)
{
	char buf[8192], *line, *save, *v;
	size_t klen = strlen(key);
	ssize_t n;

	n = mpc_dbg_read(dir, file, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		v = line + klen + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		snprintf(val, len, "%s", v);
		return 0;
	}
	return -ENOENT;
}

uint64_t mpc_dbg_num(const char *dir, const char *file, const char *key)
{
	char val[128], *end;
	uint64_t v;

	if (mpc_dbg_key(dir, file, key, val, sizeof(val)))
		return ~0ULL;
	errno = 0;
	v = strtoull(val, &end, 0);
	if (errno || end == val)
		return ~0ULL;
	return v;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

int mpc_get_info(int fd, struct drm_mali_perfcnt_get_info *info)
{
	memset(info, 0, sizeof(*info));
	return xioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, info);
}

int mpc_enable_raw(int fd, struct drm_mali_perfcnt_enable *en)
{
	return xioctl(fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, en);
}

int mpc_enable_all(int fd)
{
	struct drm_mali_perfcnt_enable en = { .enable = 1 };

	return mpc_enable_raw(fd, &en);
}

int mpc_enable_masks(int fd, uint32_t set, uint32_t jm, uint32_t tiler,
		     uint32_t shader, uint32_t l2)
{
	struct drm_mali_perfcnt_enable en = {
		.enable = 1,
		.counter_set = set,
		.jm_mask = jm,
		.tiler_mask = tiler,
		.shader_mask = shader,
		.mmu_l2_mask = l2,
		.flags = MALI_PERFCNT_ENABLE_F_MASKS,
	};

	return mpc_enable_raw(fd, &en);
}

int mpc_disable(int fd)
{
	struct drm_mali_perfcnt_enable en = { .enable = 0 };

	return mpc_enable_raw(fd, &en);
}

int mpc_dump_raw(int fd, struct drm_mali_perfcnt_dump *d)
{
	return xioctl(fd, DRM_IOCTL_MALI_PERFCNT_DUMP, d);
}

int mpc_dump(int fd, void *buf, uint32_t size, uint64_t *seqno,
	     uint64_t *ts_ns)
{
	struct drm_mali_perfcnt_dump d = {
		.buf_ptr = (uintptr_t)buf,
		.buf_size = size,
	};
	int ret;

	ret = mpc_dump_raw(fd, &d);
	if (seqno)
		*seqno = d.seqno;
	if (ts_ns)
		*ts_ns = d.timestamp_ns;
	return ret;
}

int mpc_fls64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

int mpc_hweight64(uint64_t v)
{
	return __builtin_popcountll(v);
}

unsigned int mpc_jm_slot(const struct drm_mali_perfcnt_get_info *i)
{
	return i->layout == MALI_PERFCNT_LAYOUT_V4 ? 7 : 0;
}

unsigned int mpc_shader_slot(const struct drm_mali_perfcnt_get_info *i,
			     unsigned int bit)
{
	if (i->layout == MALI_PERFCNT_LAYOUT_V4)
		return 8 * (bit / 4) + bit % 4;
	return 2 + i->nr_l2 + bit;
}

enum mpc_block_kind mpc_block_kind(const struct drm_mali_perfcnt_get_info *i,
				   unsigned int slot, unsigned int *inst)
{
	unsigned int bit, g;

	*inst = 0;
	if (i->layout == MALI_PERFCNT_LAYOUT_V4) {
		g = slot / 8;
		switch (slot % 8) {
		case 4:
			*inst = g;
			return MPC_BLK_TILER;
		case 5:
			*inst = g;
			return MPC_BLK_L2;
		case 6:
			return MPC_BLK_HOLE;
		case 7:
			return g ? MPC_BLK_HOLE : MPC_BLK_JM;
		default:
			bit = 4 * g + slot % 8;
			break;
		}
	} else {
		if (slot == 0)
			return MPC_BLK_JM;
		if (slot == 1)
			return MPC_BLK_TILER;
		if (slot < 2 + i->nr_l2) {
			*inst = slot - 2;
			return MPC_BLK_L2;
		}
		bit = slot - 2 - i->nr_l2;
	}
	*inst = bit;
	if (bit < 64 && (i->shader_present >> bit) & 1)
		return MPC_BLK_SHADER;
	return MPC_BLK_HOLE;
}

uint32_t mpc_expected_dump_size(const struct drm_mali_perfcnt_get_info *i)
{
	if (i->layout == MALI_PERFCNT_LAYOUT_V4)
		return mpc_hweight64(i->l2_present) * 8 * MPC_BLOCK_BYTES;
	return (2 + i->nr_l2 + mpc_fls64(i->shader_present)) * MPC_BLOCK_BYTES;
}

uint64_t mpc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void mpc_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int mpc_drop_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

const char *mpc_hw_device(void)
{
	const char *env = getenv("MPC_BIND_DEVICE");

	return env && *env ? env : NULL;
}

const char *mpc_device_name(void)
{
	return mpc_hw_device() ?: SIM_DEVICE;
}

int mpc_qemu_ctl(const char *cmd, char *out, size_t len)
{
	const char *env = getenv("MPC_QEMU_CTL");
	volatile uint32_t *w;
	uint32_t word, status;
	unsigned long long pa;
	size_t i, n = strlen(cmd);
	char *end;
	void *map;
	int fd, ret = 0;

	if (!env || !*env)
		return -ENODEV;
	pa = strtoull(env, &end, 0);
	if (*end || pa % CTL_SIZE)
		return -EINVAL;
	if (n >= CTL_TEXT)
		return -E2BIG;
	/* O_SYNC: an uncached mapping of the device's registers */
	fd = open("/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	map = mmap(NULL, CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)pa);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	w = map;
	if (w[CTL_ID / 4] != CTL_MAGIC) {
		ret = -ENODEV;
		goto out;
	}
	/* Little-endian words, NUL-padded */
	for (i = 0; i < CTL_TEXT; i += 4) {
		unsigned char b[4] = { 0 };
		size_t k;

		for (k = 0; k < 4 && i + k < n; k++)
			b[k] = cmd[i + k];
		word = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
		w[(CTL_CMD + i) / 4] = word;
		if (i + 4 > n)
			break;
	}
	w[CTL_EXEC / 4] = 1;
	status = w[CTL_EXEC / 4];
	if (out && len) {
		for (i = 0; i + 1 < len && i < CTL_TEXT; i++) {
			word = w[(CTL_RESULT + (i & ~3UL)) / 4];
			out[i] = word >> (8 * (i & 3));
			if (!out[i])
				break;
		}
		out[i < len ? i : len - 1] = '\0';
	}
	ret = status == CTL_OK ? 0 : -EINVAL;
out:
	munmap(map, CTL_SIZE);
	return ret;
}

/* "workload TEXT" / "fault TEXT" in hardware mode */
static int qemu_set(const char *what, const char *text)
{
	char cmd[CTL_TEXT], res[CTL_TEXT];

	snprintf(cmd, sizeof(cmd), "%s %s", what, text);
	return mpc_qemu_ctl(cmd, res, sizeof(res));
}

int mpc_set_workload(const char *dbg, const char *text)
{
	if (mpc_hw_device())
		return qemu_set("workload", text);
	return mpc_dbg_write(dbg, "sim_workload", text);
}

int mpc_set_fault(const char *dbg, const char *text)
{
	if (mpc_hw_device())
		return qemu_set("fault", text);
	return mpc_dbg_write(dbg, "sim_fault", text);
}

ssize_t mpc_show_fault(const char *dbg, char *buf, size_t len)
{
	int ret;

	if (!mpc_hw_device())
		return mpc_dbg_read(dbg, "sim_fault", buf, len);
	ret = mpc_qemu_ctl("fault", buf, len);
	return ret ? ret : (ssize_t)strlen(buf);
}

long long mpc_qemu_reports(void)
{
	char res[CTL_TEXT];
	int ret;

	ret = mpc_qemu_ctl("reports", res, sizeof(res));
	return ret ? ret : strtoll(res, NULL, 10);
}

void mpc_klog_mark(const char *tag)
{
	char text[128];

	snprintf(text, sizeof(text), "mpc_test: %s\n", tag);
	if (mpc_write_file("/dev/kmsg", text))
		perror("/dev/kmsg");
}

bool mpc_klog_has_since(const char *tag, const char *what)
{
	char mark[128], *buf, *from = NULL;
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	bool found = false;

	if (len <= 0)
		return false;
	buf = calloc(1, len + 1);
	if (!buf)
		return false;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len > 0) {
		snprintf(mark, sizeof(mark), "mpc_test: %s\n", tag);
		for (char *p = strstr(buf, mark); p; p = strstr(p + 1, mark))
			from = p;
		found = from && strstr(from, what);
	}
	free(buf);
	return found;
}

static int driver_write(const char *drv, const char *file, const char *dev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s/%s",
		 drv ?: MPC_MODULE_NAME, file);
	return mpc_write_file(path, dev ?: mpc_device_name());
}

int mpc_bind(const char *drv, const char *dev)
{
	return driver_write(drv, "bind", dev);
}

int mpc_unbind(const char *drv, const char *dev)
{
	return driver_write(drv, "unbind", dev);
}

/* TAP */

static unsigned int tap_count, tap_failures;

/* @prefix and the formatted text as one line, in one write(). */
static void tap_line(const char *prefix, const char *fmt, va_list ap)
{
	char *text, *line;
	ssize_t w;
	int n, at;

	if (vasprintf(&text, fmt, ap) < 0)
		return;
	n = asprintf(&line, "%s%s\n", prefix, text);
	free(text);
	if (n < 0)
		return;
	/* One write() unless the pipe takes less */
	for (at = 0; at < n; at += w) {
		w = write(STDOUT_FILENO, line + at, n - at);
		if (w <= 0)
			break;
	}
	free(line);
}

static void tap_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line("", fmt, ap);
	va_end(ap);
}

void mpc_tap_header(void)
{
	tap_printf("TAP version 13");
}

void mpc_tap_plan(unsigned int n)
{
	tap_printf("1..%u", n);
}

void mpc_tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line("# ", fmt, ap);
	va_end(ap);
}

bool mpc_tap_result(bool ok, const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%sok %u ", ok ? "" : "not ",
		 ++tap_count);
	tap_failures += !ok;
	va_start(ap, fmt);
	tap_line(prefix, fmt, ap);
	va_end(ap);
	return ok;
}

void mpc_tap_skip(const char *name, const char *fmt, ...)
{
	char *reason;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&reason, fmt, ap);
	va_end(ap);
	if (n < 0)
		reason = NULL;
	mpc_tap_result(true, "%s # SKIP %s", name, reason ?: "");
	free(reason);
}

unsigned int mpc_tap_count(void)
{
	return tap_count;
}

unsigned int mpc_tap_failures(void)
{
	return tap_failures;
}
