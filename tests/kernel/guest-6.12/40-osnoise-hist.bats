# osnoise hist on the tracer compared with the peer (rtla 6.12) run with the
# same options on the same kernel: the figures differ, the shape of the text
# does not, with every hist option. (41-osnoise-hist-run.bats: the rest.)

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	pkill -KILL -f /usr/local/bin/rtla 2>/dev/null || true
	default_settings
}

# shape FILE: the lines of FILE with every number as N (the duration too) and
# runs of spaces as one (check_rows checks the widths), without a
# missed-events line (either tool may lose some ftrace:osnoise summaries)
shape() {
	grep -v 'events missed, results might not be accurate$' "$1" | sed -E -e 's/[0-9]+(\.[0-9]+)?/N/g' -e 's/ +/ /g'
}

# both ARGS...: the peer and ours with the same arguments, into peer.txt and
# ours.txt; both must exit 0
both() {
	"$RTLA_PEER" osnoise hist "$@" >peer.txt 2>peer.err || { cat peer.txt peer.err; return 1; }
	"$RTLA" osnoise hist "$@" >ours.txt 2>ours.err || { cat ours.txt ours.err; return 1; }
	echo "--- peer"; cat peer.txt; echo "--- ours"; cat ours.txt
}

# every row of the text in upstream's format: index %-6d, then %9d plus a space per CPU
check_rows() {
	local line idx rest
	while IFS= read -r line; do
		[[ $line =~ ^[0-9] ]] || continue
		idx=${line%% *}
		rest=${line:6}
		[ "${line:0:6}" = "$(printf '%-6d' "$idx")" ] || { echo "bad index: '$line'"; return 1; }
		[[ $rest =~ ^(\ *[0-9]+\ )+$ ]] && ((${#rest} % 10 == 0)) || { echo "bad row: '$line'"; return 1; }
	done <"$1"
}

@test "osnoise hist -c 0: the header lines equal the peer's, rows in upstream's format" {
	both -c 0 -d 2s
	[ "$(sed -n 1,2p ours.txt)" = "$(sed -n 1,2p peer.txt)" ]
	[[ $(sed -n 3p ours.txt) =~ ^#\ Duration:\ {3}0\ 00:00:0[23]$ ]]
	# TCG is noisy: CPU 0 has samples in both
	[ "$(sed -n 4p ours.txt)" = "Index   CPU-000" ]
	[ "$(sed -n 4p peer.txt)" = "Index   CPU-000" ]
	check_rows ours.txt
	check_rows peer.txt
	# the closing rows, in the peer's order and format
	[ "$(shape ours.txt | grep -v '^N ' )" = "$(shape peer.txt | grep -v '^N ')" ]
	[ ! -s ours.err ]
}

@test "-c 0-1 -E 10 --with-zeros: the same text as the peer's, number for number in shape" {
	both -c 0-1 -d 2s -E 10 --with-zeros
	[ "$(shape ours.txt)" = "$(shape peer.txt)" ]
	[ "$(sed -n 4p ours.txt)" = "Index   CPU-000   CPU-001" ]
	[ "$(grep -c '^[0-9]' ours.txt)" -eq 10 ]
}

@test "-b 10 -E 12 --with-zeros: 10 us buckets, indexes 0 to 110, as the peer's" {
	both -c 1 -d 2s -b 10 -E 12 --with-zeros
	[ "$(shape ours.txt)" = "$(shape peer.txt)" ]
	[ "$(grep -o '^[0-9]*' ours.txt | tr '\n' ' ')" = "0 10 20 30 40 50 60 70 80 90 100 110 " ]
	# the summary in bucket floors: multiples of 10
	for row in min max; do
		v=$(awk -v r="$row:" '$1 == r { print $2 }' ours.txt)
		[ $((v % 10)) -eq 0 ]
	done
}

@test "--no-index --with-zeros, --no-header, --no-summary: as the peer's" {
	for opts in "--no-index --with-zeros -E 10" "--no-header -E 10 --with-zeros" \
		"--no-summary -E 10 --with-zeros" "--no-header --no-summary --no-index --with-zeros -E 16"; do
		# shellcheck disable=SC2086
		both -c 0 -d 1s $opts
		echo "== $opts"
		[ "$(shape ours.txt)" = "$(shape peer.txt)" ]
	done
}

@test "nothing at or above the threshold: upstream's zero block, as the peer's" {
	# a 5 s threshold in a 1 s runtime: no sample can reach it
	both -c 0 -d 2s -T 5000000
	[ "$(tail -n 5 ours.txt)" = "$(printf 'over: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0')" ]
	[ "$(shape ours.txt)" = "$(shape peer.txt)" ]
	[ "$(sed -n 4p ours.txt)" = Index ]
}
