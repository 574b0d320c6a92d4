/* commands.h: cgramap's subcommands.  Each takes the argv that starts at
 * the subcommand's name and returns the exit status (0 ok, 1 failure,
 * 2 bad usage). */
#ifndef CG_CLI_COMMANDS_H
#define CG_CLI_COMMANDS_H

int cg_cli_arch(int argc, char **argv);

#endif
