# The records of the tracers drawn on the machine that measured (a board
# makes its own report): osnoise hist, timerlat hist and hwlat hist on the
# kernel's tracers, each with --plot beside its table and --json-file; the
# records carry the series of every measured CPU (schema 2), each plot a
# curve per CPU, and rtla report puts the three on one page. The host tier
# renders such records in Chromium (tests/host/report.bats, from
# tests/fixtures/report/*-tracer.json, records of this test).
#
# Budget: about 15 s of guest time (three 3 s runs).

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# curves SVG: the polylines of a plot, one per CPU
curves() {
	grep -c '<polyline' "$1"
}

# series_cpus RECORD: the CPUs of the record's series with at least one point
series_cpus() {
	sed -n '/"series": {/,$p' "$1" | grep -c '"points": \[$'
}

@test "report: the tracers' hist records, each plotted beside its table, on one page" {
	run "$RTLA" osnoise hist -c 0-1 -d 3s --json-file osnoise.json --plot osnoise.svg
	[ "$status" -eq 0 ]
	[ "$(curves osnoise.svg)" -eq 2 ]
	grep -q '<title>osnoise hist: single noise histogram, one curve per CPU</title>' osnoise.svg
	grep -q '"version": 2' osnoise.json
	[ "$(series_cpus osnoise.json)" -eq 2 ]
	run "$RTLA" timerlat hist -c 0-1 -d 3s --json-file timerlat.json --plot timerlat.svg
	[ "$status" -eq 0 ]
	[ "$(curves timerlat.svg)" -eq 2 ]
	grep -q '<title>timerlat hist: IRQ latency histogram, one curve per CPU</title>' timerlat.svg
	[ "$(series_cpus timerlat.json)" -eq 2 ]
	run "$RTLA" hwlat hist -c 0 -d 3s -p 100000 -r 10000 --json-file hwlat.json --plot hwlat.svg
	[ "$status" -eq 0 ]
	grep -q '<title>hwlat hist: hardware latency (inner loop gaps) histogram, one curve per CPU</title>' hwlat.svg
	run "$RTLA" report --html page.html osnoise.json timerlat.json hwlat.json
	[ "$status" -eq 0 ]
	[ "$(grep -c '<section id="record-' page.html)" -eq 3 ]
	grep -q '<title>timerlat hist: max thread latency over time, per CPU</title>' page.html
	grep -q '<title>osnoise hist: max single noise over time, per CPU</title>' page.html
}
