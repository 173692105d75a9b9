// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt never competes with panfrost for a real GPU: it binds a
 * device-tree GPU node only when asked (bind=<device>, or driver_override
 * and bind in sysfs), refuses one another driver owns, gives it back at
 * unload, and its installed module has no OF alias, so the node's modalias
 * (what udev or mdev loads at boot) resolves to panfrost alone.
 *
 * Runs in hardware mode only (mpc_hw_device(): the qemu-gpu targets, whose
 * guest ships the kernel's panfrost.ko): every test starts from the GPU
 * bound to nothing and ends with panfrost unloaded. The tests that need
 * panfrost to drive the GPU skip on a node of a SoC the kernel's panfrost
 * has no data for (no OF alias of the node's first compatible, e.g. 6.1's
 * for MT8192): it refuses such a node, as it would on the real board.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mpc_lib.h"

#define PLATFORM	"/sys/bus/platform"

static char *dev_path(const char *file)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), PLATFORM "/devices/%s/%s",
		 mpc_hw_device(), file);
	return path;
}

/* Name of the driver bound to the GPU, "" for none. */
static const char *gpu_driver(void)
{
	static char name[64];
	char link[PATH_MAX];
	ssize_t n;

	n = readlink(dev_path("driver"), link, sizeof(link) - 1);
	if (n < 0)
		return "";
	link[n] = '\0';
	snprintf(name, sizeof(name), "%s", strrchr(link, '/') + 1);
	return name;
}

/* The device's driver_override, "" when clear ("(null)" on these kernels). */
static const char *driver_override(void)
{
	static char val[64];
	size_t n;
	FILE *f;

	val[0] = '\0';
	f = fopen(dev_path("driver_override"), "re");
	if (!f)
		return "?";
	if (!fgets(val, sizeof(val), f))
		val[0] = '\0';
	fclose(f);
	n = strcspn(val, "\n");
	val[n] = '\0';
	if (!strcmp(val, "(null)"))
		val[0] = '\0';
	return val;
}

static int driver_file(const char *drv, const char *file, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PLATFORM "/drivers/%s/%s", drv, file);
	return mpc_write_file(path, text);
}

static bool loaded(const char *mod)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s", mod);
	return !access(path, F_OK);
}

static int run(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* The starting point of every test: neither module, the GPU unbound. */
static void gpu_free(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, mpc_module_unload());
	if (loaded("panfrost"))
		ASSERT_EQ(0, run("rmmod panfrost"));
	ASSERT_STREQ("", gpu_driver());
	ASSERT_STREQ("", driver_override());
}

static void panfrost_bind(struct __test_metadata *_metadata)
{
	if (!loaded("panfrost"))
		ASSERT_EQ(0, run("modprobe panfrost"));
	if (strcmp(gpu_driver(), "panfrost"))
		ASSERT_EQ(0, driver_file("panfrost", "bind", mpc_hw_device()));
	ASSERT_STREQ("panfrost", gpu_driver());
}

static char *bind_param(void)
{
	static char p[128];

	snprintf(p, sizeof(p), "bind=%s", mpc_hw_device());
	return p;
}

FIXTURE(bind) {
	/* panfrost has data for the node's SoC, else why not */
	bool panfrost_drives;
	char why[256];
};

/*
 * Whether the kernel's panfrost has an OF alias for the node's first
 * compatible when that names a SoC ("vendor,..." other than "arm,"): a
 * SoC compatible panfrost does not list falls to its generic match and
 * the default data, which a SoC of several power domains fails.
 */
static bool panfrost_has_soc(char *why, size_t len)
{
	char path[PATH_MAX], compat[128], line[512], want[160], want_c[168];
	bool found = false;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), PLATFORM "/devices/%s/of_node/compatible",
		 mpc_hw_device());
	f = fopen(path, "re");
	if (!f)
		return true;
	n = fread(compat, 1, sizeof(compat) - 1, f);
	fclose(f);
	compat[n] = '\0';	/* the first string of the list */
	if (!compat[0] || !strncmp(compat, "arm,", 4))
		return true;
	snprintf(want, sizeof(want), "of:N*T*C%s", compat);
	snprintf(want_c, sizeof(want_c), "of:N*T*C%sC*", compat);
	f = popen("modinfo -F alias panfrost 2>/dev/null", "r");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, want) || !strcmp(line, want_c))
			found = true;
	}
	pclose(f);
	if (!found)
		snprintf(why, len, "the kernel's panfrost has no data for %s (no OF alias): it refuses the node",
			 compat);
	return found;
}

/* The test needs panfrost to drive the GPU */
#define NEED_PANFROST() do {						\
	if (!self->panfrost_drives)					\
		SKIP(return, "%s", self->why);				\
} while (0)

FIXTURE_SETUP(bind)
{
	if (!mpc_hw_device())
		SKIP(return, "no device-tree GPU (MPC_BIND_DEVICE unset: simulator mode)");
	if (geteuid() != 0)
		SKIP(return, "needs root");
	if (run("modinfo panfrost >/dev/null 2>&1"))
		SKIP(return, "the kernel's panfrost module is not installed");
	self->panfrost_drives = panfrost_has_soc(self->why, sizeof(self->why));
	gpu_free(_metadata);
}

FIXTURE_TEARDOWN(bind)
{
	if (!mpc_hw_device())
		return;
	mpc_module_unload();
	if (loaded("panfrost"))
		run("rmmod panfrost");
}

/* Loaded without bind=, the driver takes no GPU. */
TEST_F(bind, no_bind_param_binds_nothing)
{
	ASSERT_EQ(0, mpc_module_load(""));
	EXPECT_EQ(-ENODEV, mpc_open_render());
	EXPECT_STREQ("", gpu_driver());
	EXPECT_STREQ("", driver_override());
}

/*
 * A module built without the simulator (MPC_SIM=0, as the qemu-gpu targets
 * load it) refuses sim= and says how to get one.
 */
TEST_F(bind, production_build_refuses_sim)
{
	bool has_sim;

	ASSERT_EQ(0, mpc_module_load(""));
	has_sim = !access("/sys/module/" MPC_MODULE_NAME "/parameters/sim_cores", F_OK);
	ASSERT_EQ(0, mpc_module_unload());
	if (has_sim)
		SKIP(return, "this module was built with the simulator (MPC_SIM=1)");
	mpc_klog_mark("nosim");
	EXPECT_EQ(-EINVAL, mpc_module_load("sim=g52"));
	EXPECT_FALSE(mpc_module_loaded());
	EXPECT_TRUE(mpc_klog_has_since("nosim", "built without the simulator")) {
		TH_LOG("no \"built without the simulator\" in the kernel log");
	}
}

/* bind= refuses the GPU panfrost drives, and the log names panfrost. */
TEST_F(bind, bind_while_panfrost_bound_ebusy)
{
	NEED_PANFROST();
	panfrost_bind(_metadata);
	mpc_klog_mark("ebusy");
	EXPECT_EQ(-EBUSY, mpc_module_load(bind_param()));
	EXPECT_FALSE(mpc_module_loaded());
	EXPECT_TRUE(mpc_klog_has_since("ebusy", "driven by panfrost")) {
		TH_LOG("no \"driven by panfrost\" in the kernel log");
	}
	EXPECT_STREQ("panfrost", gpu_driver());
	EXPECT_STREQ("", driver_override());
}

/*
 * An override the admin set on the GPU survives a refused bind=: the
 * module gives the device back as it found it.
 */
TEST_F(bind, bind_ebusy_keeps_admin_override)
{
	NEED_PANFROST();
	panfrost_bind(_metadata);
	ASSERT_EQ(0, mpc_write_file(dev_path("driver_override"), "panfrost"));
	EXPECT_EQ(-EBUSY, mpc_module_load(bind_param()));
	EXPECT_STREQ("panfrost", gpu_driver());
	EXPECT_STREQ("panfrost", driver_override());
	/* gpu_free() of the next test wants no override */
	EXPECT_EQ(0, mpc_write_file(dev_path("driver_override"), "\n"));
}

/* ... and so does one that bind= replaced for as long as it was loaded. */
TEST_F(bind, rmmod_restores_admin_override)
{
	NEED_PANFROST();
	panfrost_bind(_metadata);
	ASSERT_EQ(0, driver_file("panfrost", "unbind", mpc_hw_device()));
	ASSERT_EQ(0, mpc_write_file(dev_path("driver_override"), "panfrost"));
	ASSERT_EQ(0, mpc_module_load(bind_param()));
	EXPECT_STREQ(MPC_MODULE_NAME, gpu_driver());
	EXPECT_STREQ(MPC_MODULE_NAME, driver_override());
	EXPECT_EQ(0, mpc_module_unload());
	EXPECT_STREQ("panfrost", driver_override());
	EXPECT_EQ(0, mpc_write_file(dev_path("driver_override"), "\n"));
}

/* Once panfrost lets go of it, bind= takes the GPU. */
TEST_F(bind, bind_after_panfrost_unbind)
{
	struct drm_mali_perfcnt_get_info info;
	char dbg[256];
	int fd;

	NEED_PANFROST();
	panfrost_bind(_metadata);
	ASSERT_EQ(0, driver_file("panfrost", "unbind", mpc_hw_device()));
	ASSERT_EQ(0, mpc_module_load(bind_param()));
	EXPECT_STREQ(MPC_MODULE_NAME, gpu_driver());
	EXPECT_STREQ(MPC_MODULE_NAME, driver_override());
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, mpc_get_info(fd, &info));
	ASSERT_EQ(0, mpc_find_debugfs(dbg, sizeof(dbg)));
	EXPECT_EQ(0, mpc_dbg_num(dbg, "gpu_info", "simulated"));
	close(fd);
}

/* rmmod clears driver_override: panfrost binds the GPU again. */
TEST_F(bind, rmmod_gives_gpu_back_to_panfrost)
{
	NEED_PANFROST();
	panfrost_bind(_metadata);
	ASSERT_EQ(0, driver_file("panfrost", "unbind", mpc_hw_device()));
	ASSERT_EQ(0, mpc_module_load(bind_param()));
	ASSERT_STREQ(MPC_MODULE_NAME, gpu_driver());
	ASSERT_EQ(0, mpc_module_unload());
	EXPECT_STREQ("", gpu_driver());
	EXPECT_STREQ("", driver_override());
	EXPECT_EQ(0, driver_file("panfrost", "bind", mpc_hw_device()));
	EXPECT_STREQ("panfrost", gpu_driver());
}

/* The sysfs way: driver_override, then bind; and back to panfrost. */
TEST_F(bind, driver_override_and_bind)
{
	struct drm_mali_perfcnt_get_info info;
	int fd;

	NEED_PANFROST();
	panfrost_bind(_metadata);
	ASSERT_EQ(0, driver_file("panfrost", "unbind", mpc_hw_device()));
	ASSERT_EQ(0, mpc_module_load(""));
	ASSERT_EQ(0, mpc_write_file(dev_path("driver_override"), MPC_MODULE_NAME));
	ASSERT_EQ(0, driver_file(MPC_MODULE_NAME, "bind", mpc_hw_device()));
	EXPECT_STREQ(MPC_MODULE_NAME, gpu_driver());
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, mpc_get_info(fd, &info));
	close(fd);

	ASSERT_EQ(0, driver_file(MPC_MODULE_NAME, "unbind", mpc_hw_device()));
	ASSERT_EQ(0, mpc_write_file(dev_path("driver_override"), "\n"));
	EXPECT_STREQ("", driver_override());
	ASSERT_EQ(0, mpc_module_unload());
	EXPECT_EQ(0, driver_file("panfrost", "bind", mpc_hw_device()));
	EXPECT_STREQ("panfrost", gpu_driver());
}

/* The module directory, as modules_install and depmod leave it. */
static void depmod_in_guest(struct __test_metadata *_metadata, char *dir,
			    size_t len)
{
	char ko[PATH_MAX + 64];
	struct utsname u;

	ASSERT_EQ(0, uname(&u));
	snprintf(dir, len, "/lib/modules/%s", u.release);
	/* Where modules_install puts an external module (M=...): extra/ */
	snprintf(ko, sizeof(ko), "%s/extra/" MPC_MODULE_NAME ".ko", dir);
	ASSERT_EQ(0, access(ko, R_OK)) {
		TH_LOG("%s is not installed", ko);
	}
	ASSERT_EQ(0, run("depmod -a %s", u.release));
}

/*
 * modules_install + depmod: modules.alias has no of: alias of mali_perfcnt,
 * and the GPU node's modalias matches panfrost's aliases only.
 */
TEST_F(bind, modalias_resolves_only_to_panfrost)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], line[512], modalias[256];
	char pat[400], mod[100];
	unsigned int ours = 0, panfrost = 0, others = 0, of_ours = 0;
	FILE *f;

	depmod_in_guest(_metadata, dir, sizeof(dir));
	f = fopen(dev_path("modalias"), "re");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(modalias, sizeof(modalias), f));
	fclose(f);
	modalias[strcspn(modalias, "\n")] = '\0';
	ASSERT_EQ(0, strncmp(modalias, "of:", 3)) {
		TH_LOG("modalias %s", modalias);
	}

	snprintf(path, sizeof(path), "%s/modules.alias", dir);
	f = fopen(path, "re");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "alias %399s %99s", pat, mod) != 2)
			continue;
		if (!strcmp(mod, MPC_MODULE_NAME)) {
			ours++;
			if (!strncmp(pat, "of:", 3)) {
				of_ours++;
				TH_LOG("OF alias of ours: %s", pat);
			}
		}
		if (fnmatch(pat, modalias, 0))
			continue;
		if (!strcmp(mod, "panfrost")) {
			panfrost++;
		} else {
			others++;
			TH_LOG("%s also matches %s (%s)", modalias, pat, mod);
		}
	}
	fclose(f);
	/* Our platform alias for the simulator is there: depmod saw us. */
	EXPECT_LT(0, ours);
	EXPECT_EQ(0, of_ours);
	EXPECT_LT(0, panfrost) {
		TH_LOG("nothing in modules.alias matches %s", modalias);
	}
	EXPECT_EQ(0, others);
}

/*
 * What udev (or mdev) does at boot for the GPU node: modprobe of its
 * modalias, with our module installed. panfrost loads and takes the GPU;
 * mali_perfcnt does not load.
 */
TEST_F(bind, boot_modalias_loads_panfrost_only)
{
	char dir[PATH_MAX], modalias[256];
	FILE *f;

	NEED_PANFROST();
	depmod_in_guest(_metadata, dir, sizeof(dir));
	f = fopen(dev_path("modalias"), "re");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(modalias, sizeof(modalias), f));
	fclose(f);
	modalias[strcspn(modalias, "\n")] = '\0';
	EXPECT_EQ(0, run("modprobe -q '%s'", modalias));
	EXPECT_TRUE(loaded("panfrost"));
	EXPECT_FALSE(mpc_module_loaded());
	EXPECT_STREQ("panfrost", gpu_driver());
}

TEST_HARNESS_MAIN
