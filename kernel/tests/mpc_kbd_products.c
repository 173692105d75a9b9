// SPDX-License-Identifier: GPL-2.0-or-later
/* The GPU model's products (model/mali_model_products.c) for mpc_kbase_double.ko. */
#include "mali_model_products.c"
