#!/usr/bin/env bats
# rtla report of real records of this machine, read as a person reads it: in
# a real browser. Headless Chromium renders the page and each plot alone;
# the tests read the page's text through its DOM (--dump-dom) and look at
# the screenshots' pixels (python3-pil): every plot is drawn, with its axes
# and its curves or bars, the worst CPU in the mark colour. The records come
# from sampler runs (root), dhry, capdump, features and compare; the VM
# tier's tracer records are tests/fixtures/report/*-tracer.json.

load ../lib/helper
bats_require_minimum_version 1.5.0

FIX=$TOP/tests/fixtures/report
PY=/usr/bin/python3	# Debian's, with python3-pil

setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	export REC=$BATS_FILE_TMPDIR/rec
	mkdir -p "$REC"
	cd "$REC" || return 1
	"$RTLA" osnoise hist --backend sampler -c 0 -d 2s --json-file osnoise-hist.json \
		--plot osnoise-hist.plot.svg >/dev/null 2>&1
	"$RTLA" osnoise hist --backend sampler -c 0 -d 2s --json-file osnoise-hist-2.json >/dev/null 2>&1
	"$RTLA" osnoise top --backend sampler -c 0 -d 4s -q --json-file osnoise-top.json >/dev/null 2>&1
	"$RTLA" timerlat hist --backend sampler -c 0 -d 2s --json-file timerlat-hist.json \
		--plot timerlat-hist.plot.svg >/dev/null 2>&1
	"$RTLA" dhry -c 0 -d 1s --json-file dhry.json >/dev/null 2>&1
	"$RTLA" capdump -a -J >capdump.json
	"$RTLA" features -J >features.json
	"$RTLA" compare --json-file compare.json osnoise-hist.json osnoise-hist-2.json >/dev/null 2>&1 || true
}

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (the sampler's runs)"
	command -v chromium >/dev/null || skip "chromium is not installed (scripts/deps.sh check)"
	tmp=$(mktemp -d)
	cd "$REC"
}

teardown() {
	[ -z "${tmp:-}" ] || rm -rf "$tmp"
}

# browse ARGS... URL: headless Chromium with a profile of its own, no GPU
browse() {
	HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$tmp/profile" "$@" 2>"$tmp/chromium.log"
}

# screenshot FILE PNG W H: FILE rendered at W x H px into PNG
screenshot() {
	browse --window-size="$3,$4" --screenshot="$2" "file://$1" >/dev/null
	[ -s "$2" ] || { cat "$tmp/chromium.log"; return 1; }
}

# pixels PNG [BOX]: "ink colour mark black": the share of non-white pixels in
# per mille, the saturated ones (curves, bars; not the grey grid or black
# text) and those of the mark colour (vermillion #D55E00), within BOX
# ("left top right bottom", default all), and the black-ish ones of it all
pixels() {
	"$PY" - "$@" <<-'EOF'
	import sys
	from PIL import Image
	im = Image.open(sys.argv[1]).convert("RGB")
	box = tuple(int(v) for v in sys.argv[2].split()) if len(sys.argv) > 2 else (0, 0) + im.size
	ink = colour = mark = black = 0
	for r, g, b in im.getdata():
	    if r < 40 and g < 40 and b < 40:
	        black += 1
	for r, g, b in im.crop(box).getdata():
	    if (r, g, b) != (255, 255, 255):
	        ink += 1
	    if max(r, g, b) - min(r, g, b) > 60:
	        colour += 1
	    if abs(r - 0xD5) < 12 and abs(g - 0x5E) < 12 and b < 12:
	        mark += 1
	print(ink * 1000 // ((box[2] - box[0]) * (box[3] - box[1])), colour, mark, black)
	EOF
}

# the plot area of a 900 x 380 plot (src/plot/svg.c's margins), inside its frame
AREA="80 52 874 330"

@test "report: Chromium renders the page of this machine's records; its DOM holds every section and plot" {
	"$RTLA" report --html "$tmp/page.html" osnoise-hist.json osnoise-top.json timerlat-hist.json \
		dhry.json capdump.json features.json compare.json
	browse --dump-dom "file://$tmp/page.html" >"$tmp/dom.html"
	for h in "osnoise hist on" "osnoise top on" "timerlat hist on" "dhry on" "capdump on" \
		"features on" "compare on"; do
		grep -q "<h2>$h " "$tmp/dom.html" || { echo "no section '$h'"; false; }
	done
	for t in "single noise histogram, one curve per CPU" "max single noise over time, per CPU" \
		"availability over time, per CPU" "IRQ latency histogram" "thread latency histogram" \
		"max thread latency over time" "DMIPS per CPU" "compare: BASE and NEW"; do
		grep -q "<title>[^<]*$t" "$tmp/dom.html" || { echo "no plot '$t'"; false; }
	done
	# the browser parsed the plots as SVG: its DOM has their polylines and rects
	[ "$(grep -c '<polyline' "$tmp/dom.html")" -ge 8 ]
	grep -q 'hold effective or ambient capabilities' "$tmp/dom.html"
}

@test "report: every plot alone is drawn: axes, curves or bars, the worst in the mark colour" {
	for r in osnoise-hist osnoise-top timerlat-hist dhry compare; do
		"$RTLA" report --svg "$tmp/$r.svg" "$r.json"
		screenshot "$tmp/$r.svg" "$tmp/$r.png" 900 420
		read -r ink colour mark black < <(pixels "$tmp/$r.png" "$AREA")
		echo "$r: ink $ink per mille, colour $colour px, mark $mark px, black $black px"
		[ "$ink" -ge 20 ]		# not blank
		[ "$black" -ge 1000 ]		# the frame, ticks and labels
		[ "$colour" -ge 1000 ]		# curves or bars in the plot area
		case $r in
		dhry | compare) ;;		# no slow core, no regression: no mark colour
		*) [ "$mark" -ge 300 ] ;;	# the worst CPU's curve
		esac
	done
}

@test "report: a plot without its curves fails the same check" {
	"$RTLA" report --svg "$tmp/h.svg" osnoise-hist.json
	grep -v '<polyline' "$tmp/h.svg" >"$tmp/bare.svg"
	screenshot "$tmp/bare.svg" "$tmp/bare.png" 900 420
	read -r ink colour mark black < <(pixels "$tmp/bare.png" "$AREA")
	echo "ink $ink, colour $colour, mark $mark, black $black"
	[ "$colour" -lt 1000 ]
	[ "$mark" -lt 300 ]
}

@test "hist --plot draws the plot rtla report --svg draws of its record" {
	"$RTLA" report --svg "$tmp/osnoise.svg" osnoise-hist.json
	cmp osnoise-hist.plot.svg "$tmp/osnoise.svg"
	"$RTLA" report --svg "$tmp/timerlat.svg" timerlat-hist.json
	cmp timerlat-hist.plot.svg "$tmp/timerlat.svg"
}

@test "hist --plot: a FILE that cannot be written is refused before the run, nothing measured" {
	run -1 "$RTLA" osnoise hist --backend sampler -c 0 -d 1s --plot /nonexistent/plot.svg
	[ "$output" = "rtla osnoise hist: --plot: /nonexistent/plot.svg: No such file or directory" ]
	run -1 "$RTLA" timerlat hist --backend sampler -c 0 -d 1s --plot -
	[[ $output == "rtla timerlat hist: --plot"* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "report: the VM tier's tracer records render too" {
	"$RTLA" report --html "$tmp/page.html" "$FIX"/*-tracer.json
	browse --dump-dom "file://$tmp/page.html" >"$tmp/dom.html"
	grep -q '<title>osnoise hist: single noise histogram' "$tmp/dom.html"
	grep -q '<title>timerlat hist: IRQ latency histogram' "$tmp/dom.html"
	grep -q '<title>hwlat hist: hardware latency (inner loop gaps) histogram' "$tmp/dom.html"
}

@test "report: a day on 64 CPUs renders (the time is bench/report's to measure)" {
	"$PY" "$FIX/long-run.py" osnoise 24 64 >"$tmp/long.json"
	"$RTLA" report --html "$tmp/long.html" "$tmp/long.json"
	screenshot "$tmp/long.html" "$tmp/long.png" 1000 2400
	read -r ink colour mark black < <(pixels "$tmp/long.png")
	echo "ink $ink, colour $colour, mark $mark, black $black"
	[ "$colour" -ge 10000 ]
	[ "$mark" -ge 300 ]
}
