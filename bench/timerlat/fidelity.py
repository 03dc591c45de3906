#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare rtla timerlat's record with statistics computed from the raw trace
of the same run (bench/timerlat/run.sh, on its guest output on stdin): per
CPU and context the samples of the activations seq_first..seq_last, their
count, exact minimum and maximum, average, and for hist the nearest-rank
percentiles by whole us and every bucket. Prints each comparison and a
closing line; exits 1 when a figure differs."""
import json
import math
import re
import sys

CONTEXTS = {"irq": "irq", "thread": "thread", "user-ret": "user"}
RAW = re.compile(r"\[(\d+)\].*#(\d+)\s+context\s+(\S+)\s+timer_latency\s+(\d+) ns")
PCTS = {"p50_us": 5000, "p90_us": 9000, "p99_us": 9900, "p999_us": 9990, "p9999_us": 9999}


def sections(text):
    out, name = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            name = line[3:]
            out.setdefault(name, [])
        elif name:
            out[name].append(line)
    return out


def raw_samples(lines):
    samples = {}
    for line in lines:
        m = RAW.search(line)
        if m:
            cpu, seq, ctx, ns = int(m[1]), int(m[2]), CONTEXTS[m[3]], int(m[4])
            samples.setdefault((cpu, ctx), []).append((seq, ns))
    return samples


def nearest_rank(sorted_us, per_10000):
    rank = max(1, (len(sorted_us) * per_10000 + 9999) // 10000)
    return sorted_us[rank - 1]


def compare(mode, rec, samples, results):
    hist = mode.startswith("hist")
    buckets = {}
    if hist:
        for c in rec["histogram"]["cpus"]:
            for ctx in ("irq", "thread", "user"):
                if ctx in c:
                    buckets[(c["cpu"], ctx)] = (dict((b, n) for b, n in c[ctx]["buckets"]),
                                                c[ctx]["over"])
    for c in rec["cpus"]:
        for ctx in ("irq", "thread", "user"):
            if ctx not in c or not c[ctx]["count"]:
                continue
            ours = c[ctx]
            cut = [ns for seq, ns in samples.get((c["cpu"], ctx), [])
                   if ours["seq_first"] <= seq <= ours["seq_last"]]
            us = sorted(ns // 1000 for ns in cut)
            want = {"count": len(cut)}
            if hist:
                # hist keeps whole us, as upstream's: its figures are the us times 1000
                want.update(min_ns=us[0] * 1000, max_ns=us[-1] * 1000,
                            avg_ns=round(sum(us) / len(us) * 1000, 1))
                want.update((k, nearest_rank(us, p)) for k, p in PCTS.items())
                rows, over = buckets[(c["cpu"], ctx)]
                counted = {}
                for u in us:
                    if u < 256:
                        counted[u] = counted.get(u, 0) + 1
                want_over = sum(1 for u in us if u >= 256)
                results.append((f"{mode} cpu {c['cpu']} {ctx} buckets",
                                (rows, over) == (counted, want_over), f"{len(rows)} rows"))
            else:
                want.update(min_ns=min(cut), max_ns=max(cut),
                            avg_ns=round(sum(cut) / len(cut), 1))
            for k, v in want.items():
                got = ours[k]
                same = math.isclose(got, v, abs_tol=0.051) if k == "avg_ns" else got == v
                results.append((f"{mode} cpu {c['cpu']} {ctx} {k}", same, f"ours {got} raw {v}"))


def main():
    s = sections(sys.stdin.read())
    results = []
    for mode in ("top", "hist"):
        if f"{mode} record" not in s:
            continue
        print(f"  {mode}: exit {s.get(mode + ' exit', ['?'])} {' '.join(s.get(mode + ' err', []))}")
        rec = json.loads("\n".join(s[f"{mode} record"]))
        compare(mode, rec, raw_samples(s[f"{mode} raw"]), results)
    for name, same, detail in results:
        print(f"  {'equal  ' if same else 'DIFFERS'} {name}: {detail}")
    bad = sum(1 for _, same, _ in results if not same)
    print(f"  fidelity: {len(results) - bad} of {len(results)} figures equal to the raw trace's")
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main())
