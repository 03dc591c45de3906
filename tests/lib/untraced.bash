# shellcheck shell=bash
# untraced CMD [ARG...]: run CMD (a function, mostly) without bats' DEBUG
# trap. bats runs its trap before every command of a test, in functions too:
# about 0.4 ms a command on this machine and 2-3 ms in a TCG guest, where a
# helper that loops over /proc or polls for a run's end spent most of its
# time, and its timing, in the trap. CMD runs under the test's set -e as
# before: a failing command inside fails the test, which bats reports at the
# line that called untraced. CMD's status is untraced's. Nested calls run
# CMD directly (the trap is off already).
untraced() {
	local restore rc
	if [ "${UNTRACED:-0}" = 1 ]; then
		"$@"
		return
	fi
	restore=$(trap -p DEBUG)
	trap - DEBUG
	UNTRACED=1
	"$@"
	rc=$?
	UNTRACED=0
	eval "$restore"
	return "$rc"
}

# untrace FUNCTION...: from now on each FUNCTION runs untraced (its body
# becomes untraced_body_FUNCTION). For the helpers that loop.
untrace() {
	local f def
	for f in "$@"; do
		def=$(declare -f "$f") || { echo "untrace: no function $f" >&2; return 1; }
		# already made so, and not defined again since
		[[ $def != *"untraced untraced_body_$f "* ]] || continue
		eval "untraced_body_$f ${def#"$f "}"
		eval "$f() { untraced untraced_body_$f \"\$@\"; }"
	done
}
