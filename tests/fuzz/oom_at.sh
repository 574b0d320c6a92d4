#!/bin/sh
# oom_at.sh SHIM N TEXT PROGRAM ARGS...: run PROGRAM ARGS with its N-th
# allocation failed (failmalloc.c preloaded); it must exit 1 with TEXT on
# stderr (a clear "out of memory", not a crash nor a silent exit).
set -u
shim=$1 n=$2 text=$3
shift 3
err=$(CG_FAIL_AT=$n LD_PRELOAD=$shim "$@" 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 1 ] || ! printf '%s\n' "$err" | grep -qF "$text"; then
    echo "oom_at.sh: allocation $n of '$*': exit $rc, stderr:"
    printf '%s\n' "$err"
    exit 1
fi
