/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only place where mali_model meets its host's C environment: fixed-width
 * integers, bool, size_t, memset/memcpy/strcmp and snprintf, from the kernel
 * when built into mali_perfcnt.ko and from the C library elsewhere (QEMU,
 * host unit tests). The model's sources include nothing else.
 */
#ifndef MALI_MODEL_PORT_H
#define MALI_MODEL_PORT_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#endif

#endif /* MALI_MODEL_PORT_H */
