// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What makes a fuzz run with a fixed seed try the same inputs every time,
 * linked into the targets that reach json-c or the clock (fuzz_report,
 * fuzz_openmetrics, fuzz_diff; tests/fuzz/fuzz_run.sh runs them).
 */
#include <json-c/json.h>

/*
 * The clock, fixed (the .mk files link with --wrap=cs_now): the JSON's
 * "time" has as many digits in every run, and so the coverage.
 */
double __wrap_cs_now(void);
double __wrap_cs_now(void)
{
	return 1700000000.5;
}

/*
 * json-c hashes keys with a random seed: the order of its strcmp() calls,
 * which libFuzzer's comparison tracing sees, changed every run, and with
 * it the inputs a run with a fixed seed tried. Unseeded, they are the same.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
	return 0;
}
