// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the SMI reader (src/smi.c) on a temporary tree where
 * regular files stand in for /dev/cpu/N/msr (MSR_SMI_COUNT at offset
 * 0x34) and /proc/cpuinfo: the count, its reserved high half, each reason
 * in its order (no driver, not permitted, not readable, AMD's explained),
 * and a run's counts: the difference per measured CPU, a counter that
 * wrapped, a CPU that cannot be read at the start or at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smi.h"
#include "tap.h"
#include "tmptree.h"

/* root/dev/cpu/CPU/msr holding VALUE at MSR_SMI_COUNT, as the driver's pread gives it */
static void put_msr(int cpu, uint64_t value)
{
	char dir[512];
	unsigned char file[SMI_MSR_COUNT + 8] = { 0 };
	int fd;

	snprintf(dir, sizeof(dir), "%s/dev", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/dev/cpu", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/dev/cpu/%d", root, cpu);
	mkdir(dir, 0755);
	memcpy(file + SMI_MSR_COUNT, &value, sizeof(value));
	snprintf(dir, sizeof(dir), "%s/dev/cpu/%d/msr", root, cpu);
	fd = open(dir, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, file, sizeof(file)) != (ssize_t)sizeof(file)) {
		perror(dir);
		exit(2);
	}
	close(fd);
}

/* a device file that ends before the MSR: the driver's EIO for an MSR the CPU lacks */
static void put_short_msr(int cpu)
{
	char path[64];

	put_msr(cpu, 0);
	snprintf(path, sizeof(path), "dev/cpu/%d/msr", cpu);
	put(at(path), "");
}

static void put_vendor(const char *vendor)
{
	char text[256];

	mkdir(at("proc"), 0755);
	snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: 25\n", vendor);
	put(at("proc/cpuinfo"), text);
}

static void test_read(void)
{
	char why[SMI_WHY_MAX] = "";
	uint32_t count = 0;

	is_int(smi_read(root, 0, &count, why, sizeof(why)), -ENOENT, "no device file: -ENOENT");
	is_str(why, "no msr driver (/dev/cpu/0/msr missing)",
	       "the reason names the live path, not the test's root");

	put_msr(0, 7);
	is_int(smi_read(root, 0, &count, why, sizeof(why)), 0, "a count is read");
	is_int(count, 7, "the value at offset 0x34");
	put_msr(0, 0xdeadbeef00000005ULL);
	smi_read(root, 0, &count, why, sizeof(why));
	is_int(count, 5, "bits 63:32 are reserved: only the low half counts");

	put_short_msr(1);
	put_vendor("GenuineIntel");
	is_int(smi_read(root, 1, &count, why, sizeof(why)), -EIO, "an MSR the CPU lacks: -EIO");
	is_str(why, "MSR_SMI_COUNT not readable (/dev/cpu/1/msr: Input/output error)",
	       "the reason says the MSR is not readable");
	put_vendor("AuthenticAMD");
	smi_read(root, 1, &count, why, sizeof(why));
	is_str(why, "MSR_SMI_COUNT not readable (/dev/cpu/1/msr: Input/output error: AuthenticAMD "
	       "CPUs have no MSR 0x34)", "on AMD the vendor explains the EIO");
	put_vendor("HygonGenuine");
	smi_read(root, 1, &count, why, sizeof(why));
	is_str(why, "MSR_SMI_COUNT not readable (/dev/cpu/1/msr: Input/output error: HygonGenuine "
	       "CPUs have no MSR 0x34)", "and on Hygon, AMD's design");
}

/*
 * EACCES as the device's 0600 gives it to someone without root: as root,
 * the read runs in a child that became nobody; otherwise the file loses
 * its permissions. The file is short, so that only the open's order can
 * name the permission rather than the MSR.
 */
static void test_not_permitted(void)
{
	char why[SMI_WHY_MAX] = "";
	int pipefd[2], status, ret = 0;
	uint32_t count;
	pid_t pid;

	put_short_msr(2);
	if (geteuid()) {
		chmod(at("dev/cpu/2/msr"), 0);
		ret = smi_read(root, 2, &count, why, sizeof(why));
	} else {
		chmod(root, 0755);
		if (pipe(pipefd))
			abort();
		pid = fork();
		if (pid == 0) {
			close(pipefd[0]);
			if (setgid(65534) || setuid(65534))
				_exit(3);
			ret = smi_read(root, 2, &count, why, sizeof(why));
			if (write(pipefd[1], &ret, sizeof(ret)) != sizeof(ret) ||
			    write(pipefd[1], why, sizeof(why)) != sizeof(why))
				_exit(4);
			_exit(0);
		}
		close(pipefd[1]);
		if (read(pipefd[0], &ret, sizeof(ret)) != sizeof(ret) ||
		    read(pipefd[0], why, sizeof(why)) != sizeof(why))
			ret = 1;
		close(pipefd[0]);
		waitpid(pid, &status, 0);
	}
	is_int(ret, -EACCES, "a device file the user may not open: -EACCES");
	is_str(why, "not permitted (/dev/cpu/2/msr: Permission denied; reading MSRs needs root, "
	       "CAP_SYS_RAWIO)", "the reason says not permitted, before the MSR's EIO");
	chmod(at("dev/cpu/2/msr"), 0600);
}

static void test_run(void)
{
	struct smi_counts s;
	cpu_set_t cpus;
	uint64_t n = 99, total;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CPU_SET(1, &cpus);
	put_msr(0, 10);
	put_msr(1, 0xfffffffeULL);
	put_short_msr(3);	/* not measured: never read */
	is_int(smi_counts_start(&s, root, &cpus, 4), 0, "started");
	ok(s.available, "both measured CPUs read at the start");
	ok(!smi_counts_delta(&s, 0, &n), "no count before the run ended");
	put_msr(0, 13);
	put_msr(1, 1);
	smi_counts_stop(&s);
	ok(s.available, "and at the end");
	ok(smi_counts_delta(&s, 0, &n), "CPU 0 has a count");
	is_int(n, 3, "CPU 0: 13 at the end minus 10 at the start");
	smi_counts_delta(&s, 1, &n);
	is_int(n, 3, "CPU 1: a 32-bit counter that wrapped still gives 3");
	ok(!smi_counts_delta(&s, 3, &n), "an unmeasured CPU has none");
	ok(!smi_counts_delta(&s, 4, &n), "nor one past the last");
	is_int(smi_counts_busy(&s, &total), 2, "two CPUs had SMIs");
	is_int(total, 6, "six in all");
	smi_counts_free(&s);

	put_msr(1, 4);
	smi_counts_start(&s, root, &cpus, 4);
	put_msr(1, 4);
	smi_counts_stop(&s);
	smi_counts_delta(&s, 1, &n);
	is_int(n, 0, "no SMI: 0");
	is_int(smi_counts_busy(&s, &total), 0, "no CPU had SMIs");
	is_int(total, 0, "none in all");
	smi_counts_free(&s);
}

static void test_run_unreadable(void)
{
	struct smi_counts s;
	cpu_set_t cpus;
	uint64_t n;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CPU_SET(5, &cpus);
	put_msr(0, 1);
	smi_counts_start(&s, root, &cpus, 8);
	ok(!s.available, "a measured CPU without a device file: not available");
	is_str(s.why, "no msr driver (/dev/cpu/5/msr missing)", "one reason, naming that CPU");
	smi_counts_stop(&s);
	ok(!smi_counts_delta(&s, 0, &n), "no count for the CPU that was readable either");
	smi_counts_free(&s);

	CPU_CLR(5, &cpus);
	smi_counts_start(&s, root, &cpus, 8);
	ok(s.available, "CPU 0 alone is read");
	unlink(at("dev/cpu/0/msr"));
	smi_counts_stop(&s);
	ok(!s.available, "the driver gone at the end: not available");
	is_str(s.why, "no msr driver (/dev/cpu/0/msr missing) at the end of the run",
	       "the reason says when");
	ok(!smi_counts_delta(&s, 0, &n), "no count");
	smi_counts_free(&s);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/rtla-smi.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
#if defined(__x86_64__) || defined(__i386__)
	test_read();
	test_not_permitted();
	test_run();
	test_run_unreadable();
#else
	{
		char why[SMI_WHY_MAX];
		uint32_t count;

		put_msr(0, 1);
		is_int(smi_read(root, 0, &count, why, sizeof(why)), -EOPNOTSUPP,
		       "not x86: not read, even with a device file");
		is_str(why, "not an x86 CPU (MSR_SMI_COUNT is Intel's)", "the reason");
	}
#endif
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			perror(cmd);
	}
	return tap_done();
}
