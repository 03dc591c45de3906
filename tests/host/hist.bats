#!/usr/bin/env bats
# osnoise hist and hwnoise hist on this machine's kernel, with the sampler
# backend (no osnoise tracer here): upstream's histogram text, every hist
# option, the JSON record against the text, stop conditions, the instance
# removed. Needs root and tracefs.

load ../lib/helper
bats_require_minimum_version 1.5.0

TRACING=/sys/kernel/tracing

setup() {
	needs_root "the sampler's tracefs instance"
	mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING" 2>/dev/null ||
		skip "needs tracefs at $TRACING"
	T=$BATS_TEST_TMPDIR
	NCPU=$(getconf _NPROCESSORS_ONLN)
}

# hist ARGS...: rtla ARGS with stdout in $T/out, stderr in $T/err, $status;
# no sampler instance of its may be left behind
hist() {
	local pid
	"$RTLA" "$@" >"$T/out" 2>"$T/err" 3>&- &
	pid=$!
	status=0
	wait "$pid" || status=$?
	cat "$T/out" "$T/err"
	if [ -e "$TRACING/instances/rtla_sampler_$pid" ]; then
		echo "instance rtla_sampler_$pid was left behind"
		return 1
	fi
}

# check_text FILE [BUCKET ENTRIES FLAGS...]: FILE is upstream's histogram text
# for bucket size BUCKET (1) and ENTRIES (256) with the flags --no-header,
# --no-summary, --no-index, --with-zeros as given: every line in its format,
# at least one row with a count (the callers all expect samples: the zero
# block of "nothing above the threshold" is refused here), and per column the
# summary agreeing with the rows: count = the rows' sum + over; min the first
# row with a count (or, all over, at least ENTRIES buckets); max the last one
# (or, with any over, at least that); avg, of the bucket floors, their mean
# when nothing is over, otherwise at least the in-range floors' sum + over
# times the first floor past the end, divided by count
check_text() {
	python3 - "$@" <<-'EOF'
		import re, sys
		path, *rest = sys.argv[1:]
		bs = int(rest[0]) if rest else 1
		entries = int(rest[1]) if len(rest) > 1 else 256
		flags = rest[2:]
		no_index = "--no-index" in flags
		lines = open(path).read().split("\n")
		assert lines.pop() == "", "no final newline"
		take = lambda: lines.pop(0)
		ncol = None
		if "--no-header" not in flags:
		    assert take() == "# RTLA osnoise histogram"
		    assert take() == "# Time unit is microseconds (us)"
		    assert re.fullmatch(r"# Duration: +\d+ \d\d:\d\d:\d\d", take())
		    index = take()
		    m = re.fullmatch(r"(Index)?((?:   CPU-\d{3})*)", index)
		    assert m and bool(m.group(1)) != no_index, index
		    ncol = len(m.group(2)) // 10
		assert lines[:5] != ["over: 0", "count: 0", "min: 0", "avg: 0", "max: 0"], \
		    "an empty histogram (upstream's zero block): " + repr(lines)
		rows = []
		while len(rows) < entries if no_index else not lines[0].startswith("over:"):
		    line = take()
		    idx, cells = (len(rows) * bs, line) if no_index else (int(line[:6]), line[6:])
		    assert no_index or line[:6] == "%-6d" % idx, line
		    counts = [int(cells[i:i + 10]) for i in range(0, len(cells), 10)]
		    assert cells == "".join("%9d " % c for c in counts), line
		    ncol = len(counts) if ncol is None else ncol
		    assert len(counts) == ncol, line
		    assert idx % bs == 0 and idx < bs * entries, line
		    assert sum(counts) or "--with-zeros" in flags, "an empty row: " + line
		    rows.append((idx, counts))
		idxs = [i for i, _ in rows]
		assert idxs == sorted(set(idxs)), idxs
		if "--with-zeros" in flags:
		    assert idxs == [i * bs for i in range(entries)], idxs
		assert ncol and any(sum(c) for _, c in rows), "no row with a count: " + repr(rows)
		summary = {}
		for name in ["over"] + ([] if "--no-summary" in flags else ["count", "min", "avg", "max"]):
		    line = take()
		    head = "" if no_index else (name + ":").ljust(6)
		    assert line.startswith(head), (name, line)
		    cells = line[len(head):]
		    assert len(cells) == 10 * ncol, (name, line)
		    vals = [cells[i:i + 10] for i in range(0, len(cells), 10)]
		    assert all(re.fullmatch(r" *\d+(\.\d\d)? ", v) for v in vals), line
		    assert (name == "avg") == all("." in v for v in vals) or not vals, line
		    if name in ("min", "max"):
		        assert all(int(v) % bs == 0 for v in vals), line
		    summary[name] = [float(v) if name == "avg" else int(v) for v in vals]
		end = bs * entries
		for col in range(ncol):
		    ks = [(i, c[col]) for i, c in rows if c[col]]
		    in_range, over = sum(k for _, k in ks), summary["over"][col]
		    if "count" not in summary:
		        continue
		    count, lo, avg, hi = (summary[n][col] for n in ("count", "min", "avg", "max"))
		    what = "column %d: rows %r, over %d, count %d min %d avg %.2f max %d" % (
		        col, ks, over, count, lo, avg, hi)
		    assert count > 0 and count == in_range + over, "count is not rows + over: " + what
		    assert lo == ks[0][0] if ks else lo >= end, "min is not the first row: " + what
		    assert hi == ks[-1][0] if not over else hi >= end, "max is not the last row: " + what
		    floors = sum(i * k for i, k in ks)
		    if not over:
		        assert abs(avg - floors / count) < 0.006, "avg is not the rows' mean: " + what
		    else:
		        assert avg >= (floors + over * end) / count - 0.006, "avg below the rows: " + what
		    assert lo <= avg <= hi, "avg outside min..max: " + what
		for line in lines:
		    assert re.fullmatch(r"\d+ \(\d+\.\d\d%\) events missed, results might not be accurate", line), line
		print(len(rows), "rows,", ncol, "columns,", sum(sum(c) for _, c in rows), "samples in them")
	EOF
}

@test "osnoise hist -c 0 -d 2s: upstream's histogram, the note on stderr, exit 0" {
	hist osnoise hist --backend sampler -c 0 -d 2s
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$T/out")" = "# RTLA osnoise histogram" ]
	check_text "$T/out"
	grep -qx 'rtla osnoise hist: sampler backend: measured from user space, noise attributed from trace events' "$T/err"
	# one column at most: CPU 0
	sed -n 4p "$T/out" | grep -Eqx 'Index(   CPU-000)?'
	! grep -q $'\033' "$T/out" || false
}

@test "hwnoise hist on every CPU: its title, rows in upstream's format" {
	hist hwnoise hist --backend sampler -d 2s
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$T/out")" = "# RTLA hwnoise histogram" ]
	sed -i 1s/hwnoise/osnoise/ "$T/out"
	check_text "$T/out"
}

@test "-b 10 -E 20 --with-zeros: twenty rows 0 to 190, floors in min and max" {
	hist osnoise hist --backend sampler -c 0 -d 2s -b 10 -E 20 --with-zeros
	[ "$status" -eq 0 ]
	check_text "$T/out" 10 20 --with-zeros
	grep -q '^190   ' "$T/out"
}

@test "--no-index --with-zeros --no-header --no-summary: counts only" {
	hist osnoise hist --backend sampler -c 1 -d 2s -E 10 --no-index --with-zeros --no-header --no-summary
	[ "$status" -eq 0 ]
	check_text "$T/out" 1 10 --no-index --with-zeros --no-header --no-summary
	! grep -q '[a-z#]' "$T/out" || false
}

@test "nothing above the threshold: upstream's zero block; the record says why" {
	hist osnoise hist --backend sampler -c 0 -d 2s -T 5000000 --json-file "$T/r.json"
	[ "$status" -eq 0 ]
	[ "$(tail -n 5 "$T/out")" = "$(printf 'over: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0')" ]
	[ "$(sed -n 4p "$T/out")" = Index ]
	python3 - "$T/r.json" <<-'EOF'
		import json, sys
		d = json.load(open(sys.argv[1]))
		[c] = d["cpus"]
		assert c["cpu"] == 0 and c["count"] == 0, c
		for k in ("min_us", "avg_us", "max_us", "p50_us", "p90_us", "p99_us", "p999_us", "p9999_us"):
		    assert c[k] is None, (k, c)
		assert c["buckets"] == [] and c["over_count"] == 0 and c["reason"], c
	EOF
}

# check_record JSON TEXT COMMAND BUCKET ENTRIES: the record of COMMAND agrees with the text
check_record() {
	python3 - "$@" <<-'EOF'
		import json, re, sys
		path, text, command, bs, entries = sys.argv[1:]
		bs, entries = int(bs), int(entries)
		d = json.load(open(path))
		assert list(d)[:9] == ["schema", "tool", "version", "command", "host", "kernel",
		                       "started", "duration_s", "verdict"], list(d)
		assert d["schema"] == {"name": "rtla-" + command.replace(" ", "-"), "version": 2}, d["schema"]
		assert d["command"] == command and d["backend"] == "sampler", d
		assert d["histogram"] == {"unit": "us", "bucket_size_us": bs, "entries": entries,
		                          "resolution_ns": 1}, d["histogram"]
		lines = open(text).read().split("\n") if text != "-" else []
		cols = re.findall(r"CPU-(\d+)", lines[3]) if lines else []
		with_samples = [c for c in d["cpus"] if c["count"]]
		# every caller expects samples: a record without any proves nothing below
		assert with_samples, "no CPU with samples: " + repr(d["cpus"])
		assert [int(c) for c in cols] == [c["cpu"] for c in with_samples] or not lines, (cols, with_samples)
		pct = ["p50_us", "p90_us", "p99_us", "p999_us", "p9999_us"]
		for i, c in enumerate(with_samples):
		    assert c["min_us"] <= c["avg_us"] <= c["max_us"], c
		    ps = [c[k] for k in pct]
		    assert ps == sorted(ps) and int(c["min_us"]) <= ps[0] and ps[-1] <= int(c["max_us"]), c
		    assert sum(k for _, k in c["buckets"]) + c["over_count"] == c["count"], c
		    assert all(i % bs == 0 and i < bs * entries for i, _ in c["buckets"]), c
		    if not lines:
		        continue
		    rows = {int(l[:6]): int(l[6 + 10 * i:16 + 10 * i]) for l in lines[4:]
		            if re.match(r"\d", l)}
		    assert rows or c["over_count"], ("no row in the text", c)
		    assert {k: v for k, v in rows.items() if v} == dict(c["buckets"]), (rows, c["buckets"])
		    def row(name):
		        l = next(l for l in lines if l.startswith(name + ":"))
		        return l[6 + 10 * i:16 + 10 * i].strip()
		    assert int(row("over")) == c["over_count"] and int(row("count")) == c["count"], c
		    floor = lambda us: int(us) - int(us) % bs
		    assert int(row("min")) == floor(c["min_us"]) and int(row("max")) == floor(c["max_us"]), c
		print(len(with_samples), "CPUs with samples")
	EOF
}

@test "--json-file: the record beside the text, the same counts, exact figures" {
	hist osnoise hist --backend sampler -d 2s -b 2 -E 50 --json-file "$T/r.json"
	[ "$status" -eq 0 ]
	check_text "$T/out" 2 50
	check_record "$T/r.json" "$T/out" "osnoise hist" 2 50
}

@test "hwnoise hist -J: the record alone on stdout" {
	hist hwnoise hist --backend sampler -c 0 -d 2s -J
	[ "$status" -eq 0 ]
	[ "$(head -c1 "$T/out")" = "{" ]
	check_record "$T/out" - "hwnoise hist" 1 256
	grep -q '"runtime_us": 750000' "$T/out"
}

@test "-s 1: the histogram, then 'osnoise hit stop tracing', exit 2" {
	hist osnoise hist --backend sampler -c 0 -s 1 -d 30s --json-file "$T/r.json"
	[ "$status" -eq 2 ]
	[ "$(tail -n 1 "$T/out")" = "osnoise hit stop tracing" ]
	head -n -1 "$T/out" >"$T/text"
	check_text "$T/text"
	grep -q '"verdict": "stopped"' "$T/r.json"
	grep -q '"condition": "single"' "$T/r.json"
}

@test "SIGINT ends the run with the histogram and exit 0" {
	"$RTLA" osnoise hist --backend sampler -c 0 -d 60s >"$T/out" 2>"$T/err" 3>&- &
	pid=$!
	sleep 2
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat "$T/out" "$T/err"
	[ "$status" -eq 0 ]
	check_text "$T/out"
	[ ! -e "$TRACING/instances/rtla_sampler_$pid" ]
}

@test "a terminal gets no live view, only the histogram at the end" {
	command -v script >/dev/null || skip "needs script (util-linux)"
	run script -qec "'$RTLA' osnoise hist --backend sampler -c 0 -d 2s 2>/dev/null" /dev/null
	[ "$status" -eq 0 ]
	[[ $output != *$'\033'* ]]
	[ "$(grep -c '# RTLA osnoise histogram' <<<"$output")" -eq 1 ]
}
