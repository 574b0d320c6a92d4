#!/bin/sh
# oom.sh [-s STRIDE] [-m SED] SHIM PROGRAM ARGS...: run PROGRAM ARGS once
# per allocation its own code makes, failing that one allocation (SHIM is
# failmalloc.so).  Each run must exit 0 with the normal output, or exit 1
# saying "out of memory" (or strerror's "Cannot allocate memory"); a
# crash, a silent failure, a changed output or another message fails the
# test.  Issue 14: allocation failures exited 1 with no message, or
# crashed.
#   -s STRIDE  fail only allocations 1, 1+STRIDE, 1+2*STRIDE, ... and the
#              last one (a sample, when one run per allocation is too slow)
#   -m SED     a sed -E script applied to the normal output and to each
#              run's before comparing them (to mask what differs from run
#              to run, like a time column)
set -u
stride=1
mask=
while getopts s:m: opt; do
    case $opt in
    s) stride=$OPTARG ;;
    m) mask=$OPTARG ;;
    *) echo "usage: oom.sh [-s STRIDE] [-m SED] SHIM PROGRAM ARGS..."; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
shim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
masked() { sed -E "$mask" "$1"; }
"$@" >"$tmp/out" 2>"$tmp/ref.err" || { echo "oom: the normal run failed"; cat "$tmp/ref.err"; exit 1; }
masked "$tmp/out" >"$tmp/ref.out"
CG_FAIL_COUNT_FILE=$tmp/count LD_PRELOAD=$shim "$@" >/dev/null 2>&1
total=$(cat "$tmp/count")
[ "$total" -gt 0 ] || { echo "oom: no allocation counted"; exit 1; }
bad=0
runs=0
n=1
while [ "$n" -le "$total" ]; do
    CG_FAIL_AT=$n LD_PRELOAD=$shim "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    runs=$((runs + 1))
    if [ "$st" -eq 0 ]; then
        masked "$tmp/out" | cmp -s - "$tmp/ref.out" || {
            echo "oom: allocation $n failed: exit 0 with another output"; bad=1; }
    elif [ "$st" -ne 1 ]; then
        echo "oom: allocation $n failed: exit status $st"; bad=1
    elif ! grep -q "out of memory\|Cannot allocate memory" "$tmp/err"; then
        echo "oom: allocation $n failed: exit 1 without 'out of memory':"
        head -n 3 "$tmp/err"
        bad=1
    fi
    if [ "$n" -lt "$total" ] && [ $((n + stride)) -gt "$total" ]; then
        n=$total
    else
        n=$((n + stride))
    fi
done
echo "oom: $runs of $total allocations failed one at a time (stride $stride), $([ $bad = 0 ] && echo "all reported" || echo "NOT all reported")"
exit $bad
