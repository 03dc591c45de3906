#!/usr/bin/env bats
# Bash completion as a user gets it: bash-completion loaded, the installed
# script sourced, the candidates asked for at a word of a command line.
# cli-asan: skip, bash-completion's script (rtla's candidates: test_cli on that build)

load ../lib/helper

setup() {
	tmp=$(mktemp -d)
	mkdir "$tmp/bin"
	ln -s "$RTLA" "$tmp/bin/rtla"
	ln -s "$RTLA" "$tmp/bin/hwnoise"
}

teardown() {
	rm -rf "$tmp"
}

# complete LINE: COMPREPLY for the last word of LINE (a trailing space: a new word)
complete_line() {
	local bc=/usr/share/bash-completion/bash_completion
	[ -r "$bc" ] || skip "bash-completion is not installed"
	PATH="$tmp/bin:$PATH" bash --norc --noprofile -c '
		source "$1"
		source "$2"
		COMP_LINE=$3
		COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_rtla
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$bc" "$BATS_TEST_DIRNAME/../../scripts/rtla-completion.bash" "$1"
}

@test "completion: rtla h completes the commands that start so" {
	run complete_line "rtla h"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'hwnoise\nhwlat\nhelp')" ]
}

@test "completion: every command of the table is offered after rtla" {
	names=$(command_names)
	run complete_line "rtla "
	[ "$status" -eq 0 ]
	echo "offered: [$output]"
	echo "table:   [$names]"
	# every name of the table, in its order, and nothing else
	[ "$output" = "$names" ]
}

@test "completion: rtla hwnoise -- offers the long options of its description" {
	run complete_line "rtla hwnoise --"
	for opt in --cpus --duration --period --stop-total --json --json-file --backend --help --version; do
		echo "$opt"
		[[ $'\n'$output$'\n' == *$'\n'$opt$'\n'* ]]
	done
}

@test "completion: the hwnoise link completes as rtla hwnoise" {
	run complete_line "hwnoise --dur"
	[ "$output" = "--duration" ]
}

@test "completion: an option's value: CPUs, backends, files" {
	run complete_line "rtla hwnoise -c "
	[[ $'\n'$output$'\n' == *$'\n0\n'* ]]
	run complete_line "rtla hwnoise --backend s"
	[ "$output" = "sampler" ]
	touch "$tmp/record.json"
	run complete_line "rtla dhry --json-file $tmp/rec"
	[ "$output" = "$tmp/record.json" ]
}

@test "completion: rtla capdump offers running PIDs" {
	sleep 60 &
	pid=$!
	run complete_line "rtla capdump "
	kill "$pid"
	[[ $'\n'$output$'\n' == *$'\n'1$'\n'* ]]
	[[ $'\n'$output$'\n' == *$'\n'$pid$'\n'* ]]
}

@test "completion: rtla help completes commands" {
	run complete_line "rtla help capd"
	[ "$output" = "capdump" ]
}

@test "completion: the verbs of the commands that have them" {
	run complete_line "rtla parport "
	[ "$output" = "$(printf 'list\nadd\ndelete')" ]
	run complete_line "rtla damos f"
	[ "$output" = "filter" ]
	run complete_line "rtla osnoise h"
	[ "$output" = "hist" ]
	run complete_line "rtla parport add --dr"
	[ "$output" = "--dry-run" ]
}

# spec_lines: every command and verb line, rows of rows included, from rtla's
# own description (rtla __spec), checked against the table in the source
spec_lines() {
	local line word
	for line in "$@"; do
		echo "$line"
		# shellcheck disable=SC2086
		for word in $("$RTLA" __spec $line | sed -n 's/^verb //p'); do
			spec_lines "$line $word" || return 1
		done
	done
}

# The values no one can list: numbers, times, sizes, a glob, a filter phrase.
FREE='^(us|N|s|kB|MS|US|BYTES|SIZE|SECONDS|PCT|TIME|MIN-MAX|PATTERN|FILTER|<filter>|<trigger>|time\[s\|m\|h\|d\])$'
DAMOS_TREE=$BATS_TEST_DIRNAME/../fixtures/damos/vm-6.12
PARPORT_TREE=$BATS_TEST_DIRNAME/../fixtures/parport/trees/device-disk

# candidates LINE WORD...: what rtla offers for the last WORD after "rtla LINE"
# (damos and parport read a captured tree: their kdamonds, ports, devices)
candidates() {
	local line=$1
	shift
	local -a pre=()
	case $line in
	damos*) pre=(--sysroot "$DAMOS_TREE") ;;
	parport*) pre=(--sysroot "$PARPORT_TREE") ;;
	esac
	# shellcheck disable=SC2206
	local w=(rtla "${pre[@]}" $line "$@")
	"$RTLA" __complete $((${#w[@]} - 1)) "${w[@]}"
}

# truth LINE WHAT: the words WHAT (an option, or "positional") may take,
# where they come from: the machine (or the captured tree) for what it
# has, else the command's help and man page, which name every word
truth() {
	local cmd=${1%% *}
	case "$1 $2" in
	"parport add positional") echo auto; "$RTLA" --sysroot "$PARPORT_TREE" parport list --ports -n -o PORT
		"$RTLA" --sysroot "$PARPORT_TREE" parport list --protocols -n -o PROTOCOL ;;
	"parport delete positional") "$RTLA" --sysroot "$PARPORT_TREE" parport list --devices -n -o DEVICE ;;
	"damos"*" --kdamond") ls "$DAMOS_TREE/sys/kernel/mm/damon/admin/kdamonds" ;;
	*" --event") cat /sys/kernel/tracing/available_events 2>/dev/null ;;
	*)	# shellcheck disable=SC2086
		"$RTLA" help $1
		# the pages are the same for every option of a command: read once
		[ -s "$tmp/pages.$cmd" ] || man_pages "$cmd" >"$tmp/pages.$cmd"
		cat "$tmp/pages.$cmd" ;;
	esac
}

# man_pages CMD: the text of CMD's man pages and of the pages they include
man_pages() {
	local doc=$BATS_TEST_DIRNAME/../../Documentation page
	for page in "$doc/rtla-$1"*.rst; do
		cat "$page"
		# the pages it includes (hwnoise: osnoise top's options)
		# and theirs (timerlat hist, timerlat top, osnoise top's --require)
		sed -n 's/^\.\. include:: //p' "$page" | while read -r inc; do
			cat "$doc/$inc"
			sed -n 's/^\.\. include:: //p' "$doc/$inc" | while read -r inc2; do cat "$doc/$inc2"; done
		done
	done
}

# say PREFIX TEXT: PREFIX and the first 200 characters of TEXT on one line,
# for the log (no fork: the test says ~400 of them)
say() {
	local t=${2:0:200}
	echo "$1${t//$'\n'/ }"
}

# check_words LINE WHAT CANDIDATES: some, and each part of each one
# ("signal,num=" is "signal" and "num") named in truth(), in any case
check_words() {
	local unnamed
	[ -n "$3" ] || { echo "rtla $1 $2: no candidates"; return 1; }
	local words=${3//[,=:<>]/$'\n'}
	unnamed=$(awk '
		NR == FNR { known = known tolower($0) "\n"; next }
		$0 != "" && !index(known, tolower($0))' <(truth "$1" "$2") - <<<"$words")
	[ -z "$unnamed" ] || { echo "rtla $1 $2: named nowhere: $unnamed"; return 1; }
}

# check_kind LINE WHAT KIND CANDIDATES
check_kind() {
	local cpus
	case $3 in
	file) [ "$4" = "@file" ] ;;
	dir) [ "$4" = "@dir" ] ;;
	program) [ "$4" = "@program" ] ;;
	commands) [ "$4" = "$(command_names)" ] ;;
	pids) [[ $'\n'$4$'\n' == *$'\n'$$$'\n'* ]] || { echo "rtla $1 $2: no PID $$"; return 1; }
		[[ ! $4 =~ [^0-9$'\n'] ]] ;;
	cpus) cpus=$(cat /sys/devices/system/cpu/online)
		[[ $'\n'$4$'\n' == *$'\n0\n'* ]] || { echo "rtla $1 $2: no CPU 0"; return 1; }
		[[ $'\n'$4$'\n' == *$'\nonline\n'* ]] || { echo "rtla $1 $2: no 'online'"; return 1; }
		if [[ $cpus == *-* ]]; then [[ $'\n'$4$'\n' == *$'\n'$cpus$'\n'* ]] || return 1; fi ;;
	words) check_words "$1" "$2" "$4" ;;
	call)	# a command's own: capdump's PIDs (files after --files), else its words
		if [ "$1 $2" = "capdump positional" ]; then check_kind "$1" "$2" pids "$4"
		else check_words "$1" "$2" "$4"; fi ;;
	*) echo "rtla $1 $2: kind '$3' has no check here"; return 1 ;;
	esac
}

# every_value_checked: what the test below checks, for each command and verb
every_value_checked() {
	local names all line what _short long arg metavar kind list got first next checked
	names=$(command_names)
	# shellcheck disable=SC2086
	all=$(spec_lines $names)
	mapfile -t LINES <<<"$all"
	[ "${#LINES[@]}" -ge 25 ]
	checked=0
	for line in "${LINES[@]}"; do
		# shellcheck disable=SC2086
		while read -r what _short long arg metavar kind list; do
			[ "$what" = option ] || continue
			[ "$arg" = value ] || continue		# an optional value is not completed
			if [ "$kind" = none ]; then
				[[ $metavar =~ $FREE ]] || { echo "rtla $line $long $metavar: no completion kind"; false; }
				continue
			fi
			got=$(candidates "$line" "$long" '')
			say "rtla $line $long ($kind): " "$got"
			check_kind "$line" "$long" "$kind" "$got"
			checked=$((checked + 1))
			[ "$list" = list ] || continue
			# a list's next item: the first, a comma, and only the others
			first=${got%%$'\n'*}
			next=$(candidates "$line" "$long" "$first,")
			say "  after '$first,': " "$next"
			[ -n "$next" ]
			if grep -v "^$first," <<<"$next"; then false; fi
			if grep -x "$first,$first" <<<"$next"; then false; fi
		done < <("$RTLA" __spec $line)
		# shellcheck disable=SC2086
		kind=$("$RTLA" __spec $line | sed -n 's/^positional //p')
		[ -n "$kind" ]
		[ "$kind" != none ] || continue
		# after the options ("--"), so that a verb is not what is offered
		got=$(candidates "$line" -- '' | grep -vx -- '--.*\|-.' || true)
		# what comes after a number ("damos filter set ID FILTER...")
		[ -n "$got" ] || got=$(candidates "$line" -- 0 '' | grep -vx -- '--.*\|-.' || true)
		say "rtla $line positional ($kind): " "$got"
		check_kind "$line" positional "$kind" "$got"
		checked=$((checked + 1))
	done
	echo "checked: $checked"
	[ "$checked" -ge 60 ]
}

@test "completion: every option's value and positional word gets the candidates of the kind its spec names" {
	untraced every_value_checked
}

@test "completion: capdump --files completes paths, PIDs without it" {
	touch "$tmp/capfile"
	run complete_line "rtla capdump --files $tmp/capf"
	[ "$output" = "$tmp/capfile" ]
	run complete_line "rtla capdump -R --files -o +PAT"
	[ "$output" = "+PATH" ]
	run complete_line "rtla capdump -o +PAT"
	[ -z "$output" ]
	run complete_line "rtla capdump $$"
	[[ $'\n'$output$'\n' == *$'\n'$$$'\n'* ]]
}

@test "completion: mdwe run offers a program, then its own arguments as files" {
	printf '#!/bin/sh\n' >"$tmp/bin/rtla-test-prog"
	chmod +x "$tmp/bin/rtla-test-prog"
	run complete_line "rtla mdwe run rtla-test-pr"
	[ "$output" = rtla-test-prog ]
	run complete_line "rtla mdwe run --no-inherit -- rtla-test-pr"
	[ "$output" = rtla-test-prog ]
	# after the program, its options are its own: names of files, not rtla's options
	run complete_line "rtla mdwe run rtla-test-prog $tmp/bin/rtla-test-p"
	[ "$output" = "$tmp/bin/rtla-test-prog" ]
	run complete_line "rtla mdwe run rtla-test-prog --no-inh"
	[ -z "$output" ]
}

@test "completion: parport add offers the tree's ports, then its protocols; delete its devices" {
	tree=$BATS_TEST_DIRNAME/../fixtures/parport/trees/device-disk
	run complete_line "rtla --sysroot $tree parport add "
	[ "$output" = "$(printf 'auto\nparport0\nparport1')" ]
	run complete_line "rtla --sysroot $tree parport add parport1 k9"
	[ "$output" = "$(printf 'k951\nk971')" ]
	run complete_line "rtla --sysroot $tree parport add auto "
	[ -z "$output" ]
	run complete_line "rtla --sysroot $tree parport delete "
	[ "$output" = pata_parport.0 ]
}

@test "completion: a gate's metric goes on with its value, quoted or not" {
	run complete_line "rtla osnoise --fail-if max_si"
	[ "$output" = 'max_single_us\>' ]
	run complete_line "rtla osnoise --fail-if 'cpu_av"
	[ "$output" = 'cpu_available_pct<' ]
	# the tool's own metrics: no percentiles in top, no IRQs in hwnoise
	run complete_line "rtla osnoise top --fail-if p9"
	[ -z "$output" ]
	run complete_line "rtla hwnoise hist --fail-if p99"
	[ "$output" = "$(printf 'p99_us\\>\np999_us\\>\np9999_us\\>')" ]
	run complete_line "rtla hwnoise --fail-if irq"
	[ -z "$output" ]
	run complete_line "rtla osnoise hist --fail-if irq"
	[ "$output" = 'irq_count\>' ]
}
