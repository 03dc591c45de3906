#!/usr/bin/env bats
# rtla dhry: table and JSON shape, CPU selection, modes, bad input.
# Iteration counts are tiny so that every test is quick (but for the modes,
# whose runs must be long enough to overlap); speed is never asserted.

load ../lib/helper
bats_require_minimum_version 1.5.0

setup() {
	tmp=$(mktemp -d)
	online=$(cat /sys/devices/system/cpu/online)
	# the CPUs of "0-1,4" as a list of numbers
	cpus=$(echo "$online" | tr ',' '\n' | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done)
	ncpus=$(echo "$cpus" | wc -l)
	last=$(echo "$cpus" | tail -1)
}

teardown() {
	rm -rf "$tmp"
}

# json_get FILE EXPR: a Python expression over the parsed document "d"
json_get() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# check_envelope FILE: the file is one rtla-dhry record that starts with the
# envelope every record has (rtla(1), JSON RECORDS)
check_envelope() {
	python3 - "$1" "$(cat "$BATS_TEST_DIRNAME/../../VERSION")" "$(uname -n)" "$(uname -r)" <<-'EOF'
		import json, re, sys
		path, version, host, kernel = sys.argv[1:]
		d = json.load(open(path))
		keys = list(d)
		assert keys[:9] == ["schema", "tool", "version", "command", "host", "kernel",
		                    "started", "duration_s", "verdict"], keys
		assert d["schema"] == {"name": "rtla-dhry", "version": 1}, d["schema"]
		assert d["tool"] == "rtla" and d["version"] == version, (d["tool"], d["version"])
		assert d["command"] == "dhry", d["command"]
		assert d["host"] == host and d["kernel"] == kernel, (d["host"], d["kernel"])
		assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["started"]), d["started"]
		assert isinstance(d["duration_s"], (int, float)) and d["duration_s"] >= 0, d["duration_s"]
		assert d["verdict"] in ("passed", "slow", "failed"), d["verdict"]
		assert "result" not in d
	EOF
}

# bad_input ARGS...: exit 1, one line on stderr, nothing on stdout
bad_input() {
	run --separate-stderr "$RTLA" dhry "$@"
	echo "status=$status stdout=[$output] stderr=[$stderr]"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "rtla dhry: "* ]]
}

@test "dhry is in the command table and has a help" {
	run "$RTLA" --help
	[[ "$output" == *"  dhry       Dhrystone 2.1 on every chosen CPU"* ]]
	run "$RTLA" dhry --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: rtla dhry"* ]]
	[[ "$output" == *"--sequential"* ]]
	[[ "$output" == *"DMIPS/MHZ"* ]]
	[[ "$output" == *"Benchmark built with "*"-fno-inline"* ]]
	help_out=$output
	run "$RTLA" help dhry
	[ "$output" = "$help_out" ]
}

@test "default table: every online CPU, the header, one passing row each" {
	run --separate-stderr "$RTLA" dhry -i 2000 --raw
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "CPU ITERATIONS SECONDS BUSY DHRY/S DMIPS MHZ DMIPS/MHZ CLOCK CHECK RATIO SLOW" ]
	[ "${#lines[@]}" -eq $((ncpus + 1)) ]
	i=1
	for cpu in $cpus; do
		read -r c it secs busy dps dmips rest <<<"${lines[$i]}"
		[ "$c" = "$cpu" ]
		[ "$it" = 2000 ]
		[[ "$secs" =~ ^[0-9]+\.[0-9]{3}$ ]]
		[[ "$busy" =~ ^[0-9]+\.[0-9]$ ]]
		[[ "$dps" =~ ^[0-9]+$ ]]
		[[ "$dmips" =~ ^[0-9]+\.[0-9]$ ]]
		[[ "${lines[$i]}" =~ \ (perf|cpufreq|none)\ OK\ [0-9]+\.[0-9]{3}\ (yes|no)$ ]]
		i=$((i + 1))
	done
}

@test "a short -i run warns that it is too short to be meaningful" {
	run --separate-stderr "$RTLA" dhry -i 1000 -c 0
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: CPU 0 ran "*" s: runs under 2 s are not meaningful"* ]]
}

@test "-o, -n and --raw pick the columns" {
	run --separate-stderr "$RTLA" dhry -i 1000 -c 0 -o CPU,ITERATIONS,CHECK -n --raw
	[ "$status" -eq 0 ]
	[ "$output" = "0 1000 OK" ]
	# "+" adds to the defaults; a column named twice prints once
	run --separate-stderr "$RTLA" dhry -i 1000 -c 0 -o +CPU --raw
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "CPU ITERATIONS SECONDS BUSY DHRY/S DMIPS MHZ DMIPS/MHZ CLOCK CHECK RATIO SLOW" ]
}

@test "-J prints the run record as JSON with typed values" {
	run --separate-stderr "$RTLA" dhry -i 1000 -J
	[ "$status" -eq 0 ]
	echo "$output" >"$tmp/t.json"
	check_envelope "$tmp/t.json"
	[ "$(json_get "$tmp/t.json" 'len(d["cpus"])')" -eq "$ncpus" ]
	[ "$(json_get "$tmp/t.json" 'sorted(d["cpus"][0].keys())')" = \
	  "['busy_pct', 'check', 'clock', 'cpu', 'dhrystones_per_second', 'dmips', 'dmips_per_mhz', 'end_ns', 'error', 'iterations', 'mhz', 'ratio', 'seconds', 'slow', 'start_ns']" ]
	[ "$(json_get "$tmp/t.json" 'd["cpus"][0]["iterations"]')" = 1000 ]
	[ "$(json_get "$tmp/t.json" 'type(d["cpus"][0]["dmips"]).__name__')" = float ]
	[ "$(json_get "$tmp/t.json" 'type(d["cpus"][0]["slow"]).__name__')" = bool ]
	[ "$(json_get "$tmp/t.json" 'd["cpus"][0]["check"]')" = OK ]
	[ "$(json_get "$tmp/t.json" 'type(d["cpus"][0]["busy_pct"]).__name__')" = float ]
	[ "$(json_get "$tmp/t.json" 'type(d["threshold_pct"]).__name__')" = int ]
}

@test "--json-file FILE writes the run record and the table still prints" {
	run --separate-stderr "$RTLA" dhry -i 1500 --json-file "$tmp/run.json"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "CPU "* ]]
	[ "${#lines[@]}" -eq $((ncpus + 1)) ]
	f=$tmp/run.json
	check_envelope "$f"
	[ "$(json_get "$f" 'd["command"]')" = dhry ]
	[ "$(json_get "$f" 'd["benchmark"]')" = "Dhrystone 2.1" ]
	[ "$(json_get "$f" 'd["mode"]')" = parallel ]
	[ "$(json_get "$f" 'd["iterations"]')" = 1500 ]
	[ "$(json_get "$f" 'd["min_seconds"]')" = None ]
	[ "$(json_get "$f" 'd["threshold_pct"]')" = 10 ]
	[ "$(json_get "$f" 'd["vax_dhrystones_per_second"]')" = 1757 ]
	[[ "$(json_get "$f" 'd["cflags"]')" == *-fno-inline* ]]
	[ "$(json_get "$f" '[c["cpu"] for c in d["cpus"]]')" = "[$(echo $cpus | sed 's/ /, /g')]" ]
	[ "$(json_get "$f" 'all(c["check"] == "OK" and c["error"] is None for c in d["cpus"])')" = True ]
	[ "$(json_get "$f" 'all(c["iterations"] == 1500 for c in d["cpus"])')" = True ]
	[ "$(json_get "$f" 'all(abs(c["dmips"] - c["dhrystones_per_second"] / 1757) < 0.01 for c in d["cpus"])')" = True ]
	[ "$(json_get "$f" 'd["failed_cpus"]')" = "[]" ]
	[[ "$(json_get "$f" 'd["verdict"]')" =~ ^(passed|slow)$ ]]
}

@test "-J prints the record instead of the table; --json-file - prints it after the table" {
	run --separate-stderr "$RTLA" dhry -i 1000 -c 0 -J
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "{" ]
	echo "$output" >"$tmp/r.json"
	check_envelope "$tmp/r.json"
	[ "$(json_get "$tmp/r.json" 'len(d["cpus"])')" = 1 ]
	run --separate-stderr "$RTLA" dhry -i 1000 -c 0 --json-file -
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "CPU "* ]]
	[[ "${lines[1]}" =~ ^\ +0\  ]]
	[ "${lines[2]}" = "{" ]
	printf '%s\n' "${lines[@]:2}" >"$tmp/r.json"
	check_envelope "$tmp/r.json"
	[ "$(json_get "$tmp/r.json" 'len(d["cpus"])')" = 1 ]
}

@test "-c selects CPUs, in CPU order" {
	run --separate-stderr "$RTLA" dhry -i 1000 -c "$last" -o CPU -n --raw
	[ "$status" -eq 0 ]
	[ "$output" = "$last" ]
	run --separate-stderr "$RTLA" dhry -i 1000 -c "$online" -o CPU -n --raw
	[ "$status" -eq 0 ]
	[ "$output" = "$cpus" ]
}

@test "-c takes the CPU words; a word naming no CPU is an error" {
	run --separate-stderr "$RTLA" dhry -i 1000 -c online -o CPU -n --raw
	[ "$status" -eq 0 ]
	[ "$output" = "$cpus" ]
	iso=$(cat /sys/devices/system/cpu/isolated)
	if [ -z "$iso" ]; then
		bad_input -c isolated -i 1000
		[ "$stderr" = "rtla dhry: Invalid -c cpu list: 'isolated': this machine has no isolated CPU (boot with isolcpus=)" ]
	else
		run --separate-stderr "$RTLA" dhry -i 1000 -c isolated -o CPU -n --raw
		[ "$status" -eq 0 ]
	fi
}

# intervals FILE: each CPU's "cpu start_ns end_ns", in the record's (CPU) order
intervals() {
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cpus"]:
    print(c["cpu"], c["start_ns"], c["end_ns"])' "$1"
}

@test "--sequential runs the CPUs one after another, --parallel all together" {
	# runs long enough (a tenth of a second or so) to overlap when run
	# together, even with a worker woken late
	run --separate-stderr "$RTLA" dhry -i 5000000 --sequential -J
	[ "$status" -eq 0 ]
	echo "$output" >"$tmp/s.json"
	[ "$(json_get "$tmp/s.json" 'd["mode"]')" = sequential ]
	[ "$(json_get "$tmp/s.json" 'len(d["cpus"])')" -eq "$ncpus" ]
	# each CPU's runs begin after the previous CPU's ended
	prev_end=-1
	while read -r cpu start end; do
		echo "sequential: CPU $cpu ran from $start to $end ns (previous ended at $prev_end)"
		[ "$start" -lt "$end" ]
		[ "$start" -gt "$prev_end" ]
		prev_end=$end
	done < <(intervals "$tmp/s.json")
	[ "$prev_end" -gt 0 ]

	run --separate-stderr "$RTLA" dhry -i 5000000 --parallel -J
	[ "$status" -eq 0 ]
	echo "$output" >"$tmp/p.json"
	[ "$(json_get "$tmp/p.json" 'd["mode"]')" = parallel ]
	[ "$(json_get "$tmp/p.json" 'len(d["cpus"])')" -eq "$ncpus" ]
	if [ "$ncpus" -lt 2 ]; then
		skip "one CPU online: nothing to run alongside"
	fi
	# every CPU's runs began before any CPU's ended: one span they all share
	last_start=0
	first_end=
	while read -r cpu start end; do
		echo "parallel: CPU $cpu ran from $start to $end ns"
		[ "$start" -lt "$end" ]
		if [ "$start" -gt "$last_start" ]; then last_start=$start; fi
		if [ -z "$first_end" ] || [ "$end" -lt "$first_end" ]; then first_end=$end; fi
	done < <(intervals "$tmp/p.json")
	echo "the last began at $last_start ns, the first ended at $first_end ns"
	[ "$last_start" -lt "$first_end" ]
}

@test "--threshold 100 flags no CPU" {
	run --separate-stderr "$RTLA" dhry -i 1000 --threshold 100 -o SLOW -n --raw
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'no\n%.0s' $cpus)" ]
}

@test "a wrong final value is FAILED, has no score, and exits 1" {
	RTLA_DHRY_FAULT_CPU=0 run --separate-stderr "$RTLA" dhry -i 1000 -c 0 --raw
	[ "$status" -eq 1 ]
	[[ "${lines[1]}" =~ ^0\ +none\ FAILED\ *$ ]]
	[[ "$stderr" == *"rtla dhry: CPU 0: FAILED: Int_Glob: 6, should be 5"* ]]
	RTLA_DHRY_FAULT_CPU=0 run --separate-stderr "$RTLA" dhry -i 1000 -c 0 -J
	[ "$status" -eq 1 ]
	echo "$output" >"$tmp/f.json"
	check_envelope "$tmp/f.json"
	[ "$(json_get "$tmp/f.json" 'd["cpus"][0]["check"]')" = FAILED ]
	[ "$(json_get "$tmp/f.json" 'd["cpus"][0]["dhrystones_per_second"]')" = None ]
	[ "$(json_get "$tmp/f.json" 'd["cpus"][0]["dmips"]')" = None ]
	[ "$(json_get "$tmp/f.json" 'd["failed_cpus"]')" = "[0]" ]
	[ "$(json_get "$tmp/f.json" 'd["verdict"]')" = failed ]
}

@test "bad input: CPUs that do not exist or are not online" {
	bad_input -c 99999 -i 1000
	[[ "$stderr" == "rtla dhry: Invalid -c cpu list: '99999': CPU 99999 does not exist"* ]]
	bad_input -c 0,,1 -i 1000
	bad_input -c "" -i 1000
	possible=$(cat /sys/devices/system/cpu/possible)
	[ "$possible" != "$online" ] || skip "every possible CPU is online: no offline CPU to name"
	offline=$(comm -13 <(echo "$cpus" | sort) \
		<(echo "$possible" | tr ',' '\n' | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done | sort) | head -1)
	bad_input -c "$offline" -i 1000
	[[ "$stderr" == *"CPU $offline is not online"* ]]
}

@test "bad input: iterations that are not a count, not positive or overflow" {
	bad_input -i 0
	[ "$stderr" = "rtla dhry: -i: '0' is out of range [1, 2147483637]" ]
	bad_input -i -5
	bad_input -i 2147483638
	bad_input -i 99999999999999999999999
	bad_input -i 12abc
	bad_input -i ""
	bad_input -i
	[ "$stderr" = "rtla dhry: option needs an argument: -i" ]
}

@test "bad input: conflicting and malformed options" {
	bad_input -i 1000 -d 3
	[ "$stderr" = "rtla dhry: -i and -d exclude each other: give a count or a time" ]
	bad_input -d 3 -i 1000
	bad_input --parallel --sequential -i 1000
	bad_input -d 0
	bad_input -d 5x
	bad_input -d 2d
	bad_input --threshold 101 -i 1000
	[ "$stderr" = "rtla dhry: --threshold: '101' is out of range [0, 100]" ]
	bad_input -o NOSUCH -i 1000
	[ "$stderr" = "rtla dhry: -o: unknown column: 'NOSUCH'" ]
	bad_input --no-such-option
	[ "$stderr" = "rtla dhry: unknown option: --no-such-option" ]
	bad_input -i 1000 extra
	[ "$stderr" = "rtla dhry: unexpected argument: extra" ]
	bad_input -i 1000 --json-file "$tmp/missing/dir/x.json"
	[ "$stderr" = "rtla dhry: --json-file: $tmp/missing/dir/x.json: No such file or directory" ]
	bad_input -i 1000 --json-file -q
	[[ "$stderr" == "rtla dhry: --json-file: file name starts with '-': '-q'"* ]]
	[ ! -e ./-q ]
	# the old spellings: -p, -s, -t and -r are gone, --json takes no FILE
	for opt in -p -s -t -r; do
		bad_input "$opt" -i 1000
		[ "$stderr" = "rtla dhry: unknown option: $opt" ]
	done
	bad_input -i 1000 --json "$tmp/x.json"
	[ "$stderr" = "rtla dhry: unexpected argument: $tmp/x.json" ]
	[ ! -e "$tmp/x.json" ]
	# live-only: main() refuses --sysroot before the command runs
	run --separate-stderr "$RTLA" dhry --sysroot "$tmp" -i 1000
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "rtla dhry: --sysroot "*": this command needs the live system" ]]
}

@test "a full disk is an error" {
	for json in "" -J; do
		run --separate-stderr bash -c "'$RTLA' dhry -i 1000 -c 0 $json > /dev/full"
		echo "dhry $json: status=$status stderr=[$stderr]"
		[ "$status" -eq 1 ]
		# the short run's warning, then the one write error
		[ "$(printf '%s\n' "${stderr_lines[@]}" | grep -vc '^rtla dhry: warning: ')" -eq 1 ]
		[ "${stderr_lines[-1]}" = "rtla dhry: write error: No space left on device" ]
	done
}

@test "on a terminal the progress line is drawn with ESC[K; TERM=dumb and no TERM get none" {
	command -v script >/dev/null || skip "script(1) is not installed"
	TERM=xterm script -qec "$RTLA dhry -c 0 -i 20000 >/dev/null" /dev/null >"$tmp/xterm"
	grep -q $'\033\\[K' "$tmp/xterm"
	TERM=dumb script -qec "$RTLA dhry -c 0 -i 20000 >/dev/null" /dev/null >"$tmp/dumb"
	! grep -q $'\033\\[K' "$tmp/dumb" || false
	env -u TERM script -qec "$RTLA dhry -c 0 -i 20000 >/dev/null" /dev/null >"$tmp/none"
	! grep -q $'\033\\[K' "$tmp/none" || false
}
