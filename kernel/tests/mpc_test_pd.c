// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc_test_pd: a test power controller for the qemu-gpu targets, not part
 * of mali_perfcnt.ko. The QEMU board adds its node when the GPU is given
 * named power domains (-global mali-gpu.power-domains=core0;core1;core2,
 * qemu/virt-mali.patch): compatible "mali-perfcnt,test-power-domains",
 * #power-domain-cells = <1> (the domain's index) and the domains' names in
 * "mali-perfcnt,domain-names". There are no registers: each domain is a
 * generic PM domain whose power_on/power_off callbacks count and log, so
 * that soc_test sees what mali_perfcnt.ko asked of the domains it attached
 * (kernel/mpc_soc.c). Per domain, debugfs mpc_test_pd/NAME reads
 *
 *	state on|off
 *	on_count N
 *	off_count N
 *	consumers N
 *
 * (consumers: the devices attached to the domain, the genpd's count).
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

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
	struct dentry *dir;
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

static void mpc_test_pd_debugfs_remove(void *data)
{
	debugfs_remove_recursive(data);
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
	ctl->dir = debugfs_create_dir("mpc_test_pd", NULL);
	ret = devm_add_action_or_reset(dev, mpc_test_pd_debugfs_remove, ctl->dir);
	if (ret)
		return ret;
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
		debugfs_create_file(name, 0444, ctl->dir, pd, &mpc_test_pd_fops);
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
MODULE_DEVICE_TABLE(of, mpc_test_pd_of_match);

static struct platform_driver mpc_test_pd_driver = {
	.probe = mpc_test_pd_probe,
	.driver = {
		.name = "mpc_test_pd",
		.of_match_table = mpc_test_pd_of_match,
	},
};
module_platform_driver(mpc_test_pd_driver);

MODULE_DESCRIPTION("mali-perfcnt test power domains (qemu-gpu targets only)");
MODULE_LICENSE("GPL");
