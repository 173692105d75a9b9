// SPDX-License-Identifier: MIT
/*
 * mpc-kbprobe: how a /dev/mali<N> answers wrong use of kbase's counter
 * uAPI, checked ioctl by ioctl against the public facts (lib/kbase_uapi.h),
 * as TAP. It runs against the host tests' shim (tests/kbshim.c) and, in a
 * guest, against the test-only kbase double, so that both are held to the
 * same reading of the uAPI; then the library's kbase backend on the same
 * node (its own refusals of a short period and a wrong set).
 *
 *   mpc-kbprobe [/dev/mali0]
 *
 * Exit status 0 when every check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "maliperfcnt.h"
#include "kbase_uapi.h"

static unsigned n_test, n_fail;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", cond ? "ok" : "not ok", ++n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	n_fail += !cond;
}

/* the errno of an ioctl, 0 on success */
static int err_of(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? errno : 0;
}

static int csf, major, minor;

static int kinstr(void)
{
	return csf ? minor >= 17 || major > 1 : minor >= 37 || major > 11;
}

static int legacy(void)
{
	return csf ? major == 1 && minor < 21 : major == 11 && minor < 40;
}

/* a kinstr session: MODE + one ENABLE of @type (set @set) + NONE; the reader fd or -errno */
static int setup(int fd, unsigned mode, uint64_t period, unsigned type, unsigned set, int none,
		 union mpc_kb_prfcnt_setup *out)
{
	struct mpc_kb_request_item r[3];
	union mpc_kb_prfcnt_setup s;
	int x;

	memset(r, 0, sizeof(r));
	r[0].hdr.item_type = MPC_KB_REQ_MODE;
	r[0].u.mode.mode = (uint8_t)mode;
	r[0].u.mode.period_ns = period;
	r[1].hdr.item_type = MPC_KB_REQ_ENABLE;
	r[1].u.enable.block_type = (uint8_t)type;
	r[1].u.enable.set = (uint8_t)set;
	r[1].u.enable.enable_mask[0] = ~0ull;
	if (!none)
		r[2].hdr.item_type = MPC_KB_REQ_ENABLE;	/* no NONE at the end */
	memset(&s, 0, sizeof(s));
	s.in.request_item_count = 3;
	s.in.request_item_size = sizeof(r[0]);
	s.in.requests_ptr = (uint64_t)(uintptr_t)r;
	x = ioctl(fd, MPC_KB_IOCTL_PRFCNT_SETUP, &s);
	if (out)
		*out = s;
	return x < 0 ? -errno : x;
}

static int cmd(int rfd, unsigned c)
{
	struct mpc_kb_control_cmd k;

	memset(&k, 0, sizeof(k));
	k.cmd = (uint16_t)c;
	return err_of(rfd, MPC_KB_PRFCNT_CMD, &k);
}

static void probe_kinstr(int fd)
{
	struct mpc_kb_prfcnt_enum_info q = { 0, 0, 0 };
	struct mpc_kb_sample_access a, b;
	union mpc_kb_prfcnt_setup out;
	unsigned set = 0;
	struct pollfd p;
	void *map;
	int rfd;

	ok(!err_of(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q) && q.info_item_size == 32 &&
	   q.info_item_count > 1, "ENUM_INFO without a list: %u items of %u bytes",
	   q.info_item_count, q.info_item_size);
	{
		struct mpc_kb_enum_item *it = calloc(q.info_item_count + 1, 32);
		uint32_t cnt = q.info_item_count;

		q.info_list_ptr = (uint64_t)(uintptr_t)it;
		q.info_item_count = cnt + 1;
		ok(err_of(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q) == EINVAL,
		   "ENUM_INFO with a wrong count: EINVAL");
		q.info_item_count = cnt;
		ok(it && !err_of(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q) &&
		   it[cnt - 1].hdr.item_type == MPC_KB_ITEM_NONE,
		   "ENUM_INFO: the list ends with a NONE item");
		for (unsigned i = 0; it && i + 1 < cnt; i++)
			if (it[i].hdr.item_type == MPC_KB_ENUM_BLOCK &&
			    it[i].u.block.block_type == MPC_KB_BLOCK_SHADER)
				set = it[i].u.block.set;
		free(it);
	}
	ok(setup(fd, MPC_KB_MODE_MANUAL, 0, MPC_KB_BLOCK_SHADER, set, 0, NULL) == -EINVAL,
	   "SETUP whose list does not end with NONE: EINVAL");
	ok(setup(fd, MPC_KB_MODE_MANUAL, 0, MPC_KB_BLOCK_SHADER, set + 1, 1, NULL) == -EINVAL,
	   "SETUP of a set other than the build's: EINVAL");
	if (!csf)
		ok(setup(fd, MPC_KB_MODE_MANUAL, 0, MPC_KB_BLOCK_FW, set, 1, NULL) == -EINVAL,
		   "SETUP enabling the firmware block on a JM GPU (it has none): EINVAL");
	ok(setup(fd, MPC_KB_MODE_MANUAL, 0, 200, set, 1, NULL) == -EINVAL,
	   "SETUP of a block type the GPU lacks: EINVAL");
	ok(setup(fd, 7, 0, MPC_KB_BLOCK_SHADER, set, 1, NULL) == -EINVAL,
	   "SETUP of an unknown mode: EINVAL");
	rfd = setup(fd, MPC_KB_MODE_MANUAL, 0, MPC_KB_BLOCK_SHADER, set, 1, &out);
	ok(rfd >= 0 && out.out.prfcnt_metadata_item_size == 48 && out.out.prfcnt_mmap_size_bytes,
	   "SETUP manual: a reader fd, 48-byte metadata, a %u-byte buffer",
	   rfd >= 0 ? out.out.prfcnt_mmap_size_bytes : 0);
	if (rfd < 0)
		return;
	map = mmap(NULL, out.out.prfcnt_mmap_size_bytes, PROT_READ, MAP_SHARED, rfd, 0);
	ok(map != MAP_FAILED, "the sample buffer maps read-only");
	ok(cmd(rfd, MPC_KB_CMD_SAMPLE_SYNC) == EINVAL, "SAMPLE_SYNC before START: EINVAL");
	ok(cmd(rfd, MPC_KB_CMD_STOP) == EINVAL, "STOP before START: EINVAL");
	ok(cmd(rfd, 4) == EINVAL, "SAMPLE_ASYNC (4): EINVAL");
	ok(cmd(rfd, 99) == EINVAL, "an unknown command: EINVAL");
	memset(&a, 0, sizeof(a));
	ok(err_of(rfd, MPC_KB_PRFCNT_GET_SAMPLE, &a) == EINVAL, "GET_SAMPLE with none: EINVAL");
	ok(!cmd(rfd, MPC_KB_CMD_START) && !cmd(rfd, MPC_KB_CMD_START),
	   "START, and START again (a no-op)");
	ok(!cmd(rfd, MPC_KB_CMD_SAMPLE_SYNC) && !cmd(rfd, MPC_KB_CMD_SAMPLE_SYNC),
	   "two SAMPLE_SYNCs");
	p.fd = rfd;
	p.events = POLLIN;
	ok(poll(&p, 1, 2000) == 1 && (p.revents & POLLIN), "poll: POLLIN with samples ready");
	ok(!err_of(rfd, MPC_KB_PRFCNT_GET_SAMPLE, &a), "GET_SAMPLE: seq %llu at %llu",
	   (unsigned long long)a.sequence, (unsigned long long)a.sample_offset_bytes);
	ok(err_of(rfd, MPC_KB_PRFCNT_GET_SAMPLE, &b) == EBUSY,
	   "GET_SAMPLE before the last was put back: EBUSY");
	b = a;
	b.sequence++;
	ok(err_of(rfd, MPC_KB_PRFCNT_PUT_SAMPLE, &b) == EINVAL, "PUT_SAMPLE of another seq: EINVAL");
	ok(!err_of(rfd, MPC_KB_PRFCNT_PUT_SAMPLE, &a), "PUT_SAMPLE echoing seq and offset");
	ok(err_of(rfd, 0x8004BF7F, &a) == EINVAL, "an unknown reader ioctl: EINVAL");
	ok(!cmd(rfd, MPC_KB_CMD_STOP), "STOP");
	if (map != MAP_FAILED)
		munmap(map, out.out.prfcnt_mmap_size_bytes);
	close(rfd);

	/* periodic below the minimum: raised to 100 us */
	rfd = setup(fd, MPC_KB_MODE_PERIODIC, 1000, MPC_KB_BLOCK_SHADER, set, 1, &out);
	ok(rfd >= 0, "SETUP periodic every 1 us: accepted (kbase raises it)");
	if (rfd >= 0) {
		uint64_t t0 = 0, t1 = 0, n = 0, first = 0, last = 0;

		map = mmap(NULL, out.out.prfcnt_mmap_size_bytes, PROT_READ, MAP_SHARED, rfd, 0);
		ok(!cmd(rfd, MPC_KB_CMD_START), "START periodic");
		ok(cmd(rfd, MPC_KB_CMD_SAMPLE_SYNC) == EINVAL, "SAMPLE_SYNC in a periodic session: EINVAL");
		while (n < 10 && map != MAP_FAILED) {
			const struct mpc_kb_metadata *m;

			p.fd = rfd;
			p.events = POLLIN;
			if (poll(&p, 1, 2000) != 1 || err_of(rfd, MPC_KB_PRFCNT_GET_SAMPLE, &a))
				break;
			m = (const void *)((const char *)map + a.sample_offset_bytes);
			t0 = m->u.sample.timestamp_start;
			t1 = m->u.sample.timestamp_end;
			if (!n)
				first = t0;
			last = t1;
			err_of(rfd, MPC_KB_PRFCNT_PUT_SAMPLE, &a);
			n++;
		}
		(void)t0;
		ok(n == 10 && last - first >= 10 * MPC_KB_PRFCNT_MIN_PERIOD_NS - 1000,
		   "10 periodic samples span %llu ns: at least 100 us apart",
		   (unsigned long long)(last - first));
		cmd(rfd, MPC_KB_CMD_STOP);
		if (map != MAP_FAILED)
			munmap(map, out.out.prfcnt_mmap_size_bytes);
		close(rfd);
	}
}

static void probe_legacy(int fd, int has_ctx)
{
	struct mpc_kb_hwcnt_reader_setup s = { 0, ~0u, ~0u, ~0u, ~0u };
	uint32_t v = 0;
	int rfd;

	if (!has_ctx) {
		s.buffer_count = 4;
		ok(err_of(fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s) == EPERM,
		   "HWCNT_READER_SETUP before a context: EPERM");
		return;
	}
	s.buffer_count = 3;
	ok(err_of(fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s) == EINVAL,
	   "HWCNT_READER_SETUP of 3 buffers (not a power of 2): EINVAL");
	s.buffer_count = 64;
	ok(err_of(fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s) == EINVAL,
	   "HWCNT_READER_SETUP of 64 buffers: EINVAL");
	s.buffer_count = 4;
	rfd = ioctl(fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s);
	ok(rfd >= 0, "HWCNT_READER_SETUP of 4 buffers: a reader fd");
	if (rfd < 0)
		return;
	ok(!err_of(rfd, MPC_KB_READER_GET_HWVER, &v) && v == 5, "GET_HWVER: %u", v);
	ok(!err_of(rfd, MPC_KB_READER_GET_BUFFER_SIZE, &v) && v && v % 256 == 0,
	   "GET_BUFFER_SIZE: %u", v);
	{
		struct mpc_kb_reader_metadata m;

		ok(err_of(rfd, MPC_KB_READER_GET_BUFFER, &m) != 0, "GET_BUFFER with none fails");
	}
	ok(err_of(rfd, 0x8004BE7F, &v) == EINVAL, "an unknown reader ioctl: EINVAL");
	close(rfd);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/mali0";
	struct mpc_kb_version_check vc = { 0, 0 };
	struct mpc_kb_set_flags fl;
	uint32_t junk[4] = { 0 };
	int fd = open(path, O_RDWR | O_CLOEXEC);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fd < 0) {
		printf("Bail out! cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!err_of(fd, MPC_KB_IOCTL_VERSION_CHECK_JM, &vc) && vc.major) {
		csf = 0;
	} else {
		memset(&vc, 0, sizeof(vc));
		if (err_of(fd, MPC_KB_IOCTL_VERSION_CHECK_CSF, &vc) || !vc.major) {
			printf("Bail out! %s answers neither version check\n", path);
			return 1;
		}
		csf = 1;
	}
	major = vc.major;
	minor = vc.minor;
	printf("# %s: kbase %s %d.%d\n", path, csf ? "CSF" : "JM", major, minor);
	{
		struct mpc_kb_version_check o = { 0, 0 };

		ok(err_of(fd, csf ? MPC_KB_IOCTL_VERSION_CHECK_JM : MPC_KB_IOCTL_VERSION_CHECK_CSF,
			  &o) == EPERM, "the other numbering's VERSION_CHECK: EPERM");
		o.major = (uint16_t)major;
		o.minor = 0;
		ok(!err_of(fd, csf ? MPC_KB_IOCTL_VERSION_CHECK_CSF : MPC_KB_IOCTL_VERSION_CHECK_JM,
			   &o) && o.major == major && o.minor == 0,
		   "VERSION_CHECK {%d, 0}: the lower minor back", major);
	}
	ok(err_of(fd, _IOW(MPC_KB_IOC, 250, uint32_t), junk) == EPERM,
	   "an ioctl past the context gate, before a context: EPERM");
	{
		struct mpc_kb_get_gpuprops g = { 0, 0, 1 };

		ok(err_of(fd, MPC_KB_IOCTL_GET_GPUPROPS, &g) == EINVAL, "GET_GPUPROPS flags 1: EINVAL");
	}
	probe_legacy(fd, 0);
	fl.create_flags = 1u << 31;
	ok(err_of(fd, MPC_KB_IOCTL_SET_FLAGS, &fl) == EINVAL, "SET_FLAGS with an unknown flag: EINVAL");
	fl.create_flags = MPC_KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED;
	ok(!err_of(fd, MPC_KB_IOCTL_SET_FLAGS, &fl), "SET_FLAGS: a context");
	ok(err_of(fd, _IOW(MPC_KB_IOC, 250, uint32_t), junk) == ENOTTY,
	   "an unknown ioctl with a context: ENOTTY");
	if (legacy()) {
		probe_legacy(fd, 1);
	} else {
		struct mpc_kb_hwcnt_reader_setup s = { 4, ~0u, ~0u, ~0u, ~0u };

		ok(err_of(fd, MPC_KB_IOCTL_HWCNT_READER_SETUP, &s) == ENOTTY,
		   "no legacy reader in %d.%d: HWCNT_READER_SETUP is ENOTTY", major, minor);
	}
	if (kinstr())
		probe_kinstr(fd);
	else {
		struct mpc_kb_prfcnt_enum_info q = { 0, 0, 0 };

		ok(err_of(fd, MPC_KB_IOCTL_PRFCNT_ENUM_INFO, &q) == ENOTTY,
		   "no kinstr_prfcnt in %d.%d: ENOTTY", major, minor);
	}
	close(fd);

	/* the backend's own refusals, on the same node */
	{
		struct mpc_dev *d;
		struct mpc_err e;
		struct mpc_enable en = { 1, 0, 0, 0, 0, 0 };

		if (mpc_dev_open_backend("kbase", path, MPC_OPEN_NO_LOAD, &d, &e)) {
			ok(0, "the kbase backend opens %s: %s", path, e.msg);
		} else {
			ok(mpc_dev_stream_start(d, NULL, 50000, 32, &e) == -EINVAL &&
			   strstr(e.msg, "at most every 0.1 ms"),
			   "backend: a 50 us period refused: %s", e.msg);
			ok(mpc_dev_enable(d, &en, &e) == -EINVAL && strstr(e.msg, "set"),
			   "backend: set 1 refused: %s", e.msg);
			mpc_dev_close(d);
		}
	}
	printf("1..%u\n", n_test);
	return n_fail ? 1 : 0;
}
