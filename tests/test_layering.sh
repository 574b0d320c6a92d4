#!/bin/sh
# test_layering.sh SOURCE_DIR: the stages include only what lies below them.
#
# Reads the #include "..." lines of every .c and .h under the stage folders
# and fails, naming file:line, when one includes a header of a stage it may
# not use.  The order, data flowing down (README.md, "Layout"):
#
#   common < arch < xml;  common < dfg < extract
#   dfg, arch < mapper/model < rtl < verify < tiling
#   mapper/model < mapper/search < mapper/exact (the register bound uses
#                  the heuristic's least route delays)
#   mapper/exact, mapper/search, verify < mapper/map.c (the II search, which
#                  checks what it returns with the verification stage)
#   all of them < flow < cli
#
# mapper/*.h (map.h, mapping_io.h) are the mapper's public headers: the
# model's types, includable wherever the model is.  verify/ may include
# the model (mapper/model/, mapper/*.h), never mapper/search/ nor
# mapper/exact/.  An include is resolved as the compiler does: beside the
# including file, then from SOURCE_DIR.
set -eu
src=${1:-.}
cd "$src"

files=$(find common arch xml dfg extract mapper rtl verify tiling flow cli \
             -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "test_layering: no sources under $src" >&2; exit 1; }

# Each file's includes as "file:line:included path" (path as written).
grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files |
awk -F: '
function unit(p) {
    if (p ~ /^mapper\/model\//) return "mapper/model"
    if (p ~ /^mapper\/search\//) return "mapper/search"
    if (p ~ /^mapper\/exact\//) return "mapper/exact"
    if (p ~ /^mapper\/[^\/]*\.h$/) return "mapper/api"
    if (p ~ /^mapper\/[^\/]*\.c$/) return "mapper"
    split(p, q, "/")
    return (q[1] in known) ? q[1] : ""
}
# a/b/../c -> a/c
function norm(p,    n, i, k, part, out, s) {
    n = split(p, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "." || part[i] == "") continue
        if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = part[i]
    }
    s = ""
    for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
    return s
}
function exists(p,    line, r) {
    r = (getline line < p)
    if (r >= 0) { close(p); return 1 }
    return 0
}
BEGIN {
    split("common arch xml dfg extract mapper rtl verify tiling flow cli", s, " ")
    for (i in s) known[s[i]] = 1
    # unit: the units it may include besides itself
    may["common"]        = ""
    may["arch"]          = "common"
    may["xml"]           = "arch common"
    may["dfg"]           = "common"
    may["extract"]       = "dfg common"
    may["mapper/api"]    = "arch dfg common"
    may["mapper/model"]  = "mapper/api arch dfg common"
    may["rtl"]           = "mapper/model mapper/api arch dfg common"
    may["verify"]        = "rtl mapper/model mapper/api arch dfg common"
    may["tiling"]        = "verify rtl mapper/model mapper/api arch dfg common"
    may["mapper/search"] = "mapper/model mapper/api arch dfg common"
    may["mapper/exact"]  = "mapper/search mapper/model mapper/api arch dfg common"
    may["mapper"]        = "mapper/exact mapper/search mapper/model mapper/api verify rtl arch dfg common"
    may["flow"]          = "rtl tiling mapper mapper/exact mapper/search mapper/model mapper/api verify extract xml dfg arch common"
    may["cli"]           = "rtl flow tiling mapper mapper/exact mapper/search mapper/model mapper/api verify extract xml dfg arch common"
    bad = 0
}
{
    file = $1; line = $2
    text = $0
    sub(/^[^:]*:[^:]*:/, "", text)
    match(text, /"[^"]*"/)
    inc = substr(text, RSTART + 1, RLENGTH - 2)
    dir = file; sub(/[^\/]*$/, "", dir)
    p = norm(dir inc)
    if (!exists(p)) p = norm(inc)
    if (!exists(p)) {
        printf "%s:%s: includes \"%s\", which is no file of the tree\n", file, line, inc
        bad++
        next
    }
    from = unit(file); to = unit(p)
    if (to == "" || to == from) next
    n = split(may[from], ok, " ")
    allowed = 0
    for (i = 1; i <= n; i++) if (ok[i] == to) allowed = 1
    if (!allowed) {
        printf "%s:%s: %s includes %s (%s), a stage it may not use; %s may include: %s\n", file, line, from, p, to, from, (may[from] == "" ? "nothing else" : may[from])
        bad++
    }
}
END {
    if (bad) { printf "test_layering: %d include(s) against the layering\n", bad; exit 1 }
    print "test_layering: every include goes down the stages"
}'
