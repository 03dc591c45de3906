// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel - what the tracer backend (src/osnoise/tracer.c) does for
 * timerlat beyond osnoise: the workload, the idle states, the DMA latency
 * request, the stop condition and the analysis of a stop.
 *
 * Order matters for what may outlive rtla. The guardian (forked when the
 * ledger is sealed) comes first and inherits nothing of what follows; the
 * timerlatu/N workers are forked next, close every inherited descriptor
 * and die with rtla (PR_SET_PDEATHSIG), so a SIGKILL leaves none behind;
 * /dev/cpu_dma_latency is opened last, close-on-exec, so that neither they
 * nor an action's shell keep the request alive: it ends when rtla does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "json.h"
#include "ledger.h"
#include "msg.h"
#include "osnoise/threads.h"
#include "sysroot.h"
#include "tasks.h"
#include "timerlat/aa.h"
#include "timerlat/timerlat.h"
#include "trace_events.h"

#include <event-parse.h>

#define WORKER_PRIO	95	/* SCHED_FIFO, as upstream's workers and the kernel's threads */

void timerlat_kernel_prepare(struct timerlat_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->dma_fd = -1;
	k->aa_instance.on_fd = -1;
	k->stop_cpu = -1;
}

static bool has_timerlat_fd(void)
{
	char path[PATH_MAX];

	return !trace_path("osnoise/per_cpu/cpu0/timerlat_fd", path, sizeof(path)) &&
	       !access(path, F_OK);
}

int timerlat_check_kernel(struct noise_params *p)
{
	bool fd = has_timerlat_fd();

	if (p->workload == TL_WORKLOAD_AUTO)
		p->workload = fd ? TL_WORKLOAD_USER : TL_WORKLOAD_KERNEL;
	if (!fd && p->workload != TL_WORKLOAD_KERNEL) {
		err_msg("%s: the kernel has no osnoise/per_cpu/cpuN/timerlat_fd (Linux >= 6.5): "
			"use -k", p->workload == TL_WORKLOAD_USER ? "-u" : "-U");
		return -ENOTSUP;
	}
	return 0;
}

/* ---- --deepest-idle-state ---- */

static int add_idle_path(struct timerlat_kernel *k, const char *path)
{
	char **paths = realloc(k->idle_paths, (k->nr_idle + 1) * sizeof(*paths));

	if (!paths)
		return -ENOMEM;
	k->idle_paths = paths;
	if (!(paths[k->nr_idle] = strdup(path)))
		return -ENOMEM;
	k->nr_idle++;
	return 0;
}

/*
 * Every state deeper than --deepest-idle-state (all of them with -1) of
 * every measured CPU: its disable file, borrowed by the ledger and set to 1
 * (upstream does the same through libcpupower).
 */
int timerlat_kernel_init(struct timerlat_kernel *k, const struct noise_params *p)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	int ret = 0;

	if (p->deepest_idle < -1)
		return 0;
	for (int cpu = 0; !ret && cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		for (int state = p->deepest_idle + 1; !ret; state++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				 cpu, state);
			sysroot_path(path, dir, sizeof(dir));
			if (access(dir, F_OK))
				break;
			ret = add_idle_path(k, dir);
		}
	}
	if (ret)
		return ret;
	if (!k->nr_idle)
		debug_msg("--deepest-idle-state %lld: no deeper cpuidle state on the measured CPUs",
			  p->deepest_idle);
	k->idle_ids = calloc(k->nr_idle ? k->nr_idle : 1, sizeof(*k->idle_ids));
	return k->idle_ids ? 0 : -ENOMEM;
}

int timerlat_idle_disable(struct timerlat_kernel *k, struct ledger *l)
{
	for (int i = 0; i < k->nr_idle; i++) {
		int ret = ledger_write(l, k->idle_ids[i], "1");

		if (ret) {
			err_msg("--deepest-idle-state: cannot disable %s: %s", k->idle_paths[i],
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* ---- the user-space workload: timerlatu/N ---- */

/*
 * A worker: pinned to CPU, SCHED_FIFO 95 (or -P), reading timerlat_fd in
 * a loop; each read returns when its timer fired and the latencies of it
 * are recorded by the kernel. It tells rtla through STATUS whether it got
 * that far (0, or the errno of what failed).
 */
static void worker(int cpu, const struct noise_params *p, int status)
{
	struct sched_prio fifo = { .kind = SCHED_KIND_FIFO, .rt_prio = WORKER_PRIO };
	char name[16], file[64], path[PATH_MAX], buf[1024];
	cpu_set_t one;
	int fd = -1, err = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(name, sizeof(name), "timerlatu/%d", cpu);
	prctl(PR_SET_NAME, name);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	snprintf(file, sizeof(file), "osnoise/per_cpu/cpu%d/timerlat_fd", cpu);
	if (sched_setaffinity(0, sizeof(one), &one))
		err = errno;
	else if (task_set_prio(0, p->prio_given ? &p->prio : &fifo))
		err = EPERM;
	else if (trace_path(file, path, sizeof(path)))
		err = ENOENT;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		err = errno;
	if (write(status, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	close(status);
	for (;;) {
		if (read(fd, buf, sizeof(buf)) < 0 && errno != EINTR)
			_exit(1);
	}
}

static const char *worker_error(int err)
{
	switch (err) {
	case EBUSY:
		return "another process reads it (a timerlat -U workload, or another rtla?)";
	case EINVAL:
		return "the tracer is not running with NO_OSNOISE_WORKLOAD";
	case EPERM:
		return "cannot set the scheduling parameters";
	default:
		return strerror(err);
	}
}

/* Fork one worker per measured CPU; each has opened timerlat_fd when this returns 0. */
static int start_workers(struct timerlat_kernel *k, const struct noise_params *p)
{
	int n = CPU_COUNT(&p->cpus);

	k->workers = calloc(n, sizeof(*k->workers));
	if (!k->workers)
		return -ENOMEM;
	fflush(NULL);	/* a child must not write what rtla buffered */
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		int pipefd[2], err = 0;
		pid_t pid;

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		if (pipe2(pipefd, O_CLOEXEC))
			return -errno;
		pid = fork();
		if (pid == 0) {
			/* rtla's handlers would run rtla's teardown in the child: the defaults */
			for (int sig = 1; sig < NSIG; sig++)
				signal(sig, SIG_DFL);
			close_range(3, pipefd[1] - 1, 0);
			close_range(pipefd[1] + 1, ~0U, 0);
			worker(cpu, p, pipefd[1]);
		}
		close(pipefd[1]);
		if (pid < 0) {
			close(pipefd[0]);
			return -errno;
		}
		k->workers[k->nr_workers++] = pid;
		if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
			err = EIO;
		close(pipefd[0]);
		if (err) {
			err_msg("-u: timerlatu/%d cannot read osnoise/per_cpu/cpu%d/timerlat_fd: %s",
				cpu, cpu, worker_error(err));
			return -err;
		}
	}
	return 0;
}

static void stop_workers(struct timerlat_kernel *k)
{
	for (int i = 0; i < k->nr_workers; i++)
		kill(k->workers[i], SIGKILL);
	for (int i = 0; i < k->nr_workers; i++)
		while (waitpid(k->workers[i], NULL, 0) < 0 && errno == EINTR)
			;
	k->nr_workers = 0;
}

/* ---- --dma-latency ---- */

/* The PM QoS request lasts as long as the descriptor: close-on-exec, opened after every fork. */
int timerlat_dma_latency_open(long long us)
{
	int32_t value = us;
	char path[PATH_MAX];
	int fd;

	sysroot_path("/dev/cpu_dma_latency", path, sizeof(path));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || write(fd, &value, sizeof(value)) != sizeof(value)) {
		int err = errno;

		err_msg("--dma-latency: cannot set %s: %s", path, strerror(err));
		if (fd >= 0)
			close(fd);
		return -err;
	}
	debug_msg("%s set to %lld us", path, us);
	return fd;
}

int timerlat_kernel_start(struct timerlat_kernel *k, const struct noise_params *p)
{
	const char *threads = p->workload == TL_WORKLOAD_KERNEL ? "timerlat/" : "timerlatu/";
	int ret;

	if (p->workload == TL_WORKLOAD_USER && (ret = start_workers(k, p)))
		return ret;
	/* rtla's own workers took -P when they started */
	if (p->prio_given && p->workload == TL_WORKLOAD_KERNEL &&
	    (ret = threads_set_priority(threads, &p->prio)))
		return ret;
	if (p->cgroup && p->workload != TL_WORKLOAD_USER_LOAD &&
	    (ret = threads_set_cgroup(threads, p->cgroup_name)))
		return ret;
	if (p->dma_latency_us >= 0) {
		k->dma_fd = timerlat_dma_latency_open(p->dma_latency_us);
		if (k->dma_fd < 0)
			return k->dma_fd;
	}
	return 0;
}

void timerlat_kernel_stop(struct timerlat_kernel *k)
{
	stop_workers(k);
	if (k->dma_fd >= 0)
		close(k->dma_fd);
	k->dma_fd = -1;
}

void timerlat_kernel_free(struct timerlat_kernel *k)
{
	for (int i = 0; i < k->nr_idle; i++)
		free(k->idle_paths[i]);
	free(k->idle_paths);
	free(k->idle_ids);
	free(k->workers);
	timerlat_aa_free(k->aa);
	tep_free(k->aa_tep);
	/* run->analysis points at k->aa: the driver is done with it by now */
	timerlat_kernel_prepare(k);
}

/* ---- the stop condition and its analysis ---- */

bool timerlat_wants_analysis(const struct noise_params *p)
{
	return noise_stop_set(p) && !p->no_aa;
}

int timerlat_analysis_prepare(struct timerlat_kernel *k, const struct noise_params *p,
			      struct trace_instance *inst)
{
	int ret;

	k->aa = timerlat_aa_new(p->nr_cpus, p->dump_tasks);
	if (!k->aa)
		return -errno;
	k->aa_source = inst;
	ret = timerlat_aa_enable_events(inst->tfs, p->dump_tasks);
	if (ret)
		err_msg("cannot enable the events of the analysis: %s", strerror(-ret));
	return ret;
}

/*
 * The kernel compares in whole us (latency / 1000 >= the limit): an IRQ
 * latency against stop_tracing_us, a thread or user-return one against
 * stop_tracing_total_us. The last one over is the one that stopped it.
 */
void timerlat_note_stop(struct timerlat_kernel *k, const struct noise_params *p, int cpu,
			uint64_t context, uint64_t ns)
{
	long long limit = context == TL_IRQ ? p->stop_us : p->stop_total_us;

	if (context >= TL_CONTEXTS || !limit || (long long)(ns / 1000) < limit)
		return;
	k->stop_cpu = cpu;
	k->stop_context = context;
	k->stop_ns = ns;
}

void timerlat_stopped(struct timerlat_kernel *k, struct noise_run *run, struct tep_handle *tep)
{
	const struct noise_params *p = run->params;

	(void)tep;
	if (k->stop_cpu >= 0) {
		run->stop_reason = timerlat_context_names[k->stop_context];
		run->stop_cpu = k->stop_cpu;
		run->stop_value_us = k->stop_ns / 1000;
	} else {
		/* --aa-only reads no record: the analysis names the CPU */
		run->stop_reason = p->stop_us ? "irq" : "thread";
	}
	if (!k->aa || !k->aa_source)
		return;
	if (!k->aa_tep) {
		k->aa_tep = trace_events_new(p->nr_cpus);
		if (k->aa_tep && timerlat_aa_load_events(k->aa_tep, p->dump_tasks)) {
			tep_free(k->aa_tep);
			k->aa_tep = NULL;
		}
	}
	if (!k->aa_tep || timerlat_aa_collect(k->aa, k->aa_tep, k->aa_source->tfs) < 0)
		warn_msg("the analysis could not read its events: %s", strerror(errno));
	run->analysis = k->aa;
}

/* "continue": the next stop is analysed afresh */
int timerlat_rearm(struct timerlat_kernel *k, const struct noise_params *p)
{
	k->stop_cpu = -1;
	if (!k->aa)
		return 0;
	timerlat_aa_free(k->aa);
	k->aa = timerlat_aa_new(p->nr_cpus, p->dump_tasks);
	return k->aa ? 0 : -ENOMEM;
}

void timerlat_print_analysis(FILE *f, const struct noise_run *run)
{
	const struct noise_params *p = run->params;

	if (timerlat_sampler_run(run))
		timerlat_sampler_print_analysis(f, run);
	else if (run->analysis)
		timerlat_aa_print(run->analysis, f, p->stop_us, p->stop_total_us, p->stack_format);
}

void timerlat_analysis_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;

	if (timerlat_sampler_run(run))
		timerlat_sampler_json(j, run);
	else if (run->analysis)
		timerlat_aa_json(run->analysis, j, p->stop_us, p->stop_total_us);
	else
		json_null(j, "analysis");
}
