# Shared by the host tests of the sampler backends (sampler.bats: osnoise
# and hwnoise; timerlat-sampler.bats): tracefs, rtla in the background, and
# the run's private instance. A file sets INSTANCE, the prefix of its runs'
# instance names (the pid follows), and T, its temporary directory, in its
# setup. Load ../lib/helper first (needs_root).

TRACING=/sys/kernel/tracing

# needs_tracefs: skip unless root, with tracefs mounted (or mountable) at $TRACING
needs_tracefs() {
	needs_root "the sampler's tracefs instance"
	mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING" 2>/dev/null ||
		skip "needs tracefs at $TRACING"
}

# rtla in the background, its pid in BG (fd 3 closed: bats waits on it)
start_bg() {
	"$RTLA" "$@" >"$T/out" 2>"$T/err" 3>&- &
	BG=$!
}

# wait until rtla PID has created its instance (setup is done)
wait_instance() {
	for _ in $(seq 100); do
		[ -d "$TRACING/instances/$INSTANCE$1" ] && return 0
		sleep 0.1
	done
	echo "instance $INSTANCE$1 never appeared"
	return 1
}

# wait for BG; its status in status, stdout then stderr in output (printed)
finish_bg() {
	status=0
	wait "$BG" || status=$?
	output=$(cat "$T/out" "$T/err")
	echo "$output"
}

instance_gone() {
	[ ! -e "$TRACING/instances/$INSTANCE$1" ] || {
		echo "instance $INSTANCE$1 left behind"
		return 1
	}
}
