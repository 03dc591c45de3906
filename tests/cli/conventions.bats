#!/usr/bin/env bats
# The convention every command follows (rtla(1), CONVENTIONS), tested over the
# command table itself: a new command is covered here without a new test, and
# fails here until it follows the convention.

load ../lib/helper

# Quick arguments that make a command produce a result in a second or two.
# A command missing here fails the loop tests: add its quick arguments.
declare -gA QUICK=(
	[osnoise]="--backend sampler -c 0 -d 1s"
	[hwnoise]="--backend sampler -c 0 -d 1s"
	[timerlat]="-c 0 -d 1s"
	[hwlat]="-c 0 -d 1s -p 100000 -r 10000"
	[dhry]="-c 0 -i 100000"
	[capdump]="1"
	[parport]="--ports"
	[features]="-g caps,memfd"
	[capture]="--dry-run -x /proc /tmp/rtla-conventions-capture"
	[damos]="--sysroot $BATS_TEST_DIRNAME/../fixtures/damos/vm-6.12"
	[mdwe]="1"
	[compare]="$BATS_TEST_DIRNAME/../fixtures/gates/base.json $BATS_TEST_DIRNAME/../fixtures/gates/base.json"
	[report]="$BATS_TEST_DIRNAME/../fixtures/report/dhry.json"
	[help]=""
	# verbs, where the command's own quick arguments do not fit them
	["osnoise top"]="--backend sampler -c 0 -d 1s"
	["osnoise hist"]="--backend sampler -c 0 -d 1s"
	["hwnoise hist"]="--backend sampler -c 0 -d 1s"
	["timerlat top"]="-c 0 -d 1s"
	["timerlat hist"]="-c 0 -d 1s"
	["hwlat top"]="-c 0 -d 1s -p 100000 -r 10000"
	["hwlat hist"]="-c 0 -d 1s -p 100000 -r 10000"
	["mdwe audit"]="1"
	["damos show"]="--sysroot $BATS_TEST_DIRNAME/../fixtures/damos/vm-6.12"
	["parport list"]="--ports"
)
# Commands with no JSON record (help prints text only, report a page).
declare -g NO_JSON=" help report "

setup() {
	tmp=$(mktemp -d)
	# the table in the source, not rtla's own list: an empty list would pass
	names=$(command_names)
	mapfile -t COMMANDS <<<"$names"
}

teardown() {
	rm -rf "$tmp"
}

# run_split CMD...: $status, $out (stdout) and $err (stderr), apart
run_split() {
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

quick_args() {
	[[ -v QUICK[$1] ]] || { echo "no quick arguments for '$1' in conventions.bats" >&2; return 1; }
	echo "${QUICK[$1]}"
}

# The noise commands measure the live kernel: root and tracefs; timerlat
# and hwlat the kernel's tracers of those names (their tests run in the VM tier).
can_run() {
	case $1 in
	osnoise | hwnoise) [ "$(id -u)" -eq 0 ] ;;
	timerlat | hwlat)
		[ "$(id -u)" -eq 0 ] || return 1
		grep -qsw "$1" /sys/kernel/tracing/available_tracers ;;
	*) true ;;
	esac
}

@test "every command: --help and -h on stdout, exit 0, nothing on stderr" {
	for cmd in "${COMMANDS[@]}"; do
		run_split "$RTLA" "$cmd" --help
		echo "$cmd --help: status $status, stderr '$err'"
		[ "$status" -eq 0 ]
		[ -n "$out" ]
		[ -z "$err" ]
		help_text=$out
		run_split "$RTLA" "$cmd" -h
		[ "$status" -eq 0 ]
		[ "$out" = "$help_text" ]
	done
}

@test "every command: rtla help COMMAND is COMMAND --help" {
	for cmd in "${COMMANDS[@]}"; do
		run_split "$RTLA" help "$cmd"
		[ "$status" -eq 0 ]
		[ -z "$err" ]
		help_text=$out
		run_split "$RTLA" "$cmd" --help
		echo "$cmd"
		[ "$out" = "$help_text" ]
	done
}

@test "every command: -V and --version print rtla's version" {
	want="rtla $(cat "$BATS_TEST_DIRNAME/../../VERSION")"
	for cmd in "${COMMANDS[@]}"; do
		for opt in -V --version; do
			run_split "$RTLA" "$cmd" "$opt"
			echo "$cmd $opt: $status '$out' '$err'"
			[ "$status" -eq 0 ]
			[ "$out" = "$want" ]
			[ -z "$err" ]
		done
	done
}

@test "every command: an unknown option is named on one stderr line, exit 1" {
	for cmd in "${COMMANDS[@]}"; do
		for opt in --no-such-option -Z; do
			run_split "$RTLA" "$cmd" "$opt"
			echo "$cmd $opt: $status '$out' '$err'"
			[ "$status" -eq 1 ]
			[ -z "$out" ]
			[ "$err" = "rtla $cmd: unknown option: $opt" ]
		done
	done
}

@test "every command: an option that needs a value and has none is named" {
	for cmd in "${COMMANDS[@]}"; do
		[[ $NO_JSON == *" $cmd "* ]] && continue
		run_split "$RTLA" "$cmd" --json-file
		echo "$cmd --json-file: $status '$err'"
		[ "$status" -eq 1 ]
		[ "$err" = "rtla $cmd: option needs an argument: --json-file" ]
		run_split "$RTLA" "$cmd" --json-file -q
		[ "$status" -eq 1 ]
		[[ $err == "rtla $cmd: --json-file: file name starts with '-': '-q'"*"./-q"* ]]
		[ ! -e ./-q ]
	done
}

@test "every command: -J prints one JSON record with the envelope" {
	for cmd in "${COMMANDS[@]}"; do
		[[ $NO_JSON == *" $cmd "* ]] && continue
		args=$(quick_args "$cmd")
		can_run "$cmd" || { echo "# $cmd -J not run: needs root"; continue; }
		# shellcheck disable=SC2086
		run_split "$RTLA" "$cmd" $args -J
		echo "$cmd $args -J: $status, stderr: $err"
		[ "$status" -eq 0 ]
		printf '%s' "$out" | python3 -c '
import json, re, sys
cmd = sys.argv[1]
doc = json.load(sys.stdin)
keys = list(doc)
assert keys[:7] == ["schema", "tool", "version", "command", "host", "kernel", "started"], keys
name = {"osnoise": "osnoise top"}.get(cmd, cmd)
assert doc["schema"]["name"] == "rtla-" + name.replace(" ", "-"), doc["schema"]
assert doc["schema"]["version"] in (1, 2), doc["schema"]
assert doc["tool"] == "rtla" and doc["command"] == name, doc["command"]
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["started"]), doc["started"]
assert doc["kernel"] and doc["host"]
if "verdict" in doc:
    assert doc["verdict"] in ("passed", "stopped", "failed", "slow", "interrupted")
' "$cmd"
	done
}

@test "every command: --json-file writes the record and the table still prints" {
	for cmd in "${COMMANDS[@]}"; do
		[[ $NO_JSON == *" $cmd "* ]] && continue
		args=$(quick_args "$cmd")
		can_run "$cmd" || continue
		# shellcheck disable=SC2086
		run_split "$RTLA" "$cmd" $args --json-file "$tmp/r.json"
		echo "$cmd: $status $err"
		[ "$status" -eq 0 ]
		[ -n "$out" ]
		[ "${out:0:1}" != "{" ]
		python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["tool"] == "rtla"' \
			"$tmp/r.json"
		rm -f "$tmp/r.json"
	done
}

@test "every command: -J and --json-file write the same record" {
	for cmd in "${COMMANDS[@]}"; do
		[[ $NO_JSON == *" $cmd "* ]] && continue
		args=$(quick_args "$cmd")
		can_run "$cmd" || { echo "# $cmd not run: needs root"; continue; }
		# one run, both destinations: the same bytes
		# shellcheck disable=SC2086
		run_split "$RTLA" "$cmd" $args -J --json-file "$tmp/r.json"
		echo "$cmd $args -J --json-file: $status, stderr: $err"
		[ "$status" -eq 0 ]
		[ -s "$tmp/r.json" ]
		cmp "$tmp/out" "$tmp/r.json"
		# two runs, one each: the same envelope but the time, the same fields
		# shellcheck disable=SC2086
		run_split "$RTLA" "$cmd" $args --json-file "$tmp/f.json"
		[ "$status" -eq 0 ]
		# shellcheck disable=SC2086
		run_split "$RTLA" "$cmd" $args -J
		[ "$status" -eq 0 ]
		python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
assert list(a) == list(b), (list(a), list(b))
for k in ("schema", "tool", "version", "command", "host", "kernel"):
    assert a[k] == b[k], (k, a[k], b[k])
' "$tmp/out" "$tmp/f.json"
		rm -f "$tmp/r.json" "$tmp/f.json"
	done
}

@test "a run that fails after opening --json-file leaves no file, and an existing one as it was" {
	base=$BATS_TEST_DIRNAME/../fixtures/gates/base.json
	# compare opens the record's file before it reads -o
	run_split "$RTLA" compare -o NO-SUCH-COLUMN --json-file "$tmp/r.json" "$base" "$base"
	echo "$status '$err'"
	[ "$status" -eq 1 ]
	[ ! -e "$tmp/r.json" ]
	echo keep >"$tmp/r.json"
	run_split "$RTLA" compare -o NO-SUCH-COLUMN --json-file "$tmp/r.json" "$base" "$base"
	[ "$status" -eq 1 ]
	[ "$(cat "$tmp/r.json")" = keep ]
	# and written whole, not over the old bytes, when the run ends
	printf '%4096s\n' x >"$tmp/r.json"
	run_split "$RTLA" compare --json-file "$tmp/r.json" "$base" "$base"
	[ "$status" -eq 0 ]
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r.json"
}

@test "--json-file is replaced whole: a new file renamed over the old, through a symbolic link" {
	base=$BATS_TEST_DIRNAME/../fixtures/gates/base.json
	echo old >"$tmp/r.json"
	before=$(stat -c %i "$tmp/r.json")
	ln -s r.json "$tmp/link.json"
	run_split "$RTLA" compare --json-file "$tmp/link.json" "$base" "$base"
	echo "$status '$err'"
	[ "$status" -eq 0 ]
	# the link still names the file, and the file is a new one with the record
	[ -L "$tmp/link.json" ]
	[ "$(readlink "$tmp/link.json")" = r.json ]
	[ "$(stat -c %i "$tmp/r.json")" != "$before" ]
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r.json"
	# nothing left beside it
	[ "$(find "$tmp" -maxdepth 1 -name 'r.json?*' | wc -l)" -eq 0 ]
}

@test "--json-file: an existing file in a directory rtla may not write to is refused before any work" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	base=$BATS_TEST_DIRNAME/../fixtures/gates/base.json
	chmod 755 "$tmp"
	mkdir -m 755 "$tmp/ro"
	echo old >"$tmp/ro/r.json"
	chown 65534:65534 "$tmp/ro/r.json"
	cp "$base" "$tmp/base.json"
	chmod 644 "$tmp/base.json"
	run_split setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RTLA" compare --json-file "$tmp/ro/r.json" "$tmp/base.json" "$tmp/base.json"
	echo "$status '$out' '$err'"
	[ "$status" -eq 1 ]
	[ -z "$out" ]
	[ "$err" = "rtla compare: --json-file: $tmp/ro/r.json: Permission denied" ]
	[ "$(cat "$tmp/ro/r.json")" = old ]
}

@test "every command: a reader that closes the pipe early ends it quietly" {
	for cmd in "${COMMANDS[@]}"; do
		args=$(quick_args "$cmd")
		if [ "$cmd" = help ]; then args=--help; fi
		can_run "$cmd" || continue
		# shellcheck disable=SC2086
		status=$(set +o pipefail; { "$RTLA" "$cmd" $args 2>"$tmp/err"; echo $? >"$tmp/rc"; } | head -c1 >/dev/null; cat "$tmp/rc")
		echo "$cmd $args | head -c1: exit $status, stderr: $(cat "$tmp/err")"
		# warnings about the measurement may come, and the sampler's note when
		# the table reached the pipe before the reader left; nothing about the pipe
		! grep -v -e '^rtla [a-z]*: warning: ' \
			-e '^rtla [a-z]*: sampler backend: measured from user space' "$tmp/err" || false
		[ "$status" -eq 0 ]
	done
}

@test "every command: a full disk is an error: exit 1 and one line that names the command" {
	for cmd in "${COMMANDS[@]}"; do
		args=$(quick_args "$cmd")
		if [ "$cmd" = help ]; then args=--help; fi
		can_run "$cmd" || continue
		# shellcheck disable=SC2086
		set +e; "$RTLA" "$cmd" $args >/dev/full 2>"$tmp/err"; status=$?; set -e
		echo "$cmd $args >/dev/full: exit $status, stderr: $(cat "$tmp/err")"
		[ "$status" -eq 1 ]
		grep -qx "rtla $cmd: write error: No space left on device" "$tmp/err"
		[ "$(grep -vc '^rtla [a-z]*: warning: ' "$tmp/err")" -eq 1 ]
	done
}

# command_lines: each command, and each verb row under it ("osnoise hist"),
# as rtla's own description lists them (rtla __spec)
command_lines() {
	local cmd word
	for cmd in "${COMMANDS[@]}"; do
		echo "$cmd"
		for word in $("$RTLA" __spec "$cmd" | sed -n 's/^verb //p'); do
			echo "$cmd $word"
		done
	done
}

# verb_lines LINE...: "CMD VERB" for each verb row under each LINE, and the
# rows of rows ("damos filter add")
verb_lines() {
	local line word
	for line in "$@"; do
		# shellcheck disable=SC2086
		for word in $("$RTLA" __spec $line | sed -n 's/^verb //p'); do
			echo "$line $word"
			verb_lines "$line $word" || return 1
		done
	done
}

# VERBS: every verb line, checked against the rows in the source, so that an
# rtla that lists no verb (or a verb no row has) fails here
load_verbs() {
	local lines rows
	lines=$(verb_lines "${COMMANDS[@]}")
	rows=$(verb_table)
	mapfile -t VERBS <<<"$lines"
	echo "verbs offered: ${VERBS[*]}"
	[ -n "$lines" ]
	[ "$(awk '{print $NF}' <<<"$lines" | sort)" = "$rows" ]
}

@test "every verb: --help on stdout, exit 0, and rtla help CMD VERB says the same" {
	load_verbs
	[ "${#VERBS[@]}" -ge 14 ]
	for line in "${VERBS[@]}"; do
		# shellcheck disable=SC2086
		run_split "$RTLA" $line --help
		echo "rtla $line --help: status $status, stderr '$err'"
		[ "$status" -eq 0 ]
		[ -n "$out" ]
		[ -z "$err" ]
		help_text=$out
		# shellcheck disable=SC2086
		run_split "$RTLA" help $line
		echo "rtla help $line: status $status, stderr '$err'"
		[ "$status" -eq 0 ]
		[ -z "$err" ]
		[ "$out" = "$help_text" ]
	done
}

@test "every command with verbs: an unknown verb is the one line, exit 1, nothing on stdout" {
	load_verbs
	checked=0
	for line in "${COMMANDS[@]}" "${VERBS[@]}"; do
		# the verbs of LINE, as its rows list them
		list=$(printf '%s\n' "${VERBS[@]}" | sed -n "s/^$line \([a-z_-]*\)$/\1/p" | paste -sd, |
		       sed 's/,/, /g')
		[ -n "$list" ] || continue
		want="rtla $line: unknown verb: 'shwo' (verbs: $list)"
		# shellcheck disable=SC2086
		run_split "$RTLA" $line shwo
		echo "rtla $line shwo: $status '$out' '$err' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$err" = "$want" ]
		# shellcheck disable=SC2086
		run_split "$RTLA" help $line shwo
		echo "rtla help $line shwo: $status '$err'"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$err" = "$want" ]
		checked=$((checked + 1))
	done
	# osnoise, hwnoise, mdwe, parport, damos, damos filter
	[ "$checked" -ge 6 ]
}

@test "every verb: a bad option is named after the verb: rtla CMD VERB: ..." {
	load_verbs
	for line in "${VERBS[@]}"; do
		for opt in --no-such-option -Z; do
			# shellcheck disable=SC2086
			run_split "$RTLA" $line "$opt"
			echo "rtla $line $opt: $status '$out' '$err'"
			[ "$status" -eq 1 ]
			[ -z "$out" ]
			[ "$err" = "rtla $line: unknown option: $opt" ]
		done
	done
}

# value_options LINE: the options of "rtla LINE --help" that take a value, one a line
value_options() {
	# shellcheck disable=SC2086
	"$RTLA" $1 --help | sed -nE 's/^  (-[A-Za-z0-9], )?(--[a-z0-9-]+) [A-Za-z<].*/\2/p'
}

@test "every command: a --json-file it could not write is refused before any work" {
	lines=$(command_lines)
	mapfile -t LINES <<<"$lines"
	checked=0
	for line in "${LINES[@]}"; do
		# shellcheck disable=SC2206
		words=(rtla $line --)
		"$RTLA" __complete $((${#words[@]} - 1)) "${words[@]}" | grep -qx -- --json-file || continue
		cmd=${line%% *}
		args=${QUICK[$line]-}
		if [ "$line" = "$cmd" ]; then args=$(quick_args "$cmd"); fi
		can_run "$cmd" || { echo "# $line not run: needs root"; continue; }
		for dest in /nonexistent-rtla/x.json "$tmp"; do
			# shellcheck disable=SC2086
			run_split timeout 20 "$RTLA" $line $args --json-file "$dest"
			echo "rtla $line $args --json-file $dest: $status, stdout ${#out} bytes, '$err'"
			[ "$status" -eq 1 ]
			[ -z "$out" ]
			[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
			[[ $err == "rtla $cmd"*": --json-file: $dest: "* ]]
		done
		checked=$((checked + 1))
	done
	[ "$checked" -ge 12 ]
}

@test "every command: an empty value is shown as '', never as a blank" {
	lines=$(command_lines)
	mapfile -t LINES <<<"$lines"
	fixture=$BATS_TEST_DIRNAME/../fixtures/damos/vm-6.12
	for line in "${LINES[@]}"; do
		cmd=${line%% *}
		# the noise commands' options are upstream's, parsed in src/osnoise
		case $cmd in osnoise | hwnoise) continue ;; esac
		opts=$(value_options "$line")
		for opt in $opts; do
			# a captured tree where the command reads one: nothing live is written
			# shellcheck disable=SC2086
			run_split timeout 20 "$RTLA" --sysroot "$fixture" $line "$opt" ''
			if [[ $err == *"needs the live system"* ]]; then
				# shellcheck disable=SC2086
				run_split timeout 20 "$RTLA" $line "$opt" ''
			fi
			echo "rtla $line $opt '': $status '$err'"
			[ "$status" -eq 1 ]
			# the value shows as '' or the fault says "empty"; a line never ends blank
			[[ $err != *": " ]]
			[[ $err == *"''"* || $err == *empty* || $err != *"$opt"* ]]
		done
	done
}

@test "every command with -c: a CPU that does not exist is worded alike" {
	cpu=$(getconf _NPROCESSORS_CONF)
	want=
	checked=0
	lines=$(command_lines)
	mapfile -t LINES <<<"$lines"
	for line in "${LINES[@]}"; do
		cmd=${line%% *}
		# shellcheck disable=SC2086
		"$RTLA" $line --help | grep -qE -- '-c[,/] ?--cpus' || continue
		# shellcheck disable=SC2086
		run_split timeout 20 "$RTLA" $line -c "$cpu"
		echo "rtla $line -c $cpu: $status '$err'"
		[ "$status" -eq 1 ]
		# the prefix names the verb: "rtla osnoise hist: "
		[[ $err == "rtla $line: "* ]]
		[ -n "$want" ] || want=${err#"rtla $line: "}
		[ "${err#"rtla $line: "}" = "$want" ]
		checked=$((checked + 1))
	done
	[ "$checked" -ge 5 ]
	[ "$want" = "Invalid -c cpu list: '$cpu': CPU $cpu does not exist (CPUs are 0-$((cpu - 1)))" ]
}

@test "every command: --help has no tab and no stray double space" {
	lines=$(command_lines)
	mapfile -t LINES <<<"$lines"
	for line in "${LINES[@]}"; do
		# shellcheck disable=SC2086
		help=$("$RTLA" $line --help)
		case ${line%% *} in
		osnoise | hwnoise | timerlat | hwlat)
			# upstream's bytes: its option lines begin with a tab, and its
			# common_usage() prints "TOOL MODE [-h]" with hwnoise's MODE empty
			help=$(grep -v -e $'^\t' -e '^  usage: \[rtla\] ' <<<"$help" || true) ;;
		esac
		echo "rtla $line --help"
		! grep -n $'\t' <<<"$help" || false
		! grep -nE '[^ ]  +\[' <<<"$help" || false
		! grep -nE ' +$' <<<"$help" || false
	done
}

@test "a noise run whose reader goes away ends before its duration" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: the sampler measures the live kernel"
	set +o pipefail
	timeout 45 "$RTLA" hwnoise --backend sampler -c 0 -d 50s 2>"$tmp/err" | head -c1 >/dev/null
	rc=${PIPESTATUS[0]}
	set -o pipefail
	echo "status $rc: $(cat "$tmp/err")"
	if [ "$rc" -eq 124 ]; then
		echo "rtla hwnoise -d 50s did not end within 45 s: its reader left at the first byte"
		false
	fi
	# quietly: nothing about the pipe; what a loaded machine did to the
	# measurement (gaps that did not fit, "sampler: ...") may be said
	[ "$rc" -eq 0 ]
	! grep -v '^rtla hwnoise: warning: sampler: ' "$tmp/err" || false
}

@test "malformed invocations: one line naming what was wrong, exit 1" {
	while IFS='|' read -r args want; do
		eval "set -- $args"
		run_split "$RTLA" "$@"
		echo "rtla $args -> $status: '$err' (want '$want')"
		[ "$status" -eq 1 ]
		[ -z "$out" ]
		[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
		[[ $err == "$want"* ]]
	done <<-'EOF'
		|rtla: no command given (commands: osnoise, hwnoise, timerlat, hwlat, dhry, capdump, mdwe, parport, damos, features, capture, compare, report, help)
		version|rtla: unknown command: 'version' (commands: osnoise, hwnoise, timerlat, hwlat, dhry, capdump, mdwe, parport, damos, features, capture, compare, report, help)
		timerlat bogus|rtla timerlat: unknown verb: 'bogus' (verbs: top, hist)
		timerlat -p 2000000|rtla timerlat: Period longer than 1 s: 2000000 us
		timerlat top -p 99|rtla timerlat top: Period shorter than 100 us: 99 us
		timerlat hist -E 1|rtla timerlat hist: Entries must be > 10 and < 9999999
		timerlat -u -k|rtla timerlat: --kernel-threads and --user-threads are mutually exclusive!
		timerlat -k -U|rtla timerlat: --kernel-threads and --user-threads are mutually exclusive!
		timerlat --dma-latency 10001|rtla timerlat: --dma-latency needs to be >= 0 and < 10000
		timerlat hist --no-irq --no-thread|rtla timerlat hist: no-irq and no-thread set, there is nothing to do here
		timerlat --aa-only 5 --no-aa|rtla timerlat: --no-aa and --aa-only are mutually exclusive!
		timerlat --stack-format x|rtla timerlat: Invalid --stack-format option: 'x'
		timerlat --deepest-idle-state -2|rtla timerlat: Invalid --deepest-idle-state
		timerlat -i 1x|rtla timerlat: Invalid -i value
		timerlat --fail-if 'p99_irq_us>5'|rtla timerlat: Invalid --fail-if: 'p99_irq_us > 5': p99_irq_us needs every latency: use timerlat hist
		timerlat hist --fail-if 'max_single_us>5'|rtla timerlat hist: Invalid --fail-if: 'max_single_us > 5': timerlat measures timer latencies, no max_single_us
		osnoise --fail-if 'thread_max_us>5'|rtla osnoise: Invalid --fail-if: 'thread_max_us > 5': thread_max_us is a timer latency: use timerlat top or timerlat hist
		timerlat hist -q|rtla timerlat hist: unknown option: -q
		frobnicate|rtla: unknown command: 'frobnicate' (commands:
		hwnose|rtla: unknown command: 'hwnose' (did you mean 'hwnoise'?)
		capdunp|rtla: unknown command: 'capdunp' (did you mean 'capdump'?)
		''|rtla: unknown command: '' (commands:
		--bogus|rtla: unknown option: --bogus
		-x|rtla: unknown option: -x
		--sysroot '' capdump 1|rtla: --sysroot: empty directory name
		--sysroot /nonexistent capdump 1|rtla: --sysroot: /nonexistent: No such file or directory
		help bogus|rtla: unknown command: 'bogus'
		osnoise bogus|rtla osnoise: unknown verb: 'bogus' (verbs: top, hist)
		osnoise top --all|rtla osnoise top: unknown option: --all
		hwnoise --dur|rtla hwnoise: option needs an argument: --dur
		hwnoise --json -q -d|rtla hwnoise: option needs an argument: -d
		hwnoise --json-file -q -d 1s|rtla hwnoise: --json-file: file name starts with '-': '-q'
		hwnoise --quiet=yes|rtla hwnoise: option takes no argument: --quiet=yes
		hwnoise --t|rtla hwnoise: ambiguous option: --t (--threshold, --trace, --trigger, --trace-buffer-size)
		hwnoise -c 99|rtla hwnoise: Invalid -c cpu list: '99'
		hwnoise extra|rtla hwnoise: unknown verb: 'extra' (verbs: hist)
		hwnoise -q extra|rtla hwnoise: unexpected argument: extra
		dhry --json -d|rtla dhry: option needs an argument: -d
		dhry -d 1s extra|rtla dhry: unexpected argument: extra
		dhry -p|rtla dhry: unknown option: -p
		dhry -i 0|rtla dhry: -i:
		capdump --json out.json|rtla capdump: not a PID: out.json
		capdump -o ,,,|rtla capdump: -o: empty column name in ',,,'
		capdump -o PID,BOGUS|rtla capdump: -o: unknown column: 'BOGUS'
		capdump --files ''|rtla capdump:
	EOF
}
