#!/bin/sh
# report_shot.sh DIR [OUT.png]: render the page `cgramap --report DIR`
# wrote (DIR/index.html) in headless Chromium and save a screenshot
# (default DIR/index.png), to look at the charts as a browser draws them.
# tests/cli/test_compare.c takes the same screenshot.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/index.html" ]; then
    echo "usage: $0 DIR [OUT.png] (DIR holds the index.html of cgramap --report)" >&2
    exit 2
fi
command -v chromium >/dev/null || {
    echo "$0: chromium not found; scripts/setup.sh installs it" >&2
    exit 1
}
dir=$(cd "$1" && pwd)
out=${2:-$dir/index.png}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1100,1900 --screenshot="$out" "file://$dir/index.html" \
    >/dev/null 2>&1
echo "$out"
