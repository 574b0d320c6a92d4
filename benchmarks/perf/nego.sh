#!/bin/sh
# benchmarks/perf/nego.sh CGRAMAP [RUNS]: the speed of the negotiated
# annealer (mapper/search/nego.c).  Each case maps one DFG at one II it does not
# reach, so the annealer spends all of --moves, and the wall time is
# dominated by the moves (the heuristic first gets --steps 300).  Prints
# the median of RUNS (default 3) wall times per case and microseconds per
# move.  Timings depend on the machine and its load; not a test.
set -eu

BIN=${1:?usage: nego.sh CGRAMAP [RUNS]}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# name, C file, architecture, II, moves
CASES="conv5x5 benchmarks/large/conv5x5/conv5x5.c benchmarks/archs/default_8x8.xml 4 200000
sobel benchmarks/microbench/sobel/sobel.c - 2 200000"

echo "| case | II | moves | median s | µs/move |"
echo "|---|---:|---:|---:|---:|"
echo "$CASES" | while read -r name src arch ii moves; do
    "$BIN" dfg --cflags "-mllvm -enable-load-pre=false" "$ROOT/$src" \
        -o "$TMP/$name.dot"
    set -- map --ii "$ii" --mapper heuristic --steps 300 --moves "$moves" \
        --timeout 3600
    [ "$arch" = - ] || set -- "$@" --arch "$ROOT/$arch"
    : >"$TMP/times"
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        s=$(date +%s.%N)
        "$BIN" "$@" "$TMP/$name.dot" >/dev/null 2>&1 || true
        e=$(date +%s.%N)
        echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$TMP/times"
        r=$((r + 1))
    done
    med=$(sort -n "$TMP/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    echo "| $name | $ii | $moves | $med |" \
         "$(echo "$med $moves" | awk '{ printf "%.1f", $1 * 1e6 / $2 }') |"
done
