# Helpers of the upstream test-case files (guest-6.12/45-*, 46-*): upstream
# rtla's osnoise case list, run against ours. Load with "load /vm/lib/upstream".

# the helpers that loop run without bats' per-command trap (untraced.bash)
. /vm/lib/untraced.bash

# expect STATUS PATTERN [ABSENT] -- ARGS...: rtla ARGS exits STATUS, some line
# of its output matches the ERE PATTERN ("" = any) and none matches ABSENT
expect() {
	local want=$1 pattern=$2 absent="" status=0
	shift 2
	[ "$1" = -- ] || { absent=$1; shift; }
	shift
	timeout -k 15 120 "$RTLA" "$@" >out.txt 2>&1 || status=$?
	echo "# rtla $*: status $status"
	cat out.txt
	[ "$status" -eq "$want" ]
	[ -z "$pattern" ] || grep -Eq "$pattern" out.txt
	[ -z "$absent" ] || ! grep -Eq "$absent" out.txt
}

# each TOOL case twice: top -q, then hist (which has no -q)
top_q_hist() {
	local want=$1 pattern=$2 absent=$3
	shift 3
	expect "$want" "$pattern" "$absent" -- osnoise top -q "$@"
	rm -f a
	expect "$want" "$pattern" "$absent" -- osnoise hist "$@"
}

untrace expect top_q_hist
