/* version.h: the version of the cgramap libraries, so that a program
 * linked with them can say which it runs on. */
#ifndef CG_VERSION_H
#define CG_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The project's version, "MAJOR.MINOR.PATCH": CMake's project(VERSION),
 * the same string `cgramap --version` prints and cgramap.pc states. */
const char *cg_version(void);

#ifdef __cplusplus
}
#endif

#endif
