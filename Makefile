# A thin wrapper around CMake.  `make run` and `make test` set everything up.
BUILD         ?= build
ASAN_BUILD    ?= build-asan
RELEASE_BUILD ?= build-release
CLANG_RELEASE_BUILD ?= build-release-clang
JOBS          ?= 2

.PHONY: all setup build run test test-asan test-release install clean perf \
        perf-growth fuzz fuzz-build

all: build

setup:
	@scripts/setup.sh

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The main job: the embedded default array's summary, then every benchmark
# loop mapped on it, the microbenchmarks and the loops that need tiling,
# with the default effort (no effort flags), two files at once.
run: build
	$(BUILD)/cli/cgramap arch
	$(BUILD)/cli/cgramap -j 2 benchmarks/microbench benchmarks/tiled

# Warnings are errors here (CG_WERROR, off for users' builds): `make test`
# configures $(BUILD) with it every time, so a later `make run` or `make
# build` in the same folder keeps it.
test: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCG_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(MAKE) test-asan
	$(MAKE) test-release
	$(MAKE) fuzz FUZZ_SECONDS=20

test-asan: setup
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCG_SANITIZE=ON \
	    -DCG_WERROR=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# What a user's `-DCMAKE_BUILD_TYPE=Release` build compiles (-O3 finds
# warnings -O2 does not), built with warnings as errors by gcc and by
# clang-16 (each finds warnings the other does not); nothing run.
test-release: setup
	cmake -S . -B $(RELEASE_BUILD) -DCMAKE_BUILD_TYPE=Release -DCG_WERROR=ON
	cmake --build $(RELEASE_BUILD) -j $(JOBS)
	cmake -S . -B $(CLANG_RELEASE_BUILD) -DCMAKE_C_COMPILER=clang-16 \
	    -DCMAKE_BUILD_TYPE=Release -DCG_WERROR=ON
	cmake --build $(CLANG_RELEASE_BUILD) -j $(JOBS)

# libFuzzer targets (docs/fuzzing.md), built with clang-16, ASan and UBSan in
# their own folder, each run FUZZ_SECONDS under nice, one at a time.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= xml expr dot make nus

fuzz-build: setup
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang-16 \
	    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCG_FUZZ=ON -DCG_WERROR=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) \
	    --target $(FUZZ_TARGETS:%=fuzz_%)

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

install: build
	cmake --install $(BUILD)

perf: build
	benchmarks/perf/run.sh $(BUILD)

# How reading grows with input size (benchmarks/perf/growth.md).
perf-growth: build
	benchmarks/perf/growth.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(RELEASE_BUILD) $(CLANG_RELEASE_BUILD) \
	    $(FUZZ_BUILD)
