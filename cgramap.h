/* cgramap.h: every public header of the cgramap libraries, installed as
 * <cgramap/cgramap.h> (pkg-config --cflags cgramap finds it), for a
 * program that uses several stages.  Each header can also be included
 * alone, as <cgramap/STAGE/HEADER.h> or "STAGE/HEADER.h" (docs/api.md). */
#ifndef CGRAMAP_H
#define CGRAMAP_H

#include "common/diag.h"
#include "common/limits.h"
#include "common/op.h"
#include "common/version.h"
#include "arch/arch.h"
#include "xml/xml.h"
#include "dfg/dfg.h"
#include "extract/extract.h"
#include "mapper/map.h"
#include "mapper/mapping_io.h"
#include "rtl/rtl.h"
#include "verify/verify.h"
#include "verify/rtl.h"
#include "tiling/tile.h"
#include "flow/flow.h"

#endif
