#!/usr/bin/env bats
# rtla damos on this machine's kernel, read only. The machine runs a kdamond
# of its own, started at boot: rtla shows it as the kernel has it, and every
# write command refuses it; no file under /sys/kernel/mm/damon may change.
# Nothing here writes to DAMON: the write tests run in the VM tier
# (tests/kernel/guest-6.12/55-damos.bats).

load ../lib/helper

KD=/sys/kernel/mm/damon/admin/kdamonds

setup() {
	needs_root "DAMON's sysfs files are root's only"
	[ -d $KD ] || skip "no DAMON sysfs interface on this kernel"
	# the machine's own kdamonds are recognised by their start at boot: the
	# test must not widen or narrow that
	unset RTLA_DAMOS_BOOT_WINDOW RTLA_DAMOS_BEFORE_COMMIT
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

# every file under /sys/kernel/mm/damon with its contents; the counters the
# kernel updates by itself are left out when a kdamond refreshes them itself
snapshot() {
	local skip='^$'
	if grep -qv '^0$' $KD/*/refresh_ms 2>/dev/null; then
		skip='/(stats|tried_regions)/|/effective_bytes:'
	fi
	# pid and memcg_path answer EBUSY while another reader holds DAMON's lock
	for _ in 1 2 3 4 5; do
		grep -r '' /sys/kernel/mm/damon >"$tmp/snap" 2>/dev/null && break
		sleep 0.2
	done
	grep -vE "$skip" "$tmp/snap" | sort
}

# the indexes of the running kdamonds rtla says were started with the machine
machine_kdamonds() {
	"$RTLA" damos -J | python3 -c '
import json, sys
for k in json.load(sys.stdin)["kdamonds"]:
    if k["owner"] == "machine":
        print(k["index"])'
}

@test "rtla damos shows the machine's kdamonds with their filters, as the files hold them" {
	run "$RTLA" damos
	echo "$output"
	[ "$status" -eq 0 ]
	for k in $KD/[0-9]*; do
		i=${k##*/}
		[[ $output == *"kdamond $i: $(cat "$k/state"), pid $(cat "$k/pid")"* ]]
		for f in "$k"/contexts/0/schemes/*/{filters,core_filters,ops_filters}/[0-9]*; do
			[ -d "$f" ] || continue
			allow=reject
			if [ "$(cat "$f/allow" 2>/dev/null)" = Y ]; then allow=allow; fi
			none=""
			if [ "$(cat "$f/matching")" = N ]; then none="none "; fi
			want="${f#*/schemes/*/}: $allow $none$(cat "$f/type")"
			echo "want: $want"
			grep -q -- "^ *${want//\//\\/}" <<<"$output"
		done
	done
	for i in $(machine_kdamonds); do
		[[ $output == *"kdamond $i: on, pid $(cat $KD/"$i"/pid), the machine's (started at boot)"* ]]
	done
}

@test "rtla damos -J holds every file of the tree: numbers, Y/N as booleans, lists" {
	"$RTLA" damos -J >"$tmp/r.json"
	python3 - "$tmp/r.json" $KD <<-'PY'
	import json, os, sys
	doc = json.load(open(sys.argv[1]))
	assert doc["live"] is True
	def value(text):
	    if text.lstrip("-").isdigit():
	        return int(text)
	    if text in ("Y", "N"):
	        return text == "Y"
	    if "\n" in text:
	        return text.split("\n")
	    return text
	checked = 0
	def compare(path, node):
	    global checked
	    for name in sorted(os.listdir(path)):
	        p = os.path.join(path, name)
	        if name.isdigit() or (name.startswith("nr_") and os.path.isfile(p) and
	                              path.endswith(name[3:])):
	            continue  # entries are the JSON arrays; their count is the length
	        assert name in node, (p, list(node))
	        if os.path.isdir(p):
	            kids = [k for k in os.listdir(p) if k.isdigit()]
	            sub = node[name]
	            if isinstance(sub, list):
	                assert len(sub) == len(kids), p
	                for i, s in enumerate(sub):
	                    compare(os.path.join(p, str(i)), s)
	            else:
	                compare(p, sub)
	        else:
	            text = open(p).read().rstrip("\n")
	            if "/stats/" in p or "/tried_regions/" in p:
	                continue  # may move between the two reads
	            assert node[name] == value(text), (p, node[name], text)
	            checked += 1
	ks = doc["kdamonds"]
	assert len(ks) == len([k for k in os.listdir(sys.argv[2]) if k.isdigit()])
	for k in ks:
	    compare(os.path.join(sys.argv[2], str(k["index"])), k)
	assert checked > 20, checked
	print("checked", checked, "files")
	PY
}

@test "every write command refuses the machine's kdamond, and no DAMON file changes" {
	before=$(snapshot)
	cmds=("start --paddr" "start --pid $$" "stop" "filter add anon" "filter rm 0"
		"commit")
	for i in $(machine_kdamonds); do
		cmds+=("start --paddr -k $i" "stop -k $i" "filter add -k $i anon"
			"filter add -k $i reject none addr 0x1000-0x2000" "filter rm -k $i ops_filters/0"
			"filter set -k $i ops_filters/0 reject anon" "commit -k $i" "show --refresh -k $i")
	done
	for args in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		run "$RTLA" damos $args
		echo "damos $args -> $status: $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"was started with the machine: rtla damos never writes to it" ||
			$output == *"no kdamond of rtla's is running"* ||
			$output == *"cannot add a kdamond while kdamond "*" runs"* ||
			$output == *"no kdamond at all"* ]]
	done
	# --refresh without -k refreshes only rtla's kdamonds: here none
	run "$RTLA" damos --refresh
	[ "$status" -eq 0 ]
	after=$(snapshot)
	# the machine's own agent moves its target's region when memory is added
	# (seen here: the end grew by 512 MiB in two hours); anything else is ours
	changed=$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' || true)
	if [ -n "$changed" ]; then
		echo "changed during the test:"
		echo "$changed"
		! grep -vE '^[<>] /sys/kernel/mm/damon/admin/kdamonds/[0-9]+/contexts/[0-9]+/targets/[0-9]+/regions/' <<<"$changed" || false
		echo "# only the machine's target region moved (its own agent)" >&3
	fi
}
