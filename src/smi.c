// SPDX-License-Identifier: GPL-2.0-only
/*
 * smi - MSR_SMI_COUNT through /dev/cpu/N/msr, per measured CPU over a run
 * (smi.h).
 *
 * Each read is an open, a pread at the MSR's number and a close: the msr
 * driver runs rdmsr on the CPU itself, by an IPI, so a run reads twice (at
 * its start, before the measurement is enabled, and at its end, once the
 * backend is halted) and never while a CPU is being measured. hwnoise's
 * CPUs run with interrupts off for most of each period, and an IPI would
 * wait for the window to end and count as noise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smi.h"

#if defined(__x86_64__) || defined(__i386__)
#define SMI_X86 1
#else
#define SMI_X86 0
#endif

/*
 * vendor_id of /proc/cpuinfo under ROOT, in buf ("" when unknown): only to
 * explain an EIO, since whether the MSR exists is the read's to say (QEMU's
 * emulated CPUs call themselves AuthenticAMD and answer it).
 */
static void cpu_vendor(const char *root, char *buf, size_t len)
{
	char path[4096], line[256], word[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", strcmp(root, "/") ? root : "");
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* a blank in the format matches the tab too */
		if (sscanf(line, "vendor_id : %63s", word) == 1) {
			snprintf(buf, len, "%s", word);
			break;
		}
	}
	fclose(f);
}

int smi_read(const char *root, int cpu, uint32_t *count, char *why, size_t len)
{
	const char *prefix = strcmp(root, "/") ? root : "", *dev;
	char path[4096], vendor[64];
	uint64_t v;
	ssize_t n;
	int fd, err;

	if (!SMI_X86) {
		snprintf(why, len, "not an x86 CPU (MSR_SMI_COUNT is Intel's)");
		return -EOPNOTSUPP;
	}
	snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", prefix, cpu);
	/* the messages name the live path, whatever root a test reads under */
	dev = path + strlen(prefix);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			snprintf(why, len, "no msr driver (%s missing)", dev);
		else if (err == EPERM || err == EACCES)
			snprintf(why, len, "not permitted (%s: %s; reading MSRs needs root, CAP_SYS_RAWIO)", dev,
				 strerror(err));
		else
			snprintf(why, len, "MSR_SMI_COUNT not readable (%s: %s)", dev, strerror(err));
		return -err;
	}
	n = pread(fd, &v, sizeof(v), SMI_MSR_COUNT);
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)sizeof(v)) {
		*count = (uint32_t)v;	/* bits 63:32 are reserved */
		return 0;
	}
	if (err == EPERM || err == EACCES) {
		snprintf(why, len, "not permitted (%s: %s)", dev, strerror(err));
		return -err;
	}
	cpu_vendor(root, vendor, sizeof(vendor));
	if (err == EIO && (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")))
		snprintf(why, len, "MSR_SMI_COUNT not readable (%s: %s: %s CPUs have no MSR 0x34)",
			 dev, strerror(err), vendor);
	else
		snprintf(why, len, "MSR_SMI_COUNT not readable (%s: %s)", dev, strerror(err));
	return -err;
}

/* Read every measured CPU into COUNTS; false (with s->why) at the first that fails. */
static bool read_all(struct smi_counts *s, uint32_t *counts, const char *when)
{
	char why[SMI_WHY_MAX];

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &s->cpus))
			continue;
		if (smi_read(s->root, cpu, &counts[cpu], why, sizeof(why))) {
			snprintf(s->why, sizeof(s->why), "%s%s", why, when);
			return false;
		}
	}
	return true;
}

int smi_counts_start(struct smi_counts *s, const char *root, const cpu_set_t *cpus,
		     int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->root = root;
	s->nr_cpus = nr_cpus;
	s->cpus = *cpus;
	s->start = calloc(nr_cpus, sizeof(*s->start));
	s->end = calloc(nr_cpus, sizeof(*s->end));
	if (!s->start || !s->end) {
		smi_counts_free(s);
		return -ENOMEM;
	}
	s->available = read_all(s, s->start, "");
	return 0;
}

void smi_counts_stop(struct smi_counts *s)
{
	if (s->available && !s->stopped)
		s->available = read_all(s, s->end, " at the end of the run");
	s->stopped = true;
}

bool smi_counts_delta(const struct smi_counts *s, int cpu, uint64_t *smis)
{
	if (!s->available || !s->stopped || cpu < 0 || cpu >= s->nr_cpus ||
	    !CPU_ISSET(cpu, &s->cpus))
		return false;
	/* a 32-bit counter: one wrap during the run still gives the right difference */
	*smis = (uint32_t)(s->end[cpu] - s->start[cpu]);
	return true;
}

int smi_counts_busy(const struct smi_counts *s, uint64_t *total)
{
	uint64_t n;
	int busy = 0;

	*total = 0;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (smi_counts_delta(s, cpu, &n) && n) {
			busy++;
			*total += n;
		}
	}
	return busy;
}

void smi_counts_free(struct smi_counts *s)
{
	free(s->start);
	free(s->end);
	s->start = s->end = NULL;
	s->available = false;
}
