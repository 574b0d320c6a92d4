#!/bin/sh
# Install, with apt-get, the Debian 12 packages cgramap needs and that are
# missing; print what was done.  Safe to run again: it installs nothing when
# everything is there.
set -eu

PACKAGES="cmake make gcc g++ pkg-config libxml2-dev libglpk-dev glpk-utils \
libcmocka-dev libjansson-dev libcsv-dev llvm-16-dev clang-16 graphviz \
coinor-libcbc-dev libmetis-dev libcadical-dev chromium libpng-dev \
libclang-rt-16-dev slurm-wlm munge verilator iverilog yosys"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "setup: all dependencies present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "setup: installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
echo "setup: installed:$missing"
