// SPDX-License-Identifier: GPL-2.0
/*
 * test_set.c - "rxe-cc set" on a fake sysfs tree (RXE_CC_SYSFS) whose
 * cc/knobs is tests/knobs ($KNOBS): the kernel's ranges, experimental
 * knobs in cc_experimental/, mlx5's Mb/s names, a module without
 * cc/knobs; all assignments or none.  A knob that is a directory stands
 * for one the kernel refuses (its write fails).
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
static char knobs_text[KNOBS_TEXT_MAX];

/* writes V to DIR/NAME of rxe9 */
static void put_in(const char *dir, const char *name, const char *v)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rxe9/ports/1/%s/%s", root, dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", v);
	fclose(f);
}

static void put(const char *name, const char *v)
{
	put_in(CC_DIR, name, v);
}

/* cc/knobs: TEXT as it is, no newline added */
static void put_knobs(const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc/knobs", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *get_in(const char *dir, const char *name)
{
	static char v[KNOB_VALUE_MAX];

	assert_int_equal(knob_read_in("rxe9", dir, name, v, sizeof(v)), 0);
	return v;
}

static const char *get(const char *name)
{
	return get_in(CC_DIR, name);
}

static int exists(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/rxe9/ports/1/%s/%s", root, dir, name);
	return !access(path, F_OK);
}

/*
 * rxe9 with every knob at its default: the files of rxe-cc's table and
 * those of tests/knobs, each in its directory, and cc/knobs
 */
static int setup(void **state)
{
	static struct knob_schema s;
	const char *knobs = getenv("KNOBS");
	char cmd[1024], why[160];
	FILE *f;
	size_t n;

	(void)state;
	if (!knobs || !(f = fopen(knobs, "r")))
		return -1;
	n = fread(knobs_text, 1, sizeof(knobs_text) - 1, f);
	fclose(f);
	knobs_text[n] = 0;
	if (knob_schema_parse(&s, knobs_text, why, sizeof(why)))
		return -1;
	snprintf(root, sizeof(root), "/tmp/rxe-cc-test.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/rxe9/ports/1/cc %s/rxe9/ports/1/cc_experimental %s/other/ports/1",
		 root, root, root);
	if (system(cmd))
		return -1;
	setenv("RXE_CC_SYSFS", root, 1);
	for (size_t i = 0; i < s.n; i++)
		if (strcmp(s.k[i].name, "knobs"))
			put_in(knob_dir(&s.k[i]), s.k[i].name, s.k[i].def);
	put_knobs(knobs_text);
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
	assert_string_equal(changes[0].k.name, "acc_period_us");
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
	put("rpg_ai_rate_kbps", "5000");
	put("min_time_between_cnps", "0");
	assert_int_equal(SET(err, "rp_ai_rate=10", "np_min_time_between_cnps=4",
			     "np_cnp_dscp=48", "rp_rate_to_set_on_first_cnp=100",
			     "rp_gd=9"), 0);
	/* mlx5's Mb/s, written in kb/s */
	assert_string_equal(get("rpg_ai_rate_kbps"), "10000");
	assert_string_equal(get("min_time_between_cnps"), "4");
	assert_string_equal(get("cnp_dscp"), "48");
	assert_string_equal(get("rate_to_set_on_first_cnp_kbps"), "100000");
	assert_string_equal(get("rpg_gd"), "9");
	/* no Mb/s twin file appears */
	assert_false(exists(CC_DIR, "rpg_ai_rate"));
	assert_string_equal(changes[0].k.name, "rpg_ai_rate_kbps");
	assert_string_equal(changes[0].given, "rp_ai_rate");
	assert_string_equal(changes[0].given_value, "10");
	assert_string_equal(changes[0].alias->unit, "Mb/s");
	assert_string_equal(changes[0].written, "10000");
	assert_string_equal(changes[0].old, "5000");
	assert_string_equal(changes[0].now, "10000");
	assert_string_equal(changes[4].given, "rp_gd");
	assert_int_equal(changes[4].alias->scale, 1);
	assert_string_equal(changes[4].written, "9");

	/* mlx5's ecn/ name, and the knob's own name in kb/s */
	assert_int_equal(SET(err, "rpg_hai_rate=60", "rpg_min_rate_kbps=1500"), 0);
	assert_string_equal(get("rpg_hai_rate_kbps"), "60000");
	assert_string_equal(get("rpg_min_rate_kbps"), "1500");
	assert_null(changes[1].alias);
	assert_string_equal(changes[1].written, "1500");
	/* checked in Mb/s against the kernel's kb/s range */
	assert_int_equal(SET(err, "rp_max_rate=1600001"), -1);
	assert_string_equal(err, "rp_max_rate: 1600001 is out of range 0..1600000 Mb/s");
	assert_int_equal(SET(err, "rpg_ai_rate=0"), -1);
	assert_string_equal(err, "rpg_ai_rate: 0 is out of range 1..1600000 Mb/s");

	/* the same knob under two names */
	assert_int_equal(SET(err, "rp_ai_rate=7", "rpg_ai_rate_kbps=8000"), -1);
	assert_string_equal(err, "rpg_ai_rate_kbps is set twice (as rp_ai_rate and rpg_ai_rate_kbps)");
	assert_int_equal(SET(err, "rp_ai_rate=7", "rpg_ai_rate=8"), -1);
	assert_string_equal(err, "rpg_ai_rate_kbps is set twice (as rp_ai_rate and rpg_ai_rate)");
	/* mlx5's 0 means the port speed; ours a normal cut */
	assert_int_equal(SET(err, "rp_rate_to_set_on_first_cnp=0"), -1);
	assert_non_null(strstr(err, "rp_rate_to_set_on_first_cnp (mlx5): 0 means the full port speed"));
	assert_int_equal(SET(err, "rp_rate_to_set_on_first_cnp=000"), -1);
	assert_string_equal(get("rate_to_set_on_first_cnp_kbps"), "100000");
	assert_int_equal(SET(err, "rp_ai_rate=9", "np_cnp_prio=3"), -1);
	assert_non_null(strstr(err, "np_cnp_prio (mlx5): rxe's CNPs carry no VLAN tag"));
	assert_int_equal(SET(err, "rp_clamp_tgt_rate_ati=1"), -1);
	assert_non_null(strstr(err, "no counterpart"));
	assert_string_equal(get("rpg_ai_rate_kbps"), "10000");
	/* an alias's value is checked against our range */
	assert_int_equal(SET(err, "rp_min_dec_fac=101"), -1);
	assert_string_equal(err, "rp_min_dec_fac: 101 is out of range 1..100 %");
}

/* the ranges are the kernel's, as its cc/knobs gives them */
static void test_set_kernel_range(void **state)
{
	char err[256] = "", narrowed[KNOBS_TEXT_MAX + 64];

	(void)state;
	/* the kernel's floor of acc_halt_max_us is 10 */
	assert_int_equal(SET(err, "acc_halt_max_us=9"), -1);
	assert_string_equal(err, "acc_halt_max_us: 9 is out of range 10..1000000 us");
	assert_int_equal(SET(err, "acc_p_thresh=1000"), 0);
	assert_string_equal(get("acc_p_thresh"), "1000");

	/* a module whose cc/knobs says otherwise: its range holds */
	snprintf(narrowed, sizeof(narrowed), "%sacc_p_thresh - 2 10 3 acc\n",
		 knobs_text);
	put_knobs(narrowed);
	assert_int_equal(SET(err, "acc_p_thresh=11"), -1);
	assert_string_equal(err, "acc_p_thresh: 11 is out of range 2..10");
	assert_int_equal(SET(err, "acc_p_thresh=1"), -1);
	assert_int_equal(SET(err, "acc_p_thresh=10"), 0);
	assert_string_equal(changes[0].k.def, "3");
	put_knobs(knobs_text);
	put("acc_p_thresh", "3");
}

/* acc_gate and acc_halt live in cc_experimental/ */
static void test_set_experimental(void **state)
{
	char err[256] = "";

	(void)state;
	assert_false(exists(CC_DIR, "acc_gate"));
	assert_true(exists(CC_EXP_DIR, "acc_gate"));
	assert_int_equal(SET(err, "acc_gate=3", "acc_halt=0", "acc_period_us=60"), 0);
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "3");
	assert_string_equal(get_in(CC_EXP_DIR, "acc_halt"), "0");
	assert_false(exists(CC_DIR, "acc_gate"));
	assert_false(exists(CC_DIR, "acc_halt"));
	assert_true(changes[0].k.experimental);
	assert_string_equal(changes[0].old, "2");
	assert_string_equal(changes[0].now, "3");
	assert_false(changes[2].k.experimental);
	assert_int_equal(SET(err, "acc_gate=4"), -1);
	assert_string_equal(err, "acc_gate: 4 is out of range 0..3");
	put_in(CC_EXP_DIR, "acc_gate", "2");
	put_in(CC_EXP_DIR, "acc_halt", "1");
	put("acc_period_us", "50");
}

/* a module older than this rxe-cc: no cc/knobs, nothing written */
static void test_set_no_knobs_file(void **state)
{
	char err[256] = "", path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc/knobs", root);
	assert_int_equal(unlink(path), 0);
	put("acc_period_us", "50");
	assert_int_equal(SET(err, "acc_period_us=60"), -1);
	assert_string_equal(err, "rxe9: the rdma_rxe module is older than this rxe-cc: it has no cc/knobs (rxe-cc -V compares them)");
	assert_null(strchr(err, '\n'));
	assert_string_equal(get("acc_period_us"), "50");
	/* a cc/knobs rxe-cc cannot read */
	put_knobs("acc_period_us us 10\n");
	assert_int_equal(SET(err, "acc_period_us=60"), -1);
	assert_string_equal(err, "rxe9: cc/knobs: line 1 is not \"name unit min max default group [experimental]\"");
	assert_string_equal(get("acc_period_us"), "50");
	put_knobs(knobs_text);
}

/* nothing is written when any assignment is bad */
static void test_set_checked_first(void **state)
{
	char err[256];

	(void)state;
	put_in(CC_EXP_DIR, "acc_gate", "0");
	assert_int_equal(SET(err, "acc_gate=1", "acc_halt=2"), -1);
	assert_string_equal(err, "acc_halt: '2' is not 0 or 1");
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "0");

	assert_int_equal(SET(err, "acc_gate=1", "acc_gates=1"), -1);
	assert_string_equal(err, "unknown knob 'acc_gates' (rxe-cc show lists them)");
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "0");

	assert_int_equal(SET(err, "acc_gate=1", "acc_gate=0"), -1);
	assert_string_equal(err, "acc_gate is set twice");

	assert_int_equal(SET(err, "acc_gate"), -1);
	assert_string_equal(err, "'acc_gate' is not knob=value");

	assert_int_equal(SET(err, "available=acc"), -1);
	assert_string_equal(err, "available: read-only");
	assert_int_equal(SET(err, "knobs=x"), -1);
	assert_string_equal(err, "knobs: read-only");

	assert_int_equal(SET(err, "algorithm=bbr"), -1);
	assert_string_equal(err, "algorithm: 'bbr' is not one of: none dcqcn acc timely");
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "0");

	assert_int_equal(cc_set("rxe8", 1, (char *[]){ "acc_gate=1" }, NULL,
				err, sizeof(err)), -1);
	assert_string_equal(err, "rxe8: no such rxe-acc device");
}

/* a write the kernel refuses: the knobs written before it are restored */
static void test_set_rolls_back(void **state)
{
	char err[256], path[512];

	(void)state;
	put_in(CC_EXP_DIR, "acc_gate", "0");
	put("acc_p_thresh", "3");
	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc_experimental/acc_halt",
		 root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(SET(err, "acc_gate=1", "acc_p_thresh=5", "acc_halt=0"), -1);
	/* acc_halt cannot be read either: refused before anything is written */
	assert_non_null(strstr(err, "cannot read cc_experimental/acc_halt"));
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "0");
	assert_int_equal(rmdir(path), 0);
	put_in(CC_EXP_DIR, "acc_halt", "1");

	/*
	 * readable, but every write fails, as a knob the kernel refuses in
	 * any order: a link to a file of /proc that has no write method
	 */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/proc/self/stat", path), 0);
	assert_int_equal(SET(err, "acc_gate=1", "acc_p_thresh=5", "acc_halt=0"), -1);
	assert_non_null(strstr(err, "acc_halt=0: the kernel refused it"));
	assert_non_null(strstr(err, "nothing changed"));
	assert_string_equal(get_in(CC_EXP_DIR, "acc_gate"), "0");
	assert_string_equal(get("acc_p_thresh"), "3");
	assert_int_equal(unlink(path), 0);
	put_in(CC_EXP_DIR, "acc_halt", "1");

	/* an mlx5 Mb/s name refused by the kernel: its kb/s value said */
	snprintf(path, sizeof(path), "%s/rxe9/ports/1/cc/rpg_max_rate_kbps", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/proc/self/stat", path), 0);
	assert_int_equal(SET(err, "rp_max_rate=20"), -1);
	assert_non_null(strstr(err, "rpg_max_rate_kbps=20000: the kernel refused it"));
	assert_int_equal(unlink(path), 0);
	put("rpg_max_rate_kbps", "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_set_ok),
		cmocka_unit_test(test_set_mlx5_names),
		cmocka_unit_test(test_set_kernel_range),
		cmocka_unit_test(test_set_experimental),
		cmocka_unit_test(test_set_no_knobs_file),
		cmocka_unit_test(test_set_checked_first),
		cmocka_unit_test(test_set_rolls_back),
	};

	return cmocka_run_group_tests_name("rxe-cc set", tests, setup, teardown);
}
