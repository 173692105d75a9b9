/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mali-gpu: an emulated Arm Mali job-manager GPU on a system bus. The GPU
 * itself is the project's portable model (mali_model.c); this device is
 * only its QEMU host: MMIO, three interrupt lines, timers, bus-master DMA.
 */
#ifndef HW_MISC_MALI_GPU_H
#define HW_MISC_MALI_GPU_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_MALI_GPU "mali-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(MaliGPUState, MALI_GPU)

/* The register window (MALI_MODEL_REG_WINDOW) */
#define MALI_GPU_MMIO_SIZE 0x4000
/* Interrupt outputs 0..2 in device-tree order: "job", "mmu", "gpu" */
#define MALI_GPU_NR_IRQS 3
#define MALI_GPU_NR_TIMERS 9

/*
 * The test-control window, the device's second MMIO region (mali_gpu.c,
 * "test control"): mapped by the board outside the GPU's registers and not
 * described in the device tree, so no driver maps it. Offsets:
 */
#define MALI_GPU_CTL_SIZE 0x1000
#define MALI_GPU_CTL_OFFSET 0x8000  /* from the register window's base */
#define MALI_GPU_CTL_ID 0x000       /* RO: MALI_GPU_CTL_MAGIC */
#define MALI_GPU_CTL_REPORTS 0x004  /* RO: mali_model_nr_reports() */
#define MALI_GPU_CTL_EXEC 0x008     /* W: run the command; R: its status */
#define MALI_GPU_CTL_CMD 0x100      /* RW: command text, NUL-terminated */
#define MALI_GPU_CTL_RESULT 0x200   /* RO: result text, NUL-terminated */
#define MALI_GPU_CTL_TEXT 0x100     /* bytes of each text buffer */
#define MALI_GPU_CTL_MAGIC 0x4d504354 /* "MPCT" */
/* MALI_GPU_CTL_EXEC status */
#define MALI_GPU_CTL_OK 0
#define MALI_GPU_CTL_ERROR 1
#define MALI_GPU_CTL_NONE 0xffffffff

struct mali_model;

typedef struct MaliGPUTimer {
    MaliGPUState *s;
    unsigned int nr;
    QEMUTimer *timer;
} MaliGPUTimer;

struct MaliGPUState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq[MALI_GPU_NR_IRQS];
    MaliGPUTimer timers[MALI_GPU_NR_TIMERS];
    struct mali_model *model;
    uint32_t nr_reports;

    /* the test-control window */
    MemoryRegion ctl;
    uint8_t ctl_cmd[MALI_GPU_CTL_TEXT];
    char ctl_result[MALI_GPU_CTL_TEXT];
    uint32_t ctl_status;

    /* properties */
    char *product;
    uint64_t shader_present;
    uint32_t l2_slices;
    uint32_t mhz;
    uint32_t va_bits;
    uint32_t pa_bits;
    bool coherent;
    char *coherency_reset;
    char *dt_compatible;
    char *power_domains;
    char *supplies;
    bool test_clock;
    char *workload;
    char *fault;
};

/*
 * The device-tree "compatible" string list of this GPU (realized): the
 * dt-compatible property's, else the generic one boards use for it.
 */
char *mali_gpu_dt_compatible(MaliGPUState *s, size_t *len);

/*
 * The power-domains property: a test power controller node in @fdt and
 * the GPU node @node's power-domains and power-domain-names; nothing
 * when the property is empty.
 */
void mali_gpu_dt_add_power_domains(MaliGPUState *s, void *fdt,
                                   const char *node);

/*
 * The test-clock and supplies properties: a counting test clock as the
 * GPU node @node's clock, and a test regulator per supply name with the
 * node's NAME-supply; nothing when both are unset.
 */
void mali_gpu_dt_add_test_providers(MaliGPUState *s, void *fdt,
                                    const char *node);

#endif
