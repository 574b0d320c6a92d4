#!/bin/sh
# The same rows from `make run`'s main job twice: once on a quiet machine,
# once with LOAD processes spinning beside it (default 2, one per core of
# the machines this project is measured on).  A row depends on the input,
# the seed and the work limits only; a wall-clock cap is the one thing
# that may change it, and a row it decided says `capped`.  Prints each
# run's wall time and mapping seconds, then the rows that differ (JSON
# fields other than the seconds) and whether a cap explains it, and exits
# 1 when a row differs with no cap on either side.
#   benchmarks/perf/determinism.sh CGRAMAP [LOAD]
set -eu
CGRAMAP=$1
LOAD=${2:-2}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
run() { # name
    /usr/bin/time -f '%e' -o "$tmp/$1.time" "$CGRAMAP" -j 2 --no-progress \
        --json "$tmp/$1.json" benchmarks/microbench benchmarks/tiled \
        > "$tmp/$1.txt" 2>&1 || true
}
run quiet
i=0
while [ "$i" -lt "$LOAD" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done
run loaded
for p in $pids; do kill "$p" 2>/dev/null || true; done
pids=
python3 - "$tmp" <<'EOF'
import json, sys
tmp = sys.argv[1]
def rows(name):
    recs = json.load(open(f"{tmp}/{name}.json"))
    secs = sum(r.get("seconds", 0) for r in recs)
    for r in recs:
        r.pop("seconds", None)
        for t in r.get("tries", []):
            t.pop("seconds", None)
    return recs, secs
q, qs = rows("quiet")
l, ls = rows("loaded")
for name, s in (("quiet", qs), ("loaded", ls)):
    wall = open(f"{tmp}/{name}.time").read().split()[-1]
    capped = sum(1 for r in (q if name == "quiet" else l) if r.get("capped"))
    print(f"{name:7} wall {wall:>7} s  mapping {s:7.1f} s  capped rows {capped}")
def capped(r):
    return bool(r.get("capped")) or any(t.get("capped") for t in r.get("tries", []))
diff = [(a, b) for a, b in zip(q, l) if a != b]
if len(q) != len(l):
    print(f"row counts differ: {len(q)} and {len(l)}")
bad = 0
for a, b in diff:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    why = "a wall-clock cap, marked" if capped(a) or capped(b) else "NOT capped"
    bad += not (capped(a) or capped(b))
    print(f"differs ({why}): {a['benchmark']}/{a['loop']}: {', '.join(keys)}")
print(f"{len(q) - len(diff)} of {len(q)} rows identical but for seconds; "
      f"{bad} differ without a cap")
sys.exit(1 if bad or len(q) != len(l) else 0)
EOF
