# rules.mk: CGRA-ME's benchmark habit.  A benchmark folder's Makefile sets
#   LOOP_TAGS = tags of the loops to extract (//DFGLOOP: tag in the C file)
#   DFG_FLAGS = -no-phi-removal -no-leaf-removal --sym NAME=VALUE ...
#   CFLAGS    = extra clang flags
# and includes this file; `make` then writes TAG.dot for every tag with
# `cgramap dfg`.  cgramap reads the same three variables for every .c file
# of the folder (the main job, `cgramap dfg`, `cgramap tile`), so both ways
# give the same graphs.
CGRAMAP ?= cgramap
SRC ?= $(notdir $(CURDIR)).c
DOTS := $(addsuffix .dot,$(LOOP_TAGS))

all: $(DOTS)

%.dot: $(SRC)
	$(CGRAMAP) dfg $(SRC) --loop $* -o $@ $(DFG_FLAGS) --cflags "$(CFLAGS)"

clean:
	rm -f $(DOTS)

.PHONY: all clean
