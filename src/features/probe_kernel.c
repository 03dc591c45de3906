// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_kernel - the rows of the bring-up commands: MDWE, capabilities,
 * DAMON, pata_parport, memfd, and what rtla dhry needs.
 *
 * DAMON is only read: a kdamond's files are looked at, never written (the
 * machine's own kdamond may be running). The syscall probes run in a child
 * (child.c) so that rtla itself is not changed by them.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "features/child.h"
#include "features/features.h"
#include "sysroot.h"

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_GET_MDWE 66
#endif
#define MDWE_REFUSE_EXEC_GAIN	(1UL << 0)
#define MDWE_NO_INHERIT		(1UL << 1)

/* ---- MDWE ---- */

struct mdwe_answer {
	int before;		/* PR_GET_MDWE before setting, or -errno */
	int set_err;		/* PR_SET_MDWE: 0 or errno */
	int after;		/* PR_GET_MDWE after */
	int mmap_err;		/* mmap(PROT_WRITE|PROT_EXEC) afterwards: 0 or errno */
};

static int mdwe_child(void *out, void *arg)
{
	struct mdwe_answer *a = out;
	unsigned long bits = *(unsigned long *)arg;
	void *p;

	a->before = prctl(PR_GET_MDWE, 0, 0, 0, 0);
	if (a->before < 0)
		a->before = -errno;
	a->set_err = prctl(PR_SET_MDWE, bits, 0, 0, 0) ? errno : 0;
	a->after = prctl(PR_GET_MDWE, 0, 0, 0, 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	a->mmap_err = p == MAP_FAILED ? errno : 0;
	return 0;
}

static void mdwe_probe(struct feat_ctx *ctx, struct feat_result *r, unsigned long bits)
{
	struct mdwe_answer a;
	int ret;

	if (feat_live_only(ctx, r, "prctl(PR_SET_MDWE) in a child process"))
		return;
	ret = feat_run_child(mdwe_child, &bits, &a, sizeof(a), 5000);
	if (ret) {
		feat_set(r, FEAT_UNKNOWN, "the probe child failed: %s", strerror(-ret));
		return;
	}
	if (!a.set_err) {
		feat_set(r, FEAT_YES, "child: PR_SET_MDWE(%lu) = 0, PR_GET_MDWE = %d, "
			 "mmap(W|X) then %s", bits, a.after, a.mmap_err ? strerror(a.mmap_err) :
			 "succeeded (not enforced)");
		if (!a.mmap_err)
			r->state = FEAT_PARTIAL;
	} else if (a.set_err == EPERM && a.before > 0) {
		/* inherited from whoever started rtla: set, and cannot change */
		feat_set(r, (a.before & bits) == bits ? FEAT_YES : FEAT_UNKNOWN,
			 "rtla runs under MDWE already (PR_GET_MDWE = %d); PR_SET_MDWE(%lu): EPERM",
			 a.before, bits);
	} else {
		feat_set(r, a.set_err == EINVAL ? FEAT_NO : FEAT_UNKNOWN,
			 "child: PR_SET_MDWE(%lu): %s", bits, strerror(a.set_err));
	}
}

static void probe_mdwe(struct feat_ctx *ctx, struct feat_result *r)
{
	mdwe_probe(ctx, r, MDWE_REFUSE_EXEC_GAIN);
}

static void probe_mdwe_no_inherit(struct feat_ctx *ctx, struct feat_result *r)
{
	mdwe_probe(ctx, r, MDWE_REFUSE_EXEC_GAIN | MDWE_NO_INHERIT);
}

const struct feat_def feat_mdwe[] = {
	{ "mdwe", "PR_SET_MDWE", "6.3", "mdwe", probe_mdwe, NULL },
	{ "mdwe", "PR_MDWE_NO_INHERIT", "6.6", "mdwe", probe_mdwe_no_inherit, NULL },
	{ 0 },
};

/* ---- capabilities ---- */

static void probe_cap_last_cap(struct feat_ctx *ctx, struct feat_result *r)
{
	long long v;
	int ret = sysroot_read_ll("/proc/sys/kernel/cap_last_cap", &v);

	if (ret)
		feat_set(r, ret == -ENOENT ? FEAT_NO : FEAT_UNKNOWN,
			 "/proc/sys/kernel/cap_last_cap: %s", strerror(-ret));
	else
		feat_set(r, FEAT_YES, "/proc/sys/kernel/cap_last_cap: %lld", v);
}

/* Does any capability set of the process in STATUS have a bit above 31? */
static bool high_bits(const char *status, char *which, size_t len)
{
	static const char *const sets[] = { "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:" };

	for (size_t i = 0; i < 5; i++) {
		const char *p = strstr(status, sets[i]);

		if (p && strtoull(p + 7, NULL, 16) >> 32) {
			snprintf(which, len, "%.6s %.16s", sets[i], p + 8);
			return true;
		}
	}
	return false;
}

static void probe_cap_u64(struct feat_ctx *ctx, struct feat_result *r)
{
	char status[4096], which[32], first[320] = "";
	int nprocs = 0, nhigh = 0;
	long first_pid = 0;
	struct dirent *de;
	DIR *d = sysroot_opendir("/proc");

	if (!d) {
		feat_set(r, FEAT_UNKNOWN, "/proc: %s", strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (sysroot_readf(status, sizeof(status), "/proc/%s/status", de->d_name) <= 0 ||
		    !strstr(status, "CapBnd:"))
			continue;
		nprocs++;
		if (!high_bits(status, which, sizeof(which)))
			continue;
		/* the lowest PID, so that a captured tree reads as the live one */
		if (!nhigh++ || atol(de->d_name) < first_pid) {
			first_pid = atol(de->d_name);
			snprintf(first, sizeof(first), "pid %s %s", de->d_name, which);
		}
	}
	closedir(d);
	if (!nprocs)
		feat_set(r, FEAT_UNKNOWN, "no /proc/PID/status with capability sets");
	else if (nhigh)
		feat_set(r, FEAT_YES, "%d of %d processes have bits above 31 (first: %s)", nhigh,
			 nprocs, first);
	else
		feat_set(r, FEAT_NO, "none of %d processes has a bit above 31 in any set", nprocs);
}

/* v3 security.capability: 24 bytes, revision 3, rootid last (little-endian). */
static const unsigned char fcap_v3[24] = {
	0x00, 0x00, 0x00, 0x03,	/* magic_etc: VFS_CAP_REVISION_3 */
	0x00, 0x20, 0x00, 0x00,	/* permitted low: cap_net_raw */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xe8, 0x03, 0x00, 0x00,	/* rootid 1000 */
};

struct fcap_answer {
	int err;		/* errno of the failing step, 0 */
	char step[16];
	int len;		/* of the value read back */
	unsigned char val[24];
};

/* In a private tmpfs no one else sees, write a v3 value and read it back. */
static int fcap_child(void *out, void *arg)
{
	struct fcap_answer *a = out;
	const char *step = "mount", *tmp;
	char file[64];
	ssize_t n;
	int fd;

	tmp = feat_private_tmp();
	if (!tmp)
		goto fail;
	snprintf(file, sizeof(file), "%s/v3", tmp);
	step = "create";
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		goto fail;
	close(fd);
	step = "setxattr";
	if (setxattr(file, "security.capability", fcap_v3, sizeof(fcap_v3), 0))
		goto fail;
	step = "getxattr";
	n = getxattr(file, "security.capability", a->val, sizeof(a->val));
	if (n < 0)
		goto fail;
	a->len = n;
	return 0;
fail:
	a->err = errno;
	snprintf(a->step, sizeof(a->step), "%s", step);
	return 0;
}

static void probe_fcap_v3(struct feat_ctx *ctx, struct feat_result *r)
{
	struct fcap_answer a = { 0 };
	int ret;

	if (feat_live_only(ctx, r, "setxattr of a v3 security.capability on a private tmpfs"))
		return;
	ret = feat_run_child(fcap_child, NULL, &a, sizeof(a), 5000);
	if (ret) {
		feat_set(r, FEAT_UNKNOWN, "the probe child failed: %s", strerror(-ret));
	} else if (a.err == EPERM) {
		feat_set(r, FEAT_UNKNOWN, "%s: EPERM (needs CAP_SYS_ADMIN and CAP_SETFCAP)", a.step);
	} else if (a.err == EINVAL && !strcmp(a.step, "setxattr")) {
		feat_set(r, FEAT_NO, "setxattr(security.capability, v3): EINVAL");
	} else if (a.err) {
		feat_set(r, FEAT_UNKNOWN, "%s on a private tmpfs: %s", a.step, strerror(a.err));
	} else if (a.len == 24 && a.val[3] == 3) {
		feat_set(r, FEAT_YES, "a v3 value with rootid %u written and read back on a "
			 "private tmpfs", a.val[20] | a.val[21] << 8 | a.val[22] << 16 |
			 (unsigned)a.val[23] << 24);
	} else {
		feat_set(r, FEAT_PARTIAL, "v3 written, read back as %d bytes, revision %d", a.len,
			 a.len >= 4 ? a.val[3] : 0);
	}
}

const struct feat_def feat_caps[] = {
	{ "caps", "cap_last_cap", "3.2", "capdump", probe_cap_last_cap, NULL },
	{ "caps", "u64 sets in use", "2.6.25", "capdump", probe_cap_u64, NULL },
	{ "caps", "file caps v3 (rootid)", "4.14", "capdump --files", probe_fcap_v3, NULL },
	{ 0 },
};

/* ---- DAMON (read only) ---- */

#define DAMON_ADMIN "/sys/kernel/mm/damon/admin"
#define KDAMONDS DAMON_ADMIN "/kdamonds"

static void probe_damon_sysfs(struct feat_ctx *ctx, struct feat_result *r)
{
	long long n;

	if (!sysroot_exists(DAMON_ADMIN))
		feat_set(r, FEAT_NO, "no " DAMON_ADMIN);
	else if (!sysroot_read_ll(KDAMONDS "/nr_kdamonds", &n))
		feat_set(r, FEAT_YES, KDAMONDS "/nr_kdamonds: %lld", n);
	else
		feat_set(r, FEAT_YES, DAMON_ADMIN " is there");
}

/*
 * The first existing PATH_FMT of any kdamond K's context 0 (and scheme 0
 * with "%d/contexts/0/schemes/0/..."), into path. Reading nr_kdamonds is
 * enough to list them; nothing is written.
 */
static bool first_kdamond_file(const char *rest, char *path, size_t len)
{
	long long n;

	if (sysroot_read_ll(KDAMONDS "/nr_kdamonds", &n))
		return false;	/* the callers have said why (damon_readable) */
	for (long long k = 0; k < n && k < 64; k++) {
		snprintf(path, len, KDAMONDS "/%lld/contexts/0/%s", k, rest);
		if (sysroot_exists(path))
			return true;
	}
	return false;
}

/* DAMON is there and nr_kdamonds can be read; if not, the row says why. */
static bool damon_readable(struct feat_result *r)
{
	long long n;
	int ret;

	if (!sysroot_exists(DAMON_ADMIN)) {
		feat_set(r, FEAT_NO, "no " DAMON_ADMIN);
		return false;
	}
	ret = sysroot_read_ll(KDAMONDS "/nr_kdamonds", &n);
	if (ret)
		feat_set(r, FEAT_UNKNOWN, KDAMONDS "/nr_kdamonds: %s", strerror(-ret));
	return !ret;
}

static void probe_damon_ops(struct feat_ctx *ctx, struct feat_result *r)
{
	char path[160], ops[128];
	int ret;

	if (!damon_readable(r))
		return;
	if (!first_kdamond_file("avail_operations", path, sizeof(path))) {
		feat_set(r, FEAT_UNKNOWN, "no kdamond with a context to read avail_operations "
			 "from (making one would be a write)");
		return;
	}
	ret = sysroot_read(path, ops, sizeof(ops));
	for (char *nl = ops; ret > 0 && (nl = strchr(nl, '\n')); )
		*nl = ',';	/* one operations set a line */
	if (ret < 0)
		feat_set(r, FEAT_UNKNOWN, "%s: %s", path, strerror(-ret));
	else
		feat_set(r, FEAT_YES, "%s: %s", path, ops);
}

static void probe_damon_filters(struct feat_ctx *ctx, struct feat_result *r)
{
	char path[160];

	if (!damon_readable(r))
		return;
	if (first_kdamond_file("schemes/0/core_filters", path, sizeof(path)))
		feat_set(r, FEAT_YES, "core_filters/ and ops_filters/ (%s)", path);
	else if (first_kdamond_file("schemes/0/filters", path, sizeof(path)))
		feat_set(r, FEAT_PARTIAL, "legacy filters/ only (%s)", path);
	else if (first_kdamond_file("schemes/0", path, sizeof(path)))
		feat_set(r, FEAT_NO, "%s has no filters/, core_filters/ or ops_filters/", path);
	else
		feat_set(r, FEAT_UNKNOWN, "no kdamond with a scheme to look at "
			 "(making one would be a write)");
}

static void probe_kdamonds(struct feat_ctx *ctx, struct feat_result *r)
{
	char state[16], pid[16], list[FEAT_EVIDENCE_MAX - 64] = "";
	long long n;
	size_t off = 0;
	int on = 0;

	if (!damon_readable(r) || sysroot_read_ll(KDAMONDS "/nr_kdamonds", &n))
		return;
	for (long long k = 0; k < n && off < sizeof(list); k++) {
		if (sysroot_readf(state, sizeof(state), KDAMONDS "/%lld/state", k) < 0)
			snprintf(state, sizeof(state), "?");
		if (sysroot_readf(pid, sizeof(pid), KDAMONDS "/%lld/pid", k) < 0)
			snprintf(pid, sizeof(pid), "?");
		on += !strcmp(state, "on");
		off += snprintf(list + off, sizeof(list) - off, "%skdamond %lld %s pid %s",
				k ? ", " : "", k, state, pid);
	}
	feat_set(r, on ? FEAT_YES : FEAT_NO, "%d of %lld running%s%s", on, n, n ? ": " : "", list);
}

const struct feat_def feat_damon[] = {
	{ "damon", "DAMON sysfs", "5.18", "damos", probe_damon_sysfs,
	  "CONFIG_DAMON_SYSFS" },
	{ "damon", "avail_operations", "6.0", "damos", probe_damon_ops, NULL },
	{ "damon", "core/ops filter layout", "6.15 (filters/ 6.3)", "damos", probe_damon_filters, NULL },
	{ "damon", "kdamonds running", "5.18", "damos", probe_kdamonds, NULL },
	{ 0 },
};

/* ---- pata_parport ---- */

static void probe_parports(struct feat_ctx *ctx, struct feat_result *r)
{
	char list[256];
	int n = feat_list_dir("/sys/bus/parport/devices", "parport", ",", list, sizeof(list));

	if (n > 0) {
		feat_set(r, FEAT_YES, "/sys/bus/parport/devices: %s", list);
		return;
	}
	if (n == 0) {
		feat_set(r, FEAT_PARTIAL, "/sys/bus/parport is there, no port");
		return;
	}
	n = feat_list_dir("/proc/sys/dev/parport", "parport", ",", list, sizeof(list));
	if (n > 0)
		feat_set(r, FEAT_YES, "/proc/sys/dev/parport: %s", list);
	else
		feat_set(r, FEAT_NO, "no /sys/bus/parport, no /proc/sys/dev/parport");
}

static void probe_pata_bus(struct feat_ctx *ctx, struct feat_result *r)
{
	char list[256];
	int n;

	if (!sysroot_exists("/sys/bus/pata_parport")) {
		feat_set(r, FEAT_NO, "no /sys/bus/pata_parport");
		return;
	}
	n = feat_list_dir("/sys/bus/pata_parport/devices", "pata_parport", ",", list,
			  sizeof(list));
	feat_set(r, FEAT_YES, "/sys/bus/pata_parport: devices: %s", n > 0 ? list : "none");
}

static void probe_protocols(struct feat_ctx *ctx, struct feat_result *r)
{
	char list[512];
	int n = feat_list_dir("/sys/bus/pata_parport/drivers", "", ",", list, sizeof(list));

	if (n < 0)
		feat_set(r, FEAT_NO, "no /sys/bus/pata_parport/drivers");
	else if (!n)
		feat_set(r, FEAT_NO, "/sys/bus/pata_parport/drivers: none registered");
	else
		feat_set(r, FEAT_YES, "/sys/bus/pata_parport/drivers: %s", list);
}

const struct feat_def feat_parport[] = {
	{ "parport", "parport ports", "2.4", "parport", probe_parports,
	  "CONFIG_PARPORT" },
	{ "parport", "pata_parport bus", "6.3", "parport", probe_pata_bus,
	  "CONFIG_PATA_PARPORT" },
	{ "parport", "pata_parport protocols", "6.3", "parport", probe_protocols, NULL },
	{ 0 },
};

/* ---- memfd ---- */

static void probe_memfd_noexec(struct feat_ctx *ctx, struct feat_result *r)
{
	long long v;
	int ret = sysroot_read_ll("/proc/sys/vm/memfd_noexec", &v);

	if (!ret)
		feat_set(r, FEAT_YES, "/proc/sys/vm/memfd_noexec: %lld", v);
	else
		feat_set(r, ret == -ENOENT ? FEAT_NO : FEAT_UNKNOWN,
			 "/proc/sys/vm/memfd_noexec: %s", strerror(-ret));
}

const struct feat_def feat_memfd[] = {
	{ "memfd", "vm.memfd_noexec", "6.3", "-", probe_memfd_noexec, NULL },
	{ 0 },
};

/* ---- benchmarks and counters ---- */

/* Is "NAME.ko" listed in FILE of /lib/modules/RELEASE? -errno if unreadable. */
static int module_listed(const char *release, const char *file, const char *name)
{
	char path[256], line[512], want[64];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/%s", release, file);
	f = sysroot_fopen(path, "r");
	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "/%s.ko", name);
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon)
			*colon = '\0';
		found = strstr(line, want) != NULL;
	}
	fclose(f);
	return found;
}

static void probe_test_dhry(struct feat_ctx *ctx, struct feat_result *r)
{
	char rel[128], val[16];
	const char *config;
	int dep, builtin;

	if (sysroot_exists("/sys/module/test_dhry")) {
		feat_set(r, FEAT_YES, "loaded: /sys/module/test_dhry is there");
		return;
	}
	if (sysroot_read("/proc/sys/kernel/osrelease", rel, sizeof(rel)) <= 0) {
		feat_set(r, FEAT_UNKNOWN, "not loaded; no /proc/sys/kernel/osrelease to find "
			 "the modules");
		return;
	}
	dep = module_listed(rel, "modules.dep", "test_dhry");
	builtin = module_listed(rel, "modules.builtin", "test_dhry");
	if (dep > 0)
		feat_set(r, FEAT_YES, "loadable: test_dhry.ko in /lib/modules/%s/modules.dep", rel);
	else if (builtin > 0)
		feat_set(r, FEAT_YES, "built in: /lib/modules/%s/modules.builtin", rel);
	else if (dep < 0 && ctx->live)
		feat_set(r, FEAT_NO, "not loaded; /lib/modules/%s/modules.dep: %s (nothing "
			 "to load it from)", rel, strerror(-dep));
	else if (dep < 0)
		feat_set(r, FEAT_UNKNOWN, "not loaded; /lib/modules/%s/modules.dep: %s", rel,
			 strerror(-dep));
	else
		feat_set(r, FEAT_NO, "not loaded, not in /lib/modules/%s/modules.dep%s", rel,
			 builtin == 0 ? " nor modules.builtin" : "");
	/* without the module files the kernel's config still says "never" */
	config = feat_kconfig(ctx, "CONFIG_TEST_DHRY", val, sizeof(val));
	if (r->state == FEAT_UNKNOWN && config && !strcmp(config, "n"))
		r->state = FEAT_NO;
}

static void probe_perf_cycles(struct feat_ctx *ctx, struct feat_result *r)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long long paranoid = 99;
	int fd, err;

	if (feat_live_only(ctx, r, "perf_event_open(PERF_COUNT_HW_CPU_CYCLES)"))
		return;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	err = errno;
	if (fd >= 0) {
		close(fd);
		feat_set(r, FEAT_YES, "perf_event_open(PERF_COUNT_HW_CPU_CYCLES, self) = fd");
		return;
	}
	sysroot_read_ll("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		feat_set(r, FEAT_NO, "perf_event_open(PERF_COUNT_HW_CPU_CYCLES): %s "
			 "(no hardware cycles counter)", strerror(err));
	else if (err == ENOSYS)
		feat_set(r, FEAT_NO, "perf_event_open: ENOSYS (no CONFIG_PERF_EVENTS)");
	else
		feat_set(r, FEAT_UNKNOWN, "perf_event_open(PERF_COUNT_HW_CPU_CYCLES): %s "
			 "(perf_event_paranoid %lld)", strerror(err), paranoid);
}

const struct feat_def feat_bench[] = {
	{ "bench", "test_dhry module", "6.3", "dhry", probe_test_dhry,
	  "CONFIG_TEST_DHRY" },
	{ "bench", "perf cycles counter", "2.6.31", "dhry (DMIPS/MHz)", probe_perf_cycles,
	  "CONFIG_PERF_EVENTS" },
	{ 0 },
};
