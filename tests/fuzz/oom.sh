#!/bin/sh
# oom.sh SHIM PROGRAM ARGS...: run PROGRAM ARGS once per allocation its own
# code makes, failing that one allocation (SHIM is failmalloc.so).  Each
# run must exit 0 with the normal output, or exit 1 saying "out of memory"
# (or strerror's "Cannot allocate memory"); a crash, a silent failure, a
# changed output or another message fails the test.  Issue 14: allocation
# failures exited 1 with no message, or crashed.
set -u
shim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/ref.out" 2>"$tmp/ref.err" || { echo "oom: the normal run failed"; cat "$tmp/ref.err"; exit 1; }
CG_FAIL_COUNT_FILE=$tmp/count LD_PRELOAD=$shim "$@" >/dev/null 2>&1
total=$(cat "$tmp/count")
[ "$total" -gt 0 ] || { echo "oom: no allocation counted"; exit 1; }
bad=0
n=1
while [ "$n" -le "$total" ]; do
    CG_FAIL_AT=$n LD_PRELOAD=$shim "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq 0 ]; then
        cmp -s "$tmp/out" "$tmp/ref.out" || {
            echo "oom: allocation $n failed: exit 0 with another output"; bad=1; }
    elif [ "$st" -ne 1 ]; then
        echo "oom: allocation $n failed: exit status $st"; bad=1
    elif ! grep -q "out of memory\|Cannot allocate memory" "$tmp/err"; then
        echo "oom: allocation $n failed: exit 1 without 'out of memory':"
        head -n 3 "$tmp/err"
        bad=1
    fi
    n=$((n + 1))
done
echo "oom: $total allocations failed one at a time, $([ $bad = 0 ] && echo "all reported" || echo "NOT all reported")"
exit $bad
