/* commands.h: cgramap's subcommands.  Each takes the argv that starts at
 * the subcommand's name and returns the exit status (0 ok, 1 failure,
 * 2 bad usage). */
#ifndef CG_CLI_COMMANDS_H
#define CG_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cg_cli_arch(int argc, char **argv);
int cg_cli_dfg(int argc, char **argv);
int cg_cli_map(int argc, char **argv);
int cg_cli_tile(int argc, char **argv);
int cg_cli_check(int argc, char **argv); /* check_cmd.c */
int cg_cli_sim(int argc, char **argv);   /* sim_cmd.c */
int cg_cli_rtl(int argc, char **argv);   /* rtl_cmd.c */
int cg_cli_area(int argc, char **argv);  /* area_cmd.c */
/* The default folder of compiled RTL models, $XDG_CACHE_HOME/cgramap-rtl
 * or ~/.cache/cgramap-rtl (its parent made when missing), into buf
 * (rtl_cmd.c). */
const char *cg_cli_rtl_cache(char *buf, size_t len);
int cg_cli_merge(int argc, char **argv); /* merge_cmd.c */
int cg_cli_sweep(int argc, char **argv); /* sweep_cmd.c */
/* The main job, `cgramap [OPTION]... PATH...`. */
int cg_cli_main_job(int argc, char **argv);

struct cg_diags;
struct cg_netlist;
/* The flattened netlist of --arch (NULL: the embedded default) with its
 * --templates; NULL with errors in d (arch_cmd.c). */
struct cg_netlist *cg_cli_load_netlist(const char *arch,
                                       const char *templates,
                                       struct cg_diags *d);

/* Write path through fn(arg, f): a regular or new file whole or not at
 * all, anything else (FIFO, device, "-" for stdout) in place (files.c).
 * fn returns 0, or -1 with errno set (the library writers' convention).
 * 0, or -1 with "path: error: cannot write this file (why)" on stderr
 * ("cgramap: error: cannot write standard output (why)" for "-"). */
typedef int (*cg_cli_writer)(void *arg, FILE *f);
int cg_cli_write_file(const char *path, cg_cli_writer fn, void *arg);
/* strerror(err), but "out of memory" for ENOMEM: the words of cgramap's
 * other messages, which tests/fuzz/oom.sh looks for. */
const char *cg_cli_strerror(int err);
/* Render the Graphviz source dot(arg, f) writes with `neato -Tsvg` and
 * write the SVG to path whole or not at all; 0, or -1 with the reason
 * (neato missing or failing, path unwritable) on stderr. */
int cg_cli_write_svg(const char *path, cg_cli_writer dot, void *arg);
/* Before any work: can cg_cli_write_file write path?  0, or -1 with "path:
 * error: cannot write this file for OPT (why); nothing was run". */
int cg_cli_check_writable(const char *path, const char *opt);

#endif
