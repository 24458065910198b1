// SPDX-License-Identifier: GPL-2.0
/*
 * cs_selftest - provoke console badness on purpose.
 *
 * The guest harness must fail a run whose console shows a WARNING that no
 * test announced. Its own self-test loads this module with warn=1 and
 * expects the run to fail; nothing else ever loads it.
 */
#include <linux/bug.h>
#include <linux/module.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN once at load time");

static int __init cs_selftest_init(void)
{
	WARN(warn, "cs_selftest: deliberate warning\n");
	return 0;
}

static void __exit cs_selftest_exit(void)
{
}

module_init(cs_selftest_init);
module_exit(cs_selftest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("chainscope harness self-test: deliberate console badness");
