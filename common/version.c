/* version.c: cg_version, from the CG_VERSION the build defines
 * (CMakeLists.txt, from project(VERSION)). */
#include "version.h"

const char *cg_version(void)
{
    return CG_VERSION;
}
