#!/usr/bin/env bats
# The live view of osnoise top / hwnoise on a terminal (tmux), with the sampler
# backend this kernel offers: it redraws the table (two frames captured, the
# second with a later period and duration) and 'q' ends the run as SIGINT.

load ../lib/helper

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

# frame: the pane now in $screen, CPU 0's period count (its row's "#N") in
# $periods (empty without that row), the duration line in $duration
frame() {
	screen=$(tmux -L "$sock" capture-pane -p -t t)
	periods=$(sed -n 's/^  0 #\([0-9][0-9]*\) .*/\1/p' <<<"$screen")
	duration=$(grep -m1 '^duration:' <<<"$screen" || true)
}

@test "the live view redraws the table in place; q quits with the final table and exit 0" {
	tmux -L "$sock" new-session -d -s t -x 160 -y 20 \
		"'$RTLA' hwnoise -c 0 -d 60s 2>'$tmp/err'; echo \$? >'$tmp/rc'; sleep 30"
	for _ in $(seq 60); do
		frame
		[[ $screen == *"press q to quit"* && -n $periods ]] && break
		sleep 0.5
	done
	echo "first frame:"
	echo "$screen"
	[[ $screen == *"Hardware-related Noise"* ]]
	[[ $screen == *"CPU Period       Runtime"* ]]
	[ -n "$periods" ]
	first=$periods
	first_duration=$duration
	# a later frame: the same table drawn again with newer figures
	for _ in $(seq 40); do
		frame
		[ "${periods:-0}" -gt "$first" ] && [ "$duration" != "$first_duration" ] && break
		sleep 0.5
	done
	echo "later frame:"
	echo "$screen"
	[ "${periods:-0}" -gt "$first" ] ||
		{ echo "CPU 0 stayed at period #$first for 20 s: the table was not redrawn"; false; }
	[ "$duration" != "$first_duration" ] ||
		{ echo "the duration stayed at '$duration' for 20 s: the table was not redrawn"; false; }
	# in place: one table on the screen, not one more scrolled in per redraw
	[ "$(grep -c 'Hardware-related Noise' <<<"$screen")" -eq 1 ]
	[ "$(grep -c 'press q to quit' <<<"$screen")" -eq 1 ]
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
