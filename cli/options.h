/* options.h: command-line parsing for cgramap, kept apart from the pipeline
 * so that every usage error is reported the same way (exit status 2). */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H

typedef enum cg_cli_action {
    CG_CLI_RUN,     /* nothing to do but the (not yet available) main job */
    CG_CLI_HELP,    /* --help */
    CG_CLI_VERSION, /* --version */
    CG_CLI_USAGE    /* bad usage: message already printed */
} cg_cli_action;

/* Parse argv; usage errors are printed to stderr as "cgramap: ...". */
cg_cli_action cg_cli_parse(int argc, char **argv);
/* Print the help text to stdout. */
void cg_cli_help(void);

#endif
