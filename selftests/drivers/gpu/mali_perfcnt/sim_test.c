// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt selftests against the simulator's model: counters are deltas
 * that follow the configured load at the modelled clock, sequence numbers
 * and timestamps increase, the driver recovers from every fault the
 * simulator can inject (sim_fault, perfcnt_va), and it uses the translation
 * table writer expected on this architecture.
 *
 * MPC_MODULE_PARAMS (e.g. "pgtable=builtin") is appended to every module
 * load: on arm64 `make check` runs this file a second time that way, so
 * both table writers are proven against the simulator's table walk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "mpc_fixture.h"

/* GPU_ACTIVE of the last dump as a fraction of the modelled cycles. */
static double active_ratio(FIXTURE_DATA(mpc) *self,
			   const FIXTURE_VARIANT(mpc) *variant,
			   uint64_t elapsed_ns)
{
	double cycles = (double)elapsed_ns * self->info.gpu_freq_hz / 1e9;

	return JM(self)[variant->gpu_active] / cycles;
}

/* Measure the GPU_ACTIVE ratio at load @pct over about @ms milliseconds. */
static int measure_load(FIXTURE_DATA(mpc) *self,
			const FIXTURE_VARIANT(mpc) *variant,
			unsigned int pct, unsigned int ms, double *ratio)
{
	uint64_t t0, t1;
	char load[32];
	int ret;

	snprintf(load, sizeof(load), "busy=%u\n", pct);
	ret = mpc_set_workload(self->dbg, load);
	if (ret)
		return ret;
	ret = mpc_dump(self->fd, self->buf, self->info.dump_size, NULL, &t0);
	if (ret)
		return ret;
	mpc_sleep_ms(ms);
	ret = mpc_dump(self->fd, self->buf, self->info.dump_size, NULL, &t1);
	if (ret)
		return ret;
	*ratio = active_ratio(self, variant, t1 - t0);
	return 0;
}

/* 3. Counters are deltas that follow the load */

TEST_F(mpc, idle_dumps_near_zero)
{
	uint64_t t0, t1;

	SET_LOAD(self, "idle\n");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, &t0);
	DUMP_OK(self, NULL, &t1);
	ASSERT_LT(t0, t1);
	/* Under 1% of the cycles of the interval (idle means ~0). */
	EXPECT_GT(0.01, active_ratio(self, variant, t1 - t0)) {
		TH_LOG("GPU_ACTIVE %u over %llu ns", JM(self)[variant->gpu_active],
		       (unsigned long long)(t1 - t0));
	}
}

TEST_F(mpc, busy50_gpu_active_ratio)
{
	double r;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, measure_load(self, variant, 50, 300, &r));
	EXPECT_TRUE(r >= 0.475 && r <= 0.525) {
		TH_LOG("GPU_ACTIVE ratio %.4f at busy=50 (want 0.5 +-5%%)", r);
	}
}

TEST_F(mpc, gpu_active_tracks_load)
{
	static const unsigned int loads[] = { 10, 80, 100 };
	unsigned int k;
	double r, want;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	for (k = 0; k < ARRAY_SIZE(loads); k++) {
		ASSERT_EQ(0, measure_load(self, variant, loads[k], 200, &r));
		want = loads[k] / 100.0;
		EXPECT_TRUE(r >= want * 0.95 && r <= want * 1.05) {
			TH_LOG("GPU_ACTIVE ratio %.4f at busy=%u", r, loads[k]);
		}
	}
}

TEST_F(mpc, shader_activity_le_gpu_active)
{
	unsigned int bit, nonzero = 0;
	const uint32_t *sc;
	uint32_t active;
	double r;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, measure_load(self, variant, 50, 200, &r));
	active = JM(self)[variant->gpu_active];
	ASSERT_LT(0, active);
	for (bit = 0; bit < 64; bit++) {
		if (!((self->info.shader_present >> bit) & 1))
			continue;
		sc = mpc_block(self->buf, mpc_shader_slot(&self->info, bit));
		EXPECT_GE(active, sc[MPC_SC_FRAG_ACTIVE]) {
			TH_LOG("shader %u FRAG_ACTIVE", bit);
		}
		EXPECT_GE(active, sc[variant->compute_active]) {
			TH_LOG("shader %u COMPUTE_ACTIVE", bit);
		}
		nonzero += sc[MPC_SC_FRAG_ACTIVE] || sc[variant->compute_active];
	}
	/* At busy=50 the cores did something. */
	EXPECT_LT(0, nonzero);
}

TEST_F(mpc, tiler_activity_le_gpu_active)
{
	const uint32_t *tiler;
	unsigned int slot, inst;
	uint32_t active;
	double r;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, measure_load(self, variant, 50, 200, &r));
	active = JM(self)[variant->gpu_active];
	ASSERT_LT(0, active);
	for (slot = 0; slot < self->info.nr_blocks; slot++) {
		if (mpc_block_kind(&self->info, slot, &inst) != MPC_BLK_TILER)
			continue;
		tiler = mpc_block(self->buf, slot);
		EXPECT_LT(0, tiler[variant->tiler_active]);
		EXPECT_GE(active, tiler[variant->tiler_active]);
	}
}

TEST_F(mpc, l2_beats_le_lookups)
{
	unsigned int slot, inst, k, slices = 0;
	uint64_t lookups, beats;
	const uint32_t *l2;
	double r;

	if (!variant->l2_lookups[0])
		SKIP(return, "%s has no L2 lookup/beat counters in its database",
		     variant->product);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, measure_load(self, variant, 50, 200, &r));
	for (slot = 0; slot < self->info.nr_blocks; slot++) {
		if (mpc_block_kind(&self->info, slot, &inst) != MPC_BLK_L2)
			continue;
		l2 = mpc_block(self->buf, slot);
		lookups = beats = 0;
		for (k = 0; k < 3 && variant->l2_lookups[k]; k++)
			lookups += l2[variant->l2_lookups[k]];
		for (k = 0; k < 3 && variant->l2_beats[k]; k++)
			beats += l2[variant->l2_beats[k]];
		EXPECT_LT(0, lookups) {
			TH_LOG("L2 slice %u did no lookup at busy=50", inst);
		}
		EXPECT_GE(lookups, beats) {
			TH_LOG("L2 slice %u: %llu external beats > %llu lookups",
			       inst, (unsigned long long)beats,
			       (unsigned long long)lookups);
		}
		slices++;
	}
	EXPECT_EQ(self->info.nr_l2, slices);
}

TEST_F(mpc, dump_clears_counters)
{
	uint32_t first, second;
	uint64_t t0, t1, t2;

	SET_LOAD(self, "busy=100\n");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, &t0);
	mpc_sleep_ms(400);
	DUMP_OK(self, NULL, &t1);
	first = JM(self)[variant->gpu_active];
	mpc_sleep_ms(100);
	DUMP_OK(self, NULL, &t2);
	second = JM(self)[variant->gpu_active];
	/*
	 * The second dump holds only its own interval, not the time since
	 * enable (that would be a ratio of about 5): all of its cycles, +-5%
	 * for sampling jitter.
	 */
	EXPECT_LT(0, first);
	EXPECT_GE(1.05, active_ratio(self, variant, t2 - t1)) {
		TH_LOG("second dump: %u cycles active in %llu ns", second,
		       (unsigned long long)(t2 - t1));
	}
	EXPECT_LE(0.95, active_ratio(self, variant, t2 - t1)) {
		TH_LOG("second dump: %u cycles active in %llu ns", second,
		       (unsigned long long)(t2 - t1));
	}
}

/* 4. Sequence numbers and timestamps */

TEST_F(mpc, seqno_strictly_increases)
{
	uint64_t prev = 0, seq;
	unsigned int k;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	for (k = 0; k < 20; k++) {
		DUMP_OK(self, &seq, NULL);
		if (k)
			EXPECT_LT(prev, seq);
		prev = seq;
	}
}

TEST_F(mpc, timestamp_strictly_increases)
{
	uint64_t prev = 0, ts;
	unsigned int k;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	for (k = 0; k < 20; k++) {
		DUMP_OK(self, NULL, &ts);
		EXPECT_LT(prev, ts);
		prev = ts;
	}
}

TEST_F(mpc, timestamp_within_call)
{
	uint64_t before, after, ts;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	before = mpc_now_ns();
	DUMP_OK(self, NULL, &ts);
	after = mpc_now_ns();
	/* CLOCK_MONOTONIC_RAW of the sample completion. */
	EXPECT_LE(before, ts);
	EXPECT_GE(after, ts);
}

TEST_F(mpc, header_timestamp_increases)
{
	unsigned int jm = mpc_jm_slot(&self->info), k;
	uint64_t prev = 0, ts;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	for (k = 0; k < 10; k++) {
		DUMP_OK(self, NULL, NULL);
		ts = mpc_block_ts(mpc_block(self->buf, jm));
		EXPECT_LT(prev, ts);
		prev = ts;
	}
}

TEST_F(mpc, seqno_continues_after_reenable)
{
	uint64_t s0, s1;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s0, NULL);
	ASSERT_EQ(0, mpc_disable(self->fd));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s1, NULL);
	EXPECT_LT(s0, s1);
}

/* 8. Recovery from injected faults */

TEST_F(mpc, drop_irq_times_out)
{
	uint64_t t0, dt;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "drop_irq\n");
	t0 = mpc_now_ns();
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	dt = mpc_now_ns() - t0;
	/* The sample timeout is 1 s; allow TCG some slack above. */
	EXPECT_LE(900000000ULL, dt);
	EXPECT_GE(3000000000ULL, dt);
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
}

TEST_F(mpc, drop_irq_then_dump_works)
{
	uint64_t s0, s1;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s0, NULL);
	ARM_FAULT(self, "drop_irq\n");
	ASSERT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	/* The counters stay enabled after -ETIMEDOUT. */
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	DUMP_OK(self, &s1, NULL);
	EXPECT_LT(s0, s1);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

TEST_F(mpc, drop_irq_then_reenable_works)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "drop_irq\n");
	ASSERT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	ASSERT_EQ(0, mpc_disable(self->fd));
	close(self->fd);
	self->fd = -1;
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, delay_under_timeout_succeeds)
{
	uint64_t t0, dt;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "delay=300\n");
	t0 = mpc_now_ns();
	DUMP_OK(self, NULL, NULL);
	dt = mpc_now_ns() - t0;
	EXPECT_LE(300000000ULL, dt);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
}

TEST_F(mpc, delay_over_timeout_recovers)
{
	uint64_t s0, s1;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s0, NULL);
	ARM_FAULT(self, "delay=2000\n");
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	/*
	 * Wait past the moment the delayed sample was due: the recovery reset
	 * cancelled it, and nothing of it may reach the next dump.
	 */
	mpc_sleep_ms(1500);
	DUMP_OK(self, &s1, NULL);
	EXPECT_LT(s0, s1);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

TEST_F(mpc, stuck_clean_times_out_and_recovers)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ARM_FAULT(self, "stuck_clean\n");
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/* The cache clean of ENABLE never completes: the retry at once works. */
TEST_F(mpc, stuck_clean_at_enable_then_enable_works)
{
	ARM_FAULT(self, "stuck_clean\n");
	EXPECT_EQ(-ETIMEDOUT, mpc_enable_all(self->fd));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/* Arms stuck_clean again while a DUMP waits out the clean it got stuck. */
struct rearm {
	const char *dbg;
	int ret;
};

static void *rearm_stuck_clean(void *arg)
{
	struct rearm *r = arg;

	/* After that clean is stuck, well before the 1 s timeout ends */
	mpc_sleep_ms(400);
	r->ret = mpc_set_fault(r->dbg, "stuck_clean\n");
	return NULL;
}

/*
 * The recovery after a timeout fails too: the cache clean that restarts the
 * counters is stuck as well. The counters are then disabled: DUMP answers
 * -EIO, the next DUMP -ENODATA at once rather than after another timeout,
 * and a new ENABLE works.
 */
TEST_F(mpc, failed_recovery_disables_counters)
{
	struct rearm r = { .dbg = self->dbg, .ret = -1 };
	uint64_t t0;
	pthread_t th;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "stuck_clean\n");
	ASSERT_EQ(0, pthread_create(&th, NULL, rearm_stuck_clean, &r));
	EXPECT_EQ(-EIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, r.ret);
	EXPECT_EQ(2, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	t0 = mpc_now_ns();
	EXPECT_EQ(-ENODATA, mpc_dump(self->fd, self->buf,
				     self->info.dump_size, NULL, NULL));
	EXPECT_GT(500000000ULL, mpc_now_ns() - t0);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

TEST_F(mpc, gpu_fault_returns_enxio)
{
	uint64_t before = mpc_dbg_num(self->dbg, "perfcnt_stats", "gpu_faults");

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "gpu_fault\n");
	EXPECT_EQ(-ENXIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	EXPECT_EQ(before + 1,
		  mpc_dbg_num(self->dbg, "perfcnt_stats", "gpu_faults"));
}

TEST_F(mpc, gpu_fault_then_dump_works)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "gpu_fault\n");
	ASSERT_EQ(-ENXIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	/* The counters stay enabled after -ENXIO. */
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * The shader cores hang in their power-down when the counters stop: the
 * driver leaves the tiler and the L2 on (the cores need it), resets the
 * GPU, which powers every domain down, and the next session powers up and
 * counts. Without the reset the
 * cores stay in transition and the next ENABLE cannot power them up.
 */
TEST_F(mpc, stuck_power_down_resets_gpu)
{
	uint64_t resets;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	resets = mpc_dbg_num(self->dbg, "perfcnt_stats", "resets");
	ARM_FAULT(self, "stuck_power\n");
	mpc_klog_mark("stuck_power_down_resets_gpu");
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_TRUE(mpc_klog_has_since("stuck_power_down_resets_gpu",
				       "shader cores did not power down"));
	EXPECT_EQ(resets + 1, mpc_dbg_num(self->dbg, "perfcnt_stats", "resets"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "dead"));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * The GPU hangs on a sample and its soft reset no longer completes: the
 * recovery escalates to HARD_RESET, and the counters keep working.
 */
TEST_F(mpc, soft_reset_stuck_recovers_with_hard_reset)
{
	uint64_t s0, s1;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s0, NULL);
	ARM_FAULT(self, "soft_reset_stuck\n");
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "perfcnt_stats", "hard_resets"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "dead"));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	DUMP_OK(self, &s1, NULL);
	EXPECT_LT(s0, s1);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * The GPU stops answering altogether: no reset completes. The device is
 * marked dead, its dump and table pages are leaked rather than freed (the
 * GPU may still write them), and ENABLE and DUMP fail with -EIO at once.
 */
TEST_F(mpc, dead_gpu_leaks_pages_and_refuses)
{
	char pgtable[32];
	uint64_t t0;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ARM_FAULT(self, "dead\n");
	EXPECT_EQ(-EIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "dead"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	/*
	 * The dump pages, and with the builtin table writer the (at least
	 * four) table pages it counts; io-pgtable's are leaked uncounted.
	 */
	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "pgtable", pgtable, sizeof(pgtable)));
	EXPECT_LE((self->info.dump_size + 4095) / 4096 + (strcmp(pgtable, "builtin") ? 0 : 4),
		  mpc_dbg_num(self->dbg, "perfcnt_stats", "leaked_pages"));
	t0 = mpc_now_ns();
	EXPECT_EQ(-EIO, mpc_enable_all(self->fd));
	EXPECT_EQ(-EIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	/* Refused at once, not after another timeout */
	EXPECT_GT(500000000ULL, mpc_now_ns() - t0);
	/* Reviving the model does not revive the device: it stays dead */
	ARM_FAULT(self, "none\n");
	EXPECT_EQ(-EIO, mpc_enable_all(self->fd));
}

/*
 * The IRQ handler that saw a sample complete is held up (late_irq) past
 * the 1 s timeout. The recovery must not race it: the next DUMP returns
 * its own, newer sample, not the buffer as the last good dump left it.
 * (The recovery's own cache clean also waits behind the held-up handler
 * on this line, which protected the old code too; the MMU line below
 * had no such luck.)
 */
TEST_F(mpc, late_sample_irq_does_not_complete_next_dump)
{
	unsigned int jm = mpc_jm_slot(&self->info);
	uint64_t ts1, ts3;

	SKIP_ON_HW("late_irq stalls the simulator's interrupt handler");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "late_irq needs a second CPU for the held-up handler");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ts1 = mpc_block_ts(mpc_block(self->buf, jm));
	/*
	 * The handler resumes 1.5 s after the sample, 0.5 s after the timeout:
	 * a guest whose host is busy may wake the waiter a few hundred ms late,
	 * and the handler must not run before the waiter saw its timeout.
	 */
	ARM_FAULT(self, "late_irq=1500\n");
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	/*
	 * ... and the next sample lands 0.7 s after it was asked for (0.3 s
	 * under the timeout), after the late handler ran
	 */
	ARM_FAULT(self, "delay=700\n");
	DUMP_OK(self, NULL, NULL);
	ts3 = mpc_block_ts(mpc_block(self->buf, jm));
	EXPECT_LT(ts1, ts3) {
		TH_LOG("the DUMP returned the previous dump's data (header timestamp 0x%llx)",
		       (unsigned long long)ts3);
	}
}

/*
 * The same for the MMU line: the handler of the page fault that ended a
 * DUMP is held up past the timeout and the recovery (which remaps the
 * buffer). When it finally runs, it must not fail the next DUMP, which is
 * waiting for its own sample.
 */
TEST_F(mpc, late_fault_irq_does_not_fail_next_dump)
{
	unsigned int jm = mpc_jm_slot(&self->info);
	uint64_t ts1;

	SKIP_ON_HW("late_irq stalls the simulator's interrupt handler");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "late_irq needs a second CPU for the held-up handler");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ts1 = mpc_block_ts(mpc_block(self->buf, jm));
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_va", "unmap\n"));
	ARM_FAULT(self, "late_irq=1500\n");	/* as above */
	/* The fault's handler is stalled: the DUMP times out instead */
	EXPECT_EQ(-ETIMEDOUT, mpc_dump(self->fd, self->buf,
				       self->info.dump_size, NULL, NULL));
	ARM_FAULT(self, "delay=700\n");
	DUMP_OK(self, NULL, NULL);
	EXPECT_LT(ts1, mpc_block_ts(mpc_block(self->buf, jm)));
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * A probe that fails after powering the GPU up (pgtable=bogus fails in
 * mpc_mmu_init()) powers it down again: on a board a regulator left
 * enabled WARNs when it is put, and the clocks stay on. The simulator
 * keeps the same enable count and logs when it is left powered.
 */
TEST_F(mpc, probe_failure_powers_down)
{
	char params[512];

	SKIP_ON_HW("the simulator counts the power-ups");
	close(self->fd);
	self->fd = -1;
	self->dbg[0] = '\0';
	ASSERT_EQ(0, mpc_module_unload());
	snprintf(params, sizeof(params), "%s %s pgtable=bogus", variant->params,
		 mpc_extra_params());
	mpc_klog_mark("probe_failure_powers_down");
	EXPECT_GT(0, mpc_module_load(params));
	EXPECT_FALSE(mpc_module_loaded());
	EXPECT_FALSE(mpc_klog_has_since("probe_failure_powers_down", "left powered")) {
		TH_LOG("the failed probe left the simulated GPU powered (see dmesg)");
	}
}

/*
 * System suspend with the counters enabled. pm_test "platform" runs every
 * device phase, noirq included, in which the simulator's power domain is
 * switched off as genpd does on a SoC: the GPU loses all of its state. The
 * first DUMP after resume succeeds (the driver reprogrammed the GPU) and
 * its interval is marked as after a power loss.
 */
TEST_F(mpc, system_suspend_while_enabled)
{
	char states[128] = "";
	const char *state;
	uint64_t s0, s1;

	SKIP_ON_HW("the simulator's power domain cuts the GPU's power");
	state = mpc_sleep_state(states, sizeof(states));
	if (!state)
		SKIP(return, "no suspend state or no pm_test (CONFIG_PM_DEBUG): '%s'", states);

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &s0, NULL);
	ASSERT_EQ(0, mpc_system_sleep(state));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "perfcnt_stats", "power_losses"));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "power_lost"));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	/* Not a timeout: the GPU was programmed again at resume */
	DUMP_OK(self, &s1, NULL);
	EXPECT_LT(s0, s1);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "power_lost"));
}

/* A dump that fails leaves the caller's buffer exactly as it was. */
TEST_F(mpc, failed_dump_leaves_buffer_untouched)
{
	size_t i, changed = 0;

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	memset(self->buf, 0xa5, self->info.dump_size);
	ARM_FAULT(self, "gpu_fault\n");
	ASSERT_EQ(-ENXIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	for (i = 0; i < self->info.dump_size; i++)
		changed += ((unsigned char *)self->buf)[i] != 0xa5;
	EXPECT_EQ(0, changed);
}

TEST_F(mpc, unmapped_buffer_faults_enxio)
{
	uint64_t before = mpc_dbg_num(self->dbg, "perfcnt_stats", "mmu_faults");

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_va", "unmap\n"));
	EXPECT_EQ(-ENXIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	EXPECT_LT(before, mpc_dbg_num(self->dbg, "perfcnt_stats", "mmu_faults"));
}

TEST_F(mpc, unmapped_buffer_recovers_on_reenable)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_va", "unmap\n"));
	ASSERT_EQ(-ENXIO, mpc_dump(self->fd, self->buf, self->info.dump_size,
				 NULL, NULL));
	ASSERT_EQ(0, mpc_disable(self->fd));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * Sessions back to back at the same GPU address, within the autosuspend
 * delay, so no reset comes between them: the GPU's TLB still holds the
 * previous session's translation, to pages the driver has freed, unless
 * the driver flushed the address space before disabling it and before
 * programming it again. The model then reports the write (sim_reports)
 * and drops it, so the new buffer stays zero. Each session runs on another
 * CPU, so the page allocator does not hand the freed page straight back
 * (the stale translation would then happen to be right).
 */
TEST_F(mpc, reenable_same_va_flushes_tlb)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int k;
	cpu_set_t set;

	if (nr_cpus < 2)
		SKIP(return, "needs two CPUs to get new pages for each session");
	for (k = 0; k < 4; k++) {
		CPU_ZERO(&set);
		CPU_SET(k % 2, &set);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
		ASSERT_EQ(0, mpc_enable_all(self->fd));
		DUMP_OK(self, NULL, NULL);
		EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]) {
			TH_LOG("session %u: the dump did not reach the buffer", k);
		}
		ASSERT_EQ(0, mpc_disable(self->fd));
	}
	EXPECT_EQ(0, mpc_sim_reports(self));
}

/*
 * The address space is left "unmapped" at probe and after every disable.
 * In the legacy TRANSTAB format that is ADRMODE 0 (1 is reserved, its
 * effect undefined); on Bifrost and later TRANSCFG says UNMAPPED (1). The
 * model reports a reserved mode when AS_COMMAND_UPDATE latches it.
 */
TEST_F(mpc, as_disable_uses_unmapped_encodings)
{
	EXPECT_EQ(0, mpc_sim_reports(self)) {
		TH_LOG("the probe left the address space in a reserved mode");
	}
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(0, mpc_sim_reports(self)) {
		TH_LOG("disable left the address space in a reserved mode");
	}
}

/*
 * Power goes down in order, shader cores, tiler, then the L2, each after
 * the previous one finished its transition (PWRTRANS clear): the model's
 * transitions take time, and it reports an L2 powered off while cores are
 * still on. The counters then power up again from off.
 */
TEST_F(mpc, disable_powers_down_cores_before_l2)
{
	unsigned int k;

	for (k = 0; k < 3; k++) {
		ASSERT_EQ(0, mpc_enable_all(self->fd));
		DUMP_OK(self, NULL, NULL);
		EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
		ASSERT_EQ(0, mpc_disable(self->fd));
		EXPECT_EQ(0, mpc_sim_reports(self)) {
			TH_LOG("session %u: see dmesg for the model's report", k);
		}
	}
}

/* Low, and the last pages below the GPU's VA width (MMU_FEATURES). */
TEST_F(mpc, perfcnt_va_moves_buffer)
{
	char vas[2][32], val[64];
	unsigned int k;

	snprintf(vas[0], sizeof(vas[0]), "0x40000000");
	/* The highest place the whole buffer fits (a big GPU's is pages) */
	snprintf(vas[1], sizeof(vas[1]), "0x%llx",
		 (1ULL << mpc_va_bits(variant)) -
		 (((unsigned long long)self->info.dump_size + 0xfff) & ~0xfffULL));
	for (k = 0; k < ARRAY_SIZE(vas); k++) {
		ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_va", vas[k]));
		ASSERT_LT(0, mpc_dbg_read(self->dbg, "perfcnt_va", val,
					  sizeof(val)));
		EXPECT_EQ(strtoull(vas[k], NULL, 0), strtoull(val, NULL, 0));
		ASSERT_EQ(0, mpc_enable_all(self->fd));
		DUMP_OK(self, NULL, NULL);
		EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]) {
			TH_LOG("buffer at %s", vas[k]);
		}
		ASSERT_EQ(0, mpc_disable(self->fd));
	}
}

/*
 * At a GPU address whose translation uses other tables than the default's
 * at every level (index 1 at each of the four, or of the three below level
 * 0 when the GPU has fewer than 40 VA bits), the dumps hold the counts of
 * their own interval: the simulator found the buffer by walking the new
 * tables, not at a stale or identity-mapped place.
 */
TEST_F(mpc, perfcnt_va_moved_buffer_counts_load)
{
	const char *va = mpc_va_bits(variant) >= 40 ? "0x8040201000" : "0x40201000";
	double r;

	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_va", va));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ASSERT_EQ(0, measure_load(self, variant, 50, 300, &r));
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
	EXPECT_TRUE(r >= 0.475 && r <= 0.525) {
		TH_LOG("GPU_ACTIVE ratio %.4f at busy=50 with the buffer at %s",
		       r, va);
	}
}

TEST_F(mpc, sim_fault_reads_back)
{
	char val[64];

	ASSERT_LT(0, mpc_show_fault(self->dbg, val, sizeof(val)));
	EXPECT_EQ(0, strncmp(val, "none", 4));
	ARM_FAULT(self, "delay=100\n");
	ASSERT_LT(0, mpc_show_fault(self->dbg, val, sizeof(val)));
	EXPECT_EQ(0, strncmp(val, "delay", 5)) {
		TH_LOG("sim_fault reads '%s'", val);
	}
	/* One-shot: consumed by the next sample. */
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ASSERT_LT(0, mpc_show_fault(self->dbg, val, sizeof(val)));
	EXPECT_EQ(0, strncmp(val, "none", 4));
}

TEST_F(mpc, sim_fault_none_disarms)
{
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	ARM_FAULT(self, "gpu_fault\n");
	ARM_FAULT(self, "none\n");
	DUMP_OK(self, NULL, NULL);
}

/*
 * A host that resets the GPU for its own reasons (a render driver's job
 * timeout) tells the core (mpc_perfcnt_host_reset()): enabled counters are
 * restarted, and the next sample says what the counters held was lost.
 */
TEST_F(mpc, host_reset_restarts_counters)
{
	struct drm_mali_perfcnt_dump d = { 0 };

	SKIP_ON_HW("host_reset is a hook of the simulator builds");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "host_reset", "1\n"));
	EXPECT_EQ(1, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	d.buf_ptr = (uintptr_t)self->buf;
	d.buf_size = self->info.dump_size;
	ASSERT_EQ(0, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(MALI_PERFCNT_DATA_AFTER_RECOVERY,
		  d.data_flags & MALI_PERFCNT_DATA_AFTER_RECOVERY) {
		TH_LOG("data_flags 0x%x after the host's reset", d.data_flags);
	}
	/* Programmed again: not a timeout, and the masks hold */
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
	ASSERT_EQ(0, mpc_dump_raw(self->fd, &d));
	EXPECT_EQ(0, d.data_flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
}

TEST_F(mpc, host_reset_while_disabled_then_enable_works)
{
	SKIP_ON_HW("host_reset is a hook of the simulator builds");
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "host_reset", "1\n"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "gpu_info", "enabled"));
	EXPECT_EQ(0, mpc_dbg_num(self->dbg, "perfcnt_stats", "timeouts"));
	ASSERT_DEVICE_WORKS(self);
}

TEST_F(mpc, stats_count_samples)
{
	uint64_t before = mpc_dbg_num(self->dbg, "perfcnt_stats", "samples");
	unsigned int k;

	ASSERT_NE(~0ULL, before);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	for (k = 0; k < 5; k++)
		DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(before + 5,
		  mpc_dbg_num(self->dbg, "perfcnt_stats", "samples"));
}

/*
 * The simulator's bus is non-coherent (kernel/sim/mpc_sim.c, "the bus"):
 * the GPU reads and writes a shadow of each DMA range, as memory behind a
 * CPU cache, and the driver's dma_sync calls move the data. So each dump
 * of several in a row, the load switched between idle and busy=100 each
 * time, is the new sample only if the driver synced for the CPU after it
 * (else it reads zeros or an older sample), and the model reports a GPU
 * write before the driver synced for the device (sim_dma_errors, which
 * sim_reports includes).
 */
static long long sim_dbg_num(FIXTURE_DATA(mpc) *self, const char *file)
{
	char val[32];

	if (mpc_dbg_read(self->dbg, file, val, sizeof(val)) <= 0)
		return -1;
	return strtoll(val, NULL, 10);
}

TEST_F(mpc, dumps_fresh_on_noncoherent_bus)
{
	unsigned int jm = mpc_jm_slot(&self->info), k, nr = 8;
	uint64_t seq, prev_seq, ts, prev_ts, hdr, prev_hdr;
	long long syncs, errors;
	double r;

	SKIP_ON_HW("the QEMU GPU's memory is the CPU's; only the simulator models the syncs");
	syncs = sim_dbg_num(self, "sim_dma_syncs");
	errors = sim_dbg_num(self, "sim_dma_errors");
#ifndef __x86_64__
	if (syncs < 0)
		SKIP(return, "this kernel has no DMA ops for the simulator's DMA model");
#endif
	ASSERT_LE(0, syncs);
	ASSERT_LE(0, errors);

	SET_LOAD(self, "idle\n");
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, &prev_seq, &prev_ts);
	prev_hdr = mpc_block_ts(mpc_block(self->buf, jm));
	for (k = 0; k < nr; k++) {
		bool busy = k & 1;

		SET_LOAD(self, busy ? "busy=100\n" : "idle\n");
		/* long against the time a starved guest takes to switch the load */
		mpc_sleep_ms(150);
		DUMP_OK(self, &seq, &ts);
		hdr = mpc_block_ts(mpc_block(self->buf, jm));
		r = active_ratio(self, variant, ts - prev_ts);
		EXPECT_LT(prev_seq, seq);
		/* The GPU's own header: a stale buffer repeats it or is zero */
		EXPECT_EQ(0xffffu, mpc_block(self->buf, jm)[MPC_HDR_MASK]) {
			TH_LOG("dump %u: enable mask 0x%x in the header", k,
			       mpc_block(self->buf, jm)[MPC_HDR_MASK]);
		}
		EXPECT_LT(prev_hdr, hdr) {
			TH_LOG("dump %u: header timestamp %llu after %llu", k,
			       (unsigned long long)hdr, (unsigned long long)prev_hdr);
		}
		/*
		 * The counters of this interval's load, not of the last one:
		 * the load switched after the last sample (ratio 1 or 0 but
		 * for the time it took), so a stale dump is on the wrong side
		 */
		EXPECT_TRUE(busy ? r > 0.5 : r < 0.5) {
			TH_LOG("dump %u: GPU_ACTIVE ratio %.4f at %s", k, r,
			       busy ? "busy=100" : "idle");
		}
		prev_seq = seq;
		prev_ts = ts;
		prev_hdr = hdr;
	}
	/* for_device before and for_cpu after each of the nr + 1 samples */
	EXPECT_LE(syncs + 2 * (nr + 1), sim_dbg_num(self, "sim_dma_syncs"));
	EXPECT_EQ(errors, sim_dbg_num(self, "sim_dma_errors"));
	EXPECT_EQ(0, mpc_sim_reports(self));
}

/* 9. The address space the GPU writes the dump through */

/*
 * gpu_info names the translation table writer (struct mpc_vm_backend) the
 * driver picked: io-pgtable on arm64, builtin on x86_64, or the one
 * MPC_MODULE_PARAMS forces. The fault and perfcnt_va tests above then prove
 * that writer's tables: the simulator walks them to find the buffer.
 */
TEST_F(mpc, pgtable_backend_matches_arch)
{
	const char *want = mpc_expected_pgtable();
	char val[64];

	ASSERT_EQ(0, mpc_dbg_key(self->dbg, "gpu_info", "pgtable", val,
				 sizeof(val)));
	EXPECT_STREQ(want, val) {
		TH_LOG("gpu_info pgtable: %s, want %s (MPC_MODULE_PARAMS '%s')",
		       val, want, mpc_extra_params());
	}
}

/*
 * Unbinding the device while a file owns the counters: the owner loses them
 * (the GPU goes away), its open file answers -ENODEV instead of touching the
 * hardware, and a new bind starts afresh.
 */
TEST_F(mpc, unbind_while_enabled)
{
	static const char drv[] = "/sys/bus/platform/drivers/mali_perfcnt";
	const char *dev = mpc_device_name();

	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	ASSERT_EQ(0, mpc_dbg_write(drv, "unbind", dev));
	EXPECT_EQ(-ENODEV, mpc_dump(self->fd, self->buf, self->info.dump_size,
				    NULL, NULL));
	EXPECT_EQ(-ENODEV, mpc_enable_all(self->fd));
	close(self->fd);
	self->fd = -1;

	ASSERT_EQ(0, mpc_dbg_write(drv, "bind", dev));
	self->fd = mpc_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

/*
 * debugfs files still open when the device is unbound: reads fail, and
 * closing them afterwards must not touch the freed device (the debug
 * kernel's KASAN reports it if it does; make check-debug scans for that).
 */
TEST_F(mpc, debugfs_files_closed_after_unbind)
{
	static const char drv[] = "/sys/bus/platform/drivers/mali_perfcnt";
	const char *dev = mpc_device_name();
	static const char * const files[] = {
		"perfcnt_dump", "perfcnt_counters", "gpu_info", "perfcnt_stats",
		"perfcnt_enable", "perfcnt_va",
	};
	int fds[6], read_fd, i;
	char path[PATH_MAX], c;

	/* One file has its sample already, the others none yet */
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "perfcnt_enable", "1\n"));
	snprintf(path, sizeof(path), "%s/perfcnt_dump", self->dbg);
	read_fd = open(path, O_RDONLY);
	ASSERT_LE(0, read_fd);
	ASSERT_EQ(1, read(read_fd, &c, 1));
	for (i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "%s/%s", self->dbg, files[i]);
		fds[i] = open(path, O_RDONLY);
		ASSERT_LE(0, fds[i]) {
			TH_LOG("open %s: %s", path, strerror(errno));
		}
	}
	close(self->fd);
	self->fd = -1;

	ASSERT_EQ(0, mpc_dbg_write(drv, "unbind", dev));
	EXPECT_GT(0, read(read_fd, &c, 1));
	for (i = 0; i < 6; i++) {
		const char *name = files[i];

		EXPECT_GT(0, read(fds[i], &c, 1)) {
			TH_LOG("%s read after unbind", name);
		}
	}
	for (i = 0; i < 6; i++)
		close(fds[i]);
	close(read_fd);

	ASSERT_EQ(0, mpc_dbg_write(drv, "bind", dev));
	self->fd = mpc_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, mpc_find_debugfs(self->dbg, sizeof(self->dbg)));
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	DUMP_OK(self, NULL, NULL);
	EXPECT_EQ(0xffff, JM(self)[MPC_HDR_MASK]);
}

TEST_HARNESS_MAIN
