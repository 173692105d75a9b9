/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mali_perfcnt: what the counter core needs of the driver that hosts it.
 *
 * The core (kernel/core/) owns the counter unit's programming, its owners,
 * the samples, the sampling streams, the debugfs view and the uAPI
 * handlers. It does not own the GPU: its registers, interrupt lines, power,
 * address spaces, memory and resets belong to the host, mali_perfcnt.ko
 * (kernel/mpc_host.c) or a render driver. The core reaches the host only
 * through &struct mpc_host_ops; the host calls the core's entry points
 * listed at the end of this file.
 */
#ifndef MPC_HOST_H
#define MPC_HOST_H

#include <linux/types.h>

struct dentry;
struct seq_file;

/**
 * enum mpc_reset_level - what a reset needed to bring the GPU back
 * @MPC_RESET_SOFT: a SOFT_RESET command.
 * @MPC_RESET_HARD: a HARD_RESET command.
 * @MPC_RESET_LINE: the SoC's reset line.
 */
enum mpc_reset_level {
	MPC_RESET_SOFT,
	MPC_RESET_HARD,
	MPC_RESET_LINE,
};

/**
 * enum mpc_host_info - the parts of debugfs gpu_info the host writes
 * @MPC_HOST_INFO_PLATFORM: how the GPU is integrated (simulated, SoC,
 *	its power-down steps), after gpu_freq_hz.
 * @MPC_HOST_INFO_MMU: the address space's page tables and VA width,
 *	after hw_issue_8186.
 */
enum mpc_host_info {
	MPC_HOST_INFO_PLATFORM,
	MPC_HOST_INFO_MMU,
};

/**
 * struct mpc_host_ops - how the counter core reaches its host
 *
 * @reg_read: read the 32-bit GPU register at byte offset @reg of the GPU's
 *	register space (kernel/core/mpc_regs.h). Also called from the core's
 *	IRQ hooks (mpc_perfcnt_gpu_irq()), so it must not sleep.
 * @reg_write: write @val to the 32-bit GPU register at @reg; the same
 *	rules as @reg_read.
 * @irq_enable: unmask the interrupts the core's IRQ hooks handle, after
 *	a reset the core asked for (@reset) cleared the masks.
 * @pm_get: keep the GPU runtime-active until the matching @pm_put (a
 *	reference, like pm_runtime_resume_and_get()), once per enable of the
 *	counters.
 *	Returns 0 or a negative errno.
 * @pm_put: drop the reference @pm_get took (the GPU may then suspend).
 * @power_follows: may counters that can follow the GPU's power
 *	(&mpc_perfcnt_owner.follows_power, the sessions) do so instead of
 *	holding it up? Optional (NULL: never); asked at every enable. A host
 *	that says yes calls mpc_perfcnt_power_down() in its runtime suspend,
 *	before the GPU loses power or its interrupts, and fails the suspend
 *	with the -EBUSY it may return; and mpc_perfcnt_power_up() in its
 *	runtime resume, once the GPU is reset and powered and its interrupts
 *	are unmasked. Called without the counter lock.
 * @pm_ref_put: drop only the runtime PM reference of @pm_get, keeping the
 *	rest of what it took: following counters, after their enable.
 *	Required with @power_follows.
 * @pm_ref_get_noresume: take a runtime PM reference without resuming the
 *	GPU (pm_runtime_get_noresume()), for the @pm_put of following
 *	counters that are disabled. Required with @power_follows.
 * @power_on: power the shader cores, the tiler and the L2 up, so that
 *	every block counts, and wait for them.
 *	Returns 0 or -ETIMEDOUT (the core then resets the GPU).
 * @power_off: let those cores power down again.
 *	Returns 0 or -ETIMEDOUT (the core then resets the GPU).
 * @reset: reset a GPU whose state is unknown, escalating as far as the
 *	host can (soft, hard, the reset line); every register is lost and
 *	the interrupt masks stay cleared until @irq_enable.
 *	Returns the &enum mpc_reset_level that worked, or a negative errno
 *	when none did (the core then treats the GPU as dead).
 * @buf_alloc: allocate the dump buffer, @size bytes the GPU may write
 *	(non-coherent memory, see @buf_sync_for_device), and prepare its
 *	translation at @gpu_va, the VA the core was given (debugfs
 *	perfcnt_va; a host that chooses its own VA may ignore it).
 *	Returns the buffer's kernel mapping in @vaddr, and 0 or a negative
 *	errno.
 * @buf_free: free the dump buffer and its translation, after
 *	@counters_stop returned 0 or after a successful @reset. With @leak
 *	the GPU answered no reset and may still write the pages: the host
 *	must not give them back.
 *	Returns the number of pages left allocated (0 unless @leak).
 * @buf_sync_for_device: give the dump buffer to the GPU (before every
 *	PERFCNT_SAMPLE).
 * @buf_sync_for_cpu: give it back to the CPU (once the sample's cache
 *	clean completed), before the core reads the dump.
 * @va_check: is a dump buffer of @size bytes at @va a valid GPU VA range
 *	for this host? Called without the counter lock.
 *	Returns 0 or -EINVAL.
 * @counters_start: make the dump buffer's translation live in an address
 *	space and that address space active (restoring a translation that
 *	@buf_unmap removed or a reset lost). The core reads the buffer's VA
 *	and the address space only here, every time it starts the counters
 *	(enable, recovery, resume): a host may move them between starts.
 *	Returns the buffer's GPU VA in @gpu_va, the address space number for
 *	PERFCNT_CFG.AS in @as, and 0 or a negative errno.
 * @counters_stop: the counters are off: drop the address space's
 *	translations of the buffer from the GPU (flush), so that its pages may
 *	be freed. Returns 0, or -ETIMEDOUT when the flush did not complete
 *	(the core then resets the GPU before it frees anything).
 * @buf_unmap: test hook: remove the buffer's translation now, so that the
 *	next sample faults and the recovery maps it again (@counters_start).
 *	Optional. Returns 0 or a negative errno.
 * @paranoid: is the host's access policy "CAP_PERFMON only"? Called
 *	without the counter lock; false lets any user who can open the
 *	render node take the counters.
 * @min_period_unpriv_ns: the shortest session period a caller without
 *	CAP_PERFMON may ask for, in ns (the host's policy, e.g. a sysctl).
 *	Optional (MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS); called without
 *	any lock.
 * @open_delay: test hook: how many milliseconds STREAM_OPEN waits before it
 *	installs the stream's fd. Optional; called without any lock.
 * @debugfs_init: create the host's own files in the DRM minor's debugfs
 *	directory @root. Optional; called once, without any lock.
 * @debugfs_show: write the host's @what lines of debugfs gpu_info to @m.
 *	Optional; called without the counter lock.
 *
 * Every call gets the host's context (&mpc_device.host). Unless a member
 * says otherwise the core calls it from process context holding its own
 * counter lock (so a call may sleep but must not call back into the
 * core), and only while the GPU is powered: between @pm_get and @pm_put,
 * never between mpc_perfcnt_suspend() and a successful
 * mpc_perfcnt_resume().
 */
struct mpc_host_ops {
	u32 (*reg_read)(void *host, u32 reg);
	void (*reg_write)(void *host, u32 reg, u32 val);
	void (*irq_enable)(void *host);
	int (*pm_get)(void *host);
	void (*pm_put)(void *host);
	bool (*power_follows)(void *host);
	void (*pm_ref_put)(void *host);
	void (*pm_ref_get_noresume)(void *host);
	int (*power_on)(void *host);
	int (*power_off)(void *host);
	int (*reset)(void *host);
	int (*buf_alloc)(void *host, size_t size, u64 gpu_va, void **vaddr);
	unsigned int (*buf_free)(void *host, bool leak);
	void (*buf_sync_for_device)(void *host);
	void (*buf_sync_for_cpu)(void *host);
	int (*va_check)(void *host, u64 va, u64 size);
	int (*counters_start)(void *host, u64 *gpu_va, u32 *as);
	int (*counters_stop)(void *host);
	int (*buf_unmap)(void *host);
	bool (*paranoid)(void *host);
	u64 (*min_period_unpriv_ns)(void *host);
	unsigned int (*open_delay)(void *host);
	void (*debugfs_init)(void *host, struct dentry *root);
	void (*debugfs_show)(void *host, struct seq_file *m, enum mpc_host_info what);
};

/*
 * What the host calls (kernel/core/mpc_core.h has the full list):
 *
 * - at probe: set &mpc_device.drm, .dev, .host_ops and .host, call
 *   mpc_perfcnt_init(), mpc_stream_init() and mpc_debugfs_setup() before
 *   it installs its IRQ handlers, and fill .features and .gpu_freq_hz
 *   before the first uAPI call can come (drm_dev_register());
 *   mpc_debugfs_init() from its DRM debugfs_init.
 * - IRQ hooks: its GPU interrupt handler reads mpc_perfcnt_irq_gen() before
 *   the interrupt status and passes both to mpc_perfcnt_gpu_irq(); its MMU
 *   handler calls mpc_perfcnt_mmu_fault() for a fault in the counters'
 *   address space.
 * - power notifications: mpc_perfcnt_suspend() before system sleep takes
 *   the GPU's power, mpc_perfcnt_resume() after it came back (with the
 *   resume's result); with &mpc_host_ops.power_follows,
 *   mpc_perfcnt_power_down() and mpc_perfcnt_power_up() in its runtime
 *   suspend and resume.
 * - reset notifications: mpc_perfcnt_host_reset() after a reset the host
 *   did for its own reasons (a job timeout): the core restarts the
 *   counters, flagging the next sample AFTER_RECOVERY.
 * - uAPI: mpc_ioctl_*() from its DRM ioctl table, mpc_perfcnt_release()
 *   when a file closes, and mpc_perfcnt_release(mdev, NULL) at unbind.
 */

#endif /* MPC_HOST_H */
