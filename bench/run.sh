#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every benchmark (bench/*/run.sh) or the ones named, against a built
# tree. Benchmarks compare us with the reference tool side by side in one
# run and report ratios; they are never part of make check.
#
#   bench/run.sh --build DIR [NAME...]
set -eu
cd "$(dirname "$0")/.."
build=build
if [ "${1:-}" = --build ]; then build=$2; shift 2; fi
RTLA=$(cd "$build" && pwd)/rtla
export RTLA
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd bench && ls -d */ 2>/dev/null | tr -d /))
for n in "${names[@]}"; do
	echo "== bench $n"
	bench/$n/run.sh
done
