#!/bin/sh
# benchmarks/perf/run.sh BUILD: the performance tables of a build (`make
# perf`): the mapper on every microbenchmark loop on the embedded default
# 4x4 (map_perf), then the tiler against its targets (tile_perf) when that
# was built.  Timings depend on the machine and its load; not a test.
#
#   CG_PERF_TIMEOUT   seconds per II (default 60)
#   CG_PERF_MAX_II    highest II tried (default 8)
#   CG_PERF_SOLVER    the ILP's MIP solver, glpk or cbc (default glpk)
set -eu

BUILD=${1:-build}
TIMEOUT=${CG_PERF_TIMEOUT:-60}
MAX_II=${CG_PERF_MAX_II:-8}
SOLVER=${CG_PERF_SOLVER:-glpk}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -x "$BUILD/benchmarks/map_perf" ]; then
    echo "run.sh: $BUILD/benchmarks/map_perf not found: build first" \
         "(make build, or cmake --build $BUILD --target map_perf)" >&2
    exit 2
fi

echo "## Mapper: map_perf --timeout $TIMEOUT --max-ii $MAX_II --solver $SOLVER" \
     "benchmarks/microbench/*/ ($(nproc) cores, $(date -u +%Y-%m-%d))"
echo
"$BUILD/benchmarks/map_perf" --timeout "$TIMEOUT" --max-ii "$MAX_II" \
    --solver "$SOLVER" \
    "$ROOT"/benchmarks/microbench/*/

if [ -x "$BUILD/tiling/tile_perf" ]; then
    echo
    echo "## Tiler: tile_perf"
    echo
    "$BUILD/tiling/tile_perf"
fi
