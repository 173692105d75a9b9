// SPDX-License-Identifier: GPL-2.0-only
/*
 * SoC data (kernel/mpc_soc.c) on the device-tree GPU of the qemu-gpu
 * targets, whose compatible list a boot sets (-global
 * mali-gpu.dt-compatible=A;B, scripts/check.sh's qemu_hw_gpus rows):
 * - a node of a vendor that needs SoC data, whose SoC we have no data for,
 *   is refused with a message naming its compatible, and -ENODEV;
 * - a node whose SoC needs several power domains but lists none is refused
 *   as panfrost refuses it (-EINVAL, "power domain(s)");
 * - any other node binds, gpu_info names the compatible its data is for,
 *   and the counters sample;
 * - Amlogic: the power-override bits are in the GPU after the probe and
 *   again after a runtime suspend and resume (the reset clears them);
 * - runtime suspend leaves the clocks on (no SoC we have data for allows
 *   gating them at runtime): the clock's enable count is the same with the
 *   GPU suspended as with it active;
 * - a node in the named domains of the board's test power controller
 *   (-global mali-gpu.power-domains=core0;core1;core2, its driver
 *   kernel/tests/mpc_test_pd.c): every domain has the GPU as consumer and
 *   is on while the GPU is active, off after its runtime suspend and on
 *   again when counters are enabled, and at unbind it is detached (no
 *   consumer) and off;
 * - a node with the board's test clock and test regulators (-global
 *   mali-gpu.test-clock=on, mali-gpu.supplies=mali;sram, the same test
 *   module): the clock is prepared and enabled once and every supply of
 *   the SoC's data enabled once from the probe to the unbind, which undoes
 *   each once; runtime suspend and resume touch them only where the SoC's
 *   data allows it (none of ours does); a system suspend with the counters
 *   enabled (pm_test "platform") disables and unprepares the clock and
 *   disables every supply once, and enables them again at resume, where
 *   the SoC's data allows it (MT8183b/8186/8188/8192), and touches none
 *   elsewhere; in both cases the first DUMP after the resume succeeds and
 *   says MALI_PERFCNT_DATA_AFTER_POWER_LOSS, and gpu_info shows the
 *   counters programmed as before. The counts are the providers', not the
 *   driver's account of itself.
 *
 * What the driver should do with a compatible is this file's own table,
 * the specification, not read from the driver. Hardware mode only
 * (MPC_BIND_DEVICE); every test ends with the module unloaded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mpc_lib.h"

#define PLATFORM_DEV	"/sys/bus/platform/devices"

/* The SoC compatibles the driver has data for, and what that data says */
static const struct soc_spec {
	const char *compatible;
	unsigned int nr_pm_domains;
	/* PWR_OVERRIDE1 after every reset, 0 for none */
	unsigned int pwr_override1;
	/* The supplies the driver takes, NULL: "mali" alone */
	const char *const *supplies;
	/* System suspend gates the clocks and turns the supplies off */
	bool sys_off;
	/* Runtime suspend gates the clocks */
	bool rt_clk_gate;
} known[] = {
	{ "amlogic,meson-gxm-mali", 0, 0x200fff },
	{ "amlogic,meson-g12a-mali", 0, 0x200fff },
	{ "mediatek,mt8183-mali", 3, 0, (const char *const[]){ "mali", "sram", NULL } },
	{ "mediatek,mt8183b-mali", 3, 0, NULL, true },
	{ "mediatek,mt8186-mali", 2, 0, NULL, true },
	{ "mediatek,mt8188-mali", 3, 0, NULL, true },
	{ "mediatek,mt8192-mali", 5, 0, NULL, true },
	{ "arm,mali-t604" }, { "arm,mali-t624" }, { "arm,mali-t628" },
	{ "arm,mali-t720" }, { "arm,mali-t760" }, { "arm,mali-t820" },
	{ "arm,mali-t830" }, { "arm,mali-t860" }, { "arm,mali-t880" },
	{ "arm,mali-bifrost" }, { "arm,mali-valhall-jm" },
};

/* Vendors whose SoCs the generic data does not fit */
static const char * const needs_data[] = { "mediatek,", "amlogic," };

enum outcome { BINDS, REFUSED_NO_DATA, REFUSED_DOMAINS };

struct expect {
	enum outcome outcome;
	const struct soc_spec *spec;	/* BINDS, REFUSED_DOMAINS */
	char refused[128];		/* REFUSED_NO_DATA: the SoC's compatible */
};

static char *node_file(const char *file, size_t *len)
{
	char path[PATH_MAX];
	static char buf[1024];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PLATFORM_DEV "/%s/of_node/%s",
		 mpc_hw_device(), file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* What the driver must do with the node, from its compatible list. */
static void expectation(struct expect *e)
{
	size_t len, off, i;
	char *list = node_file("compatible", &len);

	memset(e, 0, sizeof(*e));
	e->outcome = BINDS;
	for (off = 0; list && off < len; off += strlen(list + off) + 1) {
		const char *c = list + off;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			if (strcmp(c, known[i].compatible))
				continue;
			e->spec = &known[i];
			if (known[i].nr_pm_domains > 1 &&
			    !node_file("power-domains", &len))
				e->outcome = REFUSED_DOMAINS;
			return;
		}
		for (i = 0; i < sizeof(needs_data) / sizeof(needs_data[0]); i++) {
			if (!strncmp(c, needs_data[i], strlen(needs_data[i]))) {
				e->outcome = REFUSED_NO_DATA;
				snprintf(e->refused, sizeof(e->refused), "%s", c);
				return;
			}
		}
	}
}

static int load(void)
{
	char params[256];

	snprintf(params, sizeof(params), "bind=%s %s", mpc_hw_device(),
		 mpc_extra_params());
	return mpc_module_load(params);
}

static int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The GPU's runtime PM status: "active", "suspended", ... */
static const char *rpm_status(void)
{
	static char val[32];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PLATFORM_DEV "/%s/power/runtime_status",
		 mpc_hw_device());
	if (read_text(path, val, sizeof(val)))
		return "?";
	return val;
}

/* Wait (up to 10 s) for the autosuspend after the last user went. */
static bool wait_suspended(void)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (!strcmp(rpm_status(), "suspended"))
			return true;
		mpc_sleep_ms(10);
	}
	return false;
}

/*
 * The debugfs directory of the GPU's first clock: the node whose phandle
 * the GPU node's "clocks" names (at the top of the device tree, as the
 * virt board's apb-pclk), by its clock-output-names.
 */
static int gpu_clk_dir(char *dir, size_t len)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	uint32_t want, ph;
	struct dirent *de;
	size_t n;
	char *cells = node_file("clocks", &n);
	DIR *d;
	int fd, ret = -ENOENT;

	if (!cells || n < 4)
		return -ENOENT;
	memcpy(&want, cells, 4);
	d = opendir("/proc/device-tree");
	if (!d)
		return -errno;
	while ((de = readdir(d)) && ret) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/device-tree/%s/phandle", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, &ph, 4) == 4 && ph == want) {
			snprintf(path, sizeof(path),
				 "/proc/device-tree/%s/clock-output-names", de->d_name);
			if (read_text(path, name, sizeof(name)))
				snprintf(name, sizeof(name), "%.*s", NAME_MAX, de->d_name);
			snprintf(dir, len, "/sys/kernel/debug/clk/%s", name);
			ret = access(dir, F_OK) ? -errno : 0;
		}
		close(fd);
	}
	closedir(d);
	return ret;
}

static long clk_enable_count(const char *dir)
{
	char path[PATH_MAX + 32], val[32];

	snprintf(path, sizeof(path), "%s/clk_enable_count", dir);
	if (read_text(path, val, sizeof(val)))
		return -1;
	return strtol(val, NULL, 10);
}

/* PWR_OVERRIDE1 as the QEMU device holds it (its test-control window) */
static long pwr_override1(void)
{
	char res[128], *sp;

	if (mpc_qemu_ctl("pwr_override", res, sizeof(res)))
		return -1;
	sp = strchr(res, ' ');
	return sp ? strtol(sp + 1, NULL, 16) : -1;
}

/* The test power controller's debugfs (kernel/tests/mpc_test_pd.c) */
#define TEST_PD_DIR	"/sys/kernel/debug/mpc_test_pd"

struct pd_state {
	bool on;
	long on_count, off_count, consumers;
};

/* Parse TEST_PD_DIR/NAME: 0, or -errno / -EPROTO for a malformed file */
static int pd_read(const char *name, struct pd_state *st)
{
	char buf[256], state[8];
	ssize_t n;

	n = mpc_dbg_read(TEST_PD_DIR, name, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (sscanf(buf, "state %7s on_count %ld off_count %ld consumers %ld",
		   state, &st->on_count, &st->off_count, &st->consumers) != 4)
		return -EPROTO;
	st->on = !strcmp(state, "on");
	return 0;
}

/*
 * The node's power-domain-names (NUL-separated, *nr of them) when the
 * test power controller provides its domains, else NULL.
 */
static const char *test_pd_names(int *nr)
{
	static char names[256];
	size_t len, off;
	const char *list;

	*nr = 0;
	if (access(TEST_PD_DIR, F_OK))
		return NULL;
	list = node_file("power-domain-names", &len);
	if (!list || len >= sizeof(names))
		return NULL;
	memcpy(names, list, len);
	for (off = 0; off < len; off += strlen(names + off) + 1)
		(*nr)++;
	return names;
}

/*
 * Wait (up to 10 s: genpd powers off from a work item) for every domain to
 * be @on (1 on, 0 off, -1 either) with @consumers (-1: any number).
 */
static bool pd_wait_all(const char *names, int nr, int on, long consumers)
{
	struct pd_state st;
	const char *name;
	int i, k, ok;

	for (i = 0; i < 1000; i++) {
		ok = 0;
		for (k = 0, name = names; k < nr; k++, name += strlen(name) + 1)
			if (!pd_read(name, &st) && (on < 0 || st.on == on) &&
			    (consumers < 0 || st.consumers == consumers))
				ok++;
		if (ok == nr)
			return true;
		mpc_sleep_ms(10);
	}
	return false;
}

/* Every domain's state, for the log of a failed case */
static void pd_log(struct __test_metadata *_metadata, const char *names, int nr)
{
	struct pd_state st;
	const char *name = names;
	int k, ret;

	for (k = 0; k < nr; k++, name += strlen(name) + 1) {
		ret = pd_read(name, &st);
		if (ret)
			TH_LOG("%s/%s: %s", TEST_PD_DIR, name, strerror(-ret));
		else
			TH_LOG("%s: %s, on %ld, off %ld, consumers %ld", name,
			       st.on ? "on" : "off", st.on_count, st.off_count,
			       st.consumers);
	}
	TH_LOG("GPU runtime status %s", rpm_status());
}

FIXTURE(soc) {
	struct expect e;
	char dbg[PATH_MAX];
};

FIXTURE_SETUP(soc)
{
	if (!mpc_hw_device())
		SKIP(return, "no device-tree GPU (MPC_BIND_DEVICE unset: simulator mode)");
	if (geteuid() != 0)
		SKIP(return, "needs root");
	ASSERT_EQ(0, mpc_module_unload());
	expectation(&self->e);
}

FIXTURE_TEARDOWN(soc)
{
	if (mpc_hw_device())
		mpc_module_unload();
}

/* Bind, and find the debugfs directory; only where the node must bind. */
static void bind_gpu(struct __test_metadata *_metadata, FIXTURE_DATA(soc) *self)
{
	ASSERT_EQ(0, load()) {
		TH_LOG("the module refused %s (see dmesg)", mpc_hw_device());
	}
	ASSERT_EQ(0, mpc_find_debugfs(self->dbg, sizeof(self->dbg)));
}

/* A vendor's SoC we have no data for: refused, before any register access. */
TEST_F(soc, refuses_soc_without_data)
{
	char what[256];

	if (self->e.outcome != REFUSED_NO_DATA)
		SKIP(return, "the node's SoC is one the driver has data for");
	mpc_klog_mark("refuses_soc_without_data");
	EXPECT_EQ(-ENODEV, load());
	snprintf(what, sizeof(what), "compatible \"%s\": no SoC data", self->e.refused);
	EXPECT_TRUE(mpc_klog_has_since("refuses_soc_without_data", what)) {
		TH_LOG("no '%s' in the kernel log", what);
	}
	/* (the driver core logs a probe's -ENODEV at debug level only) */
	EXPECT_FALSE(mpc_klog_has_since("refuses_soc_without_data", "failed with error")) {
		TH_LOG("the probe failed with another errno than -ENODEV (see dmesg)");
	}
	EXPECT_EQ(0, mpc_qemu_reports());
}

/* As panfrost: a SoC of several domains on a node that lists none */
TEST_F(soc, refuses_missing_power_domains)
{
	if (self->e.outcome != REFUSED_DOMAINS)
		SKIP(return, "the node's SoC needs no domains, or the node has them");
	mpc_klog_mark("refuses_missing_power_domains");
	EXPECT_EQ(-ENODEV, load());
	EXPECT_TRUE(mpc_klog_has_since("refuses_missing_power_domains", "power domain(s)"));
	EXPECT_TRUE(mpc_klog_has_since("refuses_missing_power_domains",
				   "failed with error -22"));
}

/* Any other node binds with the data of its most specific compatible */
TEST_F(soc, binds_known_soc_and_samples)
{
	struct drm_mali_perfcnt_get_info info;
	char soc[128];
	void *buf;
	int fd;

	if (self->e.outcome != BINDS)
		SKIP(return, "the node must be refused");
	bind_gpu(_metadata, self);
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "soc", soc, sizeof(soc))) {
		TH_LOG("gpu_info has no soc line");
	}
	EXPECT_STREQ(self->e.spec->compatible, soc);
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_get_info(fd, &info));
	buf = calloc(1, info.dump_size);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, mpc_enable_all(fd));
	EXPECT_EQ(0, mpc_dump(fd, buf, info.dump_size, NULL, NULL));
	EXPECT_EQ(0, mpc_disable(fd));
	free(buf);
	close(fd);
}

/* Amlogic: the override bits after the probe, and after every reset */
TEST_F(soc, amlogic_power_override_after_reset)
{
	int fd;

	if (self->e.outcome != BINDS || !self->e.spec->pwr_override1)
		SKIP(return, "not an Amlogic node");
	/* The register is read back through the QEMU device's window */
	if (!getenv("MPC_QEMU_CTL") || !*getenv("MPC_QEMU_CTL"))
		SKIP(return, "no test-control window (MPC_QEMU_CTL unset, as on a board): PWR_OVERRIDE1 cannot be read back");
	bind_gpu(_metadata, self);
	EXPECT_EQ(self->e.spec->pwr_override1, pwr_override1());
	ASSERT_TRUE(wait_suspended()) {
		TH_LOG("runtime status %s, want suspended", rpm_status());
	}
	/* Runtime resume resets the GPU, which clears the register */
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_enable_all(fd));
	EXPECT_STREQ("active", rpm_status());
	EXPECT_EQ(self->e.spec->pwr_override1, pwr_override1());
	EXPECT_EQ(0, mpc_disable(fd));
	close(fd);
}

/* Runtime suspend gates no clock: no SoC we have data for allows it */
TEST_F(soc, runtime_suspend_keeps_clocks_on)
{
	char clk[PATH_MAX], down[64];
	long suspended, active;
	int fd;

	if (self->e.outcome != BINDS)
		SKIP(return, "the node must be refused");
	if (gpu_clk_dir(clk, sizeof(clk)))
		SKIP(return, "no debugfs directory of the GPU's clock");
	bind_gpu(_metadata, self);
	ASSERT_TRUE(wait_suspended()) {
		TH_LOG("runtime status %s, want suspended", rpm_status());
	}
	suspended = clk_enable_count(clk);
	EXPECT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "soc_power_down", down,
				 sizeof(down)));
	EXPECT_STREQ("none", down);
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_enable_all(fd));
	ASSERT_STREQ("active", rpm_status());
	active = clk_enable_count(clk);
	EXPECT_LT(0, active);
	EXPECT_EQ(active, suspended) {
		TH_LOG("%s: enable count %ld suspended, %ld active", clk,
		       suspended, active);
	}
	EXPECT_EQ(0, mpc_disable(fd));
	close(fd);
}

/* The node's domains come from the test power controller; skip if not */
#define NEED_TEST_PD(names, nr) do {					\
	if (self->e.outcome != BINDS)					\
		SKIP(return, "the node must be refused");		\
	if (self->e.spec->nr_pm_domains < 2)				\
		SKIP(return, "the node's SoC has no named power domains");	\
	(names) = test_pd_names(&(nr));					\
	if (!(names))							\
		SKIP(return, "no test power controller (mali-gpu.power-domains unset)"); \
	ASSERT_EQ(self->e.spec->nr_pm_domains, (nr)) {			\
		TH_LOG("the node names %d power domains, %s has %u", (nr),	\
		       self->e.spec->compatible, self->e.spec->nr_pm_domains); \
	}								\
} while (0)

/* With the GPU active, each of its domains has it as consumer and is on */
TEST_F(soc, power_domains_on_while_active)
{
	const char *names;
	int nr, fd;

	NEED_TEST_PD(names, nr);
	bind_gpu(_metadata, self);
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_enable_all(fd));
	EXPECT_STREQ("active", rpm_status());
	EXPECT_TRUE(pd_wait_all(names, nr, 1, 1)) {
		TH_LOG("not every domain on with one consumer while the GPU is active:");
		pd_log(_metadata, names, nr);
	}
	EXPECT_EQ(0, mpc_disable(fd));
	close(fd);
}

/* Off after the GPU's runtime suspend, on again when counters are enabled */
TEST_F(soc, power_domains_follow_runtime_pm)
{
	struct pd_state before[8], st;
	const char *names, *name;
	int nr, k, fd;

	NEED_TEST_PD(names, nr);
	ASSERT_GE(8, nr);
	bind_gpu(_metadata, self);
	ASSERT_TRUE(wait_suspended()) {
		TH_LOG("runtime status %s, want suspended", rpm_status());
	}
	ASSERT_TRUE(pd_wait_all(names, nr, 0, 1)) {
		TH_LOG("not every domain off (with its consumer) after the runtime suspend:");
		pd_log(_metadata, names, nr);
	}
	for (k = 0, name = names; k < nr; k++, name += strlen(name) + 1)
		ASSERT_EQ(0, pd_read(name, &before[k]));
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_enable_all(fd));
	EXPECT_STREQ("active", rpm_status());
	for (k = 0, name = names; k < nr; k++, name += strlen(name) + 1) {
		ASSERT_EQ(0, pd_read(name, &st));
		EXPECT_TRUE(st.on) {
			TH_LOG("%s off with counters enabled", name);
		}
		EXPECT_LT(before[k].on_count, st.on_count) {
			TH_LOG("%s: not powered on again at the runtime resume", name);
		}
	}
	EXPECT_EQ(0, mpc_disable(fd));
	close(fd);
}

/* Unbind detaches every domain: no consumer left, and off */
TEST_F(soc, power_domains_detached_at_unbind)
{
	const char *names;
	int nr;

	NEED_TEST_PD(names, nr);
	bind_gpu(_metadata, self);
	ASSERT_TRUE(pd_wait_all(names, nr, -1, 1)) {
		TH_LOG("the bound GPU is not the one consumer of every domain:");
		pd_log(_metadata, names, nr);
	}
	ASSERT_EQ(0, mpc_module_unload());
	EXPECT_TRUE(pd_wait_all(names, nr, 0, 0)) {
		TH_LOG("a domain still on or with a consumer after unbind:");
		pd_log(_metadata, names, nr);
	}
}

/*
 * The test clock and regulators (kernel/tests/mpc_test_pd.c): the clock's
 * file "clk" and one "vreg-NAME" per supply, "key N" lines.
 */
struct prov_state {
	long prepared, enabled, prepare_count, enable_count;
	long disable_count, unprepare_count;
};

#define MAX_VREGS	4

struct power_state {
	bool have_clk;
	struct prov_state clk;
	int nr_vregs;
	struct {
		char name[32];
		struct prov_state st;
	} vreg[MAX_VREGS];
};

/* "key N" of a provider's file; -1 when missing */
static long prov_num(const char *buf, const char *key)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ')
			return strtol(p + kl + 1, NULL, 10);
	return -1;
}

static int prov_read(const char *file, struct prov_state *st)
{
	char buf[512];
	ssize_t n;

	n = mpc_dbg_read(TEST_PD_DIR, file, buf, sizeof(buf));
	if (n < 0)
		return n;
	st->prepared = prov_num(buf, "prepared");
	st->enabled = prov_num(buf, "enabled");
	st->prepare_count = prov_num(buf, "prepare_count");
	st->enable_count = prov_num(buf, "enable_count");
	st->disable_count = prov_num(buf, "disable_count");
	st->unprepare_count = prov_num(buf, "unprepare_count");
	return st->enabled < 0 || st->enable_count < 0 || st->disable_count < 0 ?
	       -EPROTO : 0;
}

/* The state of the test clock, if the node has it, and of every test supply */
static int power_read(struct power_state *ps)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	memset(ps, 0, sizeof(*ps));
	ps->have_clk = !prov_read("clk", &ps->clk);
	d = opendir(TEST_PD_DIR);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && !ret) {
		if (strncmp(de->d_name, "vreg-", 5))
			continue;
		if (ps->nr_vregs == MAX_VREGS)
			break;
		snprintf(ps->vreg[ps->nr_vregs].name, sizeof(ps->vreg[0].name),
			 "%s", de->d_name + 5);
		ret = prov_read(de->d_name, &ps->vreg[ps->nr_vregs].st);
		ps->nr_vregs++;
	}
	closedir(d);
	return ret;
}

/* Whether the SoC's data has the driver take supply @name */
static bool spec_takes_supply(const struct soc_spec *spec, const char *name)
{
	static const char *const mali_only[] = { "mali", NULL };
	const char *const *s = spec->supplies ? spec->supplies : mali_only;

	for (; *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static void power_log(struct __test_metadata *_metadata, const char *when,
		      const struct power_state *ps)
{
	int i;

	if (ps->have_clk)
		TH_LOG("%s: clk prepared %ld enabled %ld, prepare %ld enable %ld disable %ld unprepare %ld",
		       when, ps->clk.prepared, ps->clk.enabled, ps->clk.prepare_count,
		       ps->clk.enable_count, ps->clk.disable_count,
		       ps->clk.unprepare_count);
	for (i = 0; i < ps->nr_vregs; i++)
		TH_LOG("%s: supply %s enabled %ld, enable %ld disable %ld", when,
		       ps->vreg[i].name, ps->vreg[i].st.enabled,
		       ps->vreg[i].st.enable_count, ps->vreg[i].st.disable_count);
}

/*
 * From @a to @b the clock was gated @clk times (disabled and unprepared,
 * then prepared and enabled again as often) and each supply the driver
 * takes cut @vreg times, those it does not take never; the clock and
 * those supplies end @on (1 on, 0 off, -1 either). 0 or the number of
 * mismatches, each logged.
 */
static int power_diff(struct __test_metadata *_metadata,
		      const struct soc_spec *spec, const struct power_state *a,
		      const struct power_state *b, long clk_off, long clk_on,
		      long vreg_off, long vreg_on, int on)
{
	int i, bad = 0;

	if (a->have_clk != b->have_clk || a->nr_vregs != b->nr_vregs) {
		TH_LOG("the test providers changed between the readings");
		return 1;
	}
	if (a->have_clk) {
		const struct prov_state *x = &a->clk, *y = &b->clk;

		if (y->disable_count - x->disable_count != clk_off ||
		    y->unprepare_count - x->unprepare_count != clk_off ||
		    y->prepare_count - x->prepare_count != clk_on ||
		    y->enable_count - x->enable_count != clk_on ||
		    (on >= 0 && (y->enabled != on || y->prepared != on))) {
			TH_LOG("clock: want %ld disable+unprepare and %ld prepare+enable, ending %s",
			       clk_off, clk_on, on < 0 ? "either" : on ? "on" : "off");
			bad++;
		}
	}
	for (i = 0; i < a->nr_vregs; i++) {
		const struct prov_state *x = &a->vreg[i].st, *y = &b->vreg[i].st;
		bool taken = spec_takes_supply(spec, a->vreg[i].name);
		long off = taken ? vreg_off : 0, onn = taken ? vreg_on : 0;

		if (y->disable_count - x->disable_count != off ||
		    y->enable_count - x->enable_count != onn ||
		    (taken && on >= 0 && y->enabled != on) ||
		    (!taken && (y->enabled || y->enable_count))) {
			TH_LOG("supply %s (%s by %s): want %ld disable and %ld enable%s",
			       a->vreg[i].name, taken ? "taken" : "not taken",
			       spec->compatible, off, onn,
			       taken && on >= 0 ? (on ? ", ending on" : ", ending off") : "");
			bad++;
		}
	}
	if (bad) {
		power_log(_metadata, "before", a);
		power_log(_metadata, "after", b);
	}
	return bad;
}

/* The node's clock or supplies come from the test providers; skip if not */
#define NEED_TEST_POWER(ps) do {					\
	if (self->e.outcome != BINDS)					\
		SKIP(return, "the node must be refused");		\
	if (power_read(ps) || (!(ps)->have_clk && !(ps)->nr_vregs))	\
		SKIP(return, "no test clock or regulators (mali-gpu.test-clock, supplies unset)"); \
} while (0)

/*
 * From the probe to the unbind the clock is prepared and enabled once and
 * each supply the driver takes enabled once; runtime suspend and resume
 * touch them only where the SoC's data allows it.
 */
TEST_F(soc, test_power_follows_soc_data_at_runtime)
{
	struct power_state unbound, susp, act, susp2, gone;
	long rt = self->e.spec ? self->e.spec->rt_clk_gate : 0;
	int fd;

	NEED_TEST_POWER(&unbound);
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &unbound, &unbound,
				0, 0, 0, 0, 0)) {
		TH_LOG("a test provider on with the GPU unbound");
	}
	bind_gpu(_metadata, self);
	ASSERT_TRUE(wait_suspended()) {
		TH_LOG("runtime status %s, want suspended", rpm_status());
	}
	ASSERT_EQ(0, power_read(&susp));
	/* Probe powers all up; the runtime suspend gates what the SoC allows */
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &unbound, &susp,
				rt, 1, 0, 1, rt ? -1 : 1)) {
		TH_LOG("from the probe to the first runtime suspend");
	}
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_enable_all(fd));
	ASSERT_STREQ("active", rpm_status());
	ASSERT_EQ(0, power_read(&act));
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &susp, &act,
				0, rt, 0, 0, 1)) {
		TH_LOG("at the runtime resume");
	}
	EXPECT_EQ(0, mpc_disable(fd));
	close(fd);
	ASSERT_TRUE(wait_suspended()) {
		TH_LOG("runtime status %s, want suspended", rpm_status());
	}
	ASSERT_EQ(0, power_read(&susp2));
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &act, &susp2,
				rt, 0, 0, 0, rt ? 0 : 1)) {
		TH_LOG("at the runtime suspend");
	}
	ASSERT_EQ(0, mpc_module_unload());
	ASSERT_EQ(0, power_read(&gone));
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &susp2, &gone,
				rt ? 0 : 1, 0, 1, 0, 0)) {
		TH_LOG("at the unbind");
	}
}

static int power_info(const char *dbg, char out[4][128])
{
	static const char *const keys[] = {
		"enabled", "counter_set", "masks", "soc_power_down"
	};
	int i, ret;

	for (i = 0; i < 4; i++) {
		ret = mpc_dbg_key(dbg, "gpu_info", keys[i], out[i], 128);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * System suspend with the counters enabled, through pm_test "platform"
 * (the devices' suspend and resume, no real sleep): the clock and the
 * supplies go off once and on again where the SoC's data allows it, and
 * are not touched elsewhere; the counters resume programmed as before, and
 * the first sample after says the GPU lost power.
 */
TEST_F(soc, system_suspend_follows_soc_data)
{
	struct drm_mali_perfcnt_get_info info;
	struct drm_mali_perfcnt_dump d = { 0 };
	struct power_state before, after;
	char states[128] = "", delay[16] = "", pre[4][128], post[4][128];
	const char *state;
	long sys;
	void *buf;
	int i, fd;

	NEED_TEST_POWER(&before);
	if (read_text("/sys/power/state", states, sizeof(states)))
		states[0] = '\0';
	state = strstr(states, "mem") ? "mem" : strstr(states, "freeze") ? "freeze" : NULL;
	if (!state || access("/sys/power/pm_test", W_OK))
		SKIP(return, "no suspend state or no pm_test (CONFIG_PM_DEBUG): '%s'", states);
	sys = self->e.spec->sys_off;
	bind_gpu(_metadata, self);
	fd = mpc_open_render();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, mpc_get_info(fd, &info));
	buf = calloc(1, info.dump_size);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, mpc_enable_all(fd));
	ASSERT_EQ(0, mpc_dump(fd, buf, info.dump_size, NULL, NULL));
	ASSERT_EQ(0, power_info(self->dbg, pre));
	ASSERT_EQ(0, power_read(&before));

	/* No wait in the "platform" test step (the default is 5 s) */
	read_text("/sys/module/suspend/parameters/pm_test_delay", delay, sizeof(delay));
	mpc_write_file("/sys/module/suspend/parameters/pm_test_delay", "0");
	mpc_klog_mark("system_suspend_follows_soc_data");
	ASSERT_EQ(0, mpc_write_file("/sys/power/pm_test", "platform"));
	EXPECT_EQ(0, mpc_write_file("/sys/power/state", state)) {
		TH_LOG("suspend to '%s' failed (see dmesg)", state);
	}
	ASSERT_EQ(0, mpc_write_file("/sys/power/pm_test", "none"));
	if (delay[0])
		mpc_write_file("/sys/module/suspend/parameters/pm_test_delay", delay);
	EXPECT_TRUE(mpc_klog_has_since("system_suspend_follows_soc_data",
				       "PM: suspend exit")) {
		TH_LOG("no 'PM: suspend exit' in the kernel log: did the system suspend?");
	}

	ASSERT_EQ(0, power_read(&after));
	EXPECT_EQ(0, power_diff(_metadata, self->e.spec, &before, &after,
				sys, sys, sys, sys, 1)) {
		TH_LOG("%s %s gated clocks and cut supplies in system suspend",
		       self->e.spec->compatible, sys ? "allows" : "does not allow");
	}
	/* Not a timeout: the counters were programmed again at resume */
	d.buf_ptr = (uintptr_t)buf;
	d.buf_size = info.dump_size;
	EXPECT_EQ(0, mpc_dump_raw(fd, &d));
	EXPECT_EQ(MALI_PERFCNT_DATA_AFTER_POWER_LOSS,
		  d.data_flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS) {
		TH_LOG("data_flags 0x%x after the resume", d.data_flags);
	}
	ASSERT_EQ(0, power_info(self->dbg, post));
	for (i = 0; i < 4; i++)
		EXPECT_STREQ(pre[i], post[i]);
	EXPECT_EQ(0, mpc_disable(fd));
	free(buf);
	close(fd);
}

TEST_HARNESS_MAIN
