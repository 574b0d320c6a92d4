#!/bin/sh
# benchmarks/perf/growth.sh BUILD: how the readers' time grows with input
# size (benchmarks/perf/growth.md holds the table).  Generates an NxN mesh
# architecture (N = 25, 50, 100, 200), a chain DFG of K nodes (K = 25k,
# 50k, 100k, 200k) and an architecture file with M module templates (M =
# 25k .. 200k, all but one unused) in a temporary folder, then times,
# median of 3 runs:
#   cgramap arch --arch mesh_N.xml           (XML read, flatten, summary)
#   cgramap map --max-ii 1 chain_K.dot       (dot read, DFG check, MII;
#                                             stops there: MII > 1)
#   cgramap arch --arch modules_M.xml        (template collection)
# and prints Markdown tables with the ratio to the previous size.  Each
# step doubles the size: ~2 is linear growth, ~4 quadratic; for the mesh N
# doubles and the cells quadruple: ~4 is linear in cells, ~16 quadratic.
# Each input is run once first to check it does what is timed.  Timings
# depend on the machine and its load; not a test.
#
#   CG_GROWTH_MESH   sizes N (default "25 50 100 200")
#   CG_GROWTH_DOT    sizes K (default "25000 50000 100000 200000")
#   CG_GROWTH_MODS   sizes M (default "25000 50000 100000 200000")
set -eu

BUILD=${1:-build}
CGRAMAP=$BUILD/cli/cgramap
MESH=${CG_GROWTH_MESH:-25 50 100 200}
DOT=${CG_GROWTH_DOT:-25000 50000 100000 200000}
MODS=${CG_GROWTH_MODS:-25000 50000 100000 200000}
if [ ! -x "$CGRAMAP" ]; then
    echo "growth.sh: $CGRAMAP not found: build first (make build)" >&2
    exit 2
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# An NxN mesh of the default PE without memory (default_6x6.xml's PE).
mesh_xml() {
    cat <<XML
<?xml version="1.0"?>
<cgra>
  <module name="pe">
    <input name="in_n"/> <input name="in_e"/> <input name="in_s"/> <input name="in_w"/>
    <output name="out"/>
    <inst name="func" module="FuncUnit" op="add sub mul and or xor icmp"/>
    <inst name="const" module="ConstUnit"/>
    <inst name="reg" module="Register"/>
    <connection select-from="this.in_n this.in_e this.in_s this.in_w reg.out const.out"
                to="func.in_a func.in_b"/>
    <connection select-from="func.out this.in_n this.in_e this.in_s this.in_w" to="reg.in"/>
    <connection from="reg.out" to="this.out"/>
  </module>
  <architecture cgra-rows="$1" cgra-cols="$1">
    <mesh io="every-side-port"
          out-north="out" out-east="out" out-south="out" out-west="out"
          in-north="in_n" in-east="in_e" in-south="in_s" in-west="in_w">
      <interior row="1" col="1"><block module="pe"/></interior>
    </mesh>
  </architecture>
</cgra>
XML
}

# A DFG of K nodes: an input, K-2 adds each of the previous node and the
# input, an output.
chain_dot() {
    awk -v k="$1" 'BEGIN {
        print "digraph chain {"
        print "  n0[opcode=input];"
        for (i = 1; i < k - 1; i++) print "  n" i "[opcode=add];"
        print "  n" k - 1 "[opcode=output];"
        for (i = 1; i < k; i++) {
            print "  n" i - 1 "->n" i "[operand=0];"
            if (i < k - 1) print "  n0->n" i "[operand=1];"
        }
        print "}"
    }'
}

# M one-wire templates m<i>, then a 1x1 architecture of one other.
modules_xml() {
    awk -v m="$1" 'BEGIN {
        print "<?xml version=\"1.0\"?>"
        print "<cgra>"
        for (i = 0; i < m; i++)
            print "  <module name=\"m" i "\"><input name=\"in\"/>" \
                  "<output name=\"out\"/>" \
                  "<connection from=\"this.in\" to=\"this.out\"/></module>"
        print "  <module name=\"pe\"><input name=\"in\"/>" \
              "<output name=\"out\"/><inst name=\"reg\" module=\"Register\"/>" \
              "<connection from=\"this.in\" to=\"reg.in\"/>" \
              "<connection from=\"reg.out\" to=\"this.out\"/></module>"
        print "  <architecture cgra-rows=\"1\" cgra-cols=\"1\">" \
              "<pattern><block module=\"pe\"/></pattern></architecture>"
        print "</cgra>"
    }'
}

# Check once that a run does what is timed: arch succeeds; map reads and
# checks the DFG and stops at its MII (not a syntax or check error).
expect_ok() {
    if ! "$@" >/dev/null 2>"$TMP/err"; then
        echo "growth.sh: '$*' failed:" >&2
        cat "$TMP/err" >&2
        exit 1
    fi
}
expect_mii() {
    "$@" >/dev/null 2>"$TMP/err" || true
    if ! grep -q "needs II >=" "$TMP/err"; then
        echo "growth.sh: '$*' did not stop at its MII:" >&2
        cat "$TMP/err" >&2
        exit 1
    fi
}

# Seconds of one run of "$@" (its output discarded, its status ignored:
# the map run stops at its MII on purpose; checked above).
secs() {
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

median3() {
    a=$(secs "$@"); b=$(secs "$@"); c=$(secs "$@")
    printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

# row SIZE_LABEL PREV_MEDIAN MEDIAN
row() {
    awk -v s="$1" -v p="$2" -v m="$3" 'BEGIN {
        r = (p == "" || p + 0 == 0) ? "-" : sprintf("%.1f", m / p)
        printf "| %s | %s | %s |\n", s, m, r }'
}

# table TITLE SIZE_HEADER MAKE EXPECT SIZES CMD...: for each size S, the
# input MAKE S written to a file, checked with EXPECT, then the median
# seconds of CMD... FILE, one row each.
table() {
    title=$1 head=$2 make=$3 expect=$4 sizes=$5
    shift 5
    echo "## $title (median of 3, seconds)"
    echo
    echo "| $head | seconds | ratio to the size before |"
    echo "|---|---|---|"
    prev=
    for s in $sizes; do
        f=$TMP/$make-$s
        "$make" "$s" >"$f"
        "$expect" "$@" "$f"
        t=$(median3 "$@" "$f")
        row "$s" "$prev" "$t"
        prev=$t
    done
    echo
}

echo "# Growth: $(nproc) cores, $(date -u +%Y-%m-%d)"
echo
table "cgramap arch --arch mesh_N.xml" "N (NxN mesh)" mesh_xml expect_ok \
    "$MESH" "$CGRAMAP" arch --arch
table "cgramap map --max-ii 1 chain_K.dot (reads, checks, stops at the MII)" \
    "K (nodes)" chain_dot expect_mii "$DOT" "$CGRAMAP" map --max-ii 1
table "cgramap arch --arch modules_M.xml (M templates, one used)" \
    "M (templates)" modules_xml expect_ok "$MODS" "$CGRAMAP" arch --arch
