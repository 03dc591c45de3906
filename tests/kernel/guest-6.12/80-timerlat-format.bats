# timerlat top and hist print upstream's tables: compared with the peer (rtla
# 6.12) run with the same options on the same kernel, the header lines byte
# for byte, the rows by their format (the latencies differ from run to run).

load /vm/lib/noise
load /vm/lib/timerlat

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	default_settings
}

# same_header: lines[] and peer[] hold two top -q tables with the same
# columns: the title, the line under it past the duration, the column line
# and the separator are the same
same_top_header() {
	[ "${lines[0]}" = "${peer[0]}" ]
	# "%-6s" of the duration ("%3d %02d:%02d:%02d"), then the context names
	[[ ${lines[1]} =~ ^\ \ 0\ 00:00:0[1-9]\ \ \ \| ]]
	[ "${lines[1]:12}" = "${peer[1]:12}" ]
	[ "${lines[2]}" = "${peer[2]}" ]
	[ "${lines[-2]}" = "${peer[-2]}" ]
}

@test "top -q: user threads by default, header identical to the peer's, rows in upstream's format" {
	run "$RTLA_PEER" timerlat top -c 0-1 -d 1s -q
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat top -c 0-1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	same_top_header
	[[ ${lines[2]} == *" |      cur       min       avg       max" ]]
	[[ ${lines[1]} == *"|    Ret user Timer Latency (us)" ]]
	[[ ${lines[3]} =~ $TL_ROW_U ]]
	[[ ${lines[4]} =~ $TL_ROW_U ]]
	[[ ${lines[3]} == "  0 #"* ]]
	[[ ${lines[4]} == "  1 #"* ]]
	[[ ${lines[6]} =~ $TL_ALL_U ]]
	[[ ${peer[6]} =~ $TL_ALL_U ]]
	[ "${#lines[@]}" -eq 7 ]
	# each row's count beside the ALL row's: the ALL count is their sum
	n0=$(sed -E 's/^ +0 #([0-9]+).*/\1/' <<<"${lines[3]}")
	n1=$(sed -E 's/^ +1 #([0-9]+).*/\1/' <<<"${lines[4]}")
	[[ ${lines[6]} == "ALL #$((n0 + n1)) "* ]]
}

@test "top -q -k: kernel threads, no user column, as the peer's" {
	run "$RTLA_PEER" timerlat top -c 0 -d 1s -q -k
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat top -c 0 -d 1s -q -k
	echo "$output"
	[ "$status" -eq 0 ]
	same_top_header
	[[ ${lines[3]} =~ $TL_ROW_K ]]
	[[ ${lines[5]} =~ $TL_ALL_K ]]
	[[ ${peer[5]} =~ $TL_ALL_K ]]
	[[ $output != *"Ret user"* ]]
	[ "${#lines[@]}" -eq 6 ]
}

@test "top -q -n: the header says ns, as the peer's, and the figures are in ns" {
	run "$RTLA_PEER" timerlat top -c 0 -d 1s -q -n
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat top -c 0 -d 1s -q -n
	echo "$output"
	[ "$status" -eq 0 ]
	same_top_header
	[[ ${lines[1]} == *"IRQ Timer Latency (ns)"* ]]
	[[ ${lines[3]} =~ $TL_ROW_U ]]
	[[ ${lines[5]} =~ $TL_ALL_U ]]
	# a thread latency below 1 us never happens here: the thread min has 4 digits or more
	read -r _ _ _ _ _ _ _ thread_min _ <<<"${lines[3]//|/ }"
	[ "$thread_min" -ge 1000 ]
}

@test "hist: header, Index and ALL lines identical to the peer's; rows, over and summary consistent" {
	run "$RTLA_PEER" timerlat hist -c 0-1 -d 1s
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat hist -c 0-1 -d 1s
	printf '%s\n' "$output" >out.txt
	head -5 out.txt
	tail -12 out.txt
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "${peer[0]}" ]
	[ "${lines[1]}" = "${peer[1]}" ]
	[[ ${lines[2]} =~ ^#\ Duration:\ \ \ 0\ 00:00:0[1-9]$ ]]
	[ "${lines[3]}" = "${peer[3]}" ]
	[ "${lines[3]}" = "Index   IRQ-000   Thr-000   Usr-000   IRQ-001   Thr-001   Usr-001" ]
	[ "${lines[-5]}" = "${peer[-5]}" ]
	[ "${lines[-5]}" = "ALL:        IRQ       Thr       Usr" ]
	row=$(tl_hist_row 6)
	[[ ${lines[4]} =~ $row ]]
	[[ ${peer[4]} =~ $row ]]
	grep -Eq '^over: ( {0,8}[0-9]+ ){6}$' out.txt
	grep -Eq '^count:( {0,8}[0-9]+ ){6}$' out.txt
	grep -Eq '^avg:  ( {0,8}[0-9]+ ){6}$' out.txt
	grep -Eq '^max:  ( {0,8}[0-9]+ ){3}$' out.txt
	tl_hist_shape 1 256
}

@test "hist -k -b 100 -E 10: IRQ and Thr columns, indexes 0 to 900, the over row, as the peer's" {
	run "$RTLA_PEER" timerlat hist -c 0-1 -d 1s -k -b 100 -E 10
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat hist -c 0-1 -d 1s -k -b 100 -E 10
	printf '%s\n' "$output" >out.txt
	cat out.txt
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "${peer[3]}" ]
	[ "${lines[3]}" = "Index   IRQ-000   Thr-000   IRQ-001   Thr-001" ]
	[ "${lines[-5]}" = "${peer[-5]}" ]
	[ "${lines[-5]}" = "ALL:        IRQ       Thr" ]
	row=$(tl_hist_row 4)
	[[ ${lines[4]} =~ $row ]]
	[[ ${lines[4]} == "0    "* ]]
	tl_hist_shape 100 10
	# under TCG the latencies pass 1 ms: the over row has counts
	grep -Eq '^over: .*[1-9]' out.txt
}

@test "hist --no-header, --no-summary: the lines left out are the peer's" {
	run "$RTLA_PEER" timerlat hist -c 0 -d 1s -b 1000 --no-header
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat hist -c 0 -d 1s -b 1000 --no-header
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "0     "* ]]
	[[ ${peer[0]} == "0     "* ]]
	[[ $output != *"#"* ]]
	[[ $output != *"Index"* ]]
	[ "${lines[-5]}" = "${peer[-5]}" ]
	run "$RTLA_PEER" timerlat hist -c 0 -d 1s -b 1000 --no-summary
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat hist -c 0 -d 1s -b 1000 --no-summary
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "${peer[3]}" ]
	[[ ${lines[-1]} =~ ^over:\ (\ {0,8}[0-9]+\ ){3}$ ]]
	[[ ${peer[-1]} =~ ^over:\ (\ {0,8}[0-9]+\ ){3}$ ]]
	[[ $output != *"count:"* ]]
	[[ $output != *"ALL:"* ]]
}

@test "hist --no-index --with-zeros: every bucket, no index column, as many lines as the peer's" {
	run "$RTLA_PEER" timerlat hist -c 0 -d 1s -b 1000 -E 12 --no-index --with-zeros
	[ "$status" -eq 0 ]
	peer=("${lines[@]}")
	run "$RTLA" timerlat hist -c 0 -d 1s -b 1000 -E 12 --no-index --with-zeros
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "${peer[3]}" ]
	[ "${lines[3]}" = "   IRQ-000   Thr-000   Usr-000" ]
	# 3 header lines, the columns, 12 buckets (4-15), over (16), count, min, avg, max
	# (17-20), the ALL names (21) and its 4 rows
	[ "${lines[21]}" = "${peer[21]}" ]
	[ "${lines[21]}" = "      IRQ       Thr       Usr" ]
	[ "${#lines[@]}" -eq 26 ]
	[ "${#peer[@]}" -eq 26 ]
	for i in $(seq 4 20) $(seq 22 25); do
		[[ ${lines[i]} =~ ^(\ {0,8}[0-9]+\ ){3}$ ]] || { echo "line $i: ${lines[i]}"; false; }
	done
	# the count row is the buckets' sum and the over
	sum=$(printf '%s\n' "${lines[@]:4:13}" | awk '{ s += $1 } END { print s }')
	[ "$(awk '{ print $1 }' <<<"${lines[17]}")" = "$sum" ]
}

@test "hist --no-irq, --no-thread: the columns left out are the peer's" {
	for opt in --no-irq --no-thread; do
		run "$RTLA_PEER" timerlat hist -c 0 -d 1s -b 1000 "$opt"
		[ "$status" -eq 0 ]
		peer=("${lines[@]}")
		run "$RTLA" timerlat hist -c 0 -d 1s -b 1000 "$opt"
		printf '%s\n' "$output" >out.txt
		echo "$opt:"
		cat out.txt
		[ "$status" -eq 0 ]
		[ "${lines[3]}" = "${peer[3]}" ]
		[ "${lines[-5]}" = "${peer[-5]}" ]
		tl_hist_shape 1000 256
	done
	[ "${lines[3]}" = "Index   IRQ-000   Usr-000" ]
}

@test "hist --with-zeros -b 100000 -E 21: 21 rows from 0 to 2000000, then over and the summary" {
	run "$RTLA" timerlat hist -c 0 -d 1s --with-zeros -b 100000 -E 21
	printf '%s\n' "$output" >out.txt
	cat out.txt
	[ "$status" -eq 0 ]
	[ "$(grep -Ec "$(tl_hist_row 3)" out.txt)" -eq 21 ]
	[[ ${lines[4]} =~ ^0\ {5}(\ {0,8}[0-9]+\ ){3}$ ]]
	[[ ${lines[24]} =~ ^2000000(\ {0,8}[0-9]+\ ){3}$ ]]
	[[ ${lines[25]} == "over: "* ]]
	[[ ${lines[26]} == "count: "* ]]
}

@test "timerlat without a mode, or with an option first, is top" {
	run "$RTLA" timerlat -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *"Timer Latency"* ]]
	[[ ${lines[3]} =~ $TL_ROW_U ]]
	[[ ${lines[3]} == "  1 #"* ]]
	run "$RTLA" timerlat -q -c 1 -k -d 1s
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[3]} =~ $TL_ROW_K ]]
}

@test "without -q each refresh clears the screen with ESC c, as the peer's; -q and -D do not" {
	run "$RTLA_PEER" timerlat top -c 0 -d 3s
	[ "$status" -eq 0 ]
	peer_clears=$(grep -o $'\033c' <<<"$output" | wc -l)
	run "$RTLA" timerlat top -c 0 -d 3s
	[ "$status" -eq 0 ]
	clears=$(grep -o $'\033c' <<<"$output" | wc -l)
	echo "clears: ours $clears, the peer's $peer_clears"
	[ "$clears" -ge 2 ]
	[ "$peer_clears" -ge 2 ]
	# every table starts right after its clear, on the title line
	[[ ${output:0:2} == $'\033c' ]]
	[ "$(grep -c $'^\033c                                     Timer Latency' <<<"$output")" -eq "$clears" ]
	# the last table is whole
	[[ ${lines[-1]} =~ $TL_ALL_U ]]
	run "$RTLA" timerlat top -c 0 -d 2s -D
	[ "$status" -eq 0 ]
	[[ $output != *$'\033c'* ]]
	run "$RTLA" timerlat top -c 0 -d 2s -q
	[[ $output != *$'\033c'* ]]
}

@test "--aa-only prints no table and clears no screen, as the peer's" {
	run "$RTLA_PEER" timerlat top -c 0 -d 10s --aa-only 30
	[[ $output != *$'\033c'* ]]
	run "$RTLA" timerlat top -c 0 -d 10s --aa-only 30
	echo "$output" | cat -A
	[ "$status" -eq 2 ]
	[[ $output != *"Timer Latency"* ]]
	[[ $output != *$'\033c'* ]]
	[ "${lines[0]}" = "timerlat hit stop tracing" ]
}

@test "-d: the run lasts -d at least and its duration line says so" {
	start=$(date +%s)
	run "$RTLA" timerlat top -c 0 -d 3s -q
	end=$(date +%s)
	echo "$output"
	echo "took $((end - start)) s"
	[ "$status" -eq 0 ]
	[ $((end - start)) -ge 3 ]
	[[ ${lines[1]} =~ ^\ \ 0\ 00:00:0[3-9] ]]
	# a bare number is seconds, m is minutes (refused when not a duration)
	run "$RTLA" timerlat hist -c 0 -d 2 -b 1000
	[ "$status" -eq 0 ]
	[[ ${lines[2]} =~ ^#\ Duration:\ \ \ 0\ 00:00:0[2-9]$ ]]
	run "$RTLA" timerlat top -d 2x
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "exit status: 0 at the end of -d, 2 on a stop with its line after the table, 1 on an error, 0 for help" {
	run "$RTLA" timerlat top -c 0 -d 1s -q -k
	[ "$status" -eq 0 ]
	[[ $output != *"hit stop tracing"* ]]
	run "$RTLA" timerlat top -c 0 -d 20s -q -k -T 1 --no-aa
	echo "$output"
	[ "$status" -eq 2 ]
	[[ ${lines[-2]} == "ALL #"* ]]
	[ "${lines[-1]}" = "timerlat hit stop tracing" ]
	run "$RTLA" timerlat hist -c 0 -d 20s -k -T 1 --no-aa
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "timerlat hit stop tracing" ]
	[[ ${lines[-2]} == "max: "* ]]
	run "$RTLA" timerlat top --no-such-option
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "rtla timerlat top: "* ]]
	run "$RTLA" timerlat hist --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "rtla timerlat hist: a per-cpu histogram of the timer latency"* ]]
}
