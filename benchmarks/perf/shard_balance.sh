#!/bin/sh
# How evenly `--shard I/N` splits `make run`'s main job (issue 27's
# target: the busiest of 4 shards at most 1.3x the mean; the shards'
# summed work within 10 % of one whole run's).  Each round runs the whole
# job once, then its N shards one after the other, each with -j 2 like
# the whole run, so nothing else competes with them.  Per round it prints
#   - each shard's mapping seconds (the `seconds` of its part's rows) and
#     the busiest shard over the mean;
#   - the whole run's per-loop seconds summed as the split deals the loops
#     (each loop goes to the shard whose part holds its row), the same
#     ratio: the split judged on one run's work, without the noise
#     between runs;
#   - the shards' summed seconds over the whole run's.
# Run it on a quiet machine: the seconds are wall seconds.
#   benchmarks/perf/shard_balance.sh CGRAMAP [SHARDS [ROUNDS]]
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 CGRAMAP [SHARDS [ROUNDS]]" >&2
    exit 2
fi
case $1 in
/*) CGRAMAP=$1 ;;
*) CGRAMAP=$(pwd)/$1 ;;
esac
SHARDS=${2:-4}
ROUNDS=${3:-3}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
job() { # json [shard options]: a run that writes no JSON stops the script
    out=$1
    shift
    "$CGRAMAP" "$@" -j 2 --no-progress --json "$out" \
        benchmarks/microbench benchmarks/tiled > "$tmp/last.txt" 2>&1 || true
    if [ ! -s "$out" ]; then
        echo "$0: $CGRAMAP $* wrote no JSON:" >&2
        tail -5 "$tmp/last.txt" >&2
        exit 1
    fi
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
    job "$tmp/whole$r.json"
    i=1
    while [ "$i" -le "$SHARDS" ]; do
        job "$tmp/part$r.$i.json" --shard "$i/$SHARDS"
        i=$((i + 1))
    done
    r=$((r + 1))
done
python3 - "$tmp" "$SHARDS" "$ROUNDS" <<'EOF'
import json, sys
tmp, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def key(row):
    return (row["file"], row["loop"])
def ratio(sums):
    mean = sum(sums) / len(sums)
    return max(sums) / mean if mean > 0 else float("nan")
def fmt(sums):
    return " ".join(f"{s:6.1f}" for s in sums)
for r in range(1, rounds + 1):
    whole = json.load(open(f"{tmp}/whole{r}.json"))
    shard_of, own = {}, []
    for i in range(1, n + 1):
        units = json.load(open(f"{tmp}/part{r}.{i}.json"))["units"]
        rows = [row for u in units for row in u["records"]]
        own.append(sum(row.get("seconds", 0) for row in rows))
        for row in rows:
            shard_of[key(row)] = i - 1
    dealt = [0.0] * n
    for row in whole:
        dealt[shard_of[key(row)]] += row.get("seconds", 0)
    total = sum(row.get("seconds", 0) for row in whole)
    capped = sum(1 for row in whole if row.get("capped"))
    print(f"round {r}: whole run {total:6.1f} s ({capped} rows capped)")
    print(f"  shards' own seconds  {fmt(own)}  busiest/mean {ratio(own):.2f}"
          f"  sum/whole {sum(own) / total:.2f}")
    print(f"  whole run as dealt   {fmt(dealt)}  busiest/mean {ratio(dealt):.2f}")
EOF
