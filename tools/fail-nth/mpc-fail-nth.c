// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc-fail-nth: make every allocation of one mali_perfcnt operation fail,
 * one at a time, and check that each failure unwinds cleanly.
 *
 * For N = 1, 2, ... it writes N to /proc/thread-self/fail-nth, runs the
 * operation, and reads the file back: 0 means the N-th allocation (slab or
 * page, whichever the kernel's fault-injection debugfs settings allow) was
 * made to fail. The loop ends at the first N the operation does not reach,
 * so every allocation on the operation's path has failed once; N - 1 is the
 * number of injection points covered. After each injected run the device
 * must still work (enable, sample, disable, no allocation left behind), and
 * the kernel log of the iteration must be free of bug reports.
 *
 *   mpc-fail-nth [-m KO] [-p PARAMS] [-l LOG] [-b REGEX] [-n MAX] OP
 *
 * OP is one of
 *   load             finit_module() of KO with PARAMS (probe included)
 *   open             open the render node, GET_INFO, close
 *   enable           DRM_IOCTL_MALI_PERFCNT_ENABLE
 *   dump             DRM_IOCTL_MALI_PERFCNT_DUMP (counters enabled)
 *   debugfs-enable   write "1" to perfcnt_enable
 *   debugfs-dump     open and read perfcnt_dump (counters enabled)
 *   debugfs-counters open and read perfcnt_counters (counters enabled)
 * Every op but load needs the module loaded (with a simulated GPU).
 *
 * -l appends the kernel log of every iteration to LOG (the tool reads and
 * clears the kernel ring buffer, so nothing is lost between iterations);
 * -b is an extended regex of kernel log lines that are bug reports.
 *
 * Output is one TAP test, preceded by "# " diagnostics: the injection points
 * covered, how the operation failed at each, and the distinct call sites in
 * mali_perfcnt whose allocation was failed (from the fault-injection stack
 * traces, verbose=2). Exit status 0 when the test passed.
 *
 * The device, its debugfs directory, the module and the TAP lines are the
 * selftests' (mpc_lib.h); the operations under injection make their system
 * calls here, once each, with no retry that could hide the failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm.h>
#include "mali_perfcnt_drm.h"
#include "mpc_lib.h"

#define MODNAME		MPC_MODULE_NAME
#define DUMP_MAX	65536
#define KLOG_SIZE	(8 << 20)
#define MAX_SITES	256
#define MAX_ERRNO	256
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *op;
static const char *ko_path;
static const char *params = "sim=g52 sim_cores=0xb sim_l2=2";
static FILE *log_file;
static regex_t bad_re;
static bool have_bad_re;
static int max_iter = 20000;
static int verbose;

static int fail_nth_fd = -1;
static char *klog_buf;
static char dbg_dir[PATH_MAX];
static char node[64];
static void *dump_buf;
static size_t dump_size;

static int failures;
static unsigned int errno_count[MAX_ERRNO];
static unsigned int tolerated, reloads;
static unsigned int traced, traced_in_driver;
static struct site {
	char name[128];
	unsigned int hits;
} sites[MAX_SITES];
static unsigned int nr_sites;
/* Where the failure of the current iteration was injected */
static char iter_site[128];

#define diag mpc_tap_diag

/* While set, failed checks are neither reported nor counted. */
static bool quiet;

/* A failed check: reported now, counted for the verdict. */
static void fail(int n, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	diag("FAIL N=%d: %s", n, text);
	failures++;
}

static void die(const char *what)
{
	int err = errno;

	mpc_tap_plan(1);
	mpc_tap_result(false, "fail_nth_%s # %s: %s", op ? op : "?", what,
		       strerror(err));
	exit(1);
}

/* fail-nth */

static void arm(int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		die("writing /proc/thread-self/fail-nth");
}

/* Disarm; true when the armed failure was injected. */
static bool disarm(void)
{
	char buf[16] = "";
	ssize_t len = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		die("reading /proc/thread-self/fail-nth");
	if (atoi(buf) == 0)
		return true;
	arm(0);
	return false;
}

/* The kernel log */

static void site_add(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_sites; i++) {
		if (!strcmp(sites[i].name, name)) {
			sites[i].hits++;
			return;
		}
	}
	if (nr_sites == MAX_SITES)
		return;
	snprintf(sites[nr_sites].name, sizeof(sites[nr_sites].name), "%s", name);
	sites[nr_sites++].hits = 1;
}

/*
 * " mpc_pt_alloc+0x2e/0x160 [mali_perfcnt]" -> "mpc_pt_alloc+0x2e". Frames
 * the unwinder is unsure of ("? ") are skipped.
 */
static bool driver_frame(const char *line, char *out, size_t size)
{
	const char *p = strchr(line, ']');	/* end of the timestamp */
	const char *end;

	if (!strstr(line, "[" MODNAME "]"))
		return false;
	p = p ? p + 1 : line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '?' && p[1] == ' ')
		return false;
	end = strchr(p, '/');
	if (!end || end == p)
		return false;
	snprintf(out, size, "%.*s", (int)(end - p), p);
	return true;
}

/*
 * Read and clear the kernel log; append it to the log file; find bug
 * reports (shown with the log around the first one) and the driver frame of
 * each fault-injection stack trace.
 */
static void harvest(int n, const char *what)
{
	static char *lines[KLOG_SIZE / 32];
	unsigned int nr = 0, i, first_bad = ~0U;
	bool in_trace = false, found = false;
	char *line, *save = NULL;
	int len;

	len = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, klog_buf, KLOG_SIZE - 1);
	if (len < 0)
		die("klogctl");
	klog_buf[len] = '\0';
	if (log_file) {
		fprintf(log_file, "=== fail-nth %s N=%d %s\n", op, n, what);
		fwrite(klog_buf, 1, len, log_file);
		fflush(log_file);
	}
	for (line = strtok_r(klog_buf, "\n", &save); line && nr < ARRAY_SIZE(lines);
	     line = strtok_r(NULL, "\n", &save))
		lines[nr++] = line;

	for (i = 0; i < nr; i++) {
		char frame[128];

		line = lines[i];
		if (have_bad_re && !regexec(&bad_re, line, 0, NULL, 0)) {
			fail(n, "%s: kernel: %s", what, line);
			if (first_bad == ~0U)
				first_bad = i;
		}
		if (strstr(line, "FAULT_INJECTION: forcing a failure")) {
			traced++;
			in_trace = true;
			found = false;
			continue;
		}
		if (strstr(line, "</TASK>"))
			in_trace = false;
		if (!in_trace || found)
			continue;
		if (driver_frame(line, frame, sizeof(frame))) {
			site_add(frame);
			snprintf(iter_site, sizeof(iter_site), "%s", frame);
			traced_in_driver++;
			found = true;
		}
	}
	if (first_bad != ~0U) {
		diag("kernel log of N=%d (%s) from just before the first report:", n, what);
		for (i = first_bad > 5 ? first_bad - 5 : 0; i < nr && i < first_bad + 80; i++)
			diag("  %s", lines[i]);
	}
}

/* The device */

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* The render node and the debugfs directory, "" each when not found. */
static void find_device(void)
{
	if (mpc_find_render(node, sizeof(node)))
		node[0] = '\0';
	if (mpc_find_debugfs(dbg_dir, sizeof(dbg_dir)))
		dbg_dir[0] = '\0';
}

/* perfcnt_stats: live_allocs, or -1 */
static long held_allocs(void)
{
	uint64_t v = mpc_dbg_num(dbg_dir, "perfcnt_stats", "live_allocs");

	return v == ~0ULL ? -1 : (long)v;
}

/* The injected ioctls: one call each (mpc_lib's wrappers retry EAGAIN). */
static int set_enable(int fd, unsigned int on)
{
	struct drm_mali_perfcnt_enable args = { .enable = on };

	return ioctl(fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, &args) ? -errno : 0;
}

static int do_dump(int fd)
{
	struct drm_mali_perfcnt_dump args = {
		.buf_ptr = (uintptr_t)dump_buf,
		.buf_size = dump_size,
	};

	return ioctl(fd, DRM_IOCTL_MALI_PERFCNT_DUMP, &args) ? -errno : 0;
}

static int get_info(int fd, struct drm_mali_perfcnt_get_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, info) ? -errno : 0;
}

static int debugfs_write(const char *file, const char *text)
{
	int ret = mpc_dbg_write(dbg_dir, file, text);

	return ret == -EIO ? 0 : ret;	/* a short write is no failure here */
}

/* Read a debugfs file to the end into dump_buf; bytes read or -errno. */
static long debugfs_read(const char *file)
{
	return mpc_dbg_read(dbg_dir, file, dump_buf, DUMP_MAX + 1);
}

/*
 * The device works: the render node opens, describes the GPU, enables the
 * counters, samples, disables, and holds no allocation afterwards.
 */
static bool device_works(int n, const char *when)
{
	struct drm_mali_perfcnt_get_info info;
	int fd, ret;
	long live;

	find_device();
	if (!node[0] || !dbg_dir[0]) {
		fail(n, "%s: no render node or debugfs directory", when);
		return false;
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fail(n, "%s: open %s: %s", when, node, strerror(errno));
		return false;
	}
	ret = get_info(fd, &info);
	if (!ret && (!info.dump_size || info.dump_size > DUMP_MAX || !info.product[0]))
		ret = -EPROTO;
	if (!ret)
		dump_size = info.dump_size;
	if (!ret)
		ret = set_enable(fd, 1);
	if (!ret)
		ret = do_dump(fd);
	if (!ret)
		ret = set_enable(fd, 0);
	close(fd);
	if (ret) {
		fail(n, "%s: GET_INFO/ENABLE/DUMP/disable: %s", when, strerror(-ret));
		return false;
	}
	live = held_allocs();
	if (live != 0) {
		fail(n, "%s: perfcnt_stats live_allocs %ld after disabling", when, live);
		return false;
	}
	return true;
}

/* The device works, no failure reported when it does not. */
static bool device_works_quietly(int n, const char *when)
{
	bool ok;

	quiet = true;
	ok = device_works(n, when);
	quiet = false;
	return ok;
}

/* One try, no waiting: a reference left behind is a failure. */
static int unload(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) ? -errno : 0;
}

/* Nothing of a failed load may stay behind. */
static void check_gone(int n)
{
	char dev[PATH_MAX];

	snprintf(dev, sizeof(dev), "/sys/bus/platform/devices/%s",
		 mpc_device_name());
	if (mpc_module_loaded())
		fail(n, "failed load left the module loaded");
	/* The simulator's device is the module's; a bound one is the DT's */
	if (!mpc_hw_device() && exists(dev))
		fail(n, "failed load left %s", dev);
	find_device();
	if (node[0])
		fail(n, "failed load left %s", node);
}

/* The operations: setup (not injected), the injected part, teardown */

static int ctl_fd = -1;

static void op_setup(int n)
{
	int ret;

	if (!strcmp(op, "load"))
		return;
	find_device();
	if (!node[0] || !dbg_dir[0]) {
		errno = ENODEV;
		die("mali_perfcnt is not loaded");
	}
	if (!strcmp(op, "enable") || !strcmp(op, "dump") || !strcmp(op, "open")) {
		ctl_fd = open(node, O_RDWR | O_CLOEXEC);
		if (ctl_fd < 0)
			die("opening the render node");
	}
	if (!strcmp(op, "dump")) {
		ret = set_enable(ctl_fd, 1);
		if (ret)
			fail(n, "setup: ENABLE: %s", strerror(-ret));
	}
	if (!strncmp(op, "debugfs-", 8) && strcmp(op, "debugfs-enable")) {
		ret = debugfs_write("perfcnt_enable", "1");
		if (ret)
			fail(n, "setup: perfcnt_enable: %s", strerror(-ret));
	}
}

/* The injected part; 0 or -errno. */
static int op_run(int n)
{
	struct drm_mali_perfcnt_get_info info;
	long len;
	int fd, ret;

	if (!strcmp(op, "load")) {
		fd = open(ko_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die(ko_path);
		arm(n);
		ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
		close(fd);
		return ret;
	}
	if (!strcmp(op, "open")) {
		arm(n);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = get_info(fd, &info);
		close(fd);
		return ret;
	}
	if (!strcmp(op, "enable")) {
		arm(n);
		return set_enable(ctl_fd, 1);
	}
	if (!strcmp(op, "dump")) {
		arm(n);
		return do_dump(ctl_fd);
	}
	if (!strcmp(op, "debugfs-enable")) {
		arm(n);
		return debugfs_write("perfcnt_enable", "1");
	}
	if (!strcmp(op, "debugfs-dump") || !strcmp(op, "debugfs-counters")) {
		char file[32];

		snprintf(file, sizeof(file), "perfcnt_%s", op + strlen("debugfs-"));
		arm(n);
		len = debugfs_read(file);
		if (len < 0)
			return len;
		if (!strcmp(op, "debugfs-dump") && (size_t)len != dump_size)
			return -EPROTO;
		return 0;
	}
	errno = EINVAL;
	die("unknown operation");
	return 0;
}

/* Load the module (-m, as $MPC_MODULE) with nothing injected; 0 or -errno. */
static int clean_load(void)
{
	return mpc_module_load(params);
}

/*
 * After the injected part: undo it, check that the device works, note the
 * outcome.
 *
 * A load that failed must leave no module, platform device or DRM minor
 * behind; when the failure went through mali_perfcnt code, a load with
 * nothing injected must then give a working device. (Failures inside the
 * module loader, before any code of ours ran, skip that reload, which would
 * double the time of the loop: damage that lasts would still make the
 * loop's last load, with nothing injected, fail.) A load that survived the
 * failure (most do: kmemleak, KASAN and the slab and vmalloc allocators fall
 * back) must give a working device and unload; if that instance lost
 * something the kernel treats as optional (a /proc/irq or debugfs file, the
 * /dev node devtmpfs makes), a clean load must give a working device.
 */
static void op_teardown(int n, int ret, bool injected)
{
	char what[64];
	int err;

	if (injected && ret < 0 && -ret < MAX_ERRNO)
		errno_count[-ret]++;
	if (!ret && injected)
		tolerated++;
	if (verbose || (injected && ret && ret != -ENOMEM))
		diag("N=%d: %s%s, injected at %s", n, ret ? strerror(-ret) : "success",
		     injected ? "" : " (nothing injected)",
		     iter_site[0] ? iter_site : "(no mali_perfcnt frame)");
	if (!injected && ret)
		fail(n, "the operation fails with nothing injected: %s", strerror(-ret));
	snprintf(what, sizeof(what), "after %s", ret ? strerror(-ret) : "success");

	if (!strcmp(op, "load")) {
		bool works = false;

		if (ret) {
			check_gone(n);
		} else {
			works = injected ? device_works_quietly(n, what) : device_works(n, what);
			err = unload();
			if (err)
				fail(n, "delete_module: %s", strerror(-err));
			if (!works && injected)
				diag("N=%d: the instance that survived the failure at %s fails",
				     n, iter_site[0] ? iter_site : "(no mali_perfcnt frame)");
		}
		if (!injected || works || (ret && !iter_site[0]))
			return;
		reloads++;
		err = clean_load();
		if (err) {
			fail(n, "the clean load after it fails: %s", strerror(-err));
			return;
		}
		device_works(n, "clean load after it");
		err = unload();
		if (err)
			fail(n, "delete_module after the clean load: %s", strerror(-err));
		return;
	}
	if (!strcmp(op, "enable") && !ret) {
		ret = set_enable(ctl_fd, 0);
		if (ret)
			fail(n, "disable after an enable: %s", strerror(-ret));
	}
	if (!strcmp(op, "dump")) {
		ret = set_enable(ctl_fd, 0);
		if (ret)
			fail(n, "disable: %s", strerror(-ret));
	}
	if (!strncmp(op, "debugfs-", 8) &&
	    (strcmp(op, "debugfs-enable") || !ret)) {
		ret = debugfs_write("perfcnt_enable", "0");
		if (ret)
			fail(n, "perfcnt_enable 0: %s", strerror(-ret));
	}
	if (ctl_fd >= 0)
		close(ctl_fd);
	ctl_fd = -1;
	device_works(n, what);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: mpc-fail-nth [-m KO] [-p PARAMS] [-l LOG] [-b REGEX] [-n MAX] [-v] OP\n"
		"OP: load open enable dump debugfs-enable debugfs-dump debugfs-counters\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int i, e;
	int opt, n, ret = 0;
	char name[64];
	bool injected = true;

	while ((opt = getopt(argc, argv, "m:p:l:b:n:v")) != -1) {
		switch (opt) {
		case 'm':
			ko_path = optarg;
			break;
		case 'p':
			params = optarg;
			break;
		case 'l':
			log_file = fopen(optarg, "a");
			if (!log_file)
				die(optarg);
			break;
		case 'b':
			if (regcomp(&bad_re, optarg, REG_EXTENDED | REG_NOSUB))
				print_usage();
			have_bad_re = true;
			break;
		case 'n':
			max_iter = atoi(optarg);
			break;
		case 'v':
			verbose++;
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc - 1)
		print_usage();
	op = argv[optind];
	if (!strcmp(op, "load") && !ko_path)
		print_usage();
	if (ko_path && setenv("MPC_MODULE", ko_path, 1))
		die("setenv");

	setvbuf(stdout, NULL, _IOLBF, 0);
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		die("/proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION?)");
	/* Touch every buffer now: page faults while armed would be injected */
	klog_buf = malloc(KLOG_SIZE);
	dump_buf = malloc(DUMP_MAX + 1);	/* + mpc_dbg_read()'s NUL */
	if (!klog_buf || !dump_buf)
		die("malloc");
	memset(klog_buf, 0, KLOG_SIZE);
	memset(dump_buf, 0, DUMP_MAX + 1);

	if (!strcmp(op, "load")) {
		if (mpc_module_loaded() && unload())
			die("unloading " MODNAME);
	} else {
		find_device();
		if (!device_works(0, "before the loop"))
			die("the device does not work before the loop");
		dump_size = dump_size ? dump_size : DUMP_MAX;
	}
	harvest(0, "before the loop");

	for (n = 1; n <= max_iter && injected; n++) {
		iter_site[0] = '\0';
		op_setup(n);
		ret = op_run(n);
		injected = disarm();
		harvest(n, "injected part");
		op_teardown(n, ret, injected);
		harvest(n, "teardown");
	}
	n--;
	if (injected)
		fail(n, "gave up after %d iterations", max_iter);

	diag("%s: %d injection points (N=1..%d), each failed once", op, n - 1, n - 1);
	for (e = 0; e < MAX_ERRNO; e++)
		if (errno_count[e])
			diag("  %u failed with %s", errno_count[e], strerror(e));
	if (tolerated)
		diag("  %u tolerated the failure and succeeded", tolerated);
	if (reloads)
		diag("  %u clean loads checked the device after a failure", reloads);
	diag("  %u stack traces, %u through mali_perfcnt code, at %u distinct driver call sites:",
	     traced, traced_in_driver, nr_sites);
	for (i = 0; i < nr_sites; i++)
		diag("    %s (%u)", sites[i].name, sites[i].hits);
	diag("fail-nth summary: %s %d points %u driver-sites%s", op, n - 1,
	     nr_sites, failures ? " FAILED" : "");
	/*
	 * No allocation on the path failed: nothing was tested (e.g. the
	 * fault-injection settings exclude it). A skip, not a pass.
	 */
	mpc_tap_plan(1);
	if (!failures && n - 1 == 0) {
		snprintf(name, sizeof(name), "fail_nth_%s", op);
		mpc_tap_skip(name, "no injection point was reached: the operation made no allocation fault injection could fail");
		return 0;
	}
	return mpc_tap_result(!failures, "fail_nth_%s", op) ? 0 : 1;
}
