#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtla report on records of growing runs: the record's size, the page's,
# rtla report's time and headless Chromium's time to render the page to a
# screenshot, beside Chromium's time for an empty page in the same run (its
# start-up, which the ratio takes out). The records are made by
# tests/fixtures/report/long-run.py: an osnoise hist and a timerlat hist
# record of HOURS on CPUS, the series merged as rtla merges them.
#
#   RTLA=build/rtla bench/report/run.sh      (or: bench/run.sh --build build report)
#   RUNS=3 to change the repetitions (median)
set -eu
cd "$(dirname "$0")/../.."

rtla=${RTLA:-build/rtla}
runs=${RUNS:-3}
[ -x "$rtla" ] || { echo "report bench: no rtla binary at $rtla (set RTLA)" >&2; exit 1; }
command -v chromium >/dev/null || { echo "report bench: chromium is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median_ms CMD...: the median wall time of RUNS runs, in ms
median_ms() {
	local t0 t1
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000))
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

render() {
	HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$tmp/profile" --window-size=1000,3000 \
		--screenshot="$tmp/shot.png" "file://$1"
}

echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>empty</title></head><body></body></html>' >"$tmp/empty.html"
empty=$(median_ms render "$tmp/empty.html")
printf '%-22s %9s %9s %11s %12s %10s\n' run record page "report ms" "render ms" "render-empty"
for size in "0.1 2" "1 8" "10 16" "24 64"; do
	read -r hours cpus <<<"$size"
	python3 tests/fixtures/report/long-run.py osnoise "$hours" "$cpus" >"$tmp/o.json"
	python3 tests/fixtures/report/long-run.py timerlat "$hours" "$cpus" >"$tmp/t.json"
	report=$(median_ms "$rtla" report --html "$tmp/page.html" "$tmp/o.json" "$tmp/t.json")
	page=$(stat -c %s "$tmp/page.html")
	record=$(($(stat -c %s "$tmp/o.json") + $(stat -c %s "$tmp/t.json")))
	shown=$(median_ms render "$tmp/page.html")
	printf '%-22s %8sK %8sK %11s %12s %10s\n' "${hours} h on $cpus CPUs" $((record / 1024)) \
		$((page / 1024)) "$report" "$shown" "$((shown - empty))"
done
echo "(Chromium, an empty page: $empty ms; both records of a run on one page)"
