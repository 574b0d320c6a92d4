#!/bin/sh
# The two C-callable CDCL solvers of Debian 12 on the SAT mapper's own
# formulas: each loop's DFG (cgramap dfg) at one II on the embedded 4x4,
# written by `cgramap map --mapper sat --dump-cnf` (the whole window, slack
# 4, no assumptions), then solved by the cadical and cryptominisat5
# programs (Debian packages cadical and cryptominisat, the same versions as
# libcadical-dev and libcryptominisat5-dev), LIMIT seconds each, one at a
# time.  Prints one row per formula: its size, each solver's answer and
# seconds (wall, /usr/bin/time).
#   benchmarks/perf/sat_solvers.sh CGRAMAP [LIMIT]
set -eu
CGRAMAP=$1
LIMIT=${2:-120}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %3s %7s %8s  %-8s %8s  %-8s %8s\n' loop II vars clauses \
    cadical s cms s
for x in mac2:1 simple:1 bicg:1 mults2:1 conv2:1 jacobi2d:1 sobel:2; do
    b=${x%:*} ii=${x#*:}
    "$CGRAMAP" dfg "benchmarks/microbench/$b/$b.c" -o "$tmp/$b.dot" \
        2>/dev/null
    "$CGRAMAP" map --mapper sat --ii "$ii" --conflicts 1 \
        --dump-cnf "$tmp/$b" "$tmp/$b.dot" >/dev/null 2>&1 || true
    f="$tmp/$b-$ii"
    set -- $(head -1 "$f")
    vars=$3 clauses=$4
    run() { # solver args...: answer and seconds
        /usr/bin/time -f '%e' -o "$tmp/t" timeout "$LIMIT" "$@" "$f" \
            > "$tmp/out" 2>/dev/null || true
        a=$(grep -m1 '^s ' "$tmp/out" | cut -c3- | cut -c1-5)
        printf '%-8s %8s' "${a:-none}" "$(tail -1 "$tmp/t" | sed 's/.*signal.*/-/')"
    }
    printf '%-10s %3s %7s %8s  ' "$b" "$ii" "$vars" "$clauses"
    run cadical -q
    printf '  '
    run cryptominisat5 --verb 0 --threads 1
    printf '\n'
done
