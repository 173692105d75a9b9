/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mali-gpu: QEMU host of the project's Mali GPU model.
 *
 * Everything the GPU does (registers, interrupts, power, MMU and TLB,
 * counters, dump layout, faults) is in mali_model.c, shared with the
 * in-module simulator of mali_perfcnt.ko. This file only connects the
 * model to QEMU: 32-bit MMIO, three level-triggered interrupt lines, one
 * QEMU_CLOCK_VIRTUAL timer per model timer, and guest memory through the
 * DMA API of the system address space, as a bus master sees it.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "sysemu/dma.h"
#include "migration/vmstate.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "qemu/bswap.h"
#include "sysemu/device_tree.h"
#include "hw/misc/mali_gpu.h"
#include "mali_model.h"
#include "mali_hw_regs.h"

QEMU_BUILD_BUG_ON(MALI_GPU_MMIO_SIZE != MALI_MODEL_REG_WINDOW);
QEMU_BUILD_BUG_ON(MALI_GPU_NR_IRQS != MALI_MODEL_NR_IRQS);
QEMU_BUILD_BUG_ON(MALI_GPU_NR_TIMERS != MALI_MODEL_NR_TIMERS);

static int mali_gpu_mem_read(void *host, uint64_t pa, void *buf, size_t len)
{
    return dma_memory_read(&address_space_memory, pa, buf, len,
                           MEMTXATTRS_UNSPECIFIED) != MEMTX_OK;
}

static int mali_gpu_mem_write(void *host, uint64_t pa, const void *buf,
                              size_t len)
{
    return dma_memory_write(&address_space_memory, pa, buf, len,
                            MEMTXATTRS_UNSPECIFIED) != MEMTX_OK;
}

static void mali_gpu_set_irq(void *host, unsigned int line, bool level)
{
    MaliGPUState *s = host;

    if (line < MALI_GPU_NR_IRQS) {
        qemu_set_irq(s->irq[line], level);
    }
}

static void mali_gpu_timer_arm(void *host, unsigned int nr, uint64_t ns)
{
    MaliGPUState *s = host;

    if (nr < MALI_GPU_NR_TIMERS) {
        timer_mod(s->timers[nr].timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ns);
    }
}

static void mali_gpu_timer_cancel(void *host, unsigned int nr)
{
    MaliGPUState *s = host;

    if (nr < MALI_GPU_NR_TIMERS) {
        timer_del(s->timers[nr].timer);
    }
}

static uint64_t mali_gpu_now_ns(void *host)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void mali_gpu_report(void *host, const char *msg)
{
    MaliGPUState *s = host;

    s->nr_reports++;
    error_report("mali_model: driver error: %s", msg);
}

static const struct mali_model_host_ops mali_gpu_host_ops = {
    .mem_read = mali_gpu_mem_read,
    .mem_write = mali_gpu_mem_write,
    .set_irq = mali_gpu_set_irq,
    .timer_arm = mali_gpu_timer_arm,
    .timer_cancel = mali_gpu_timer_cancel,
    .now_ns = mali_gpu_now_ns,
    .report = mali_gpu_report,
};

static void mali_gpu_timer_cb(void *opaque)
{
    MaliGPUTimer *t = opaque;

    mali_model_timer(t->s->model, t->nr);
}

/*
 * Deliver the model's timers that are due before the guest sees the
 * registers. Under TCG a vCPU that polls a register in a tight loop (a
 * driver's readl_poll_timeout with no delay, 1 ms for the L2's power-down
 * in panfrost) takes the BQL for every access and can starve the main
 * loop, whose timers would complete what it waits for: the poll times out
 * with the completion overdue, and a job's interrupt comes hundreds of ms
 * late. On hardware the completion is there as soon as it is due; the
 * first access after that sees it here. A completion may arm a timer
 * that is due at once: at most a few rounds.
 */
static void mali_gpu_catch_up(MaliGPUState *s)
{
    unsigned int i, round;
    bool fired = true;

    for (round = 0; fired && round < 8; round++) {
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        fired = false;
        for (i = 0; i < MALI_GPU_NR_TIMERS; i++) {
            QEMUTimer *t = s->timers[i].timer;

            if (timer_pending(t) && timer_expired(t, now)) {
                timer_del(t);
                mali_model_timer(s->model, i);
                fired = true;
            }
        }
    }
}

static uint64_t mali_gpu_read(void *opaque, hwaddr addr, unsigned size)
{
    MaliGPUState *s = opaque;

    mali_gpu_catch_up(s);
    return mali_model_read(s->model, addr);
}

static void mali_gpu_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    MaliGPUState *s = opaque;

    mali_gpu_catch_up(s);
    mali_model_write(s->model, addr, val);
}

static const MemoryRegionOps mali_gpu_ops = {
    .read = mali_gpu_read,
    .write = mali_gpu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/*
 * Test control: a guest test drives the model at run time through the
 * device's second MMIO region, as it drives the in-module simulator through
 * its debugfs files sim_workload and sim_fault. The test writes a command
 * into the CMD text buffer, writes EXEC and reads back EXEC (the status) and
 * the RESULT text:
 *   "workload TEXT"  mali_model_set_workload()   "workload"  its value
 *   "fault TEXT"     mali_model_set_fault()      "fault"     its value
 *   "reports"        mali_model_nr_reports(), in decimal
 *   "pwr_override"   PWR_OVERRIDE0 and PWR_OVERRIDE1, in hex (what a
 *                    SoC quirk of the driver wrote)
 *   "jobs"           what the job slots ran (mali_model_js_stats()):
 *                    "jsN=CHAINS/DONE/FAILED/JOBS/BUSY_NS" for N = 0..2,
 *                    then "busy_ns=NS", the time any slot ran a chain
 * On error RESULT holds the model's one-line message.
 */
static void mali_gpu_ctl_exec(MaliGPUState *s)
{
    char cmd[MALI_GPU_CTL_TEXT + 1];
    char *res = s->ctl_result;
    size_t len = sizeof(s->ctl_result);
    char *arg;
    int ret = 0;

    memcpy(cmd, s->ctl_cmd, MALI_GPU_CTL_TEXT);
    cmd[MALI_GPU_CTL_TEXT] = '\0';
    g_strstrip(cmd);
    arg = strchr(cmd, ' ');
    if (arg) {
        *arg++ = '\0';
        g_strstrip(arg);
    }
    memset(res, 0, len);
    if (!strcmp(cmd, "workload") && arg) {
        ret = mali_model_set_workload(s->model, arg, res, len);
    } else if (!strcmp(cmd, "workload")) {
        mali_model_show_workload(s->model, res, len);
    } else if (!strcmp(cmd, "fault") && arg) {
        ret = mali_model_set_fault(s->model, arg, res, len);
    } else if (!strcmp(cmd, "fault")) {
        mali_model_show_fault(s->model, res, len);
    } else if (!strcmp(cmd, "reports") && !arg) {
        snprintf(res, len, "%u", mali_model_nr_reports(s->model));
    } else if (!strcmp(cmd, "jobs") && !arg) {
        struct mali_model_js_stats st;
        size_t n = 0;
        unsigned int js;

        for (js = 0; js < 3 && !mali_model_js_stats(s->model, js, &st); js++) {
            n += snprintf(res + n, len - n, "js%u=%llu/%llu/%llu/%llu/%llu ", js,
                          (unsigned long long)st.chains,
                          (unsigned long long)st.done,
                          (unsigned long long)st.failed,
                          (unsigned long long)st.jobs,
                          (unsigned long long)st.busy_ns);
        }
        snprintf(res + n, len - n, "busy_ns=%llu",
                 (unsigned long long)mali_model_jobs_busy_ns(s->model));
    } else if (!strcmp(cmd, "pwr_override") && !arg) {
        snprintf(res, len, "0x%08x 0x%08x",
                 mali_model_read(s->model, MALI_HW_PWR_OVERRIDE0),
                 mali_model_read(s->model, MALI_HW_PWR_OVERRIDE1));
    } else {
        snprintf(res, len,
                 "want workload [TEXT], fault [TEXT], reports, jobs or pwr_override");
        ret = -1;
    }
    s->ctl_status = ret ? MALI_GPU_CTL_ERROR : MALI_GPU_CTL_OK;
}

static uint64_t mali_gpu_ctl_read(void *opaque, hwaddr addr, unsigned size)
{
    MaliGPUState *s = opaque;
    uint32_t val;

    switch (addr) {
    case MALI_GPU_CTL_ID:
        return MALI_GPU_CTL_MAGIC;
    case MALI_GPU_CTL_REPORTS:
        return mali_model_nr_reports(s->model);
    case MALI_GPU_CTL_EXEC:
        return s->ctl_status;
    }
    if (addr >= MALI_GPU_CTL_CMD && addr < MALI_GPU_CTL_CMD + MALI_GPU_CTL_TEXT) {
        memcpy(&val, s->ctl_cmd + addr - MALI_GPU_CTL_CMD, 4);
        return le32_to_cpu(val);
    }
    if (addr >= MALI_GPU_CTL_RESULT &&
        addr < MALI_GPU_CTL_RESULT + MALI_GPU_CTL_TEXT) {
        memcpy(&val, s->ctl_result + addr - MALI_GPU_CTL_RESULT, 4);
        return le32_to_cpu(val);
    }
    return 0;
}

static void mali_gpu_ctl_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    MaliGPUState *s = opaque;
    uint32_t le = cpu_to_le32(val);

    if (addr == MALI_GPU_CTL_EXEC) {
        mali_gpu_ctl_exec(s);
    } else if (addr >= MALI_GPU_CTL_CMD &&
               addr < MALI_GPU_CTL_CMD + MALI_GPU_CTL_TEXT) {
        memcpy(s->ctl_cmd + addr - MALI_GPU_CTL_CMD, &le, 4);
    }
}

static const MemoryRegionOps mali_gpu_ctl_ops = {
    .read = mali_gpu_ctl_read,
    .write = mali_gpu_ctl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* The test-control window is the device's MMIO region 1. */
static void mali_gpu_ctl_init(MaliGPUState *s)
{
    s->ctl_status = MALI_GPU_CTL_NONE;
    memory_region_init_io(&s->ctl, OBJECT(s), &mali_gpu_ctl_ops, s,
                          TYPE_MALI_GPU "-ctl", MALI_GPU_CTL_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->ctl);
}

/* (Re)start the model from its reset state with the device's options. */
static bool mali_gpu_start(MaliGPUState *s, Error **errp)
{
    struct mali_model_config cfg = {
        .product = s->product,
        .shader_present = s->shader_present,
        .l2_slices = s->l2_slices,
        .mhz = s->mhz,
        .va_bits = s->va_bits,
        .pa_bits = s->pa_bits,
        .coherent = s->coherent,
        .coherency_reset = s->coherency_reset,
    };
    char err[160] = "";

    memset(s->model, 0, mali_model_size());
    if (mali_model_init(s->model, &cfg, &mali_gpu_host_ops, s,
                        err, sizeof(err))) {
        error_setg(errp, "mali-gpu: %s", err);
        return false;
    }
    if (s->workload &&
        mali_model_set_workload(s->model, s->workload, err, sizeof(err))) {
        error_setg(errp, "mali-gpu: workload=%s: %s", s->workload, err);
        return false;
    }
    if (s->fault &&
        mali_model_set_fault(s->model, s->fault, err, sizeof(err))) {
        error_setg(errp, "mali-gpu: fault=%s: %s", s->fault, err);
        return false;
    }
    return true;
}

static void mali_gpu_realize(DeviceState *dev, Error **errp)
{
    MaliGPUState *s = MALI_GPU(dev);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
    int i;

    if (!s->product) {
        error_setg(errp, "mali-gpu: no product; one of: %s",
                   mali_model_products());
        return;
    }
    if (s->supplies &&
        s->supplies[strspn(s->supplies,
                           "abcdefghijklmnopqrstuvwxyz0123456789_;")]) {
        error_setg(errp, "mali-gpu: supplies=%s: want supply names of "
                   "a-z, 0-9 and _, ';'-separated (e.g. mali;sram)",
                   s->supplies);
        return;
    }
    s->model = g_malloc0(mali_model_size());
    for (i = 0; i < MALI_GPU_NR_TIMERS; i++) {
        s->timers[i].s = s;
        s->timers[i].nr = i;
        s->timers[i].timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                          mali_gpu_timer_cb, &s->timers[i]);
    }
    if (!mali_gpu_start(s, errp)) {
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &mali_gpu_ops, s,
                          TYPE_MALI_GPU, MALI_GPU_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    mali_gpu_ctl_init(s);
    for (i = 0; i < MALI_GPU_NR_IRQS; i++) {
        sysbus_init_irq(sbd, &s->irq[i]);
    }
}

static void mali_gpu_reset(DeviceState *dev)
{
    MaliGPUState *s = MALI_GPU(dev);
    int i;

    mali_model_fini(s->model);
    for (i = 0; i < MALI_GPU_NR_IRQS; i++) {
        qemu_set_irq(s->irq[i], 0);
    }
    /* The options were accepted at realize: they still are. */
    mali_gpu_start(s, &error_fatal);
}

static const char *mali_gpu_default_compatible(MaliGPUState *s)
{
    static char midgard[32];
    uint32_t arch = mali_model_gpu_id(s->model) >> 28;

    /* The new GPU_ID format (Bifrost on) has the architecture on top. */
    if (arch >= 9) {
        return "arm,mali-valhall-jm";
    }
    if (arch >= 6) {
        return "arm,mali-bifrost";
    }
    /* Midgard boards name the product: arm,mali-t720, arm,mali-t860... */
    snprintf(midgard, sizeof(midgard), "arm,mali-%s", s->product);
    return midgard;
}

/*
 * The node's "compatible" as a device-tree string list (each string
 * NUL-terminated, *len bytes in all; g_free() it): the dt-compatible
 * property's strings, separated there by ';' (e.g.
 * "amlogic,meson-g12a-mali;arm,mali-bifrost", as a SoC's board has it),
 * or the generic one for the product.
 */
char *mali_gpu_dt_compatible(MaliGPUState *s, size_t *len)
{
    char *list = g_strdup(s->dt_compatible && *s->dt_compatible ?
                          s->dt_compatible : mali_gpu_default_compatible(s));
    char *p;

    *len = strlen(list) + 1;
    for (p = list; *p; p++) {
        if (*p == ';') {
            *p = '\0';
        }
    }
    return list;
}

/*
 * -global mali-gpu.power-domains=core0;core1;core2: the GPU sits in these
 * named power domains of a test power controller, as MediaTek's GPUs sit
 * in several domains of the SoC's SCPSYS. The board's device tree gets
 * the controller, /mpc-test-pd (compatible
 * "mali-perfcnt,test-power-domains", one cell: the domain's index, its
 * names in "mali-perfcnt,domain-names"), and the GPU node @node its
 * power-domains and power-domain-names. The controller has no registers:
 * its guest driver (the project's test module mpc_test_pd.ko) only counts
 * and shows what the GPU's driver asks of it.
 */
void mali_gpu_dt_add_power_domains(MaliGPUState *s, void *fdt,
                                   const char *node)
{
    const char *pd_node = "/mpc-test-pd";
    char *names, *p;
    uint32_t *cells, phandle;
    size_t len;
    int i, n = 1;

    if (!s->power_domains || !*s->power_domains) {
        return;
    }
    names = g_strdup(s->power_domains);
    len = strlen(names) + 1;
    for (p = names; *p; p++) {
        if (*p == ';') {
            *p = '\0';
            n++;
        }
    }
    phandle = qemu_fdt_alloc_phandle(fdt);
    qemu_fdt_add_subnode(fdt, pd_node);
    qemu_fdt_setprop_string(fdt, pd_node, "compatible",
                            "mali-perfcnt,test-power-domains");
    qemu_fdt_setprop_cell(fdt, pd_node, "#power-domain-cells", 1);
    qemu_fdt_setprop(fdt, pd_node, "mali-perfcnt,domain-names", names, len);
    qemu_fdt_setprop_cell(fdt, pd_node, "phandle", phandle);
    cells = g_new(uint32_t, 2 * n);
    for (i = 0; i < n; i++) {
        cells[2 * i] = cpu_to_be32(phandle);
        cells[2 * i + 1] = cpu_to_be32(i);
    }
    qemu_fdt_setprop(fdt, node, "power-domains", cells,
                     2 * n * sizeof(uint32_t));
    qemu_fdt_setprop(fdt, node, "power-domain-names", names, len);
    g_free(cells);
    g_free(names);
}

/*
 * The test clock and regulators, counting providers whose guest driver is
 * the project's test module mpc_test_pd.ko:
 * - test-clock=on: /mpc-test-clk (compatible "mali-perfcnt,test-clock",
 *   #clock-cells = <0>, clock-frequency: the mhz property's, else the
 *   board's 24 MHz apb-pclk rate; clock-output-names "mpc-test-clk")
 *   becomes the GPU node @node's clock, in place of apb-pclk;
 * - supplies=mali;sram: per name, /mpc-test-vreg-NAME (compatible
 *   "mali-perfcnt,test-regulator", regulator-name "mpc-test-NAME",
 *   "mali-perfcnt,supply" = NAME) and @node's NAME-supply phandle to it.
 * Neither has registers.
 */
void mali_gpu_dt_add_test_providers(MaliGPUState *s, void *fdt,
                                    const char *node)
{
    char **names, *path, *prop, *rname;
    uint32_t phandle;
    int i;

    if (s->test_clock) {
        phandle = qemu_fdt_alloc_phandle(fdt);
        qemu_fdt_add_subnode(fdt, "/mpc-test-clk");
        qemu_fdt_setprop_string(fdt, "/mpc-test-clk", "compatible",
                                "mali-perfcnt,test-clock");
        qemu_fdt_setprop_cell(fdt, "/mpc-test-clk", "#clock-cells", 0);
        qemu_fdt_setprop_cell(fdt, "/mpc-test-clk", "clock-frequency",
                              (s->mhz ? s->mhz : 24) * 1000000);
        qemu_fdt_setprop_string(fdt, "/mpc-test-clk", "clock-output-names",
                                "mpc-test-clk");
        qemu_fdt_setprop_cell(fdt, "/mpc-test-clk", "phandle", phandle);
        qemu_fdt_setprop_cell(fdt, node, "clocks", phandle);
    }
    if (!s->supplies || !*s->supplies) {
        return;
    }
    names = g_strsplit(s->supplies, ";", -1);
    for (i = 0; names[i]; i++) {
        if (!*names[i]) {
            continue;
        }
        path = g_strdup_printf("/mpc-test-vreg-%s", names[i]);
        prop = g_strdup_printf("%s-supply", names[i]);
        rname = g_strdup_printf("mpc-test-%s", names[i]);
        phandle = qemu_fdt_alloc_phandle(fdt);
        qemu_fdt_add_subnode(fdt, path);
        qemu_fdt_setprop_string(fdt, path, "compatible",
                                "mali-perfcnt,test-regulator");
        qemu_fdt_setprop_string(fdt, path, "regulator-name", rname);
        qemu_fdt_setprop_string(fdt, path, "mali-perfcnt,supply", names[i]);
        qemu_fdt_setprop_cell(fdt, path, "phandle", phandle);
        qemu_fdt_setprop_cell(fdt, node, prop, phandle);
        g_free(rname);
        g_free(prop);
        g_free(path);
    }
    g_strfreev(names);
}

/*
 * workload and fault are the model's text controls: set before realize
 * (-global mali-gpu.workload=busy=50) they are checked at realize; set
 * later (QMP qom-set /machine/mali-gpu workload busy=80) they reach the
 * model at once. The latest value is applied again at every reset.
 */
typedef int (*MaliGPUSetText)(struct mali_model *m, const char *text,
                              char *err, size_t errlen);
typedef void (*MaliGPUShowText)(struct mali_model *m, char *buf, size_t len);

static char *mali_gpu_get_text(MaliGPUState *s, char *stored,
                               MaliGPUShowText show)
{
    char buf[64];

    if (!DEVICE(s)->realized) {
        return g_strdup(stored ? stored : "");
    }
    show(s->model, buf, sizeof(buf));
    return g_strdup(buf);
}

static void mali_gpu_set_text(MaliGPUState *s, char **stored,
                              const char *name, const char *value,
                              MaliGPUSetText set, Error **errp)
{
    char err[160] = "";

    if (DEVICE(s)->realized && set(s->model, value, err, sizeof(err))) {
        error_setg(errp, "mali-gpu: %s=%s: %s", name, value, err);
        return;
    }
    g_free(*stored);
    *stored = g_strdup(value);
}

static char *mali_gpu_get_workload(Object *obj, Error **errp)
{
    MaliGPUState *s = MALI_GPU(obj);

    return mali_gpu_get_text(s, s->workload, mali_model_show_workload);
}

static void mali_gpu_set_workload(Object *obj, const char *value,
                                  Error **errp)
{
    MaliGPUState *s = MALI_GPU(obj);

    mali_gpu_set_text(s, &s->workload, "workload", value,
                      mali_model_set_workload, errp);
}

static char *mali_gpu_get_fault(Object *obj, Error **errp)
{
    MaliGPUState *s = MALI_GPU(obj);

    return mali_gpu_get_text(s, s->fault, mali_model_show_fault);
}

static void mali_gpu_set_fault(Object *obj, const char *value, Error **errp)
{
    MaliGPUState *s = MALI_GPU(obj);

    mali_gpu_set_text(s, &s->fault, "fault", value, mali_model_set_fault,
                      errp);
}

static Property mali_gpu_properties[] = {
    DEFINE_PROP_STRING("product", MaliGPUState, product),
    DEFINE_PROP_UINT64("shader-present", MaliGPUState, shader_present, 0),
    DEFINE_PROP_UINT32("l2-slices", MaliGPUState, l2_slices, 0),
    DEFINE_PROP_UINT32("mhz", MaliGPUState, mhz, 0),
    DEFINE_PROP_UINT32("va-bits", MaliGPUState, va_bits, 0),
    DEFINE_PROP_UINT32("pa-bits", MaliGPUState, pa_bits, 0),
    /* An I/O-coherent integration: the board adds dma-coherent to the node */
    DEFINE_PROP_BOOL("coherent", MaliGPUState, coherent, false),
    /* COHERENCY_ENABLE after reset: none (default), ace-lite or ace */
    DEFINE_PROP_STRING("coherency-reset", MaliGPUState, coherency_reset),
    DEFINE_PROP_STRING("dt-compatible", MaliGPUState, dt_compatible),
    /* Named domains of a test power controller, ';'-separated */
    DEFINE_PROP_STRING("power-domains", MaliGPUState, power_domains),
    /* Test regulators, one per supply name, ';'-separated */
    DEFINE_PROP_STRING("supplies", MaliGPUState, supplies),
    /* A test clock as the GPU's clock */
    DEFINE_PROP_BOOL("test-clock", MaliGPUState, test_clock, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* The model's state is opaque to QEMU: no migration. */
static const VMStateDescription mali_gpu_vmstate = {
    .name = TYPE_MALI_GPU,
    .unmigratable = 1,
};

static void mali_gpu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = mali_gpu_realize;
    dc->reset = mali_gpu_reset;
    dc->vmsd = &mali_gpu_vmstate;
    dc->desc = "Arm Mali job-manager GPU (project model)";
    device_class_set_props(dc, mali_gpu_properties);
    object_class_property_add_str(klass, "workload", mali_gpu_get_workload,
                                  mali_gpu_set_workload);
    object_class_property_set_description(klass, "workload",
                                          "idle or busy=N (percent)");
    object_class_property_add_str(klass, "fault", mali_gpu_get_fault,
                                  mali_gpu_set_fault);
    object_class_property_set_description(klass, "fault",
                                          "none, drop_irq, delay=MS, "
                                          "stuck_clean, gpu_fault...");
}

static const TypeInfo mali_gpu_info = {
    .name = TYPE_MALI_GPU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MaliGPUState),
    .class_init = mali_gpu_class_init,
};

static void mali_gpu_register_types(void)
{
    type_register_static(&mali_gpu_info);
}

type_init(mali_gpu_register_types)
