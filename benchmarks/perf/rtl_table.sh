#!/bin/sh
# benchmarks/perf/rtl_table.sh BUILD [OUTDIR]: the RTL figures of issue 25
# (docs/rtl.md links the dated result files).
#
#  1. Co-simulation: the main job with --rtl on benchmarks/microbench for
#     each array of CG_RTL_ARRAYS (default: default_4x4, default_4x4_imm,
#     hetero_8x8) under CG_RTL_SIM (default verilator), -j CG_RTL_JOBS
#     (default 2), the compiled models in CG_RTL_CACHE (default: a fresh
#     folder, so each array's compile is in its wall time).  A table of
#     rows, their rtl words (yes / no / n/a), wall seconds; each row that is
#     not "rtl: yes" is listed with its word.
#  2. Area: `cgramap area` on every array under benchmarks/archs (the
#     two-file one with its templates), each with an empty cache: wall
#     seconds uncached, cells, flip-flops, NAND2-equivalents, configuration
#     bits; then the NAND2 ratio of each 8x8 to its 4x4.
#
# Prints Markdown to stdout; the main job's JSON and output, and each area
# report, are kept in OUTDIR (default: a temporary folder, removed).
#
#   CG_RTL_SKIP_COSIM=1 / CG_RTL_SKIP_AREA=1  leave out a part
#   CG_RTL_AREA_ARRAYS  names under benchmarks/archs (default: every .xml)
#
# Timings depend on the machine and its load (printed); not a test.
set -eu

BUILD=${1:-build}
CGRAMAP=$BUILD/cli/cgramap
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCHS=$ROOT/benchmarks/archs
ARRAYS=${CG_RTL_ARRAYS:-default_4x4 default_4x4_imm hetero_8x8}
SIM=${CG_RTL_SIM:-verilator}
JOBS=${CG_RTL_JOBS:-2}
if [ ! -x "$CGRAMAP" ]; then
    echo "rtl_table.sh: $CGRAMAP not found: build first (make build)" >&2
    exit 2
fi
if [ -n "${2:-}" ]; then
    OUT=$2
    mkdir -p "$OUT"
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT INT TERM
fi
CACHE=${CG_RTL_CACHE:-$OUT/cache}

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "$("$CGRAMAP" --version | head -1), $(nproc) cores, load at start" \
     "$(load)"
echo

if [ "${CG_RTL_SKIP_COSIM:-}" != 1 ]; then
    echo "## Co-simulation ($SIM): the main job with --rtl on benchmarks/microbench"
    echo
    echo "    $CGRAMAP --arch benchmarks/archs/A.xml --rtl --rtl-sim $SIM \\"
    echo "        --rtl-cache CACHE -j $JOBS --json A.json benchmarks/microbench"
    echo
    echo "| array | rows | rtl yes | rtl no | rtl n/a | verified yes | wall s | load after |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    notes=""
    for a in $ARRAYS; do
        t0=$(now)
        "$CGRAMAP" --arch "$ARCHS/$a.xml" --rtl --rtl-sim "$SIM" \
            --rtl-cache "$CACHE" -j "$JOBS" --no-progress \
            --json "$OUT/$a.json" "$ROOT/benchmarks/microbench" \
            >"$OUT/$a.out" 2>"$OUT/$a.err" || true
        t1=$(now)
        j=$OUT/$a.json
        rows=$(jq length "$j")
        yes=$(jq '[.[] | select(.rtl == "yes")] | length' "$j")
        no=$(jq '[.[] | select((.rtl // "") | startswith("no"))] | length' "$j")
        na=$(jq '[.[] | select((.rtl // "") | startswith("n/a"))] | length' "$j")
        ver=$(jq '[.[] | select(.verified == "yes")] | length' "$j")
        echo "| $a | $rows | $yes | $no | $na | $ver | $(secs "$t0" "$t1") | $(load) |"
        notes="$notes$(jq -r --arg a "$a" '.[] | select(.rtl != "yes") |
            "- \($a) \(.benchmark) \(.loop): rtl: \(.rtl // "none") (status \(.status), verified \(.verified // "-"))"' "$j")
"
    done
    if [ -n "$(echo "$notes" | tr -d '\n')" ]; then
        echo
        echo "Rows not \`rtl: yes\`:"
        echo
        echo "$notes" | sed '/^$/d'
    fi
    echo
fi

if [ "${CG_RTL_SKIP_AREA:-}" != 1 ]; then
    echo "## Area: cgramap area on every shipped array, uncached (16 contexts)"
    echo
    echo "    $CGRAMAP area --arch benchmarks/archs/A.xml --cache EMPTY --json A.area.json"
    echo
    echo "| array | wall s | cells | flip-flops | NAND2-eq | config bits | load after |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    list=${CG_RTL_AREA_ARRAYS:-}
    if [ -z "$list" ]; then
        list=$(cd "$ARCHS" && ls *.xml | sed 's/\.xml$//')
        list="$list two_file/mesh_arch"
    fi
    for a in $list; do
        set -- --arch "$ARCHS/$a.xml"
        [ "$a" = two_file/mesh_arch ] &&
            set -- "$@" --templates "$ARCHS/two_file/module_templates.xml"
        name=$(echo "$a" | tr / _)
        rm -rf "$OUT/area-$name"
        t0=$(now)
        if "$CGRAMAP" area "$@" --cache "$OUT/area-$name" \
               --json "$OUT/$name.area.json" >"$OUT/$name.area" \
               2>"$OUT/$name.area.err"; then
            t1=$(now)
            echo "| $a | $(secs "$t0" "$t1") $(jq -r \
                '"| \(.cells) | \(.flip_flops) | \(.nand2 | floor) | \(.config_bits)"' \
                "$OUT/$name.area.json") | $(load) |"
        else
            t1=$(now)
            echo "| $a | $(secs "$t0" "$t1") | refused: $(grep -m1 -o 'combinational loop\|error: .\{0,60\}' "$OUT/$name.area.err" | head -1) | | | | $(load) |"
        fi
    done
    echo
    # only pairs of the same PE: hetero_4x4 and diagonal are other
    # designs than hetero_8x8 and diagonal_8x8 (no dividers, no memory
    # ports, no ConstUnits)
    echo "NAND2-equivalents of each 8x8 over the 4x4 of its PE:"
    echo
    for pair in default_8x8:default_4x4 nswe_mesh_8x8:nswe_mesh; do
        big=${pair%%:*} small=${pair##*:}
        if [ -f "$OUT/$big.area.json" ] && [ -f "$OUT/$small.area.json" ]; then
            jq -rn --slurpfile b "$OUT/$big.area.json" \
                --slurpfile s "$OUT/$small.area.json" \
                --arg big "$big" --arg small "$small" \
                '"- \($big) / \($small): \(($b[0].nand2 / $s[0].nand2) * 100 | round / 100)"'
        fi
    done
    echo
fi
echo "load at the end $(load)"
