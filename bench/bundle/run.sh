#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The board bundle against the distribution build, side by side in one run:
# the size of what is copied (the static rtla, its .tar.gz; the dynamic rtla
# with the shared libraries it loads) and the start-up time of rtla --help.
#
#   RTLA=build/rtla bench/bundle/run.sh      (or: bench/run.sh --build build bundle)
#   RUNS=50 to change the repetitions
#
# Builds the bundle and the container image of RTLA's tree (make oci) and reports the board
# bundles (arm64, armhf, riscv64) and Debian packages too when they were built (make packages).
# Uses hyperfine when installed, else a timed loop (median of RUNS).
set -eu
cd "$(dirname "$0")/../.."

rtla=${RTLA:-build/rtla}
runs=${RUNS:-50}
[ -x "$rtla" ] || { echo "bundle bench: no rtla binary at $rtla (set RTLA)" >&2; exit 1; }
build=$(dirname "$rtla")
make --no-print-directory -s O="$build" oci >/dev/null
version=$(cat VERSION)
arch=$(dpkg --print-architecture)
static=$build/bundle/rtla-$version-$arch/rtla
image=$build/oci/rtla-$version-$arch.oci.tar
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kb() { awk -v b="$1" 'BEGIN { printf "%.0f KB", b / 1024 }'; }
size() { stat -L -c %s "$1"; }

# the dynamic build as a distribution ships it: stripped, plus its libraries
strip -o "$tmp/rtla" "$rtla"
libs=0
while read -r lib; do
	libs=$((libs + $(size "$lib")))
done < <(ldd "$rtla" | grep -oE '/[^ ]+' | sort -u)
echo "size ($arch):"
printf '  %-46s %10s\n' "bundle: static rtla, stripped" "$(kb "$(size "$static")")"
printf '  %-46s %10s\n' "bundle: rtla-$version-$arch.tar.gz" "$(kb "$(size "$build/bundle/rtla-$version-$arch.tar.gz")")"
printf '  %-46s %10s\n' "OCI image (make oci), the archive" "$(kb "$(size "$image")")"
printf '  %-46s %10s\n' "dynamic rtla, stripped" "$(kb "$(size "$tmp/rtla")")"
printf '  %-46s %10s\n' "dynamic rtla + its $(ldd "$rtla" | grep -c '/') shared libraries" "$(kb $(($(size "$tmp/rtla") + libs)))"
for a in arm64 armhf riscv64; do
	d=build-$a/bundle/rtla-$version-$a
	if [ "$a" = "$arch" ] || [ ! -x "$d/rtla" ]; then continue; fi
	echo "size ($a, cross-built):"
	printf '  %-46s %10s\n' "bundle: static rtla, stripped" "$(kb "$(size "$d/rtla")")"
	printf '  %-46s %10s\n' "bundle: rtla-$version-$a.tar.gz" "$(kb "$(size "$d.tar.gz")")"
done
# the Debian packages of make deb (make packages builds amd64 and arm64)
ls "$build"/deb/rtla-suite_"$version"_*.deb >/dev/null 2>&1 && echo "size (Debian packages):"
for deb in "$build"/deb/rtla-suite_"$version"_*.deb; do
	[ -f "$deb" ] || continue
	a=${deb##*_}
	a=${a%.deb}
	printf '  %-46s %10s\n' "Debian package (make deb), $a: the .deb" "$(kb "$(size "$deb")")"
	printf '  %-46s %10s\n' "Debian package, $a: installed" "$(dpkg-deb -f "$deb" Installed-Size) KB"
done

median_ms() {
	local t0 t1
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" >/dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'
}

echo "start-up, rtla --help (ms, median of $runs):"
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 5 --runs "$runs" --export-json "$tmp/h.json" \
		"$static --help" "$rtla --help" >/dev/null
	read -r ours theirs < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.2f" % (x["median"] * 1000) for x in r))' "$tmp/h.json")
else
	ours=$(median_ms "$static" --help)
	theirs=$(median_ms "$rtla" --help)
fi
printf '  %-46s %10s\n' "bundle (static)" "$ours" "distribution build (dynamic)" "$theirs"
awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "  ratio static/dynamic: %.2f\n", a / b }'
