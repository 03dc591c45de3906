#!/usr/bin/env bats
# Bash completion as a user gets it: bash-completion loaded, the installed
# script sourced, the candidates asked for at a word of a command line.

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
	[ "$output" = "$(printf 'hwnoise\nhelp')" ]
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
