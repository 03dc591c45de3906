#!/usr/bin/env python3
# capdump-agree.py PROC BPF PROC2: three `rtla capdump -a --raw -o COLS`
# tables, read from /proc, by the BPF pass, and from /proc again. Every
# process whose row is the same in both /proc reads must have that row from
# BPF too (a kernel worker's name says what it works on, and that changes,
# so it is left out). Used by the host tier and by the guests.
import sys


def rows(path):
    lines = open(path).read().splitlines()
    out = {}
    for line in lines[1:]:
        f = line.split(" ")
        if f[3].startswith("[kworker/"):
            f[3] = "[kworker]"
        out[f[0]] = f
    return lines[0], out


(h1, proc), (h2, bpf), (h3, proc2) = (rows(p) for p in sys.argv[1:4])
assert h1 == h2 == h3 and h1.startswith("PID PPID UID COMMAND "), (h1, h2, h3)
stable = [p for p in proc if proc2.get(p) == proc[p]]
wrong = ["%s\n  proc %s\n  bpf  %s" % (p, proc[p], bpf.get(p)) for p in stable if bpf.get(p) != proc[p]]
assert not wrong, "\n".join(["rows that differ:"] + wrong)
assert "1" in stable and "2" in stable and len(stable) >= 10, stable
print("%d processes compared" % len(stable))
