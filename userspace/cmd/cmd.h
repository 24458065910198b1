/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The commands, as main.c dispatches them: an exit code (chainscope.h). */
#ifndef CHAINSCOPE_CMD_H
#define CHAINSCOPE_CMD_H

int cmd_latency(int argc, char **argv);
int cmd_contention(int argc, char **argv);
int cmd_record(int argc, char **argv);	/* record.c */
int cmd_report(int argc, char **argv);	/* report.c */
int cmd_check(int argc, char **argv);	/* check.c */
int cmd_diff(int argc, char **argv);	/* diff.c */
int cmd_chains(int argc, char **argv);	/* chains.c */
int cmd_serve(int argc, char **argv);	/* serve.c */

#endif /* CHAINSCOPE_CMD_H */
