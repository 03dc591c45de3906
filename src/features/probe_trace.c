// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_trace - the tracing rows: tracefs, the noise tracers and their
 * files, the tracepoints the sampler attributes noise with, BTF.
 *
 * Everything here is a file under the root, so a captured tree answers it
 * (rtla capture copies available_tracers, the osnoise directory and the
 * event directories these rows look at).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "features/features.h"
#include "sysroot.h"
#include "util.h"

/* Where tracefs is under the root; "" when it is in neither usual place. */
static const char *tracefs(struct feat_ctx *ctx)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	if (ctx->tracefs[0])
		return ctx->tracefs;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (sysroot_existsf("%s/available_tracers", dirs[i])) {
			snprintf(ctx->tracefs, sizeof(ctx->tracefs), "%s", dirs[i]);
			return ctx->tracefs;
		}
	}
	return NULL;
}

/* Why there is no tracefs to read: not mounted, or not ours to look at. */
static void tracefs_missing(struct feat_result *r)
{
	char path[PATH_MAX];

	if (access(sysroot_path("/sys/kernel/tracing/available_tracers", path, sizeof(path)),
		   F_OK) && errno == EACCES)
		feat_set(r, FEAT_UNKNOWN, "/sys/kernel/tracing: %s (root reads it)", strerror(EACCES));
	else
		feat_set(r, FEAT_UNKNOWN, "tracefs is not mounted");
}

/* Read FILE of tracefs into buf; on failure the row says why. */
static int trace_read(struct feat_ctx *ctx, struct feat_result *r, const char *file,
		      char *buf, size_t len)
{
	const char *dir = tracefs(ctx);
	char path[256];
	int n;

	if (!dir) {
		tracefs_missing(r);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = sysroot_read(path, buf, len);
	if (n < 0)
		feat_set(r, n == -ENOENT ? FEAT_NO : FEAT_UNKNOWN, "%s: %s", path, strerror(-n));
	return n;
}

static void probe_tracefs(struct feat_ctx *ctx, struct feat_result *r)
{
	char fs[4096];
	const char *dir = tracefs(ctx);

	if (dir) {
		feat_set(r, FEAT_YES, "mounted: %s/available_tracers is there", dir);
		return;
	}
	tracefs_missing(r);
	if (r->evidence[0] == '/') {
		r->state = FEAT_YES;	/* there, only not readable for us */
		return;
	}
	if (sysroot_read("/proc/filesystems", fs, sizeof(fs)) < 0) {
		feat_set(r, FEAT_UNKNOWN, "not mounted, and no /proc/filesystems to tell if it can be");
		return;
	}
	if (strstr(fs, "\ttracefs"))
		feat_set(r, FEAT_YES, "not mounted; /proc/filesystems lists tracefs (mountable)");
	else
		feat_set(r, FEAT_NO, "not mounted; /proc/filesystems has no tracefs");
}

static void probe_tracer(struct feat_ctx *ctx, struct feat_result *r, const char *tracer)
{
	char buf[1024];

	if (trace_read(ctx, r, "available_tracers", buf, sizeof(buf)) < 0)
		return;
	feat_set(r, feat_has_word(buf, tracer) ? FEAT_YES : FEAT_NO,
		 "available_tracers: %s", buf[0] ? buf : "(empty)");
}

static void probe_osnoise(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_tracer(ctx, r, "osnoise");
}

static void probe_timerlat(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_tracer(ctx, r, "timerlat");
}

static void probe_hwlat(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_tracer(ctx, r, "hwlat");
}

/* A file or directory of the osnoise tracer; "no" with the reason if absent. */
static bool osnoise_file(struct feat_ctx *ctx, struct feat_result *r, const char *file)
{
	char buf[1024], path[256];

	if (trace_read(ctx, r, "available_tracers", buf, sizeof(buf)) < 0)
		return false;
	if (!feat_has_word(buf, "osnoise") && !feat_has_word(buf, "timerlat")) {
		feat_set(r, FEAT_NO, "no osnoise or timerlat tracer in available_tracers");
		return false;
	}
	snprintf(path, sizeof(path), "%s/%s", ctx->tracefs, file);
	if (!sysroot_exists(path)) {
		feat_set(r, FEAT_NO, "no %s", path);
		return false;
	}
	return true;
}

static void probe_options(struct feat_ctx *ctx, struct feat_result *r)
{
	char buf[1024];

	if (!osnoise_file(ctx, r, "osnoise/options"))
		return;
	if (trace_read(ctx, r, "osnoise/options", buf, sizeof(buf)) >= 0)
		feat_set(r, FEAT_YES, "osnoise/options: %s", buf);
}

static void probe_irq_disable(struct feat_ctx *ctx, struct feat_result *r)
{
	char buf[1024];

	if (!osnoise_file(ctx, r, "osnoise/options"))
		return;
	if (trace_read(ctx, r, "osnoise/options", buf, sizeof(buf)) < 0)
		return;
	if (feat_has_word(buf, "OSNOISE_IRQ_DISABLE"))
		feat_set(r, FEAT_YES, "osnoise/options lists OSNOISE_IRQ_DISABLE (off)");
	else if (feat_has_word(buf, "NO_OSNOISE_IRQ_DISABLE"))
		feat_set(r, FEAT_YES, "osnoise/options lists NO_OSNOISE_IRQ_DISABLE (on)");
	else
		feat_set(r, FEAT_NO, "osnoise/options has no OSNOISE_IRQ_DISABLE: %s", buf);
}

static void probe_per_cpu(struct feat_ctx *ctx, struct feat_result *r)
{
	char path[128], list[256];
	int n;

	if (!osnoise_file(ctx, r, "osnoise/per_cpu"))
		return;
	snprintf(path, sizeof(path), "%s/osnoise/per_cpu", ctx->tracefs);
	n = feat_list_dir(path, "cpu", ",", list, sizeof(list));
	feat_set(r, n > 0 ? FEAT_YES : FEAT_PARTIAL, "%s: %d CPU directories", path, n < 0 ? 0 : n);
}

static void probe_timerlat_fd(struct feat_ctx *ctx, struct feat_result *r)
{
	if (osnoise_file(ctx, r, "osnoise/per_cpu/cpu0/timerlat_fd"))
		feat_set(r, FEAT_YES, "%s/osnoise/per_cpu/cpu0/timerlat_fd is there", ctx->tracefs);
}

/* The events one tracepoint row needs: "system" and its events. */
static void probe_events(struct feat_ctx *ctx, struct feat_result *r, const char *system,
			 const char *const *events)
{
	char missing[256] = "", found[256] = "";
	size_t nm = 0, nf = 0;
	int have = 0, want = 0;

	if (!tracefs(ctx)) {
		tracefs_missing(r);
		return;
	}
	for (; *events; events++, want++) {
		if (sysroot_existsf("%s/events/%s/%s/format", ctx->tracefs, system, *events)) {
			have++;
			nf += snprintf(found + nf, sizeof(found) - nf, "%s%s", nf ? "," : "", *events);
		} else {
			nm += snprintf(missing + nm, sizeof(missing) - nm, "%s%s", nm ? "," : "",
				       *events);
		}
		if (nf >= sizeof(found) || nm >= sizeof(missing))
			break;
	}
	if (have == want)
		feat_set(r, FEAT_YES, "events/%s/{%s}/format", system, found);
	else if (have)
		feat_set(r, FEAT_PARTIAL, "events/%s: have %s, missing %s", system, found, missing);
	else
		feat_set(r, FEAT_NO, "no events/%s/{%s}/format", system, missing);
}

static void probe_ev_irq(struct feat_ctx *ctx, struct feat_result *r)
{
	static const char *const ev[] = { "irq_handler_entry", "irq_handler_exit", NULL };

	probe_events(ctx, r, "irq", ev);
}

static void probe_ev_softirq(struct feat_ctx *ctx, struct feat_result *r)
{
	static const char *const ev[] = { "softirq_entry", "softirq_exit", NULL };

	probe_events(ctx, r, "irq", ev);
}

static void probe_ev_vectors(struct feat_ctx *ctx, struct feat_result *r)
{
	static const char *const ev[] = { "local_timer_entry", "local_timer_exit", NULL };

	probe_events(ctx, r, "irq_vectors", ev);
}

static void probe_ev_nmi(struct feat_ctx *ctx, struct feat_result *r)
{
	static const char *const ev[] = { "nmi_handler", NULL };

	probe_events(ctx, r, "nmi", ev);
}

static void probe_ev_sched(struct feat_ctx *ctx, struct feat_result *r)
{
	static const char *const ev[] = { "sched_switch", NULL };

	probe_events(ctx, r, "sched", ev);
}

static void probe_btf(struct feat_ctx *ctx, struct feat_result *r)
{
	if (sysroot_exists("/sys/kernel/btf/vmlinux"))
		feat_set(r, FEAT_YES, "/sys/kernel/btf/vmlinux is there");
	else
		feat_set(r, FEAT_NO, "no /sys/kernel/btf/vmlinux");
}

const struct feat_def feat_tracing[] = {
	{ "tracing", "tracefs", "4.1", "osnoise,hwnoise", probe_tracefs, NULL },
	{ "tracing", "osnoise tracer", "5.14", "osnoise,hwnoise", probe_osnoise,
	  "CONFIG_OSNOISE_TRACER" },
	{ "tracing", "osnoise/options", "6.2 (6.1.188)", "osnoise", probe_options, NULL },
	{ "tracing", "OSNOISE_IRQ_DISABLE", "6.2 (6.1.188)", "hwnoise", probe_irq_disable, NULL },
	{ "tracing", "osnoise/per_cpu", "6.6", "-", probe_per_cpu, NULL },
	{ "tracing", "timerlat tracer", "5.14", "-", probe_timerlat,
	  "CONFIG_TIMERLAT_TRACER" },
	{ "tracing", "timerlat_fd (user space)", "6.6", "-", probe_timerlat_fd, NULL },
	{ "tracing", "hwlat tracer", "4.9", "-", probe_hwlat,
	  "CONFIG_HWLAT_TRACER" },
	{ "tracing", "irq tracepoints", "2.6.31", "osnoise --backend sampler", probe_ev_irq, NULL },
	{ "tracing", "softirq tracepoints", "2.6.31", "osnoise --backend sampler",
	  probe_ev_softirq, NULL },
	{ "tracing", "irq_vectors tracepoints", "3.15 (x86)", "osnoise --backend sampler",
	  probe_ev_vectors, NULL },
	{ "tracing", "nmi tracepoint", "3.17", "hwnoise --backend sampler", probe_ev_nmi, NULL },
	{ "tracing", "sched_switch tracepoint", "2.6.28", "osnoise --backend sampler",
	  probe_ev_sched, NULL },
	{ "tracing", "BTF", "5.4", "mdwe", probe_btf,
	  "CONFIG_DEBUG_INFO_BTF" },
	{ 0 },
};
