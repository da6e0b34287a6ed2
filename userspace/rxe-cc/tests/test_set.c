// SPDX-License-Identifier: GPL-2.0
/*
 * test_set.c - "rxe-cc set" on a fake sysfs tree (RXE_CC_SYSFS): all
 * assignments or none.  A knob that is a directory stands for one the
 * kernel refuses (its write fails).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "set.h"
#include "sysfs.h"

static char root[256];

static void put(const char *name, const char *v)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc/%s", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", v);
	fclose(f);
}

static const char *get(const char *name)
{
	static char v[KNOB_VALUE_MAX];

	assert_int_equal(knob_read("rxe9", name, v, sizeof(v)), 0);
	return v;
}

static int setup(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/rxe-cc-test.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/rxe9/ports/1/cc %s/other/ports/1",
		 root, root);
	if (system(cmd))
		return -1;
	setenv("RXE_CC_SYSFS", root, 1);
	for (size_t i = 0; i < knob_count; i++)
		put(knob_table[i].name, knob_table[i].def);
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static struct set_change changes[SET_MAX];

#define SET(err, ...) \
	cc_set("rxe9", sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *), \
	       (char *[]){ __VA_ARGS__ }, changes, err, sizeof(err))

static void test_devices(void **state)
{
	char names[4][DEV_NAME_MAX];

	(void)state;
	assert_int_equal(cc_devices(names, 4), 1);
	assert_string_equal(names[0], "rxe9");
	assert_true(cc_dev_exists("rxe9"));
	assert_false(cc_dev_exists("other"));
	assert_false(cc_dev_exists("../rxe9"));
}

static void test_set_ok(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(SET(err, "acc_period_us=4000", "algorithm=acc",
			     "prio3_algorithm=dcqcn", "cnp_dscp=26"), 0);
	assert_string_equal(get("acc_period_us"), "4000");
	assert_string_equal(get("algorithm"), "acc");
	assert_string_equal(get("prio3_algorithm"), "dcqcn");
	assert_string_equal(get("cnp_dscp"), "26");
	/* what each did, in the order given, old and new */
	assert_string_equal(changes[0].k->name, "acc_period_us");
	assert_string_equal(changes[0].given, "acc_period_us");
	assert_string_equal(changes[0].old, "50");
	assert_string_equal(changes[0].now, "4000");
	assert_string_equal(changes[1].old, "none");
	assert_string_equal(changes[1].now, "acc");
	assert_string_equal(changes[3].old, "-1");
	assert_string_equal(changes[3].now, "26");
}

/* mlx5's debugfs names set our knobs; the ones without a match are refused */
static void test_set_mlx5_names(void **state)
{
	char err[256] = "";

	(void)state;
	put("rpg_ai_rate", "5");
	put("min_time_between_cnps", "0");
	assert_int_equal(SET(err, "rp_ai_rate=10", "np_min_time_between_cnps=4",
			     "np_cnp_dscp=48", "rp_rate_to_set_on_first_cnp=100"), 0);
	assert_string_equal(get("rpg_ai_rate"), "10");
	assert_string_equal(get("min_time_between_cnps"), "4");
	assert_string_equal(get("cnp_dscp"), "48");
	assert_string_equal(get("rate_to_set_on_first_cnp"), "100");
	assert_string_equal(changes[0].k->name, "rpg_ai_rate");
	assert_string_equal(changes[0].given, "rp_ai_rate");
	assert_string_equal(changes[0].old, "5");
	assert_string_equal(changes[0].now, "10");

	/* the same knob under both names */
	assert_int_equal(SET(err, "rp_ai_rate=7", "rpg_ai_rate=8"), -1);
	assert_string_equal(err, "rpg_ai_rate is set twice (as rp_ai_rate and rpg_ai_rate)");
	/* mlx5's 0 means the port speed; ours a normal cut */
	assert_int_equal(SET(err, "rp_rate_to_set_on_first_cnp=0"), -1);
	assert_non_null(strstr(err, "rp_rate_to_set_on_first_cnp (mlx5): 0 means the full port speed"));
	assert_int_equal(SET(err, "rp_rate_to_set_on_first_cnp=000"), -1);
	assert_string_equal(get("rate_to_set_on_first_cnp"), "100");
	assert_int_equal(SET(err, "rpg_ai_rate=9", "np_cnp_prio=3"), -1);
	assert_non_null(strstr(err, "np_cnp_prio (mlx5): rxe's CNPs carry no VLAN tag"));
	assert_int_equal(SET(err, "rp_clamp_tgt_rate_ati=1"), -1);
	assert_non_null(strstr(err, "no counterpart"));
	assert_string_equal(get("rpg_ai_rate"), "10");
	/* an alias's value is checked against our range */
	assert_int_equal(SET(err, "rp_min_dec_fac=101"), -1);
	assert_string_equal(err, "rp_min_dec_fac: 101 is out of range 1..100 %");
}

/* nothing is written when any assignment is bad */
static void test_set_checked_first(void **state)
{
	char err[256];

	(void)state;
	put("acc_gate", "0");
	assert_int_equal(SET(err, "acc_gate=1", "acc_halt=2"), -1);
	assert_string_equal(err, "acc_halt: '2' is not 0 or 1");
	assert_string_equal(get("acc_gate"), "0");

	assert_int_equal(SET(err, "acc_gate=1", "acc_gates=1"), -1);
	assert_string_equal(err, "unknown knob 'acc_gates' (rxe-cc show lists them)");
	assert_string_equal(get("acc_gate"), "0");

	assert_int_equal(SET(err, "acc_gate=1", "acc_gate=0"), -1);
	assert_string_equal(err, "acc_gate is set twice");

	assert_int_equal(SET(err, "acc_gate"), -1);
	assert_string_equal(err, "'acc_gate' is not knob=value");

	assert_int_equal(SET(err, "available=acc"), -1);
	assert_string_equal(err, "available: read-only");

	assert_int_equal(SET(err, "algorithm=bbr"), -1);
	assert_string_equal(err, "algorithm: 'bbr' is not one of: none dcqcn acc");
	assert_string_equal(get("acc_gate"), "0");

	assert_int_equal(cc_set("rxe8", 1, (char *[]){ "acc_gate=1" }, NULL,
				err, sizeof(err)), -1);
	assert_string_equal(err, "rxe8: no such rxe-acc device");
}

/* a write the kernel refuses: the knobs written before it are restored */
static void test_set_rolls_back(void **state)
{
	char err[256], path[512];

	(void)state;
	put("acc_gate", "0");
	put("acc_p_thresh", "3");
	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc/acc_halt", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(SET(err, "acc_gate=1", "acc_p_thresh=5", "acc_halt=0"), -1);
	/* acc_halt cannot be read either: refused before anything is written */
	assert_non_null(strstr(err, "cannot read acc_halt"));
	assert_string_equal(get("acc_gate"), "0");
	assert_int_equal(rmdir(path), 0);
	put("acc_halt", "1");

	/*
	 * readable, but every write fails, as a knob the kernel refuses in
	 * any order: a link to a file of /proc that has no write method
	 */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/proc/self/stat", path), 0);
	assert_int_equal(SET(err, "acc_gate=1", "acc_p_thresh=5", "acc_halt=0"), -1);
	assert_non_null(strstr(err, "acc_halt=0: the kernel refused it"));
	assert_non_null(strstr(err, "nothing changed"));
	assert_string_equal(get("acc_gate"), "0");
	assert_string_equal(get("acc_p_thresh"), "3");
	assert_int_equal(unlink(path), 0);
	put("acc_halt", "1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_set_ok),
		cmocka_unit_test(test_set_mlx5_names),
		cmocka_unit_test(test_set_checked_first),
		cmocka_unit_test(test_set_rolls_back),
	};

	return cmocka_run_group_tests_name("rxe-cc set", tests, setup, teardown);
}
