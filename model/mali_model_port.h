/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only place where mali_model meets its host's C environment: fixed-width
 * integers, bool, size_t, memset/memcpy/strcmp, snprintf and one 64-by-32
 * division, from the kernel when built into mali_perfcnt.ko and from the C
 * library elsewhere (QEMU, host unit tests). The model's sources include
 * nothing else.
 */
#ifndef MALI_MODEL_PORT_H
#define MALI_MODEL_PORT_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>

/* 64-by-32 division: 32-bit kernels have no libgcc to do it */
static inline uint64_t mali_model_div64(uint64_t n, uint32_t d)
{
	return div_u64(n, d);
}
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline uint64_t mali_model_div64(uint64_t n, uint32_t d)
{
	return n / d;
}
#endif

#endif /* MALI_MODEL_PORT_H */
