// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: SoC integration data, per compatible, as panfrost keeps it
 * in its match table: the GPU's supplies, its named power domains, register
 * quirks of the integration, and which power steps the SoC tolerates. Also
 * the power-up and power-down sequences that follow that data.
 */
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/regulator/consumer.h>
#include <linux/reset.h>
#include <linux/slab.h>

#include "mpc_drv.h"
#include "mpc_soc.h"

static const char * const mpc_soc_mali_supply[] = { "mali" };

/* The generic compatibles: one optional power domain, one supply */
static const struct mpc_soc_data mpc_soc_generic = {
	.name = "generic",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
};

/*
 * Amlogic's Mali-T820 (GXM), G31 and G52 (G12A, G12B, SM1) need bits of
 * the power manager's override register set, after every reset since a
 * reset clears them (panfrost_gpu_amlogic_quirk()).
 */
static void mpc_soc_amlogic_quirk(struct mpc_hdev *mdev)
{
	gpu_write(mdev, GPU_PWR_KEY, GPU_PWR_KEY_UNLOCK);
	gpu_write(mdev, GPU_PWR_OVERRIDE1, 0xfff | (0x20 << 16));
}

static const struct mpc_soc_data mpc_soc_amlogic = {
	.name = "amlogic",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
	.reset_quirk = mpc_soc_amlogic_quirk,
};

/*
 * MediaTek: the GPU's cores sit in several power domains, and MT8183's
 * first binding also gives the GPU's SRAM a supply of its own. The later
 * SoCs tolerate gated clocks and supplies off in system suspend.
 */
static const char * const mpc_soc_mt8183_supplies[] = { "mali", "sram" };
static const char * const mpc_soc_mt8183_domains[] = { "core0", "core1", "core2" };
static const char * const mpc_soc_mt8186_domains[] = { "core0", "core1" };
static const char * const mpc_soc_mt8192_domains[] = {
	"core0", "core1", "core2", "core3", "core4"
};

/* What the later MediaTek SoCs tolerate in system suspend */
#define MPC_SOC_MTK_PM	(MPC_SOC_PM_SYS_CLK_GATE | MPC_SOC_PM_SYS_VREG_OFF)

static const struct mpc_soc_data mpc_soc_mt8183 = {
	.name = "mediatek,mt8183-mali",
	.supplies = mpc_soc_mt8183_supplies,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mt8183_supplies),
	.pm_domains = mpc_soc_mt8183_domains,
	.nr_pm_domains = ARRAY_SIZE(mpc_soc_mt8183_domains),
};

static const struct mpc_soc_data mpc_soc_mt8183b = {
	.name = "mediatek,mt8183b-mali",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
	.pm_domains = mpc_soc_mt8183_domains,
	.nr_pm_domains = ARRAY_SIZE(mpc_soc_mt8183_domains),
	.pm = MPC_SOC_MTK_PM,
};

static const struct mpc_soc_data mpc_soc_mt8186 = {
	.name = "mediatek,mt8186-mali",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
	.pm_domains = mpc_soc_mt8186_domains,
	.nr_pm_domains = ARRAY_SIZE(mpc_soc_mt8186_domains),
	.pm = MPC_SOC_MTK_PM,
};

static const struct mpc_soc_data mpc_soc_mt8188 = {
	.name = "mediatek,mt8188-mali",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
	.pm_domains = mpc_soc_mt8183_domains,
	.nr_pm_domains = ARRAY_SIZE(mpc_soc_mt8183_domains),
	.pm = MPC_SOC_MTK_PM,
};

static const struct mpc_soc_data mpc_soc_mt8192 = {
	.name = "mediatek,mt8192-mali",
	.supplies = mpc_soc_mali_supply,
	.nr_supplies = ARRAY_SIZE(mpc_soc_mali_supply),
	.pm_domains = mpc_soc_mt8192_domains,
	.nr_pm_domains = ARRAY_SIZE(mpc_soc_mt8192_domains),
	.pm = MPC_SOC_MTK_PM,
};

/*
 * The simulated GPU: no supplies, clocks or domains of its own (its
 * device sits in the simulator's power domain); it tolerates every step,
 * so the suite runs the full runtime power-down. Its "clocks" stand for
 * the enable count the simulator keeps (mpc_sim_power()).
 */
const struct mpc_soc_data mpc_soc_sim = {
	.name = "simulated",
	.pm = MPC_SOC_PM_RT_CLK_GATE | MPC_SOC_PM_RT_RESET |
	      MPC_SOC_PM_SYS_CLK_GATE | MPC_SOC_PM_SYS_VREG_OFF,
};

/*
 * The GPU nodes the driver can drive. Deliberately not the driver's
 * of_match_table and not a MODULE_DEVICE_TABLE: the driver binds a node only
 * when asked (bind=, driver_override), and checks it against this list then.
 * of_match_node() prefers the entry of the node's most specific compatible,
 * so "mediatek,mt8195-mali", "mediatek,mt8192-mali" gets MT8192's data.
 */
static const struct of_device_id mpc_soc_of_match[] __maybe_unused = {
	{ .compatible = "amlogic,meson-gxm-mali", .data = &mpc_soc_amlogic },
	{ .compatible = "amlogic,meson-g12a-mali", .data = &mpc_soc_amlogic },
	{ .compatible = "mediatek,mt8183-mali", .data = &mpc_soc_mt8183 },
	{ .compatible = "mediatek,mt8183b-mali", .data = &mpc_soc_mt8183b },
	{ .compatible = "mediatek,mt8186-mali", .data = &mpc_soc_mt8186 },
	{ .compatible = "mediatek,mt8188-mali", .data = &mpc_soc_mt8188 },
	{ .compatible = "mediatek,mt8192-mali", .data = &mpc_soc_mt8192 },
	{ .compatible = "arm,mali-t604", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t624", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t628", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t720", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t760", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t820", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t830", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t860", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-t880", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-bifrost", .data = &mpc_soc_generic },
	{ .compatible = "arm,mali-valhall-jm", .data = &mpc_soc_generic },
	{}
};

/*
 * Vendors whose integrations cannot run on the generic data: a node of
 * theirs whose SoC compatible we have no entry for is refused, although
 * its generic compatible would match.
 * - MediaTek gives the GPU several power domains (MT8183: 3, MT8186: 2,
 *   MT8192: 5), which the platform core does not attach (it attaches a
 *   lone domain only), and MT8183 an "sram" supply: without them the
 *   first register access is to an unpowered block, a bus hang.
 * - Amlogic needs the power-override writes after every reset.
 * Rockchip, Allwinner, Samsung and others run on the generic data.
 */
static const struct {
	const char *prefix;
	const char *needs;
} mpc_soc_vendors[] = {
	{ "mediatek,", "MediaTek GPUs need their power domains and supplies" },
	{ "amlogic,", "Amlogic GPUs need their power-override quirk" },
};

/*
 * A generic match is refused when a compatible before it names a vendor
 * that needs data: that compatible is the SoC's, and no entry has it.
 */
static int mpc_soc_check_generic(struct device *dev, const char *generic)
{
	const char *compat;
	unsigned int v;
	int i;

	for (i = 0; !of_property_read_string_index(dev->of_node, "compatible", i,
						   &compat); i++) {
		if (!strcmp(compat, generic))
			return 0;
		for (v = 0; v < ARRAY_SIZE(mpc_soc_vendors); v++) {
			if (strncmp(compat, mpc_soc_vendors[v].prefix,
				    strlen(mpc_soc_vendors[v].prefix)))
				continue;
			dev_err(dev, "compatible \"%s\": no SoC data for it (%s); not binding it as \"%s\"\n",
				compat, mpc_soc_vendors[v].needs, generic);
			return -ENODEV;
		}
	}
	return 0;
}

static int mpc_soc_get_supplies(struct device *dev, struct mpc_hdev *mdev)
{
	const struct mpc_soc_data *soc = mdev->soc;
	unsigned int i;
	int ret;

	if (!soc->nr_supplies)
		return 0;
	mdev->supplies = devm_kcalloc(dev, soc->nr_supplies,
				      sizeof(*mdev->supplies), GFP_KERNEL);
	if (!mdev->supplies)
		return -ENOMEM;
	for (i = 0; i < soc->nr_supplies; i++)
		mdev->supplies[i].supply = soc->supplies[i];
	/* A supply the node does not give is a dummy, as in panfrost */
	ret = devm_regulator_bulk_get(dev, soc->nr_supplies, mdev->supplies);
	if (ret)
		return dev_err_probe(dev, ret, "getting the supplies of %s\n",
				     mdev->soc_compatible);
	mdev->nr_supplies = soc->nr_supplies;
	return 0;
}

/* One attached power domain and its link, undone by a devm action. */
struct mpc_soc_pd {
	struct device *pd_dev;
	struct device_link *link;
};

static void mpc_soc_pd_detach(void *data)
{
	struct mpc_soc_pd *pd = data;

	device_link_del(pd->link);
	dev_pm_domain_detach(pd->pd_dev, true);
}

/*
 * Several domains: attach each by name, and link it so that it is powered
 * while the GPU is runtime active (RPM_ACTIVE: and from now on, since the
 * GPU is powered up next). One domain or none: the platform core attached
 * it, if any, before the probe.
 */
static int mpc_soc_attach_pm_domains(struct device *dev, const struct mpc_soc_data *soc)
{
	struct mpc_soc_pd *pd;
	unsigned int i;
	int n, ret;

	n = of_count_phandle_with_args(dev->of_node, "power-domains",
				       "#power-domain-cells");
	if (n < 0)
		n = 0;
	if (n < 2 && soc->nr_pm_domains < 2)
		return 0;
	if (n != soc->nr_pm_domains) {
		dev_err(dev, "%s: the node lists %d power domain(s), the SoC's GPU has %u (power-domain-names \"%s\"...): fix the node's power-domains\n",
			soc->name, n, soc->nr_pm_domains,
			soc->nr_pm_domains ? soc->pm_domains[0] : "");
		return -EINVAL;
	}
	for (i = 0; i < soc->nr_pm_domains; i++) {
		pd = devm_kzalloc(dev, sizeof(*pd), GFP_KERNEL);
		if (!pd)
			return -ENOMEM;
		pd->pd_dev = dev_pm_domain_attach_by_name(dev, soc->pm_domains[i]);
		if (IS_ERR_OR_NULL(pd->pd_dev)) {
			ret = pd->pd_dev ? PTR_ERR(pd->pd_dev) : -ENODATA;
			return dev_err_probe(dev, ret,
					     "%s: attaching power domain \"%s\" (power-domain-names)\n",
					     soc->name, soc->pm_domains[i]);
		}
		pd->link = device_link_add(dev, pd->pd_dev, DL_FLAG_PM_RUNTIME |
					   DL_FLAG_STATELESS | DL_FLAG_RPM_ACTIVE);
		if (!pd->link) {
			dev_pm_domain_detach(pd->pd_dev, true);
			dev_err(dev, "%s: linking power domain \"%s\" failed\n",
				soc->name, soc->pm_domains[i]);
			return -EINVAL;
		}
		ret = devm_add_action_or_reset(dev, mpc_soc_pd_detach, pd);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * mpc_soc_probe() - match a device-tree GPU node, take what its SoC needs
 * @pdev: the GPU's platform device.
 * @mdev: device; &mpc_device.soc, the supplies and the power domains are
 *	set up here (devm: released at unbind or a failed probe).
 *
 * Return: 0; -ENODEV for a node that is not a job-manager Mali GPU or one
 * of a vendor that needs SoC data we do not have; -EINVAL when the node
 * does not list the power domains its SoC needs; or an errno of getting
 * the supplies or domains (-EPROBE_DEFER among them).
 */
int mpc_soc_probe(struct platform_device *pdev, struct mpc_hdev *mdev)
{
	const struct of_device_id *match;
	struct device *dev = &pdev->dev;
	int ret;

	match = of_match_node(mpc_soc_of_match, dev->of_node);
	if (!match)
		/* driver_override can point us at anything: only Mali GPUs */
		return dev_err_probe(dev, -ENODEV,
				     "not a Mali GPU node (no compatible of a job-manager Mali)\n");
	mdev->soc = match->data;
	mdev->soc_compatible = match->compatible;
	if (mdev->soc == &mpc_soc_generic) {
		ret = mpc_soc_check_generic(dev, match->compatible);
		if (ret)
			return ret;
	}
	ret = mpc_soc_get_supplies(dev, mdev);
	if (ret)
		return ret;
	return mpc_soc_attach_pm_domains(dev, mdev->soc);
}

/* The steps mpc_soc_power_down() takes at @level. */
static u32 mpc_soc_steps(const struct mpc_soc_data *soc, enum mpc_soc_level level)
{
	u32 steps = 0;

	if (level == MPC_SOC_OFF)
		return MPC_SOC_DOWN_ALL;
	if (level == MPC_SOC_ON)
		return 0;
	if (soc->pm & MPC_SOC_PM_RT_RESET)
		steps |= MPC_SOC_DOWN_RESET;
	if (soc->pm & MPC_SOC_PM_RT_CLK_GATE)
		steps |= MPC_SOC_DOWN_CLK;
	if (level == MPC_SOC_RUNTIME)
		return steps;
	if (soc->pm & MPC_SOC_PM_SYS_CLK_GATE)
		steps |= MPC_SOC_DOWN_CLK;
	if (soc->pm & MPC_SOC_PM_SYS_VREG_OFF)
		steps |= MPC_SOC_DOWN_VREG;
	return steps;
}

/* Take down those of @steps that are up: reset, clocks, then supplies. */
static void mpc_soc_down(struct mpc_hdev *mdev, u32 steps)
{
	steps &= ~mdev->soc_down;
	if (steps & MPC_SOC_DOWN_RESET)
		reset_control_assert(mdev->rstc);
	if (steps & MPC_SOC_DOWN_CLK) {
		if (mdev->sim)
			mpc_sim_power(mdev->sim, false);
		clk_bulk_disable_unprepare(mdev->nr_clks, mdev->clks);
	}
	if (steps & MPC_SOC_DOWN_VREG)
		regulator_bulk_disable(mdev->nr_supplies, mdev->supplies);
	WRITE_ONCE(mdev->soc_down, mdev->soc_down | steps);
}

/**
 * mpc_soc_power_up() - power the GPU up from a level
 * @mdev: device.
 * @level: leave down what mpc_soc_power_down() takes down at this level
 *	(%MPC_SOC_RUNTIME on system resume: the GPU stays runtime
 *	suspended), or %MPC_SOC_ON for everything up.
 *
 * Supplies, then clocks, then the reset line released. On failure what
 * was down stays down.
 *
 * Return: 0 or a negative errno.
 */
int mpc_soc_power_up(struct mpc_hdev *mdev, enum mpc_soc_level level)
{
	u32 was = mdev->soc_down;
	u32 up = was & ~mpc_soc_steps(mdev->soc, level);
	int ret;

	if (up & MPC_SOC_DOWN_VREG) {
		ret = regulator_bulk_enable(mdev->nr_supplies, mdev->supplies);
		if (ret)
			return ret;
		WRITE_ONCE(mdev->soc_down, mdev->soc_down & ~MPC_SOC_DOWN_VREG);
	}
	if (up & MPC_SOC_DOWN_CLK) {
		ret = clk_bulk_prepare_enable(mdev->nr_clks, mdev->clks);
		if (ret)
			goto err;
		if (mdev->sim)
			mpc_sim_power(mdev->sim, true);
		WRITE_ONCE(mdev->soc_down, mdev->soc_down & ~MPC_SOC_DOWN_CLK);
	}
	if (up & MPC_SOC_DOWN_RESET) {
		ret = reset_control_deassert(mdev->rstc);
		if (ret)
			goto err;
		WRITE_ONCE(mdev->soc_down, mdev->soc_down & ~MPC_SOC_DOWN_RESET);
	}
	return 0;

err:
	mpc_soc_down(mdev, was);
	return ret;
}

/**
 * mpc_soc_power_down() - power the GPU down as far as a level allows
 * @mdev: device, its interrupts masked and handlers done.
 * @level: &enum mpc_soc_level: runtime and system suspend take only the
 *	steps the SoC data allows (&mpc_soc_data.pm); %MPC_SOC_OFF takes
 *	every step.
 */
void mpc_soc_power_down(struct mpc_hdev *mdev, enum mpc_soc_level level)
{
	mpc_soc_down(mdev, mpc_soc_steps(mdev->soc, level));
}

/**
 * mpc_soc_reset_quirks() - what the SoC needs written after a GPU reset
 * @mdev: device, its GPU just reset.
 */
void mpc_soc_reset_quirks(struct mpc_hdev *mdev)
{
	if (mdev->soc->reset_quirk)
		mdev->soc->reset_quirk(mdev);
}

/**
 * mpc_soc_down_text() - what of the GPU's power is down, for gpu_info
 * @mdev: device.
 *
 * Return: e.g. "none", "clocks", "reset clocks supplies".
 */
const char *mpc_soc_down_text(struct mpc_hdev *mdev)
{
	static const char * const text[] = {
		"none", "reset", "clocks", "reset clocks", "supplies",
		"reset supplies", "clocks supplies", "reset clocks supplies",
	};

	return text[READ_ONCE(mdev->soc_down) & MPC_SOC_DOWN_ALL];
}
