// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of osnoise top / hwnoise: the table byte for byte, % CPU Aval
 * without overflow, the option parser's upstream forms, the action grammar.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "osnoise/actions.h"
#include "osnoise/osnoise.h"
#include "osnoise/top.h"
#include "tap.h"

/* a stand-in backend: only its name is read when printing */
const struct noise_backend test_backend = { .name = "test" };

static char *print_table(struct noise_run *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	noise_table_print(f, run, run->start_time + 3723);
	fclose(f);
	return text;
}

static void test_table(void)
{
	struct noise_params p = { .nr_cpus = 4, .irq_disabled = true };
	struct noise_cpu cpu[4] = { 0 };
	struct noise_run run = { .tool = &hwnoise_tool, .params = &p, .cpu = cpu,
				 .backend = &test_backend };
	struct noise_period per = { .cpu = 1, .runtime = 599000000, .noise = 138, .max_sample = 3,
				    .hw = 4, .nmi = 74, .irq = 5, .softirq = 6, .thread = 7 };
	char *s;

	CPU_ZERO(&p.cpus);
	CPU_SET(1, &p.cpus);
	CPU_SET(2, &p.cpus);	/* measured but without runtime: no row */
	noise_run_add_period(&run, &per);
	cpu[1].periods = 599;
	s = print_table(&run);
	is_str(s, "                                          Hardware-related Noise                                   \n"
		  "duration:   0 01:02:03 | time is in us\n"
		  "CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single          HW          NMI\n"
		  "  1 #599       599000000          138    99.99997         138            3           4           74 \n",
	       "hwnoise table: upstream's header, row and trailing space");
	free(s);

	run.tool = &osnoise_top_tool;
	run.missed_events = 5;
	run.processed_events = 15;
	s = print_table(&run);
	is_str(s, "                                          Operating System Noise                                                                          \n"
		  "duration:   0 01:02:03 | time is in us\n"
		  "CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single          HW          NMI          IRQ      Softirq       Thread\n"
		  "  1 #599       599000000          138    99.99997         138            3           4           74            5            6            7\n"
		  "5 (25.00%) events missed, results might not be accurate\n",
	       "osnoise table: three more columns, and the missed-events line");
	free(s);

	run.missed_events = UINT64_MAX;
	s = print_table(&run);
	ok(strstr(s, "unknown number of events missed, results might not be accurate\n") != NULL,
	   "an unknown loss is reported as such");
	free(s);
}

static void test_avail(void)
{
	struct noise_cpu c = { .sum_runtime = 1000000, .sum_noise = 0 };

	is_int(noise_cpu_avail(&c), 10000000, "100%% available");
	c.sum_noise = 1000000;
	is_int(noise_cpu_avail(&c), 0, "0%% available");
	c.sum_noise = 2000000;
	is_int(noise_cpu_avail(&c), 0, "noise above runtime: 0, not a wrap");
	c.sum_runtime = 0;
	is_int(noise_cpu_avail(&c), 0, "no runtime: 0");
	/* 25 days of runtime: (runtime - noise) * 1e7 overflows 64 bits upstream */
	c.sum_runtime = 25ULL * 86400 * 1000000;
	c.sum_noise = c.sum_runtime / 1000;
	is_int(noise_cpu_avail(&c), 9990000, "25 days of runtime: 99.90000%%, no overflow");
}

static int parse(const struct noise_tool *tool, struct noise_params *p, ...)
{
	char *argv[32] = { "rtla" };
	int argc = 1, ret, saved, saved_out, null;
	va_list ap;

	va_start(ap, p);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	fflush(stderr);
	fflush(stdout);
	saved = dup(STDERR_FILENO);
	saved_out = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	/* errors (stderr) and help (stdout) are printed: keep TAP clean */
	dup2(null, STDERR_FILENO);
	dup2(null, STDOUT_FILENO);
	ret = noise_parse_args(argc, argv, tool, p);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	dup2(saved_out, STDOUT_FILENO);
	close(saved);
	close(saved_out);
	close(null);
	return ret;
}

static void test_cli(void)
{
	struct noise_params p;

	is_int(parse(&hwnoise_tool, &p, NULL), 0, "hwnoise without options");
	is_int(p.runtime_us, 750000, "hwnoise default runtime 750000");
	is_int(p.period_us, 1000000, "hwnoise default period 1000000");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, NULL), 0, "osnoise top without options");
	is_int(p.runtime_us, 1000000, "osnoise default runtime 1000000");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "-p", "500000", NULL), 0, "-p alone sets the runtime too");
	is_int(p.runtime_us, 500000, "runtime follows the period");
	noise_params_free(&p);

	is_int(parse(&osnoise_top_tool, &p, "-a", "20", NULL), 0, "-a");
	is_int(p.stop_us, 20, "-a sets stop_us");
	is_int(p.threshold_us, 1, "-a sets a 1 us threshold");
	ok(p.threshold_actions.has_trace && !strcmp(p.threshold_actions.items[0].file, "osnoise_trace.txt"),
	   "-a saves the trace to osnoise_trace.txt");
	noise_params_free(&p);

	is_int(parse(&osnoise_top_tool, &p, "-t", "-d", "20", NULL), 0, "-t followed by an option");
	is_str(p.threshold_actions.items[0].file, "osnoise_trace.txt", "-t -d 20 takes no file");
	is_int(p.duration_s, 20, "... and -d 20 still applies");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "-t", "f1", NULL), 0, "-t FILE");
	is_str(p.threshold_actions.items[0].file, "f1", "-t FILE names the file");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "-t=f2", NULL), 0, "-t=FILE");
	is_str(p.threshold_actions.items[0].file, "f2", "-t=FILE names the file");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "--trace=f3", NULL), 0, "--trace=FILE");
	is_str(p.threshold_actions.items[0].file, "f3", "--trace=FILE names the file");
	noise_params_free(&p);

	is_int(parse(&osnoise_top_tool, &p, "-C", NULL), 0, "-C alone");
	ok(p.cgroup && !p.cgroup_name, "-C alone: rtla's own cgroup");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "-C=grp", "-q", NULL), 0, "-C=name");
	is_str(p.cgroup_name, "grp", "-C=name names the cgroup");
	ok(p.quiet, "options after -C=name still parse");
	noise_params_free(&p);
	is_int(parse(&osnoise_top_tool, &p, "--cgroup", "grp2", NULL), 0, "--cgroup name");
	is_str(p.cgroup_name, "grp2", "--cgroup name names the cgroup");
	noise_params_free(&p);

	is_int(parse(&osnoise_top_tool, &p, "-e", "sched:sched_switch", "--filter", "prev_pid > 0",
		     "-e", "irq", "--trigger", "x", NULL), 0, "-e with --filter and --trigger");
	is_str(p.events->system, "sched", "-e system");
	is_str(p.events->event, "sched_switch", "-e event");
	is_str(p.events->filter, "prev_pid > 0", "--filter goes to the previous -e");
	ok(p.events->next && !p.events->next->event && !strcmp(p.events->next->trigger, "x"),
	   "a second -e with a whole system and its trigger");
	noise_params_free(&p);

	is_int(parse(&osnoise_top_tool, &p, "-p", "10000001", NULL), CLI_ERROR, "period above 10 s");
	is_int(parse(&osnoise_top_tool, &p, "-r", "99", NULL), CLI_ERROR, "runtime below 100 us");
	is_int(parse(&hwnoise_tool, &p, "-p", "500000", NULL), CLI_ERROR, "hwnoise default runtime above -p");
	is_int(parse(&osnoise_top_tool, &p, "--filter", "x", NULL), CLI_ERROR, "--filter without -e");
	is_int(parse(&osnoise_top_tool, &p, "-h", NULL), CLI_EXIT, "-h: help, not an error");
}

static void test_actions(void)
{
	static const char *bad[] = {
		"", "foo", "trace,file=", "trace,x=y", "signal", "signal,num=10", "signal,pid=1",
		"signal,num=0,pid=1", "signal,num=10,pid=x", "signal,num=10,pid=1,extra=2",
		"shell", "shell,cmd=x", "continue,now", "tracefoo",
	};
	struct action_list l = { 0 };
	char err[PARSE_ERR_MAX];

	is_int(actions_parse(&l, "trace", err), 0, "trace");
	is_str(l.items[0].file, "osnoise_trace.txt", "trace: default file");
	is_int(actions_parse(&l, "trace,file=t.txt", err), 0, "trace,file=");
	is_str(l.items[1].file, "t.txt", "trace,file=F names the file");
	is_int(actions_parse(&l, "signal,num=10,pid=parent", err), 0, "signal to the parent");
	is_int(l.items[2].pid, -1, "pid=parent");
	is_int(actions_parse(&l, "signal,pid=42,num=2", err), 0, "signal arguments in any order");
	is_int(l.items[3].signal, 2, "num=2");
	is_int(actions_parse(&l, "shell,command=echo a,b", err), 0, "shell keeps commas");
	is_str(l.items[4].command, "echo a,b", "the command is the rest of the argument");
	is_int(actions_parse(&l, "continue", err), 0, "continue");
	ok(l.has_continue && l.has_trace, "the list knows it has trace and continue");
	actions_free(&l);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		is_int(actions_parse(&l, bad[i], err), -EINVAL, "action '%s' rejected", bad[i]);
		ok(err[0], "  with a reason: %s", err);
	}
	actions_free(&l);
}

static int fake_save_ret;

static int fake_save_trace(struct noise_run *run, const char *path)
{
	return fake_save_ret;
}

/* The chain of actions as upstream runs it: the first failure ends it. */
static void test_action_chain(void)
{
	static const struct noise_backend fake = { .name = "fake", .save_trace = fake_save_trace };
	struct noise_run run = { .backend = &fake };
	struct action_list l = { 0 };
	struct action_outcome o;
	char err[PARSE_ERR_MAX];
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	fflush(stderr);
	dup2(null, STDERR_FILENO);	/* the failures are reported: keep TAP clean */

	actions_parse(&l, "continue", err);
	is_int(actions_run(&l, &run, &o), 0, "continue alone succeeds");
	ok(o.continued && o.done == 1 && o.failed == -1, "continue alone: continued");
	actions_free(&l);

	actions_parse(&l, "shell,command=exit 1", err);
	actions_parse(&l, "continue", err);
	ok(actions_run(&l, &run, &o) < 0, "a failing shell fails the chain");
	ok(!o.continued && o.failed == 0 && o.done == 0, "fail before continue: no continue");
	actions_free(&l);

	actions_parse(&l, "trace,file=x", err);
	actions_parse(&l, "signal,num=28,pid=parent", err);
	actions_parse(&l, "shell,command=true", err);
	actions_parse(&l, "continue", err);
	fake_save_ret = 0;
	is_int(l.len, 4, "four actions parsed");
	is_int(actions_run(&l, &run, &o), 0, "trace + signal + shell + continue");
	ok(o.done == 4 && o.continued && o.failed == -1, "all four ran, continued");
	fake_save_ret = -EIO;
	ok(actions_run(&l, &run, &o) == -EIO && o.failed == 0 && o.done == 0 &&
	   !o.continued, "a failing trace save skips the rest");
	actions_free(&l);

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
}

int main(void)
{
	test_table();
	test_avail();
	test_cli();
	test_actions();
	test_action_chain();
	return tap_done();
}
