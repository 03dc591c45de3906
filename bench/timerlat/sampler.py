#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""timerlat's sampler backend on this machine's kernel, beside cyclictest.

Three parts, each alternating the runs it compares (this machine is noisy:
ratios and spreads, not absolute times):

  cyclictest  the same period, priority (SCHED_FIFO 95), CPU and DMA latency
              request (cyclictest's default: 0 us) for both, ROUNDS times
              each, alternated: the median and p99 of the thread latency of
              each run, and the CPU time each tool spent per wake-up. Goals:
              our median and p99 within the spread of cyclictest's own
              runs; our CPU per wake-up no more than cyclictest's, with the
              attribution on.
  attribution a SCHED_FIFO 99 task on the measured CPU that spins a known
              time every 50 ms: of the wake-ups later than the threshold,
              the share whose largest cause names that task (goal >= 95 %),
              and, on the idle machine, the share of all latency time no
              event accounts for.
  observer    the latencies with the attribution on and off (--unattributed),
              alternated: what tracing the events costs the measured CPU.

  sudo bench/timerlat/sampler.py [--rtla build/rtla] [--cpu N] [--seconds S]
                                 [--rounds R] [--parts cyclictest,attribution,observer]
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_timed(cmd):
    """Run CMD; its stdout and the CPU seconds it and its children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 2):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout, p.stderr, cpu


def percentile(hist, q):
    """Nearest-rank percentile of a {us: count} histogram."""
    total = sum(hist.values())
    rank = max(1, int(q * total + 0.999999))
    seen = 0
    for us in sorted(hist):
        seen += hist[us]
        if seen >= rank:
            return us
    return max(hist)


def cyclictest_run(a, seconds):
    out, _, cpu = run_timed(["cyclictest", "-m", "-p95", f"-i{a.period}", "-a", str(a.cpu),
                             "-t1", "-D", str(seconds), "-h", "20000", "-q"])
    hist = {}
    for line in out.splitlines():
        m = re.match(r"^(\d{6})\s+(\d+)", line)
        if m and int(m.group(2)):
            hist[int(m.group(1))] = int(m.group(2))
    over = re.search(r"# Histogram Overflows: (\d+)", out)
    if over and int(over.group(1)):
        hist[20000] = int(over.group(1))
    return hist, cpu


def rtla_run(a, extra=(), seconds=None):
    """Our hist's thread latencies by us (from the record's buckets), and its CPU time."""
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "r.json")
        _, err, cpu = run_timed([a.rtla, "timerlat", "hist", "--backend", "sampler",
                                 "-c", str(a.cpu), "-d", str(seconds or a.seconds), "-P", "f:95",
                                 "-p", str(a.period), "--dma-latency", "0", "-b", "1",
                                 "-E", "20000", "--json-file", rec, *extra])
        r = json.load(open(rec))
    c = r["histogram"]["cpus"][0]["thread"]
    hist = {int(b): int(n) for b, n in c["buckets"]}
    if c["over"]:
        hist[20000] = c["over"]
    return hist, cpu, r


def summary(hist, cpu, short=None):
    """The run's figures; with the SHORT (1 s) run's (hist, cpu), the CPU per extra wake-up."""
    n = sum(hist.values())
    s = {"median": percentile(hist, 0.5), "p99": percentile(hist, 0.99),
         "max": max(hist), "wakeups": n, "cpu_us_per_wakeup": cpu * 1e6 / n}
    if short:
        s["marginal_us"] = (cpu - short[1]) * 1e6 / max(n - sum(short[0].values()), 1)
        s["startup_ms"] = (short[1] - s["marginal_us"] * sum(short[0].values()) / 1e6) * 1e3
    return s


def part_cyclictest(a):
    print(f"== cyclictest vs sampler: CPU {a.cpu}, period {a.period} us, FIFO 95, DMA latency "
          f"0 us, {a.seconds} s (and 1 s, for the CPU per wake-up) x {a.rounds}, alternated")
    runs = {"cyclictest": [], "sampler": []}
    for _ in range(a.rounds):
        short = cyclictest_run(a, 1)
        runs["cyclictest"].append(summary(*cyclictest_run(a, a.seconds), short))
        short = rtla_run(a, seconds=1)[:2]
        runs["sampler"].append(summary(*rtla_run(a)[:2], short))
    for tool, rs in runs.items():
        for r in rs:
            print(f"  {tool:10} median {r['median']:4} us  p99 {r['p99']:5} us  max {r['max']:6} us"
                  f"  cpu {r['marginal_us']:.2f} us per wake-up + {r['startup_ms']:.0f} ms to "
                  f"start and stop ({r['wakeups']} wake-ups)")
    ct, sp = runs["cyclictest"], runs["sampler"]
    for key in ("median", "p99"):
        lo, hi = min(r[key] for r in ct), max(r[key] for r in ct)
        ours = statistics.median(r[key] for r in sp)
        spread = max(hi - lo, 1)
        print(f"  {key}: cyclictest {lo}..{hi} us, ours (median of runs) {ours} us: "
              f"{'within' if lo - spread <= ours <= hi + spread else 'OUTSIDE'} "
              f"cyclictest's range widened by its own spread ({spread} us)")
    ratio = statistics.median(r["marginal_us"] for r in sp) / \
        max(statistics.median(r["marginal_us"] for r in ct), 1e-9)
    print(f"  cpu per wake-up, ours / cyclictest: {ratio:.2f} (goal <= 1.00, attribution on)")


HOG = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static long long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec; }
int main(int argc, char **argv) {
	long long spin = atoll(argv[1]) * 1000, end = now() + atoll(argv[3]) * 1000000000LL;
	struct timespec gap = { 0, atol(argv[2]) * 1000000L };
	static long long win[100000][2];
	int n = 0;
	while (now() < end && n < 100000) {
		long long t0 = now(), t;
		while ((t = now()) < t0 + spin)
			;
		win[n][0] = t0; win[n++][1] = t;
		nanosleep(&gap, 0);
	}
	for (int i = 0; i < n; i++)
		printf("%lld %lld\n", win[i][0], win[i][1]);
	return 0;
}
"""


def overlap(a0, a1, wins):
    return max((min(a1, w1) - max(a0, w0) for w0, w1 in wins), default=0)


def part_attribution(a):
    print(f"== attribution: a SCHED_FIFO 99 task spins {a.hog_us} us every 50 ms on CPU {a.cpu}")
    with tempfile.TemporaryDirectory() as d:
        src, hog, saved = (os.path.join(d, x) for x in ("hog.c", "rtla_hog", "trace.txt"))
        open(src, "w").write(HOG)
        subprocess.run(["cc", "-O2", "-o", hog, src], check=True)
        threshold = a.hog_us // 2
        p = subprocess.Popen(["taskset", "-c", str(a.cpu), "chrt", "-f", "99", hog,
                              str(a.hog_us), "50", str(a.seconds + 2)],
                             stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        # -T with "continue": every wake-up over it is explained, the run goes on
        run_timed([a.rtla, "timerlat", "top", "--backend", "sampler", "-q", "-c", str(a.cpu),
                   "-d", str(a.seconds), "-T", str(threshold), "--on-threshold", "continue",
                   "--on-end", f"trace,file={saved}"])
        wins = [tuple(map(int, line.split())) for line in p.communicate()[0].splitlines()]
        text = open(saved).read()
    caused = named = other = 0
    for b in text.split("## CPU ")[1:]:
        head = b.split("\n")[0]
        if "over the threshold" not in head:
            continue
        target = int(re.search(r"expected at (\d+) ns", head).group(1))
        lat = int(re.search(r"Thread latency:\s+(\d+) ns", b).group(1))
        top = b.split("What the CPU did meanwhile:\n")[1].splitlines()[0].strip()
        if overlap(target, target + lat, wins) < lat / 2:
            other += 1	# late for another reason (an idle exit in a VM, ...)
            continue
        caused += 1
        named += bool(re.match(rf"(thread|interrupts off in) rtla_hog:{p.pid}\b", top))
    print(f"  {caused + other} wake-ups over {threshold} us, {caused} of them during a spin of the "
          f"task; its largest cause names the task in {named} "
          f"({100.0 * named / max(caused, 1):.1f} %, goal >= 95 %)")
    _, _, r = rtla_run(a)
    w = r["worst_wakeups"][0]
    share = 100.0 * w["unaccounted_ns_total"] / max(w["latency_ns_total"], 1)
    print(f"  idle machine: {w['wakeups_explained']} wake-ups, {share:.2f} % of their latency "
          f"time accounted for by no event")


def part_observer(a):
    print(f"== observer effect: attribution on and off, alternated, {a.rounds} x {a.seconds} s")
    res = {"on": [], "off": []}
    for _ in range(a.rounds):
        for mode, extra in (("on", ()), ("off", ("--unattributed",))):
            h, cpu, _ = rtla_run(a, extra)
            res[mode].append(summary(h, cpu, rtla_run(a, extra, 1)[:2]))
    for mode, rs in res.items():
        print(f"  attribution {mode:3}: median {[r['median'] for r in rs]} us, p99 "
              f"{[r['p99'] for r in rs]} us, cpu {statistics.median(r['marginal_us'] for r in rs):.2f} "
              f"us per wake-up")
    on = statistics.median(r["median"] for r in res["on"])
    off = statistics.median(r["median"] for r in res["off"])
    print(f"  median latency, on - off: {on - off:+} us")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtla", default=os.environ.get("RTLA", "build/rtla"))
    ap.add_argument("--cpu", type=int, default=os.cpu_count() - 1)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--period", type=int, default=1000)
    ap.add_argument("--hog-us", type=int, default=400)
    ap.add_argument("--parts", default="cyclictest,attribution,observer")
    a = ap.parse_args()
    if os.geteuid():
        sys.exit("needs root (SCHED_FIFO, tracefs)")
    if not shutil.which("cyclictest"):
        sys.exit("needs cyclictest (Debian's rt-tests)")
    for part in a.parts.split(","):
        {"cyclictest": part_cyclictest, "attribution": part_attribution,
         "observer": part_observer}[part](a)


if __name__ == "__main__":
    main()
