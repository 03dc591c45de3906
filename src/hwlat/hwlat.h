/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hwlat - `rtla hwlat [top]` and `rtla hwlat hist`: the kernel's hwlat
 * tracer on the noise family (src/osnoise/osnoise.h). A kernel thread
 * spins with interrupts off for the width of every window, reading the
 * clock in a loop; a gap between two reads (inner) or between two loops
 * (outer) longer than the threshold is time the CPU was taken away from
 * the kernel: firmware (SMIs), a hypervisor, the hardware. Each window
 * with such a gap is one sample, an ftrace:hwlat event.
 *
 *   hwlat.c   the command, its options, the sink both tools share, the
 *             top table with hwlatdetect's summary, the hist, the record's
 *             part and the --fail-if figures, and the two rows;
 *   tracer.c  the backend: the tracer in an instance of rtla's, its global
 *             settings (width, window, mode, tracing_thresh) borrowed
 *             through the ledger, the samples read from the instance.
 *
 * The family gives it its run (driver.c), the parser of the shared
 * options, the record's envelope, the gate with its JUnit and Prometheus
 * files, the actions and the live view.
 */
#ifndef RTLA_HWLAT_H
#define RTLA_HWLAT_H

#include <stdint.h>

#include "osnoise/osnoise.h"

/* the kernel's defaults (trace_hwlat.c), written explicitly */
#define HWLAT_WINDOW_US		1000000LL
#define HWLAT_WIDTH_US		500000LL
#define HWLAT_THRESHOLD_US	10LL

/* hwlat_detector/mode (Linux >= 5.14); HWLAT_MODE_KERNEL: not written */
enum hwlat_mode {
	HWLAT_MODE_NONE,
	HWLAT_MODE_ROUND_ROBIN,
	HWLAT_MODE_PER_CPU,
	HWLAT_MODE_KERNEL,
};
extern const char *const hwlat_mode_names[3];

/* One ftrace:hwlat event: the worst gaps of one window's width on CPU. */
struct hwlat_sample {
	int cpu;
	uint64_t seqnum;
	uint64_t inner_us, outer_us;	/* the longest gap within a loop, between loops */
	uint64_t nmi_total_us;		/* time in NMIs during the width */
	uint64_t nmi_count;
	uint64_t count;			/* loops over the threshold (0 before Linux 5.x had it) */
	int64_t ts_sec, ts_nsec;	/* wall clock of the first gap over the threshold */
};

/* One CPU's samples; hist: the gaps by bucket too. */
struct hwlat_cpu {
	uint64_t samples;
	uint64_t exceeding;		/* sum of count: hwlatdetect's "samples exceeding" */
	uint64_t inner_max, outer_max;
	uint64_t inner_over, outer_over;	/* samples whose inner (outer) gap is over */
	uint64_t inner_sum, outer_sum;
	uint64_t nmi_count, nmi_total_us;
	uint64_t *bucket[2];		/* hist: inner, outer; entries + 1, the last "over" */
};

/* The sink of both tools (run->hwlat). */
struct hwlat_data {
	struct hwlat_cpu *cpu;		/* params->nr_cpus entries */
	bool hist;
	long long threshold_us;		/* as the kernel ran with it */
	enum hwlat_mode mode;		/* as the kernel ran with it */
	uint64_t windows;		/* whole windows the run lasted (set at the halt) */
	uint64_t max_seqnum;		/* the kernel's own count of samples */
};

/* The backend hands each sample to the sink. */
void hwlat_add_sample(struct noise_run *run, const struct hwlat_sample *s);
/* Windows CPU was sampled in, as the mode spreads them; -1: unknown (mode none). */
long long hwlat_cpu_windows(const struct noise_run *run, int cpu);

extern const struct noise_backend hwlat_tracer_backend;

#endif
