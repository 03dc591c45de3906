/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smi - System Management Interrupts counted by the CPU: MSR_SMI_COUNT
 * (0x34, Intel's; its low 32 bits count SMIs since reset) read through the
 * msr driver's /dev/cpu/N/msr, as cyclictest's --smi and turbostat read it.
 * Firmware runs in SMM with the operating system stopped and no trace event
 * shows it: the count is the only witness a noise or latency run has.
 *
 * The counters are live hardware, so the files are read under ROOT ("/" in
 * a run, SMI_ROOT_LIVE), never under the sysroot: a captured tree holds no
 * counters (rtla capture copies no /dev), and every command that measures
 * is live-only anyway. The root is a parameter so that the unit tests point
 * the reader at a tree of regular files standing in for /dev/cpu/N/msr.
 *
 * Where the count cannot be read the reason is one line, found in this
 * order: not an x86 CPU (known at build time), no msr driver (the device
 * file is missing; rtla never loads the driver), not permitted (EPERM or
 * EACCES: the driver wants CAP_SYS_RAWIO), the MSR not readable (EIO: the
 * CPU has no such MSR; AMD's have none, and /proc/cpuinfo's vendor says so).
 */
#ifndef RTLA_SMI_H
#define RTLA_SMI_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMI_MSR_COUNT	0x34
#define SMI_ROOT_LIVE	"/"
#define SMI_WHY_MAX	192

/*
 * CPU's count from ROOT's dev/cpu/CPU/msr: 0, or -errno with the reason in
 * WHY (-EOPNOTSUPP not x86, -ENOENT no driver, -EPERM/-EACCES not
 * permitted, -EIO or another the MSR not readable).
 */
int smi_read(const char *root, int cpu, uint32_t *count, char *why, size_t len);

/* The SMIs of the measured CPUs over a run: the count at its end minus the count at its start. */
struct smi_counts {
	const char *root;
	int nr_cpus;
	cpu_set_t cpus;		/* the measured CPUs */
	bool available;		/* every measured CPU was read at the start and, once stopped, at the end */
	bool stopped;
	char why[SMI_WHY_MAX];	/* when not available: the first reason met */
	uint32_t *start, *end;	/* nr_cpus entries */
};

/*
 * Read every CPU of CPUS at the start of a run. A count that cannot be
 * read is no error: s->available says so and s->why why. -ENOMEM only.
 */
int smi_counts_start(struct smi_counts *s, const char *root, const cpu_set_t *cpus,
		     int nr_cpus);
/* Read them again at the end of the run. */
void smi_counts_stop(struct smi_counts *s);
/* The SMIs of CPU during the run; false when not known (not read, or not measured). */
bool smi_counts_delta(const struct smi_counts *s, int cpu, uint64_t *smis);
/* Measured CPUs that had SMIs, and their sum. */
int smi_counts_busy(const struct smi_counts *s, uint64_t *total);
void smi_counts_free(struct smi_counts *s);

#endif
