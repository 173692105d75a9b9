// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: device probe, DRM driver and module entry points.
 *
 * The driver binds the simulated GPU that the module creates when loaded with
 * sim=<product>, and a real job-manager Mali GPU node of the device tree only
 * when asked to: with bind=<device> at load time, or through sysfs
 * (driver_override, then bind). It never binds one on its own and carries no
 * OF module alias, so udev never loads it for a GPU that panfrost drives.
 * Both reach the same code through struct mpc_io and ordinary Linux IRQs.
 */
#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/reset.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "mpc_compat.h"
#include "mpc_drv.h"
#include "mpc_session.h"
#include "mpc_soc.h"
#include "mali_perfcnt_drm.h"

/*
 * sim= exists in every build, so that a module built without the
 * simulator can say so rather than ignore it; the other sim_* parameters
 * come with the simulator (MPC_SIM=1).
 */
static char *mpc_sim_product;
module_param_named(sim, mpc_sim_product, charp, 0444);
MODULE_PARM_DESC(sim, "Create a simulated GPU of this product (e.g. t720, t860, g52, g57); needs a module built with MPC_SIM=1");

#ifdef MPC_SIM

static unsigned long mpc_sim_cores;
module_param_named(sim_cores, mpc_sim_cores, ulong, 0444);
MODULE_PARM_DESC(sim_cores, "SHADER_PRESENT of the simulated GPU (0: product default)");

static unsigned int mpc_sim_l2;
module_param_named(sim_l2, mpc_sim_l2, uint, 0444);
MODULE_PARM_DESC(sim_l2, "L2 slices of the simulated GPU (0: product default)");

static unsigned int mpc_sim_mhz;
module_param_named(sim_mhz, mpc_sim_mhz, uint, 0444);
MODULE_PARM_DESC(sim_mhz, "Modelled clock of the simulated GPU in MHz (0: product default)");

static unsigned int mpc_sim_va_bits;
module_param_named(sim_va_bits, mpc_sim_va_bits, uint, 0444);
MODULE_PARM_DESC(sim_va_bits, "MMU_FEATURES VA bits of the simulated GPU, 32..48 (0: product default)");

static unsigned int mpc_sim_pa_bits;
module_param_named(sim_pa_bits, mpc_sim_pa_bits, uint, 0444);
MODULE_PARM_DESC(sim_pa_bits, "MMU_FEATURES PA bits of the simulated GPU, 32..48 (0: product default)");
#endif

static char *mpc_bind_name;
module_param_named(bind, mpc_bind_name, charp, 0444);
MODULE_PARM_DESC(bind,
		 "Bind this Mali GPU platform device (e.g. 13040000.gpu) at load time; it must not be bound to another driver");

/* The device bind= named, while its driver_override is ours. */
static struct platform_device *mpc_bind_pdev;
/* Its driver_override before bind= replaced it ("" for none), to restore. */
static char mpc_bind_saved_override[64];

#ifdef MPC_SIM
/* The simulated GPU and its platform device, when sim= is set. */
static struct mpc_sim *mpc_sim_instance;
static struct platform_device *mpc_sim_pdev;
#endif

static int mpc_open(struct drm_device *drm, struct drm_file *file)
{
	struct mpc_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL_ACCOUNT);

	if (!mf)
		return -ENOMEM;
	file->driver_priv = mf;
	return 0;
}

static void mpc_postclose(struct drm_device *drm, struct drm_file *file)
{
	mpc_perfcnt_release(&to_mpc_hdev(drm)->core, mpc_file_owner(file));
	kfree(file->driver_priv);
}

/* The core's uAPI handlers, given the device and the file's counter owner */
static int mpc_drm_ioctl_get_info(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_get_info(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

static int mpc_drm_ioctl_enable(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_enable(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

static int mpc_drm_ioctl_dump(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_dump(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

static int mpc_drm_ioctl_stream_open(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_stream_open(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

static int mpc_drm_ioctl_get_info_v3(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_get_info_v3(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

static int mpc_drm_ioctl_session_open(struct drm_device *drm, void *data, struct drm_file *file)
{
	return mpc_ioctl_session_open(&to_mpc_hdev(drm)->core, mpc_file_owner(file), data);
}

#define MPC_IOCTL(n, func) \
	DRM_IOCTL_DEF_DRV(MALI_PERFCNT_##n, mpc_drm_ioctl_##func, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc mpc_ioctls[] = {
	MPC_IOCTL(GET_INFO, get_info),
	MPC_IOCTL(ENABLE, enable),
	MPC_IOCTL(DUMP, dump),
	MPC_IOCTL(STREAM_OPEN, stream_open),
	MPC_IOCTL(GET_INFO_V3, get_info_v3),
	MPC_IOCTL(SESSION_OPEN, session_open),
};

#ifdef CONFIG_DEBUG_FS
static void mpc_drm_debugfs_init(struct drm_minor *minor)
{
	mpc_debugfs_init(&to_mpc_hdev(minor->dev)->core, minor->debugfs_root);
}
#endif

static const struct file_operations mpc_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
#ifdef MPC_HAVE_FOP_FLAGS
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
};

static const struct drm_driver mpc_drm_driver = {
	.driver_features = DRIVER_RENDER,
	.open = mpc_open,
	.postclose = mpc_postclose,
	.ioctls = mpc_ioctls,
	.num_ioctls = ARRAY_SIZE(mpc_ioctls),
	.fops = &mpc_fops,
	.name = MPC_DRIVER_NAME,
	.desc = "Arm Mali performance counters",
	.date = "20261129",
	.major = 1,
	.minor = 0,
#ifdef CONFIG_DEBUG_FS
	.debugfs_init = mpc_drm_debugfs_init,
#endif
};

/* Unbind or a failed probe: whatever is still powered goes down. */
static void mpc_power_down_action(void *data)
{
	mpc_soc_power_down(data, MPC_SOC_OFF);
}

static int mpc_runtime_suspend(struct device *dev)
{
	struct mpc_hdev *mdev = dev_get_drvdata(dev);
	int ret;

	/* Sessions that follow the power take their last sample first */
	ret = mpc_perfcnt_power_down(&mdev->core);
	if (ret) {
		pm_runtime_mark_last_busy(dev);
		return ret;
	}
	mpc_gpu_irq_mask_clear(mdev);
	atomic_set(&mdev->suspended, 1);
	synchronize_irq(mdev->gpu_irq);
	synchronize_irq(mdev->mmu_irq);
	/* Clocks and reset only where the SoC's data allows it */
	mpc_soc_power_down(mdev, MPC_SOC_RUNTIME);
	return 0;
}

static int mpc_runtime_resume(struct device *dev)
{
	struct mpc_hdev *mdev = dev_get_drvdata(dev);
	int ret;

	ret = mpc_soc_power_up(mdev, MPC_SOC_ON);
	if (ret)
		return ret;
	/* The GPU may have lost its state while its power was off */
	ret = mpc_gpu_soft_reset(mdev);
	if (ret) {
		mpc_soc_power_down(mdev, MPC_SOC_RUNTIME);
		return ret;
	}
	atomic_set(&mdev->suspended, 0);
	mpc_gpu_irq_mask_set(mdev);
	mpc_perfcnt_power_up(&mdev->core);
	return 0;
}

/*
 * System sleep with the counters enabled: the owner's runtime PM reference
 * would keep the GPU "active" while the SoC cuts its power domain anyway.
 * Stop the counters, power down as runtime suspend does, and on resume
 * power up, reset and program the owner's counters again. Userspace is
 * frozen by then and so is the streams' periodic work (a freezable
 * workqueue, mpc_stream_init()); from mpc_perfcnt_suspend() to a
 * successful resume the counter unit refuses any register access.
 */
static int __maybe_unused mpc_system_suspend(struct device *dev)
{
	struct mpc_hdev *mdev = dev_get_drvdata(dev);
	int ret;

	mpc_perfcnt_suspend(&mdev->core);
	ret = pm_runtime_force_suspend(dev);
	if (ret) {
		/* Not suspended after all: no resume callback will come */
		mpc_perfcnt_resume(&mdev->core, 0);
		return ret;
	}
	/* Supplies off, clocks gated, where the SoC's data allows it */
	mpc_soc_power_down(mdev, MPC_SOC_SYSTEM);
	return 0;
}

static int __maybe_unused mpc_system_resume(struct device *dev)
{
	struct mpc_hdev *mdev = dev_get_drvdata(dev);
	int ret;

	/* Back to runtime suspended; runtime resume does the rest */
	ret = mpc_soc_power_up(mdev, MPC_SOC_RUNTIME);
	if (!ret)
		ret = pm_runtime_force_resume(dev);
	/* On failure the counters are disabled, with no register access */
	mpc_perfcnt_resume(&mdev->core, ret);
	return ret;
}

static const struct dev_pm_ops mpc_pm_ops = {
	SET_SYSTEM_SLEEP_PM_OPS(mpc_system_suspend, mpc_system_resume)
	SET_RUNTIME_PM_OPS(mpc_runtime_suspend, mpc_runtime_resume, NULL)
};

static u32 mpc_mmio_read(void *ctx, u32 reg)
{
	return readl((void __force __iomem *)ctx + reg);
}

static void mpc_mmio_write(void *ctx, u32 reg, u32 val)
{
	writel(val, (void __force __iomem *)ctx + reg);
}

static const struct mpc_io mpc_mmio_io = {
	.read = mpc_mmio_read,
	.write = mpc_mmio_write,
};

/* Real hardware: registers, IRQs, clocks and resets from the DT. */
static int mpc_probe_hw(struct platform_device *pdev, struct mpc_hdev *mdev)
{
	void __iomem *base;
	int ret;

	/* First: nothing of a node we refuse is touched */
	ret = mpc_soc_probe(pdev, mdev);
	if (ret)
		return ret;
	base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(base))
		return PTR_ERR(base);
	mdev->io = &mpc_mmio_io;
	mdev->io_ctx = (void __force *)base;

	mdev->gpu_irq = platform_get_irq_byname(pdev, "gpu");
	if (mdev->gpu_irq < 0)
		return mdev->gpu_irq;
	mdev->mmu_irq = platform_get_irq_byname(pdev, "mmu");
	if (mdev->mmu_irq < 0)
		return mdev->mmu_irq;

	ret = devm_clk_bulk_get_all(&pdev->dev, &mdev->clks);
	if (ret < 0)
		return dev_err_probe(&pdev->dev, ret, "getting clocks\n");
	mdev->nr_clks = ret;
	if (mdev->nr_clks)
		mdev->core.gpu_freq_hz = clk_get_rate(mdev->clks[0].clk);

	mdev->rstc = devm_reset_control_array_get_optional_exclusive(&pdev->dev);
	if (IS_ERR(mdev->rstc))
		return dev_err_probe(&pdev->dev, PTR_ERR(mdev->rstc), "getting resets\n");
	return 0;
}

#ifdef MPC_SIM
/*
 * Is @pdev the module's own simulator device? It matched the id table's
 * simulator entry (driver_override matches leave no id entry) and carries
 * the simulator instance as its platform data. Any other device that has
 * platform data (root may point driver_override at one) is hardware.
 */
static bool mpc_is_sim_device(struct platform_device *pdev)
{
	const struct platform_device_id *id = platform_get_device_id(pdev);
	struct mpc_sim **pdata = dev_get_platdata(&pdev->dev);

	return mpc_sim_instance && id && !strcmp(id->name, MPC_SIM_DEVICE_NAME) && pdata &&
	       *pdata == mpc_sim_instance;
}

/* Simulated GPU: the same two register calls and two IRQ lines, no DT. */
static int mpc_probe_sim(struct platform_device *pdev, struct mpc_hdev *mdev)
{
	struct mpc_sim *sim = *(struct mpc_sim **)dev_get_platdata(&pdev->dev);

	mdev->sim = sim;
	mdev->soc = &mpc_soc_sim;
	mdev->soc_compatible = mpc_soc_sim.name;
	mdev->io = mpc_sim_io();
	mdev->io_ctx = sim;
	mdev->gpu_irq = mpc_sim_irq(sim, "gpu");
	if (mdev->gpu_irq < 0)
		return mdev->gpu_irq;
	mdev->mmu_irq = mpc_sim_irq(sim, "mmu");
	if (mdev->mmu_irq < 0)
		return mdev->mmu_irq;
	mdev->core.gpu_freq_hz = mpc_sim_clock_hz(sim);
	/* Before mpc_mmu_init() sets the DMA mask, which reads the ops */
	if (!mdev->coherent)
		mpc_sim_attach_dma(sim, &pdev->dev);
	return mpc_sim_attach_pm_domain(sim, &pdev->dev);
}
#else
static bool mpc_is_sim_device(struct platform_device *pdev)
{
	return false;
}

static int mpc_probe_sim(struct platform_device *pdev, struct mpc_hdev *mdev)
{
	return -ENODEV;
}
#endif

/*
 * Unbind: undone before every other managed resource of the probe, so no
 * ioctl or debugfs reader can reach the hardware after it. Doing teardown
 * as a devm action also spares us platform_driver.remove, whose return type
 * differs between the 6.1 and 6.12 kernels.
 */
static void mpc_unplug_action(void *data)
{
	struct mpc_hdev *mdev = data;

	/*
	 * Whoever owns the counters loses them: the GPU is going away. First
	 * before drm_dev_unplug(), which waits for debugfs readers: a
	 * perfcnt_stream reader blocked for its next record (up to a 10 s
	 * period) wakes to the stream's end instead of holding the unbind.
	 * Then again after it, for an enable that came in between.
	 */
	mpc_perfcnt_release(&mdev->core, NULL);
	drm_dev_unplug(&mdev->drm);
	mpc_perfcnt_release(&mdev->core, NULL);
}

static int mpc_probe(struct platform_device *pdev)
{
	struct mpc_hdev *mdev;
	int ret;

	mdev = devm_drm_dev_alloc(&pdev->dev, &mpc_drm_driver, struct mpc_hdev, drm);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	mdev->dev = &pdev->dev;
	mdev->core.drm = &mdev->drm;
	mdev->core.dev = &pdev->dev;
	mdev->core.host_ops = &mpc_host_ops;
	mdev->core.host = mdev;
	platform_set_drvdata(pdev, mdev);

	mdev->coherent = device_get_dma_attr(&pdev->dev) == DEV_DMA_COHERENT;
	mdev->soc_down = MPC_SOC_DOWN_ALL;
	if (mpc_is_sim_device(pdev))
		ret = mpc_probe_sim(pdev, mdev);
	else
		ret = mpc_probe_hw(pdev, mdev);
	if (ret)
		return ret;

	ret = mpc_soc_power_up(mdev, MPC_SOC_ON);
	if (ret)
		return dev_err_probe(&pdev->dev, ret, "powering up\n");
	/*
	 * Active from here on, so that mpc_power_down_action() powers down
	 * after a failure of any later step (runtime PM is still disabled).
	 */
	pm_runtime_set_active(&pdev->dev);
	ret = devm_add_action_or_reset(&pdev->dev, mpc_power_down_action, mdev);
	if (ret)
		return ret;

	/* Before mpc_gpu_init() installs the IRQ handlers that use it */
	ret = mpc_perfcnt_init(&mdev->core);
	if (ret)
		return ret;
	ret = mpc_stream_init(&mdev->core);
	if (ret)
		return ret;
	ret = mpc_session_init(&mdev->core);
	if (ret)
		return ret;
	ret = mpc_debugfs_setup(&mdev->core);
	if (ret)
		return ret;
	ret = mpc_gpu_init(mdev);
	if (ret)
		return ret;
	ret = mpc_mmu_init(mdev);
	if (ret)
		return ret;

	pm_runtime_set_autosuspend_delay(&pdev->dev, 100);
	pm_runtime_use_autosuspend(&pdev->dev);
	ret = devm_pm_runtime_enable(&pdev->dev);
	if (ret)
		return ret;
	pm_runtime_mark_last_busy(&pdev->dev);

	ret = drm_dev_register(&mdev->drm, 0);
	if (ret)
		return ret;
	return devm_add_action_or_reset(&pdev->dev, mpc_unplug_action, mdev);
}

static const struct platform_device_id mpc_id_table[] = {
	{ .name = MPC_SIM_DEVICE_NAME },
	{}
};
MODULE_DEVICE_TABLE(platform, mpc_id_table);

static struct platform_driver mpc_platform_driver = {
	.probe = mpc_probe,
	.id_table = mpc_id_table,
	.driver = {
		.name = MPC_DRIVER_NAME,
		.pm = &mpc_pm_ops,
	},
};

#ifdef MPC_SIM
static void mpc_sim_stop(void)
{
	if (mpc_sim_pdev)
		platform_device_unregister(mpc_sim_pdev);
	if (mpc_sim_instance)
		mpc_sim_destroy(mpc_sim_instance);
	mpc_sim_pdev = NULL;
	mpc_sim_instance = NULL;
}

static int mpc_sim_start(void)
{
	struct platform_device_info info = {
		.name = MPC_SIM_DEVICE_NAME,
		.id = PLATFORM_DEVID_NONE,
		.data = &mpc_sim_instance,
		.size_data = sizeof(mpc_sim_instance),
		.dma_mask = DMA_BIT_MASK(40),
	};
	int ret;

	ret = mpc_sim_create(mpc_sim_product, mpc_sim_cores, mpc_sim_l2,
			     mpc_sim_mhz, mpc_sim_va_bits, mpc_sim_pa_bits,
			     &mpc_sim_instance);
	if (ret)
		return ret;

	mpc_sim_pdev = platform_device_register_full(&info);
	if (IS_ERR(mpc_sim_pdev)) {
		ret = PTR_ERR(mpc_sim_pdev);
		mpc_sim_pdev = NULL;
		mpc_sim_destroy(mpc_sim_instance);
		mpc_sim_instance = NULL;
		return ret;
	}
	/* A probe failure leaves no driver data: fail the load, not silently */
	if (!platform_get_drvdata(mpc_sim_pdev)) {
		pr_err(MPC_DRIVER_NAME ": the simulated GPU did not probe, see above\n");
		mpc_sim_stop();
		return -ENODEV;
	}
	return 0;
}
#else
static void mpc_sim_stop(void)
{
}

static int mpc_sim_start(void)
{
	pr_err(MPC_DRIVER_NAME ": sim=%s: this module was built without the simulator; rebuild it with make MPC_SIM=1\n",
	       mpc_sim_product);
	return -EINVAL;
}
#endif

/* Give the device back: panfrost may bind it after us. */
static void mpc_bind_release(void)
{
	struct platform_device *pdev = mpc_bind_pdev;

	if (!pdev)
		return;
	mpc_bind_pdev = NULL;
	mpc_set_driver_override(pdev, mpc_bind_saved_override);
	put_device(&pdev->dev);
}

/*
 * bind=NAME: point the device's driver_override at us before the driver is
 * registered, so that registering it probes that device (and only it). An
 * override the admin had set is saved and put back when the module lets go
 * of the device (refused bind or unload).
 *
 * The override is set first and outside the device lock: 6.1's
 * driver_set_override() takes that lock itself. Once it is set no other
 * driver can bind the device, so the check for one that already has, under
 * the lock, cannot race with a new bind.
 */
static int mpc_bind_prepare(void)
{
	const char *other = NULL;
	struct device *dev;
	int ret;

	dev = bus_find_device_by_name(&platform_bus_type, NULL, mpc_bind_name);
	if (!dev) {
		pr_err(MPC_DRIVER_NAME ": bind=%s: no such platform device (see /sys/bus/platform/devices)\n",
		       mpc_bind_name);
		return -ENODEV;
	}
	mpc_get_driver_override(to_platform_device(dev), mpc_bind_saved_override,
				sizeof(mpc_bind_saved_override));
	ret = mpc_set_driver_override(to_platform_device(dev), MPC_DRIVER_NAME);
	if (ret) {
		put_device(dev);
		return ret;
	}
	device_lock(dev);
	if (dev->driver)
		other = dev->driver->name;
	if (other)
		pr_err(MPC_DRIVER_NAME ": bind=%s: the device is driven by %s; unbind it first: echo %s > /sys/bus/platform/drivers/%s/unbind\n",
		       mpc_bind_name, other, mpc_bind_name, other);
	device_unlock(dev);
	if (other) {
		mpc_set_driver_override(to_platform_device(dev), mpc_bind_saved_override);
		put_device(dev);
		return -EBUSY;
	}
	mpc_bind_pdev = to_platform_device(dev);
	return 0;
}

static int __init mpc_init(void)
{
	int ret;

	ret = mpc_host_policy_init();
	if (ret)
		return ret;
	if (mpc_bind_name && *mpc_bind_name) {
		ret = mpc_bind_prepare();
		if (ret)
			goto err_policy;
	}
	ret = platform_driver_register(&mpc_platform_driver);
	if (ret) {
		mpc_bind_release();
		goto err_policy;
	}
	/* A probe failure leaves no driver data: fail the load, not silently */
	if (mpc_bind_pdev && !platform_get_drvdata(mpc_bind_pdev)) {
		pr_err(MPC_DRIVER_NAME ": bind=%s: the GPU did not probe, see above\n",
		       mpc_bind_name);
		platform_driver_unregister(&mpc_platform_driver);
		mpc_bind_release();
		ret = -ENODEV;
		goto err_policy;
	}

	if (mpc_sim_product && *mpc_sim_product) {
		ret = mpc_sim_start();
		if (ret) {
			platform_driver_unregister(&mpc_platform_driver);
			mpc_bind_release();
			goto err_policy;
		}
	}
	return 0;

err_policy:
	mpc_host_policy_exit();
	return ret;
}

static void __exit mpc_exit(void)
{
	mpc_sim_stop();
	platform_driver_unregister(&mpc_platform_driver);
	mpc_bind_release();
	mpc_host_policy_exit();
}

module_init(mpc_init);
module_exit(mpc_exit);

MODULE_AUTHOR("The mali-perfcnt authors");
MODULE_DESCRIPTION("Arm Mali GPU performance counters (DRM render node) with a simulated GPU");
MODULE_LICENSE("GPL");
