// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc_test_pd: test power providers for the qemu-gpu targets, not part of
 * mali_perfcnt.ko: a power controller, a clock and regulators, each bound
 * to a node the QEMU board adds (qemu/hw/misc/mali/mali_gpu.c), none with
 * registers. They count what mali_perfcnt.ko asks of them through the
 * genpd, clk and regulator frameworks, so that soc_test sees which power
 * steps the driver took (kernel/mpc_soc.c). All files are in debugfs
 * mpc_test_pd/.
 *
 * The power controller (-global mali-gpu.power-domains=core0;core1;core2):
 * compatible "mali-perfcnt,test-power-domains", #power-domain-cells = <1>
 * (the domain's index) and the domains' names in
 * "mali-perfcnt,domain-names"; each domain is a generic PM domain whose
 * power_on/power_off callbacks count and log. Per domain, NAME reads
 *
 *	state on|off
 *	on_count N
 *	off_count N
 *	consumers N
 *
 * (consumers: the devices attached to the domain, the genpd's count).
 *
 * The clock (-global mali-gpu.test-clock=on): compatible
 * "mali-perfcnt,test-clock", #clock-cells = <0>, clock-frequency and
 * clock-output-names; a gate whose callbacks count. File clk reads
 *
 *	prepared 0|1
 *	enabled 0|1
 *	prepare_count N
 *	enable_count N
 *	disable_count N
 *	unprepare_count N
 *
 * The regulators (-global mali-gpu.supplies=mali;sram): compatible
 * "mali-perfcnt,test-regulator", one node per supply with its
 * regulator-name and "mali-perfcnt,supply" (the supply's name at the GPU,
 * e.g. "mali"); a switch whose enable/disable callbacks count. File
 * vreg-SUPPLY reads
 *
 *	enabled 0|1
 *	enable_count N
 *	disable_count N
 *
 * The framework calls these callbacks only for the first user's enable
 * and the last user's disable, so the counts are the hardware's.
 */
#include <linux/atomic.h>
#include <linux/clk-provider.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/regulator/of_regulator.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

/* The module's debugfs directory, mpc_test_pd/: each provider's files */
static struct dentry *mpc_test_dir;

#define MPC_TEST_PD_MAX	8

/* One domain; its counts change in the genpd's callbacks, under its lock. */
struct mpc_test_pd {
	struct generic_pm_domain genpd;
	struct device *dev;
	atomic_t on;
	atomic_t on_count;
	atomic_t off_count;
};

struct mpc_test_pd_ctl {
	struct genpd_onecell_data data;
	struct generic_pm_domain *domains[MPC_TEST_PD_MAX];
};

static struct mpc_test_pd *to_test_pd(struct generic_pm_domain *genpd)
{
	return container_of(genpd, struct mpc_test_pd, genpd);
}

static int mpc_test_pd_power_on(struct generic_pm_domain *genpd)
{
	struct mpc_test_pd *pd = to_test_pd(genpd);

	atomic_set(&pd->on, 1);
	dev_info(pd->dev, "%s: on (%d)\n", genpd->name,
		 atomic_inc_return(&pd->on_count));
	return 0;
}

static int mpc_test_pd_power_off(struct generic_pm_domain *genpd)
{
	struct mpc_test_pd *pd = to_test_pd(genpd);

	atomic_set(&pd->on, 0);
	dev_info(pd->dev, "%s: off (%d)\n", genpd->name,
		 atomic_inc_return(&pd->off_count));
	return 0;
}

static int mpc_test_pd_show(struct seq_file *m, void *unused)
{
	struct mpc_test_pd *pd = m->private;

	seq_printf(m, "state %s\n", atomic_read(&pd->on) ? "on" : "off");
	seq_printf(m, "on_count %d\n", atomic_read(&pd->on_count));
	seq_printf(m, "off_count %d\n", atomic_read(&pd->off_count));
	seq_printf(m, "consumers %u\n", READ_ONCE(pd->genpd.device_count));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpc_test_pd);

static void mpc_test_pd_remove_genpd(void *data)
{
	struct generic_pm_domain *genpd = data;
	int ret = pm_genpd_remove(genpd);

	if (ret)
		pr_err("mpc_test_pd: %s still in use, not removed: %d\n",
		       genpd->name, ret);
}

static void mpc_test_pd_del_provider(void *data)
{
	of_genpd_del_provider(data);
}

static void mpc_test_debugfs_remove(void *data)
{
	debugfs_remove(data);
}

/* A debugfs file of a provider, removed when the provider goes. */
static int mpc_test_add_file(struct device *dev, const char *name, void *data,
			     const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_file(name, 0444, mpc_test_dir, data, fops);

	return devm_add_action_or_reset(dev, mpc_test_debugfs_remove, d);
}

static int mpc_test_pd_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *np = dev->of_node;
	struct mpc_test_pd_ctl *ctl;
	struct mpc_test_pd *pd;
	const char *name;
	int i, n, ret;

	n = of_property_count_strings(np, "mali-perfcnt,domain-names");
	if (n < 1 || n > MPC_TEST_PD_MAX)
		return dev_err_probe(dev, -EINVAL,
				     "mali-perfcnt,domain-names: %d names, want 1 to %d\n",
				     n, MPC_TEST_PD_MAX);
	ctl = devm_kzalloc(dev, sizeof(*ctl), GFP_KERNEL);
	if (!ctl)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = of_property_read_string_index(np, "mali-perfcnt,domain-names",
						    i, &name);
		if (ret)
			return ret;
		pd = devm_kzalloc(dev, sizeof(*pd), GFP_KERNEL);
		if (!pd)
			return -ENOMEM;
		pd->dev = dev;
		pd->genpd.name = devm_kasprintf(dev, GFP_KERNEL, "mpc-test-pd-%s", name);
		if (!pd->genpd.name)
			return -ENOMEM;
		pd->genpd.power_on = mpc_test_pd_power_on;
		pd->genpd.power_off = mpc_test_pd_power_off;
		/* Off until a consumer asks for it */
		ret = pm_genpd_init(&pd->genpd, NULL, true);
		if (ret)
			return dev_err_probe(dev, ret, "%s: pm_genpd_init\n", name);
		ret = devm_add_action_or_reset(dev, mpc_test_pd_remove_genpd, &pd->genpd);
		if (ret)
			return ret;
		ctl->domains[i] = &pd->genpd;
		ret = mpc_test_add_file(dev, name, pd, &mpc_test_pd_fops);
		if (ret)
			return ret;
	}
	ctl->data.domains = ctl->domains;
	ctl->data.num_domains = n;
	ret = of_genpd_add_provider_onecell(np, &ctl->data);
	if (ret)
		return dev_err_probe(dev, ret, "of_genpd_add_provider_onecell\n");
	ret = devm_add_action_or_reset(dev, mpc_test_pd_del_provider, np);
	if (ret)
		return ret;
	dev_info(dev, "%d test power domain(s)\n", n);
	return 0;
}

static const struct of_device_id mpc_test_pd_of_match[] = {
	{ .compatible = "mali-perfcnt,test-power-domains" },
	{}
};

static struct platform_driver mpc_test_pd_driver = {
	.probe = mpc_test_pd_probe,
	.driver = {
		.name = "mpc_test_pd",
		.of_match_table = mpc_test_pd_of_match,
	},
};

/*
 * The test clock: a gate at a fixed rate. The clk framework calls each
 * callback under its prepare or enable lock; the counts are atomics so
 * that debugfs reads them without either.
 */
struct mpc_test_clk {
	struct clk_hw hw;
	unsigned long rate;
	atomic_t prepared;
	atomic_t enabled;
	atomic_t prepare_count;
	atomic_t enable_count;
	atomic_t disable_count;
	atomic_t unprepare_count;
};

static struct mpc_test_clk *to_test_clk(struct clk_hw *hw)
{
	return container_of(hw, struct mpc_test_clk, hw);
}

static int mpc_test_clk_prepare(struct clk_hw *hw)
{
	struct mpc_test_clk *c = to_test_clk(hw);

	atomic_set(&c->prepared, 1);
	atomic_inc(&c->prepare_count);
	return 0;
}

static void mpc_test_clk_unprepare(struct clk_hw *hw)
{
	struct mpc_test_clk *c = to_test_clk(hw);

	atomic_set(&c->prepared, 0);
	atomic_inc(&c->unprepare_count);
}

static int mpc_test_clk_is_prepared(struct clk_hw *hw)
{
	return atomic_read(&to_test_clk(hw)->prepared);
}

static int mpc_test_clk_enable(struct clk_hw *hw)
{
	struct mpc_test_clk *c = to_test_clk(hw);

	atomic_set(&c->enabled, 1);
	atomic_inc(&c->enable_count);
	return 0;
}

static void mpc_test_clk_disable(struct clk_hw *hw)
{
	struct mpc_test_clk *c = to_test_clk(hw);

	atomic_set(&c->enabled, 0);
	atomic_inc(&c->disable_count);
}

static int mpc_test_clk_is_enabled(struct clk_hw *hw)
{
	return atomic_read(&to_test_clk(hw)->enabled);
}

static unsigned long mpc_test_clk_recalc_rate(struct clk_hw *hw,
					      unsigned long parent_rate)
{
	return to_test_clk(hw)->rate;
}

static const struct clk_ops mpc_test_clk_ops = {
	.prepare = mpc_test_clk_prepare,
	.unprepare = mpc_test_clk_unprepare,
	.is_prepared = mpc_test_clk_is_prepared,
	.enable = mpc_test_clk_enable,
	.disable = mpc_test_clk_disable,
	.is_enabled = mpc_test_clk_is_enabled,
	.recalc_rate = mpc_test_clk_recalc_rate,
};

static int mpc_test_clk_show(struct seq_file *m, void *unused)
{
	struct mpc_test_clk *c = m->private;

	seq_printf(m, "prepared %d\n", atomic_read(&c->prepared));
	seq_printf(m, "enabled %d\n", atomic_read(&c->enabled));
	seq_printf(m, "prepare_count %d\n", atomic_read(&c->prepare_count));
	seq_printf(m, "enable_count %d\n", atomic_read(&c->enable_count));
	seq_printf(m, "disable_count %d\n", atomic_read(&c->disable_count));
	seq_printf(m, "unprepare_count %d\n", atomic_read(&c->unprepare_count));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpc_test_clk);

static int mpc_test_clk_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *np = dev->of_node;
	struct clk_init_data init = { .ops = &mpc_test_clk_ops };
	struct mpc_test_clk *c;
	u32 rate;
	int ret;

	c = devm_kzalloc(dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (of_property_read_u32(np, "clock-frequency", &rate) || !rate)
		return dev_err_probe(dev, -EINVAL,
				     "clock-frequency: missing or 0, want the rate in Hz\n");
	c->rate = rate;
	if (of_property_read_string(np, "clock-output-names", &init.name))
		init.name = "mpc-test-clk";
	c->hw.init = &init;
	ret = devm_clk_hw_register(dev, &c->hw);
	if (ret)
		return dev_err_probe(dev, ret, "registering clock %s\n", init.name);
	ret = devm_of_clk_add_hw_provider(dev, of_clk_hw_simple_get, &c->hw);
	if (ret)
		return dev_err_probe(dev, ret, "of_clk_add_hw_provider\n");
	ret = mpc_test_add_file(dev, "clk", c, &mpc_test_clk_fops);
	if (ret)
		return ret;
	dev_info(dev, "test clock %s, %u Hz\n", init.name, rate);
	return 0;
}

static const struct of_device_id mpc_test_clk_of_match[] = {
	{ .compatible = "mali-perfcnt,test-clock" },
	{}
};

static struct platform_driver mpc_test_clk_driver = {
	.probe = mpc_test_clk_probe,
	.driver = {
		.name = "mpc_test_clk",
		.of_match_table = mpc_test_clk_of_match,
	},
};

/*
 * A test regulator: a switch. The regulator core calls its callbacks
 * under the regulator's lock; the counts are atomics for debugfs.
 */
struct mpc_test_vreg {
	struct regulator_desc desc;
	atomic_t enabled;
	atomic_t enable_count;
	atomic_t disable_count;
};

static int mpc_test_vreg_enable(struct regulator_dev *rdev)
{
	struct mpc_test_vreg *v = rdev_get_drvdata(rdev);

	atomic_set(&v->enabled, 1);
	atomic_inc(&v->enable_count);
	return 0;
}

static int mpc_test_vreg_disable(struct regulator_dev *rdev)
{
	struct mpc_test_vreg *v = rdev_get_drvdata(rdev);

	atomic_set(&v->enabled, 0);
	atomic_inc(&v->disable_count);
	return 0;
}

static int mpc_test_vreg_is_enabled(struct regulator_dev *rdev)
{
	struct mpc_test_vreg *v = rdev_get_drvdata(rdev);

	return atomic_read(&v->enabled);
}

static const struct regulator_ops mpc_test_vreg_ops = {
	.enable = mpc_test_vreg_enable,
	.disable = mpc_test_vreg_disable,
	.is_enabled = mpc_test_vreg_is_enabled,
};

static int mpc_test_vreg_show(struct seq_file *m, void *unused)
{
	struct mpc_test_vreg *v = m->private;

	seq_printf(m, "enabled %d\n", atomic_read(&v->enabled));
	seq_printf(m, "enable_count %d\n", atomic_read(&v->enable_count));
	seq_printf(m, "disable_count %d\n", atomic_read(&v->disable_count));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpc_test_vreg);

static int mpc_test_vreg_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *np = dev->of_node;
	struct regulator_config cfg = { .dev = dev, .of_node = np };
	struct regulator_init_data *init;
	struct regulator_dev *rdev;
	struct mpc_test_vreg *v;
	const char *supply;
	char *file;

	if (of_property_read_string(np, "mali-perfcnt,supply", &supply))
		return dev_err_probe(dev, -EINVAL,
				     "mali-perfcnt,supply: missing, want the supply's name at the GPU\n");
	v = devm_kzalloc(dev, sizeof(*v), GFP_KERNEL);
	file = devm_kasprintf(dev, GFP_KERNEL, "vreg-%s", supply);
	if (!v || !file)
		return -ENOMEM;
	init = of_get_regulator_init_data(dev, np, &v->desc);
	if (!init)
		return -ENOMEM;
	/* Off until a consumer enables it, which the core may then do */
	init->constraints.valid_ops_mask |= REGULATOR_CHANGE_STATUS;
	v->desc.name = init->constraints.name ? init->constraints.name : file;
	v->desc.type = REGULATOR_VOLTAGE;
	v->desc.owner = THIS_MODULE;
	v->desc.ops = &mpc_test_vreg_ops;
	cfg.init_data = init;
	cfg.driver_data = v;
	rdev = devm_regulator_register(dev, &v->desc, &cfg);
	if (IS_ERR(rdev))
		return dev_err_probe(dev, PTR_ERR(rdev), "registering regulator %s\n",
				     v->desc.name);
	dev_info(dev, "test regulator %s (supply %s)\n", v->desc.name, supply);
	return mpc_test_add_file(dev, file, v, &mpc_test_vreg_fops);
}

static const struct of_device_id mpc_test_vreg_of_match[] = {
	{ .compatible = "mali-perfcnt,test-regulator" },
	{}
};

static struct platform_driver mpc_test_vreg_driver = {
	.probe = mpc_test_vreg_probe,
	.driver = {
		.name = "mpc_test_vreg",
		.of_match_table = mpc_test_vreg_of_match,
	},
};

static const struct of_device_id mpc_test_of_match[] = {
	{ .compatible = "mali-perfcnt,test-power-domains" },
	{ .compatible = "mali-perfcnt,test-clock" },
	{ .compatible = "mali-perfcnt,test-regulator" },
	{}
};
MODULE_DEVICE_TABLE(of, mpc_test_of_match);

static struct platform_driver * const mpc_test_drivers[] = {
	&mpc_test_pd_driver, &mpc_test_clk_driver, &mpc_test_vreg_driver,
};

static int __init mpc_test_init(void)
{
	int ret;

	mpc_test_dir = debugfs_create_dir("mpc_test_pd", NULL);
	ret = platform_register_drivers(mpc_test_drivers, ARRAY_SIZE(mpc_test_drivers));
	if (ret)
		debugfs_remove_recursive(mpc_test_dir);
	return ret;
}
module_init(mpc_test_init);

static void __exit mpc_test_exit(void)
{
	platform_unregister_drivers(mpc_test_drivers, ARRAY_SIZE(mpc_test_drivers));
	debugfs_remove_recursive(mpc_test_dir);
}
module_exit(mpc_test_exit);

MODULE_DESCRIPTION("mali-perfcnt test power providers (qemu-gpu targets only)");
MODULE_LICENSE("GPL");
