# rules.mk as CGRA-ME ships it (benchmarks/rules.mk), cut to what matters.
MAKEFLAGS += -r

BENCHNAME ?= $(shell basename `pwd`)

CFLAGS ?= -O3

LOOP_TAGS ?= loop

DFG_FLAGS += -loop-tags '$(LOOP_TAGS)'

DFG_TARGETS = $(patsubst %,graph_%.dot,$(LOOP_TAGS))

build: $(DFG_TARGETS)

$(DFG_TARGETS): $(BENCHNAME).bc $(BENCHNAME).tag
	opt '$(BENCHNAME).bc' -o '/dev/null' --dfg-out $(DFG_FLAGS)

%.bc: %.tagged.c
	clang -emit-llvm -c '$*.tagged.c' -o '$*.bc' $(CFLAGS)
