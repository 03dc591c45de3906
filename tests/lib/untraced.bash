# untraced CMD [ARG...]: run CMD (a function, mostly) without bats' DEBUG
# trap. bats runs its trap before every command of a test, functions included
# (about 0.4 ms each here, far more in a TCG guest), so a test that loops over
# every command, option or signal spends most of its time in the trap. CMD
# runs under the test's set -e as before: a failing command inside fails the
# test, which bats then reports at the line that called untraced.
untraced() {
	local restore
	restore=$(trap -p DEBUG)
	trap - DEBUG
	"$@"
	eval "$restore"
}
