#!/bin/sh
# Run each libFuzzer target of BUILD (configured with -DCG_FUZZ=ON) for
# SECONDS under nice, one at a time (docs/fuzzing.md).  New inputs go to
# BUILD/fuzz/corpus/<target> (the seeds of tests/fuzz/corpus/<target> are
# read, never written); a crash is saved as BUILD/fuzz/crash-<target>-* and
# ends the run with a failure.  Usage: run.sh BUILD SECONDS [TARGET...]
set -eu
build=$1
seconds=$2
shift 2
targets=${*:-xml expr dot make nus}
here=$(cd "$(dirname "$0")" && pwd)
out=$build/fuzz
for t in $targets; do
    mkdir -p "$out/corpus/$t"
    echo "fuzz: $t for $seconds s"
    # -timeout: one input may take 20 s (a 512x512 grid is legal);
    # -rss_limit_mb: the largest legal array stays far below 2 GB.
    nice -n 19 "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" \
        -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="$here/$t.dict" -artifact_prefix="$out/crash-$t-" \
        "$out/corpus/$t" "$here/corpus/$t" "$here/regress/$t" \
        >"$out/$t.log" 2>&1 || {
        tail -n 60 "$out/$t.log"
        echo "fuzz: $t failed; the input is $out/crash-$t-*; add it to" \
             "tests/fuzz/regress/$t/ with the fix"
        exit 1
    }
    grep -E '^#[0-9]+.*(DONE|cov:)' "$out/$t.log" | tail -n 1
    grep -E '^stat::number_of_executed_units' "$out/$t.log"
done
