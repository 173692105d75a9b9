// SPDX-License-Identifier: GPL-2.0-or-later
/* The GPU model (model/mali_model.c) for mpc_kbase_double.ko. */
#include "mali_model.c"
