#!/usr/bin/env bats
# The live view of osnoise top / hwnoise on a terminal (tmux), with the sampler
# backend this kernel offers: it redraws the table and 'q' ends the run as SIGINT.

load ../cli/helper

setup() {
	needs_root "the sampler attributes noise through tracefs"
	command -v tmux >/dev/null || skip "needs tmux"
	sock=rtla-tui-$$
	tmp=$(mktemp -d)
}

teardown() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -rf "$tmp"
}

@test "the live view shows the table; q quits with the final table and exit 0" {
	tmux -L "$sock" new-session -d -s t -x 160 -y 20 \
		"'$RTLA' hwnoise -c 0 -d 60s 2>'$tmp/err'; echo \$? >'$tmp/rc'; sleep 30"
	for _ in $(seq 60); do
		screen=$(tmux -L "$sock" capture-pane -p -t t)
		[[ $screen == *"press q to quit"* && $screen == *"  0 #"* ]] && break
		sleep 0.5
	done
	echo "$screen"
	[[ $screen == *"Hardware-related Noise"* ]]
	[[ $screen == *"CPU Period       Runtime"* ]]
	tmux -L "$sock" send-keys -t t q
	for _ in $(seq 40); do
		[ -s "$tmp/rc" ] && break
		sleep 0.5
	done
	screen=$(tmux -L "$sock" capture-pane -p -t t)
	echo "$screen"
	cat "$tmp/err"
	[ "$(cat "$tmp/rc")" = 0 ]
	# diagnostics (such as the backend note) on stderr, each with the command's prefix
	! grep -v '^rtla hwnoise: ' "$tmp/err" || false
	# after the view closes, the final table stays on the terminal
	[[ $screen == *"Hardware-related Noise"* && $screen != *"press q to quit"* ]]
	! ls /sys/kernel/tracing/instances | grep -q rtla_sampler_ || false
}
