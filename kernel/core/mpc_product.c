// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: the product table and the errata checks, as panfrost_gpu.c
 * keeps gpu_models[]. Pure functions of GPU_ID, no hardware access.
 */
#include <linux/kernel.h>

#include "mpc_core.h"

static const struct mpc_product mpc_products[] = {
	/* Midgard: the product id is the whole of GPU_ID[31:16] */
	{ "Mali-T600", GPU_PROD_T600, 0xffff, true, 1 },
	{ "Mali-T620", 0x0620, 0xffff, true, 1 },
	{ "Mali-T720", 0x0720, 0xffff, true, 1 },
	{ "Mali-T760", 0x0750, 0xffff, false, 1 },
	{ "Mali-T820", 0x0820, 0xffff, false, 1 },
	{ "Mali-T830", 0x0830, 0xffff, false, 1 },
	{ "Mali-T860", 0x0860, 0xffff, false, 1 },
	{ "Mali-T880", 0x0880, 0xffff, false, 1 },
	/* Bifrost and Valhall-JM: compare arch major and product major only */
	{ "Mali-G71", 0x6000, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G72", 0x6001, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G51", 0x7000, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G76", 0x7001, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G52", 0x7002, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G31", 0x7003, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G77", 0x9000, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G57", 0x9001, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G78", 0x9002, GPU_PROD_MODEL_MASK, false, 2 },
	/* MediaTek's G57 (MT8192, MT8195) reports its own product major */
	{ "Mali-G57", 0x9003, GPU_PROD_MODEL_MASK, false, 2 },
	{ "Mali-G68", 0x9004, GPU_PROD_MODEL_MASK, false, 2 },
};

static const struct mpc_product mpc_unknown_midgard = {
	"Mali-unknown-midgard", 0, 0, false, 1
};

static const struct mpc_product mpc_unknown_bifrost = {
	"Mali-unknown", 0, 0, false, 2
};

static bool mpc_is_midgard(u16 prod)
{
	return prod == GPU_PROD_T600 || GPU_PROD_ARCH_MAJOR(prod) == 0;
}

/**
 * mpc_product_lookup() - recognise a GPU from its GPU_ID
 * @gpu_id: raw GPU_ID register.
 *
 * Return: the model, or a generic v5 entry when the id is unknown (so a
 * bring-up engineer still gets raw counters on a GPU we have not listed).
 */
const struct mpc_product *mpc_product_lookup(u32 gpu_id)
{
	u16 prod = GPU_ID_PRODUCT(gpu_id);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_products); i++) {
		const struct mpc_product *p = &mpc_products[i];

		if ((prod & p->mask) == p->id)
			return p;
	}
	return mpc_is_midgard(prod) ? &mpc_unknown_midgard : &mpc_unknown_bifrost;
}

/**
 * mpc_has_hw_issue_8186() - does PRLAM-8186 affect this GPU?
 * @gpu_id: raw GPU_ID register.
 *
 * Only the first T600 revision (r0p0, version status 1, "15dev0") has the
 * erratum: its tiler counters must be enabled after the counter mode is set.
 *
 * Return: true when the workaround is needed.
 */
bool mpc_has_hw_issue_8186(u32 gpu_id)
{
	return GPU_ID_PRODUCT(gpu_id) == GPU_PROD_T600 &&
	       GPU_ID_VERSION_MAJOR(gpu_id) == 0 &&
	       GPU_ID_VERSION_MINOR(gpu_id) == 0 &&
	       GPU_ID_VERSION_STATUS(gpu_id) == 1;
}

/**
 * mpc_gpu_has_transcfg() - does the GPU have AS_TRANSCFG
 * @gpu_id: raw GPU_ID register.
 *
 * Bifrost (architecture major 6) and later select the table format of an
 * address space with AS_TRANSCFG; Midgard has only the legacy TRANSTAB.
 * The T600's legacy product id 0x6956 predates the architecture fields.
 *
 * Return: true from Bifrost on.
 */
bool mpc_gpu_has_transcfg(u32 gpu_id)
{
	u16 prod = GPU_ID_PRODUCT(gpu_id);

	return prod != GPU_PROD_T600 && GPU_PROD_ARCH_MAJOR(prod) >= 6;
}
