// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rtconfig (src/rtconfig.h): the parsers of the kernel's
 * cpumasks, command line, isolcpus=, /proc/interrupts rows and
 * /proc/PID/stat, the --require words, and the items read from a small
 * tree through the sysroot, each verdict at its boundary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "rtconfig.h"
#include "sysroot.h"
#include "tap.h"

static const char *list(const cpu_set_t *set)
{
	static char buf[256];

	return cpu_list_format(set, CPU_SETSIZE, buf, sizeof(buf));
}

static void test_cpumask(void)
{
	char err[PARSE_ERR_MAX];
	cpu_set_t set;

	ok(!rtconfig_parse_cpumask("3", &set, err), "3");
	is_str(list(&set), "0-1", "3 is CPUs 0-1");
	ok(!rtconfig_parse_cpumask("fffffffd\n", &set, err), "a trailing newline");
	is_str(list(&set), "0,2-31", "fffffffd");
	ok(!rtconfig_parse_cpumask("1,00000000", &set, err), "two words");
	is_str(list(&set), "32", "the word before the comma is CPUs 32-63");
	ok(!rtconfig_parse_cpumask("0", &set, err), "0");
	is_str(list(&set), "", "0 is no CPU");
	ok(rtconfig_parse_cpumask("", &set, err) == -EINVAL, "empty refused: %s", err);
	ok(rtconfig_parse_cpumask("3g", &set, err) == -EINVAL, "not hex refused: %s", err);
}

static void test_cmdline(void)
{
	const char *cl = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=domain,managed_irq,2-3 "
			 "rcu_nocbs nohz_full=2-3 tsc=reliable tsc=unstable -- isolcpus=7 init_arg";
	char buf[64];

	is_str(rtconfig_cmdline_param(cl, "isolcpus", buf, sizeof(buf)), "domain,managed_irq,2-3",
	       "isolcpus= before --, not init's after it");
	is_str(rtconfig_cmdline_param(cl, "rcu_nocbs", buf, sizeof(buf)), "", "a bare flag is \"\"");
	is_str(rtconfig_cmdline_param(cl, "tsc", buf, sizeof(buf)), "unstable",
	       "the last of two, as the kernel takes it");
	ok(!rtconfig_cmdline_param(cl, "nohz", buf, sizeof(buf)), "nohz is not nohz_full");
	ok(!rtconfig_cmdline_param(cl, "init_arg", buf, sizeof(buf)), "after -- is init's");
	ok(!rtconfig_cmdline_param("", "tsc", buf, sizeof(buf)), "an empty line");
}

static void test_isolcpus(void)
{
	char flags[64];
	cpu_set_t set;

	ok(!rtconfig_parse_isolcpus("1-3", 8, &set, flags, sizeof(flags)), "a bare list");
	is_str(list(&set), "1-3", "its CPUs");
	is_str(flags, "domain", "no flag is domain, as the kernel takes it");
	ok(!rtconfig_parse_isolcpus("nohz,managed_irq,2,5", 8, &set, flags, sizeof(flags)),
	   "flags first");
	is_str(list(&set), "2,5", "the list after the flags");
	is_str(flags, "nohz,managed_irq", "the flags");
	ok(rtconfig_parse_isolcpus("domain,", 8, &set, flags, sizeof(flags)) == -EINVAL,
	   "flags without a list refused");
	ok(rtconfig_parse_isolcpus("9", 8, &set, flags, sizeof(flags)) == -EINVAL,
	   "a CPU that does not exist refused");
}

static void test_interrupts(void)
{
	char name[64];
	bool per_cpu;
	int irq;

	ok(rtconfig_parse_interrupt("           CPU0       CPU1\n", 2, &irq, name, sizeof(name),
				    &per_cpu) == -EINVAL, "the header is no interrupt");
	ok(!rtconfig_parse_interrupt("  4:          0        123   IO-APIC   4-edge      ttyS0\n", 2,
				     &irq, name, sizeof(name), &per_cpu), "an x86 device row");
	is_int(irq, 4, "its number");
	is_str(name, "ttyS0", "its action");
	ok(!per_cpu, "a device's");
	ok(!rtconfig_parse_interrupt(" 24:   5   6  PCI-MSIX-0000:00:03.0   0-edge      virtio0-config\n",
				     2, &irq, name, sizeof(name), &per_cpu), "an MSI-X row");
	is_str(name, "virtio0-config", "its action");
	ok(!rtconfig_parse_interrupt("  9:  0  0   IO-APIC   9-fasteoi   acpi, i8042\n", 2, &irq,
				     name, sizeof(name), &per_cpu), "a shared interrupt");
	is_str(name, "acpi, i8042", "every action of it");
	ok(!rtconfig_parse_interrupt("LOC:     123456     654321   Local timer interrupts\n", 2,
				     &irq, name, sizeof(name), &per_cpu), "the local timer row");
	is_int(irq, -1, "no number");
	ok(per_cpu, "per CPU");
	ok(!rtconfig_parse_interrupt(" 11:  9000  9001     GICv3  27 Level     arch_timer\n", 2, &irq,
				     name, sizeof(name), &per_cpu), "arm64's arch timer");
	ok(per_cpu, "a GIC PPI (hwirq 27) is per CPU");
	ok(!rtconfig_parse_interrupt(" 14:   7   0     GICv3  33 Level     uart-pl011\n", 2, &irq,
				     name, sizeof(name), &per_cpu), "a GIC SPI");
	ok(!per_cpu, "hwirq 33 is a device's");
	is_str(name, "uart-pl011", "its action");
	ok(!rtconfig_parse_interrupt("ERR:          0\n", 2, &irq, name, sizeof(name), &per_cpu),
	   "ERR, one count");
	ok(per_cpu && irq == -1, "a named row");
}

static void test_stat(void)
{
	char comm[32];
	unsigned long flags;

	ok(!rtconfig_parse_stat("19 (ksoftirqd/1) S 2 0 0 0 -1 69238848 0 0 0 0\n", comm,
				sizeof(comm), &flags), "a kernel thread");
	is_str(comm, "ksoftirqd/1", "its name");
	ok(flags == 69238848ul, "its flags (PF_KTHREAD|PF_NO_SETAFFINITY|...): %lu", flags);
	ok(!rtconfig_parse_stat("7 (a) b) R 1 7 7 0 -1 4194560 1\n", comm, sizeof(comm), &flags),
	   "a name with ') ' in it");
	is_str(comm, "a) b", "up to the last )");
	ok(flags == 4194560ul, "flags after it");
	ok(rtconfig_parse_stat("7 (x) R 1 2\n", comm, sizeof(comm), &flags) == -EINVAL,
	   "too few fields refused");
	ok(rtconfig_parse_stat("garbage", comm, sizeof(comm), &flags) == -EINVAL, "no ( ) refused");
}

static void test_require(void)
{
	char err[PARSE_ERR_MAX], words[512];
	unsigned mask;

	ok(!rtconfig_parse_require("isolated,nohz_full,no-irqs", &mask, err), "three words");
	is_int(mask, (1 << RTC_ISOLATED) | (1 << RTC_NOHZ_FULL) | (1 << RTC_IRQS), "their items");
	ok(!rtconfig_parse_require("rt", &mask, err), "rt");
	is_int(mask, 1 << RTC_PREEMPT_RT, "is PREEMPT_RT");
	ok(rtconfig_parse_require("isolated,bogus", &mask, err) == -EINVAL, "an unknown word");
	is_str(err, "unknown requirement 'bogus'", "named");
	ok(rtconfig_parse_require("isolated,,rt", &mask, err) == -EINVAL, "an empty word: %s", err);
	ok(rtconfig_parse_require("", &mask, err) == -EINVAL, "nothing: %s", err);
	ok(rtconfig_parse_require("isolate", &mask, err) == -EINVAL, "a prefix is no word");
	rtconfig_words(words, sizeof(words));
	for (int i = 0; i < RTC_NR_ITEMS; i++)
		ok(!rtconfig_parse_require(rtconfig_items[i].word, &mask, err) && mask == 1u << i,
		   "word %s is item %s", rtconfig_items[i].word, rtconfig_items[i].name);
	ok(strstr(words, "no-timer-migration") != NULL, "the words: %s", words);
}

/* A tree of the files the items read. */
static char tmp[] = "/tmp/rtla-rtconfig-XXXXXX";

static void tput(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		exit(2);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(2);
}

static const char *verdict(const struct rtconfig *c, enum rtconfig_item i)
{
	return rtconfig_verdict_name(c->items[i].verdict);
}

static void test_tree(void)
{
	struct rtconfig c;
	cpu_set_t cpus;
	char cmd[128];

	if (!mkdtemp(tmp))
		exit(2);
	tput("sys/devices/system/cpu/online", "0-3\n");
	tput("sys/devices/system/cpu/possible", "0-3\n");
	tput("sys/devices/system/cpu/isolated", "2-3\n");
	tput("sys/devices/system/cpu/nohz_full", "3\n");
	tput("sys/kernel/realtime", "1\n");
	tput("proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian\n");
	tput("proc/sys/kernel/osrelease", "6.12.0-rt-amd64\n");
	tput("proc/cmdline", "isolcpus=2-3 nohz_full=3 rcu_nocbs=2-3 tsc=reliable\n");
	tput("proc/interrupts", "           CPU0       CPU1       CPU2       CPU3\n"
	     "  4:   1   2   3   4   IO-APIC   4-edge      ttyS0\n"
	     " 24:   1   0   0   0   PCI-MSIX   0-edge      virtio0-config\n"
	     "LOC:   9   9   9   9   Local timer interrupts\n");
	tput("proc/irq/4/effective_affinity_list", "3\n");
	tput("proc/irq/24/smp_affinity_list", "0-1\n");	/* no effective file: the mask */
	tput("sys/devices/virtual/workqueue/cpumask", "9\n");
	tput("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	tput("proc/sys/kernel/sched_rt_period_us", "1000000\n");
	tput("sys/kernel/debug/sched/fair_server/cpu2/runtime", "0\n");
	tput("sys/kernel/debug/sched/fair_server/cpu3/runtime", "50000000\n");
	tput("sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	tput("sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave\n");
	tput("sys/devices/system/cpu/cpu3/cpufreq/scaling_min_freq", "800000\n");
	tput("sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq", "800000\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state0/name", "POLL\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state0/latency", "0\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state0/disable", "0\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state1/name", "C1\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state1/latency", "2\n");
	tput("sys/devices/system/cpu/cpu2/cpuidle/state1/disable", "1\n");
	tput("sys/devices/system/cpu/cpu3/cpuidle/state0/name", "POLL\n");
	tput("sys/devices/system/cpu/cpu3/cpuidle/state0/latency", "0\n");
	tput("sys/devices/system/cpu/cpu3/cpuidle/state1/name", "C1\n");
	tput("sys/devices/system/cpu/cpu3/cpuidle/state1/latency", "2\n");
	tput("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	tput("sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet \n");
	tput("proc/sys/kernel/timer_migration", "0\n");
	/* kernel threads: a per-CPU one, a bound one, one free to run anywhere, rcuop/N */
	tput("proc/10/stat", "10 (ksoftirqd/3) S 2 0 0 0 -1 69238848 0\n");
	tput("proc/10/status", "Name:\tksoftirqd/3\nCpus_allowed_list:\t3\n");
	tput("proc/11/stat", "11 (irq/4-ttyS0) S 2 0 0 0 -1 2129984 0\n");
	tput("proc/11/status", "Name:\tirq/4-ttyS0\nCpus_allowed_list:\t3\n");
	tput("proc/12/stat", "12 (kworker/u8:0) I 2 0 0 0 -1 69238880 0\n");
	tput("proc/12/status", "Name:\tkworker/u8:0\nCpus_allowed_list:\t0-3\n");
	tput("proc/13/stat", "13 (rcuop/2) S 2 0 0 0 -1 2129984 0\n");
	tput("proc/13/status", "Name:\trcuop/2\nCpus_allowed_list:\t0-1\n");
	tput("proc/14/stat", "14 (rcuop/3) S 2 0 0 0 -1 2129984 0\n");
	tput("proc/14/status", "Name:\trcuop/3\nCpus_allowed_list:\t0-1\n");
	tput("proc/15/stat", "15 (bash) S 1 15 15 0 -1 4194560 0\n");
	tput("proc/15/status", "Name:\tbash\nCpus_allowed_list:\t3\n");
	ok(!sysroot_set(tmp), "sysroot %s", tmp);

	CPU_ZERO(&cpus);
	CPU_SET(2, &cpus);
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_PREEMPT_RT), "ok", "rt: %s", c.items[RTC_PREEMPT_RT].value);
	is_str(verdict(&c, RTC_ISOLATED), "ok", "cpu 2 isolated: %s", c.items[RTC_ISOLATED].value);
	is_str(verdict(&c, RTC_NOHZ_FULL), "bad", "cpu 2 not nohz_full: %s", c.items[RTC_NOHZ_FULL].value);
	is_str(verdict(&c, RTC_RCU_NOCBS), "ok", "rcuop/2: %s", c.items[RTC_RCU_NOCBS].value);
	is_str(verdict(&c, RTC_IRQS), "ok", "no device irq on 2: %s", c.items[RTC_IRQS].value);
	is_str(verdict(&c, RTC_WORKQUEUE), "ok", "cpumask 9 (0,3) leaves 2 out: %s", c.items[RTC_WORKQUEUE].value);
	is_str(verdict(&c, RTC_KTHREADS), "ok", "none bound to 2: %s", c.items[RTC_KTHREADS].value);
	is_str(verdict(&c, RTC_THROTTLING), "ok", "-1 and fair server 0 on 2: %s",
	       c.items[RTC_THROTTLING].value);
	is_str(verdict(&c, RTC_CPUFREQ), "ok", "performance: %s", c.items[RTC_CPUFREQ].value);
	is_str(verdict(&c, RTC_CPUIDLE), "ok", "C1 disabled: %s", c.items[RTC_CPUIDLE].value);
	is_str(verdict(&c, RTC_CLOCKSOURCE), "ok", "tsc: %s", c.items[RTC_CLOCKSOURCE].value);
	is_str(c.items[RTC_CLOCKSOURCE].value, "tsc (available: tsc hpet); tsc=reliable",
	       "the available list without its blank, and tsc=");
	is_str(verdict(&c, RTC_TIMER_MIGRATION), "ok", "0");

	CPU_SET(3, &cpus);
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_NOHZ_FULL), "partial", "2-3, nohz_full 3: partial");
	is_str(verdict(&c, RTC_IRQS), "bad", "ttyS0 on 3: %s", c.items[RTC_IRQS].value);
	ok(strstr(c.items[RTC_IRQS].value, "4 ttyS0 on 3") != NULL, "named with its CPU");
	is_str(verdict(&c, RTC_WORKQUEUE), "partial", "cpumask 9 has 3: %s", c.items[RTC_WORKQUEUE].value);
	is_str(verdict(&c, RTC_KTHREADS), "bad", "irq/4-ttyS0: %s", c.items[RTC_KTHREADS].value);
	is_str(c.items[RTC_KTHREADS].value, "1 bound there besides 1 per-CPU: irq/4-ttyS0 on 3",
	       "the per-CPU one counted, the bound one named, the free one and bash not");
	is_str(verdict(&c, RTC_THROTTLING), "bad", "fair server on 3: %s", c.items[RTC_THROTTLING].value);
	is_str(verdict(&c, RTC_CPUFREQ), "ok", "min == max on 3: %s", c.items[RTC_CPUFREQ].value);
	is_str(verdict(&c, RTC_CPUIDLE), "partial", "C1 on 3: %s", c.items[RTC_CPUIDLE].value);

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_ISOLATED), "bad", "cpu 0 not isolated");
	is_str(verdict(&c, RTC_IRQS), "bad", "virtio0-config by its mask: %s", c.items[RTC_IRQS].value);
	is_str(verdict(&c, RTC_RCU_NOCBS), "bad", "no rcuop/0");
	is_str(verdict(&c, RTC_CPUFREQ), "ok", "no cpufreq: %s", c.items[RTC_CPUFREQ].value);

	/* the global settings, each turned */
	tput("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	tput("proc/sys/kernel/timer_migration", "1\n");
	tput("sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
	tput("sys/kernel/realtime", "0\n");
	tput("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_THROTTLING), "bad", "%s", c.items[RTC_THROTTLING].value);
	is_str(verdict(&c, RTC_TIMER_MIGRATION), "bad", "timer_migration 1");
	is_str(verdict(&c, RTC_CLOCKSOURCE), "partial", "kvm-clock");
	is_str(verdict(&c, RTC_PREEMPT_RT), "bad", "%s", c.items[RTC_PREEMPT_RT].value);
	tput("sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	unlink(strcat(strcpy(cmd, tmp), "/sys/kernel/realtime"));
	tput("proc/sys/kernel/version", "#1 SMP PREEMPT_RT Tue\n");
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_CLOCKSOURCE), "bad", "hpet");
	is_str(verdict(&c, RTC_PREEMPT_RT), "ok", "uname -v says it: %s", c.items[RTC_PREEMPT_RT].value);

	/* no processes: rcu_nocbs from the command line, the threads unknown */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc/1[0-9]", tmp);
	if (system(cmd))
		exit(2);
	CPU_SET(3, &cpus);
	CPU_CLR(0, &cpus);
	rtconfig_read(&c, &cpus, 4);
	is_str(verdict(&c, RTC_RCU_NOCBS), "ok", "rcu_nocbs=2-3: %s", c.items[RTC_RCU_NOCBS].value);
	is_str(verdict(&c, RTC_KTHREADS), "unknown", "%s", c.items[RTC_KTHREADS].value);

	sysroot_set("/");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		exit(2);
}

int main(void)
{
	test_cpumask();
	test_cmdline();
	test_isolcpus();
	test_interrupts();
	test_stat();
	test_require();
	test_tree();
	return tap_done();
}
