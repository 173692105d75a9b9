/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mali_perfcnt: what a SoC's integration of the GPU needs (mpc_soc.c).
 */
#ifndef MPC_SOC_H
#define MPC_SOC_H

#include <linux/bits.h>
#include <linux/types.h>

struct mpc_hdev;
struct platform_device;

/*
 * The power steps a SoC's integration tolerates, beyond powering the GPU's
 * cores down (always done, by mpc_gpu_power_off(), when the counters stop):
 */
/* Runtime suspend gates the GPU's clocks. */
#define MPC_SOC_PM_RT_CLK_GATE		BIT(0)
/* Runtime suspend asserts the GPU's reset line (resume releases it). */
#define MPC_SOC_PM_RT_RESET		BIT(1)
/* System suspend gates the clocks (panfrost's GPU_PM_CLK_DIS). */
#define MPC_SOC_PM_SYS_CLK_GATE		BIT(2)
/* System suspend turns the supplies off (panfrost's GPU_PM_VREG_OFF). */
#define MPC_SOC_PM_SYS_VREG_OFF		BIT(3)

/**
 * struct mpc_soc_data - a SoC's integration of the GPU, per compatible
 * @name: the compatible it was matched by, for messages and gpu_info.
 * @supplies: regulator supply names ("mali", MediaTek's "sram"); every one
 *	is taken, a dummy when the node has none (as panfrost does).
 * @nr_supplies: entries of @supplies.
 * @pm_domains: power-domain names, attached by name when there are more
 *	than one (the platform core attaches a single domain itself).
 * @nr_pm_domains: entries of @pm_domains; the node must list as many
 *	when there are more than one.
 * @reset_quirk: register writes the integration needs after every reset
 *	of the GPU, or NULL.
 * @pm: MPC_SOC_PM_* steps the integration tolerates.
 */
struct mpc_soc_data {
	const char *name;
	const char * const *supplies;
	unsigned int nr_supplies;
	const char * const *pm_domains;
	unsigned int nr_pm_domains;
	void (*reset_quirk)(struct mpc_hdev *mdev);
	u32 pm;
};

/* What of the GPU's power is down (&mpc_device.soc_down) */
#define MPC_SOC_DOWN_RESET		BIT(0)
#define MPC_SOC_DOWN_CLK		BIT(1)
#define MPC_SOC_DOWN_VREG		BIT(2)
#define MPC_SOC_DOWN_ALL		(MPC_SOC_DOWN_RESET | MPC_SOC_DOWN_CLK | \
					 MPC_SOC_DOWN_VREG)

/* How far mpc_soc_power_down() goes */
enum mpc_soc_level {
	MPC_SOC_ON,		/* nothing down (mpc_soc_power_up() only) */
	MPC_SOC_RUNTIME,	/* runtime suspend: only what @pm allows */
	MPC_SOC_SYSTEM,		/* system suspend: only what @pm allows */
	MPC_SOC_OFF,		/* unbind or a failed probe: everything */
};

extern const struct mpc_soc_data mpc_soc_sim;

int mpc_soc_probe(struct platform_device *pdev, struct mpc_hdev *mdev);
int mpc_soc_power_up(struct mpc_hdev *mdev, enum mpc_soc_level level);
void mpc_soc_power_down(struct mpc_hdev *mdev, enum mpc_soc_level level);
void mpc_soc_reset_quirks(struct mpc_hdev *mdev);
const char *mpc_soc_down_text(struct mpc_hdev *mdev);

#endif /* MPC_SOC_H */
