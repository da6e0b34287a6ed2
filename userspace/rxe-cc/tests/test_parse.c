// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - rxe-cc's parsing: the command line, the kernel's
 * cc/knobs (tests/knobs, a copy of the module's, in $KNOBS), knob values
 * and mlx5's names, rxe-cc's table and that copy against the ABI
 * document ($ABI), netlink QP entries, and output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "knobs.h"
#include "monitor.h"
#include "out.h"
#include "qp.h"
#include "qpcmd.h"

#define ARGV(...) ((char *[]){ "rxe-cc", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "rxe-cc", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(cli, err, ...) \
	cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), cli, err, sizeof(err))

static void test_cli_verbs(void **state)
{
	struct cli c;
	char err[128];

	(void)state;
	assert_int_equal(cli_parse(1, ARGV(NULL), &c, err, sizeof(err)), 0);
	assert_int_equal(c.verb, VERB_SHOW);
	assert_null(c.dev);

	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "show", "rxe0"), 0);
	assert_int_equal(c.verb, VERB_SHOW);
	assert_string_equal(c.dev, "rxe0");
	assert_int_equal(c.json, 0);
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "qp", "--json"), 0);
	assert_int_equal(c.verb, VERB_QP);
	assert_int_equal(c.json, 1);
	assert_null(c.dev);

	assert_int_equal(PARSE(&c, err, "-j", "monitor", "rxe1", "-n", "3"), 0);
	assert_int_equal(c.verb, VERB_MONITOR);
	assert_string_equal(c.dev, "rxe1");
	assert_int_equal(c.count, 3);
	assert_int_equal(c.json, 1);

	assert_int_equal(PARSE(&c, err, "set", "rxe0", "acc_gate=1",
			       "algorithm=acc"), 0);
	assert_int_equal(c.verb, VERB_SET);
	assert_string_equal(c.dev, "rxe0");
	assert_int_equal(c.n_assign, 2);
	assert_string_equal(c.assign[0], "acc_gate=1");
	assert_string_equal(c.assign[1], "algorithm=acc");
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "--help"), 0);
	assert_int_equal(c.verb, VERB_HELP);
	assert_null(c.topic);
	cli_free(&c);
}

/* getopt_long: bundling, --opt=value, "--", options anywhere, argv intact */
static void test_cli_getopt(void **state)
{
	char *argv[] = { "rxe-cc", "monitor", "rxe1", "-jpn", "2", NULL };
	struct cli c;
	char err[128];

	(void)state;
	assert_int_equal(cli_parse(5, argv, &c, err, sizeof(err)), 0);
	assert_int_equal(c.verb, VERB_MONITOR);
	assert_int_equal(c.json, 1);
	assert_int_equal(c.pretty, 1);
	assert_int_equal(c.count, 2);
	assert_string_equal(c.dev, "rxe1");
	/* getopt worked on a copy */
	assert_string_equal(argv[1], "monitor");
	assert_string_equal(argv[3], "-jpn");
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "mon", "--count=4", "--pretty"), 0);
	assert_int_equal(c.verb, VERB_MONITOR);
	assert_int_equal(c.count, 4);
	assert_int_equal(c.json, 1);	/* -p implies -j */
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "set", "--", "rxe0", "cnp_dscp=-1"), 0);
	assert_int_equal(c.verb, VERB_SET);
	assert_string_equal(c.dev, "rxe0");
	assert_int_equal(c.n_assign, 1);
	assert_string_equal(c.assign[0], "cnp_dscp=-1");
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "sh", "-j"), 0);
	assert_int_equal(c.verb, VERB_SHOW);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "s"), -1);	/* show or set */
	assert_non_null(strstr(err, "unknown verb 's'"));
}

static void test_cli_help_version(void **state)
{
	struct cli c;
	char err[128];

	(void)state;
	assert_int_equal(PARSE(&c, err, "help", "set"), 0);
	assert_int_equal(c.verb, VERB_HELP);
	assert_string_equal(c.topic, "set");
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "set", "-h"), 0);
	assert_int_equal(c.verb, VERB_HELP);
	assert_string_equal(c.topic, "set");
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "qp", "rxe0", "--help"), 0);
	assert_string_equal(c.topic, "qp");
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "help", "mon"), 0);
	assert_string_equal(c.topic, "monitor");
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "help", "knobs"), 0);
	assert_string_equal(c.topic, "knobs");
	assert_null(c.dev);
	cli_free(&c);
	/* the knobs of one device's module */
	assert_int_equal(PARSE(&c, err, "help", "knobs", "rxe0/1"), 0);
	assert_int_equal(c.verb, VERB_HELP);
	assert_string_equal(c.topic, "knobs");
	assert_string_equal(c.dev, "rxe0");
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "help", "knobs", "rxe0", "rxe1"), -1);
	assert_non_null(strstr(err, "help knobs takes at most one device"));
	assert_int_equal(PARSE(&c, err, "help", "knobs", "rxe0/2"), -1);
	assert_non_null(strstr(err, "rxe devices have one port"));
	assert_int_equal(PARSE(&c, err, "help"), 0);
	assert_null(c.topic);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "help", "frob"), -1);
	assert_non_null(strstr(err, "no help on 'frob'"));

	assert_int_equal(PARSE(&c, err, "-V"), 0);
	assert_int_equal(c.verb, VERB_VERSION);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "--version", "-j"), 0);
	assert_int_equal(c.verb, VERB_VERSION);
	assert_int_equal(c.json, 1);
	cli_free(&c);
}

/* DEV/PORT and the filters, as rdma writes them */
static void test_cli_dev_port_filters(void **state)
{
	struct cli c;
	char err[160];

	(void)state;
	assert_int_equal(PARSE(&c, err, "show", "rxe0/1"), 0);
	assert_string_equal(c.dev, "rxe0");
	assert_int_equal(c.port, 1);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "qp", "link", "rxe0/1", "lqpn", "17,20-30",
			       "state", "rts", "pid", "4242"), 0);
	assert_string_equal(c.dev, "rxe0");
	assert_int_equal(c.filter.n_lqpn, 2);
	assert_int_equal(c.filter.lqpn[1].lo, 20);
	assert_int_equal(c.filter.lqpn[1].hi, 30);
	assert_int_equal(c.filter.n_pid, 1);
	assert_int_equal(c.filter.states, 1u << 3);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "monitor", "state", "RTS,ERR", "dev", "rxe1"), 0);
	assert_string_equal(c.dev, "rxe1");
	assert_int_equal(c.filter.states, 1u << 3 | 1u << 6);
	cli_free(&c);
	assert_int_equal(PARSE(&c, err, "set", "rxe0/1", "acc_gate=1"), 0);
	assert_string_equal(c.dev, "rxe0");
	assert_string_equal(c.assign[0], "acc_gate=1");
	cli_free(&c);

	assert_int_equal(PARSE(&c, err, "show", "rxe0/2"), -1);
	assert_non_null(strstr(err, "rxe0/2: rxe devices have one port, 1"));
	assert_int_equal(PARSE(&c, err, "qp", "rxe0/"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "/1"), -1);
	assert_non_null(strstr(err, "not a device name"));
	assert_int_equal(PARSE(&c, err, "qp", "lqpn"), -1);
	assert_non_null(strstr(err, "lqpn needs a value"));
	assert_int_equal(PARSE(&c, err, "qp", "lqpn", "x"), -1);
	assert_non_null(strstr(err, "lqpn 'x' is not a list"));
	assert_int_equal(PARSE(&c, err, "qp", "lqpn", "9-3"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "lqpn", "3,"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "pid", "99999999999"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "state", "RUNNING"), -1);
	assert_non_null(strstr(err, "state 'RUNNING' is not a list"));
	/* filters are for qp and monitor */
	assert_int_equal(PARSE(&c, err, "show", "rxe0", "lqpn", "3"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "rxe0", "rxe1"), -1);
	assert_non_null(strstr(err, "qp takes at most one device (filters: lqpn, pid, state)"));
}

static void test_qp_filter(void **state)
{
	struct qp_filter f = { 0 };
	struct qp_info qp = { .lqpn = 17, .pid = 4242, .state = 3 };
	char why[128];

	(void)state;
	assert_true(qp_filter_match(&f, &qp));
	assert_int_equal(qp_filter_add(&f, "lqpn", "1-5,17", why, sizeof(why)), 0);
	assert_true(qp_filter_match(&f, &qp));
	qp.lqpn = 6;
	assert_false(qp_filter_match(&f, &qp));
	qp.lqpn = 5;
	assert_true(qp_filter_match(&f, &qp));
	assert_int_equal(qp_filter_add(&f, "state", "err", why, sizeof(why)), 0);
	assert_false(qp_filter_match(&f, &qp));
	qp.state = 6;
	assert_true(qp_filter_match(&f, &qp));
	assert_int_equal(qp_filter_add(&f, "pid", "1", why, sizeof(why)), 0);
	assert_false(qp_filter_match(&f, &qp));
	assert_int_equal(qp_state_parse("SqE"), 5);
	assert_int_equal(qp_state_parse("RT"), -1);
}

/* the writer: typed values, commas, nesting, and pretty output */
static void test_json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	(void)state;
	jw_init(&w, f, 0);
	jw_obj_open(&w, NULL);
	jw_u64(&w, "u", UINT64_MAX);
	jw_s64(&w, "s", INT64_MIN);
	jw_s64(&w, "m", -1);
	jw_str(&w, "t", "a\"b");
	jw_bool(&w, "b", 0);
	jw_null(&w, "n");
	jw_arr_open(&w, "a");
	jw_u64(&w, NULL, 1);
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	jw_arr_open(&w, NULL);
	jw_arr_close(&w);
	jw_arr_close(&w);
	jw_obj_close(&w);
	jw_end(&w);
	jw_obj_open(&w, NULL);	/* a second top-level value: no comma */
	jw_obj_close(&w);
	jw_end(&w);
	fclose(f);
	assert_string_equal(buf, "{\"u\":18446744073709551615,"
			    "\"s\":-9223372036854775808,\"m\":-1,"
			    "\"t\":\"a\\\"b\",\"b\":false,\"n\":null,"
			    "\"a\":[1,{},[]]}\n{}\n");
	free(buf);

	f = open_memstream(&buf, &len);
	jw_init(&w, f, 1);
	jw_arr_open(&w, NULL);
	jw_obj_open(&w, NULL);
	jw_s64(&w, "x", -5);
	jw_arr_open(&w, "e");
	jw_arr_close(&w);
	jw_obj_close(&w);
	jw_arr_close(&w);
	jw_end(&w);
	fclose(f);
	assert_string_equal(buf, "[\n    {\n        \"x\": -5,\n"
			    "        \"e\": []\n    }\n]\n");
	free(buf);
}

static void test_cli_errors(void **state)
{
	struct cli c;
	char err[128];

	(void)state;
	assert_int_equal(PARSE(&c, err, "frob"), -1);
	assert_non_null(strstr(err, "unknown verb 'frob'"));
	assert_int_equal(PARSE(&c, err, "show", "--bogus"), -1);
	assert_non_null(strstr(err, "unknown option '--bogus'"));
	assert_int_equal(PARSE(&c, err, "set", "rxe0"), -1);
	assert_non_null(strstr(err, "usage: rxe-cc set"));
	assert_int_equal(PARSE(&c, err, "show", "rxe0", "rxe1"), -1);
	assert_non_null(strstr(err, "at most one device"));
	assert_int_equal(PARSE(&c, err, "monitor", "-n"), -1);
	assert_int_equal(PARSE(&c, err, "monitor", "-n", "x"), -1);
	assert_int_equal(PARSE(&c, err, "monitor", "-n", "-1"), -1);
	assert_int_equal(PARSE(&c, err, "qp", "-n", "2"), -1);
	assert_non_null(strstr(err, "--count is for monitor"));
}

/* the schema of tests/knobs, the module's cc/knobs */
static struct knob_schema fixture;

static void load_fixture(void)
{
	static char text[KNOBS_TEXT_MAX];
	const char *path = getenv("KNOBS");
	char why[160] = "";
	size_t n;
	FILE *f;

	if (fixture.n)
		return;
	assert_non_null(path);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	if (knob_schema_parse(&fixture, text, why, sizeof(why)))
		fail_msg("%s: %s", path, why);
}

static const struct knob *fixture_knob(const char *name)
{
	load_fixture();
	return knob_find(&fixture, name);
}

static void check_ok(const char *name, const char *v)
{
	char why[160] = "";
	const struct knob *k = fixture_knob(name);

	assert_non_null(k);
	if (knob_check(k, v, "none dcqcn acc\n", why, sizeof(why)))
		fail_msg("%s=%s refused: %s", name, v, why);
}

static void check_bad(const char *name, const char *v, const char *reason)
{
	char why[160] = "";
	const struct knob *k = fixture_knob(name);

	assert_non_null(k);
	if (!knob_check(k, v, "none dcqcn acc\n", why, sizeof(why)))
		fail_msg("%s=%s accepted", name, v);
	if (!strstr(why, reason))
		fail_msg("%s=%s: '%s' does not say '%s'", name, v, why, reason);
	assert_null(strchr(why, '\n'));
}

static void test_knob_values(void **state)
{
	(void)state;
	check_ok("algorithm", "acc");
	check_ok("algorithm", "none");
	check_bad("algorithm", "default", "not one of: none dcqcn acc");
	check_bad("algorithm", "ac", "not one of");
	check_bad("algorithm", "", "not one of");
	check_ok("prio3_algorithm", "default");
	check_ok("prio3_algorithm", "dcqcn");
	check_bad("prio3_algorithm", "tcp", "not default or one of");
	check_ok("prio7_np", "0");
	check_bad("prio7_np", "2", "not 0 or 1");
	check_bad("acc_gate", "yes", "not a whole number");
	check_ok("acc_gate", "3");
	check_bad("acc_gate", "4", "out of range 0..3");
	check_ok("acc_halt", "0");
	check_bad("acc_halt", "2", "not 0 or 1");
	check_ok("cnp_dscp", "-1");
	check_ok("cnp_dscp", "63");
	check_bad("cnp_dscp", "64", "DSCP 0..63");
	check_bad("ack_dscp", "-2", "DSCP 0..63");
	check_ok("acc_period_us", "4000");
	check_bad("acc_period_us", "0", "out of range 10..100000 us");
	check_bad("acc_period_us", "9", "out of range 10..100000 us");
	check_ok("acc_period_us", "10");
	check_bad("acc_period_us", "100001", "out of range");
	check_bad("acc_period_us", "0x10", "not a whole number");
	check_bad("acc_period_us", "+5", "not a whole number");
	check_bad("acc_period_us", " 5", "not a whole number");
	check_bad("acc_period_us", "5 ", "not a whole number");
	check_bad("acc_period_us", "1.5", "not a whole number");
	check_bad("acc_period_us", "", "not a whole number");
	/* the kernel's floor, 10, not the 1 rxe-cc's own table had */
	check_bad("acc_halt_max_us", "9", "out of range 10..1000000 us");
	check_bad("rpg_byte_reset", "99999999999999999999999", "not a whole number");
	check_ok("rpg_byte_reset", "0");
	check_ok("line_rate_mbps", "1600000");
	check_bad("line_rate_mbps", "1600001", "out of range 0..1600000 Mb/s");
	check_ok("acc_window_bytes", "4294967296");
	check_bad("acc_window_bytes", "4294967297", "out of range 0..4294967296 bytes");
	check_bad("rpg_threshold", "32", "out of range 1..31");
	check_bad("available", "acc", "read-only");
	check_bad("knobs", "x", "read-only");
	check_bad("acc_period_us", "1111111111111111111111111111111111111111111111111111111111111111111",
		  "too long");
	assert_null(fixture_knob("acc_period"));
	assert_null(fixture_knob("prio8_np"));
	/* the Mb/s twins are gone: mlx5's names (test_mlx5_names) */
	assert_null(fixture_knob("rpg_ai_rate"));
}

/* S parses from TEXT; N knobs more than rxe-cc's own */
static void parse_ok(struct knob_schema *s, const char *text, size_t n)
{
	char why[160] = "";

	if (knob_schema_parse(s, text, why, sizeof(why)))
		fail_msg("'%s' refused: %s", text, why);
	assert_int_equal(s->n, knob_attr_count + n);
}

static void parse_bad(const char *text, const char *reason)
{
	static struct knob_schema s;
	char why[160] = "";

	if (!knob_schema_parse(&s, text, why, sizeof(why)))
		fail_msg("'%s' accepted", text);
	if (!strstr(why, reason))
		fail_msg("'%s': '%s' does not say '%s'", text, why, reason);
}

/* the kernel's cc/knobs: units, ranges, defaults, groups, experimental */
static void test_schema(void **state)
{
	static struct knob_schema s;
	const struct knob *k;
	size_t choice = 0;

	(void)state;
	load_fixture();
	for (size_t i = 0; i < knob_attr_count; i++)
		choice += !strcmp(knob_attrs[i].group, KNOB_GROUP_CHOICE);
	/* the choice, then the kernel's rows in its order, then the DSCPs */
	assert_int_equal(fixture.n, knob_attr_count + 39);
	assert_string_equal(fixture.k[0].name, "algorithm");
	assert_string_equal(fixture.k[choice].name, "line_rate_mbps");
	assert_string_equal(fixture.k[choice + 30].name, "acc_gate");
	assert_string_equal(fixture.k[fixture.n - 1].name, "ack_dscp");

	k = fixture_knob("acc_gate");
	assert_int_equal(k->kind, KNOB_UINT);
	assert_int_equal(k->min, 0);
	assert_int_equal(k->max, 3);
	assert_string_equal(k->def, "2");
	assert_string_equal(k->group, "acc");
	assert_string_equal(k->unit, "");
	assert_true(k->experimental);
	assert_string_equal(knob_dir(k), "cc_experimental");
	assert_string_equal(k->means, "The increase rule after a QP's first halt.");
	k = fixture_knob("acc_halt");
	assert_int_equal(k->kind, KNOB_BOOL);
	assert_true(k->experimental);
	k = fixture_knob("acc_window_bytes");
	assert_false(k->experimental);
	assert_string_equal(knob_dir(k), "cc");
	assert_true(k->max == 4294967296ULL);
	assert_string_equal(k->unit, "bytes");
	k = fixture_knob("min_time_between_cnps");
	assert_string_equal(k->group, "device");
	assert_string_equal(k->unit, "us");
	assert_string_equal(fixture_knob("dce_tcp_g")->unit, "/1024");
	assert_string_equal(fixture_knob("rpg_ai_rate_kbps")->def, "5000");
	assert_int_equal(fixture_knob("clamp_tgt_rate")->kind, KNOB_BOOL);
	assert_int_equal(fixture_knob("cnp_dscp")->kind, KNOB_DSCP);
	assert_string_equal(fixture_knob("cnp_dscp")->group, "device");

	/* a knob rxe-cc does not know: it works, without a description */
	parse_ok(&s, "acc_new_us us 5 50 20 acc\n"
		 "rpg_new - 0 1 1 dcqcn experimental later-flag\n\n", 2);
	k = knob_find(&s, "acc_new_us");
	assert_non_null(k);
	assert_string_equal(k->means, "");
	assert_false(k->experimental);
	k = knob_find(&s, "rpg_new");
	assert_int_equal(k->kind, KNOB_BOOL);
	assert_true(k->experimental);
	/* no cc/knobs rows: rxe-cc's own files only; no last newline */
	parse_ok(&s, "", 0);
	parse_ok(&s, "x_us us 0 9 1 acc", 1);
	/* a row of the kernel's replaces one of ours */
	parse_ok(&s, "cnp_dscp - 0 63 0 device\n", 0);
	assert_int_equal(knob_find(&s, "cnp_dscp")->kind, KNOB_UINT);

	parse_bad("x us 1 2 3\n", "line 1 is not \"name unit min max default group [experimental]\"");
	parse_bad("ok us 0 1 0 acc\n\nbad\n", "line 3 is not");
	parse_bad("x us 5 1 3 acc\n", "line 1");		/* min > max */
	parse_bad("x us -1 1 0 acc\n", "line 1");
	parse_bad("x us 0 1 0x1 acc\n", "line 1");
	parse_bad("../x us 0 1 0 acc\n", "line 1");		/* a path */
	parse_bad("x us 0 1 0 a/b\n", "line 1");
	parse_bad("x us 0 99999999999999999999 0 acc\n", "line 1");
}

/* mlx5's names: the same unit, or Mb/s for our kb/s; refusals */
static void given_ok(const struct knob_schema *s, const char *name,
		     const char *v, const char *knob, const char *out)
{
	const struct knob_alias *a;
	const struct knob *k;
	char why[160] = "", buf[KNOB_VALUE_MAX];

	k = knob_lookup(s, name, v, &a, why, sizeof(why));
	if (!k)
		fail_msg("%s: %s", name, why);
	assert_string_equal(k->name, knob);
	if (knob_given(k, a, v, "none", buf, sizeof(buf), why, sizeof(why)))
		fail_msg("%s=%s refused: %s", name, v, why);
	assert_string_equal(buf, out);
}

static void given_bad(const struct knob_schema *s, const char *name,
		      const char *v, const char *reason)
{
	const struct knob_alias *a;
	const struct knob *k;
	char why[160] = "", buf[KNOB_VALUE_MAX];

	k = knob_lookup(s, name, v, &a, why, sizeof(why));
	if (k && !knob_given(k, a, v, "none", buf, sizeof(buf), why,
			     sizeof(why)))
		fail_msg("%s=%s accepted as %s", name, v, buf);
	if (!strstr(why, reason))
		fail_msg("%s=%s: '%s' does not say '%s'", name, v, why, reason);
}

static void test_mlx5_names(void **state)
{
	static struct knob_schema s;
	const struct knob_alias *a;
	const struct knob *k;
	char why[160];

	(void)state;
	load_fixture();
	/* ours, as they are */
	given_ok(&fixture, "rpg_ai_rate_kbps", "4", "rpg_ai_rate_kbps", "4");
	given_ok(&fixture, "rp_min_dec_fac", "60", "rpg_min_dec_fac", "60");
	given_ok(&fixture, "np_cnp_dscp", "-1", "cnp_dscp", "-1");
	given_bad(&fixture, "rp_min_dec_fac", "101", "101 is out of range 1..100 %");
	/* mlx5's Mb/s, debugfs and ecn/ names: 1000 times, in kb/s */
	given_ok(&fixture, "rp_ai_rate", "10", "rpg_ai_rate_kbps", "10000");
	given_ok(&fixture, "rpg_ai_rate", "10", "rpg_ai_rate_kbps", "10000");
	given_ok(&fixture, "rp_hai_rate", "1600000", "rpg_hai_rate_kbps",
		 "1600000000");
	given_ok(&fixture, "rpg_min_rate", "1", "rpg_min_rate_kbps", "1000");
	given_ok(&fixture, "rp_max_rate", "0", "rpg_max_rate_kbps", "0");
	given_ok(&fixture, "rpg_max_rate", "25000", "rpg_max_rate_kbps", "25000000");
	given_ok(&fixture, "rate_to_set_on_first_cnp", "0",
		 "rate_to_set_on_first_cnp_kbps", "0");
	given_ok(&fixture, "rp_rate_to_set_on_first_cnp", "100",
		 "rate_to_set_on_first_cnp_kbps", "100000");
	/* checked in Mb/s, against the kb/s range / 1000 */
	given_bad(&fixture, "rp_ai_rate", "1600001",
		  "1600001 is out of range 1..1600000 Mb/s");
	given_bad(&fixture, "rpg_ai_rate", "0", "0 is out of range 1..1600000 Mb/s");
	given_bad(&fixture, "rpg_hai_rate", "1.5", "'1.5' is not a whole number");
	given_bad(&fixture, "rpg_hai_rate", "", "not a whole number");
	given_bad(&fixture, "rp_ai_rate", "99999999999999999999", "not a whole number");
	/* mlx5's 0 is the port speed: refused, as ever */
	given_bad(&fixture, "rp_rate_to_set_on_first_cnp", "0",
		  "rp_rate_to_set_on_first_cnp (mlx5): 0 means the full port speed on mlx5");
	given_bad(&fixture, "rp_rate_to_set_on_first_cnp", "000", "full port speed");
	given_bad(&fixture, "np_cnp_prio", "3", "np_cnp_prio (mlx5): rxe's CNPs carry no VLAN tag");
	given_bad(&fixture, "rp_clamp_tgt_rate_ati", "1", "no counterpart");
	given_bad(&fixture, "frob", "1", "unknown knob 'frob'");

	/* a kb/s range not in whole Mb/s: rounded inwards */
	parse_ok(&s, "rpg_min_rate_kbps kb/s 1500 2999999 2000 dcqcn\n", 1);
	given_ok(&s, "rp_min_rate", "2", "rpg_min_rate_kbps", "2000");
	given_ok(&s, "rp_min_rate", "2999", "rpg_min_rate_kbps", "2999000");
	given_bad(&s, "rp_min_rate", "1", "1 is out of range 2..2999 Mb/s");
	given_bad(&s, "rp_min_rate", "3000", "out of range 2..2999 Mb/s");
	/* an alias of a knob this module does not list */
	given_bad(&s, "rp_ai_rate", "1", "rp_ai_rate (mlx5): this module has no rpg_ai_rate_kbps");

	k = fixture_knob("rpg_ai_rate_kbps");
	assert_string_equal(knob_alias_of(k), "rp_ai_rate");
	a = knob_alias_next(k, NULL);
	assert_string_equal(knob_alias_unit(a, k), "Mb/s");
	assert_string_equal(knob_alias_next(k, a)->name, "rpg_ai_rate");
	assert_null(knob_alias_next(k, knob_alias_next(k, a)));
	k = fixture_knob("rpg_gd");
	assert_string_equal(knob_alias_unit(knob_alias_next(k, NULL), k), "");
	assert_null(knob_alias_of(fixture_knob("acc_gate")));
	assert_null(knob_lookup(&fixture, "rp_ai_rate_kbps", "1", &a, why,
				sizeof(why)));

	/* every alias names a knob of the module or of ours; one scale each */
	for (size_t i = 0; i < knob_alias_count; i++) {
		const struct knob_alias *b = &knob_aliases[i];

		if (!b->target) {
			assert_non_null(b->why);
			continue;
		}
		k = fixture_knob(b->target);
		if (!k)
			fail_msg("%s: no knob %s", b->name, b->target);
		assert_true(b->scale >= 1);
		assert_true((b->scale > 1) == (b->unit != NULL));
		a = knob_alias_next(k, NULL);
		if (a->scale != b->scale)
			fail_msg("%s and %s: other scales", a->name, b->name);
		assert_null(fixture_knob(b->name));
	}
}

static void test_assignment(void **state)
{
	char a[] = "acc_gate=1", b[] = "x==2", c[] = "=1", d[] = "noeq",
	     e[] = "k=";
	char *n, *v;

	(void)state;
	assert_int_equal(knob_assignment(a, &n, &v), 0);
	assert_string_equal(n, "acc_gate");
	assert_string_equal(v, "1");
	assert_int_equal(knob_assignment(b, &n, &v), 0);
	assert_string_equal(n, "x");
	assert_string_equal(v, "=2");
	assert_int_equal(knob_assignment(c, &n, &v), -1);
	assert_int_equal(knob_assignment(d, &n, &v), -1);
	assert_int_equal(knob_assignment(e, &n, &v), 0);
	assert_string_equal(v, "");
	assert_true(word_in_list("acc", "none dcqcn acc\n"));
	assert_false(word_in_list("dcq", "none dcqcn acc"));
	assert_false(word_in_list("", "none"));
}

/*
 * The first sentence of a Description, "(RW) " or "(RO) " dropped, into
 * OUT: up to the first '.' that ends the text or is followed by white
 * space.  A first sentence "Experimental: ..." (the files of
 * cc_experimental/) is skipped, and *EXPERIMENTAL says there was one.
 * TEXT is the description's paragraph, its lines joined by spaces.
 */
static void abi_first_sentence(const char *text, char *out, size_t len,
			       int *experimental)
{
	const char *p = text, *e;

	*experimental = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "(RW) ", 5) || !strncmp(p, "(RO) ", 5))
		p += 5;
	for (;;) {
		for (e = p; *e; e++)
			if (*e == '.' && (!e[1] || e[1] == ' ' || e[1] == '\t'))
				break;
		if (*experimental || strncmp(p, "Experimental:", 13) || !*e)
			break;
		*experimental = 1;
		p = e + 1;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	snprintf(out, len, "%.*s%s", (int)(e - p), p, *e ? "." : "");
}

/* one file of the ABI document */
struct abi_entry {
	char name[64];
	int experimental;	/* documented in cc_experimental/ */
	int marked;		/* its description starts "Experimental:" */
	char first[512];	/* the first sentence of its description */
	char range[256];	/* after "Range: ", to the end of that line */
	char def[128];		/* after "Default: ", no "." or "(...)" */
};

/*
 * A bound of a Range: a number, or "line", the line rate's maximum in
 * the knob's unit (Mb/s or kb/s).  0 and the value; -1 for a bound the
 * document gives as a symbol (T, min, max), which is not checked.
 */
static int abi_bound(const char *w, const struct knob *k, uint64_t *v)
{
	char *end;

	if (!strcmp(w, "line")) {
		const struct knob *line = fixture_knob("line_rate_mbps");

		if (!strcmp(k->unit, "Mb/s") || !strcmp(k->unit, "kb/s")) {
			*v = line->max * (strcmp(k->unit, "kb/s") ? 1 : 1000);
			return 0;
		}
		return -1;
	}
	if (!*w || strspn(w, "0123456789") != strlen(w))
		return -1;
	*v = strtoull(w, &end, 10);
	return 0;
}

/*
 * The Range of a numeric knob K, as "lo..hi", "lo|hi", "0, min..line",
 * "lo..hi, whole Mb/s", each maybe followed by a unit, against the
 * kernel's row: the bounds the document gives as numbers, and the unit
 * it names.
 */
static void abi_check_range(const struct abi_entry *e, const struct knob *k)
{
	char words[sizeof(e->range)], lo[32] = "", hi[32] = "", unit[32] = "";
	char *save = NULL, *w;
	uint64_t v;

	snprintf(words, sizeof(words), "%s", e->range);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(w);
		char last = w[n - 1], *dots, *bar;

		if (last == '.' || last == ',')
			w[--n] = 0;
		dots = strstr(w, "..");
		bar = strchr(w, '|');
		if (dots) {
			*dots = 0;
			if (!*lo)
				snprintf(lo, sizeof(lo), "%s", w);
			snprintf(hi, sizeof(hi), "%s", dots + 2);
		} else if (bar) {
			*bar = 0;
			if (!*lo)
				snprintf(lo, sizeof(lo), "%s", w);
			snprintf(hi, sizeof(hi), "%s", strrchr(bar + 1, '|') ?
				 strrchr(bar + 1, '|') + 1 : bar + 1);
		} else if (last == ',' && !*lo) {
			snprintf(lo, sizeof(lo), "%s", w);	/* "0, min..line" */
			continue;
		} else {
			break;
		}
		if (last == '.')
			break;
		if (last == ',')
			continue;
		/* a unit may follow the range */
		w = strtok_r(NULL, " ", &save);
		if (w && *w != '(' && strcmp(w, "Default:")) {
			snprintf(unit, sizeof(unit), "%s", w);
			if (unit[strlen(unit) - 1] == '.')
				unit[strlen(unit) - 1] = 0;
		}
		break;
	}
	if (!*lo || !*hi)
		fail_msg("%s: Range '%s' not understood", k->name, e->range);
	if (!abi_bound(lo, k, &v) && v != k->min)
		fail_msg("%s: cc/knobs min %llu, the ABI's Range '%s'", k->name,
			 (unsigned long long)k->min, e->range);
	if (!abi_bound(hi, k, &v) && v != k->max)
		fail_msg("%s: cc/knobs max %llu, the ABI's Range '%s'", k->name,
			 (unsigned long long)k->max, e->range);
	if (*unit && strcmp(unit, k->unit))
		fail_msg("%s: cc/knobs unit '%s', the ABI's Range '%s'", k->name,
			 k->unit, e->range);
}

#define ABI_NAMES_MAX	128

static char abi_seen[ABI_NAMES_MAX][64];
static int abi_n_seen;

static int abi_documented(const char *name)
{
	for (int i = 0; i < abi_n_seen; i++)
		if (!strcmp(abi_seen[i], name))
			return 1;
	return 0;
}

/* one documented file NAME against rxe-cc's table and the fixture */
static void abi_check_file(const struct abi_entry *e, const char *name)
{
	const char *means = knob_means(name);
	const struct knob *k = fixture_knob(name);
	int ours = 0;

	assert_true(abi_n_seen < ABI_NAMES_MAX);
	snprintf(abi_seen[abi_n_seen++], sizeof(abi_seen[0]), "%s", name);
	if (strcmp(means, e->first))
		fail_msg("%s: rxe-cc says '%s', the ABI's first sentence '%s'",
			 name, means, e->first);
	if (e->marked != e->experimental)
		fail_msg("%s: in %s, but its description %s \"Experimental:\"",
			 name, e->experimental ? "cc_experimental/" : "cc/",
			 e->marked ? "starts" : "does not start");
	for (size_t i = 0; i < knob_attr_count; i++)
		ours |= !strcmp(knob_attrs[i].name, name);
	if (!k)
		fail_msg("%s is documented, but neither in cc/knobs nor rxe-cc's table",
			 name);
	if (!ours && k->kind != KNOB_UINT && k->kind != KNOB_BOOL)
		fail_msg("%s: not a numeric knob", name);
	if (k->experimental != e->experimental)
		fail_msg("%s: cc/knobs says %s, the ABI %s", name,
			 k->experimental ? "experimental" : "not",
			 e->experimental ? "cc_experimental/" : "cc/");
	if (*e->def && strcmp(k->def, e->def))
		fail_msg("%s: default '%s', the ABI's '%s'", name, k->def, e->def);
	if (*e->range && !ours)
		abi_check_range(e, k);
	if (*e->range && k->kind == KNOB_DSCP && strncmp(e->range, "-1..63", 6))
		fail_msg("%s: a DSCP -1..63, the ABI's Range '%s'", name, e->range);
}

static void abi_check_entry(const struct abi_entry *e)
{
	if (!*e->name)
		return;
	if (!strcmp(e->name, "prio<N>_algorithm") ||
	    !strcmp(e->name, "prio<N>_np")) {
		for (int n = 0; n < KNOB_PRIOS; n++) {
			char pn[64];

			snprintf(pn, sizeof(pn), "prio%d%s", n,
				 strchr(e->name, '_'));
			abi_check_file(e, pn);
		}
		return;
	}
	abi_check_file(e, e->name);
}

/* "Key: value" of LINE, as far as KEY's value goes, into OUT */
static void abi_field(const char *line, const char *key, char *out,
		      size_t len)
{
	const char *p = strstr(line, key);

	if (!p)
		return;
	snprintf(out, len, "%s", p + strlen(key));
	out[strcspn(out, "\n")] = 0;
}

/*
 * rxe-cc's table and the copy of the kernel's cc/knobs say what the ABI
 * document says: every file of cc/ and cc_experimental/ it documents has
 * rxe-cc's one-line meaning, the first sentence of its description; the
 * non-numeric ones are rxe-cc's with the same default; the numeric ones
 * are rows of cc/knobs, in the same directory, with the default and the
 * bounds and unit its Range states; nothing is left undocumented.
 */
static void test_table_matches_abi(void **state)
{
	const char *path = getenv("ABI");
	char line[1024], desc[2048] = "";
	struct abi_entry e = { 0 };
	int in_desc = 0;
	FILE *f;

	(void)state;
	load_fixture();
	abi_n_seen = 0;
	assert_non_null(path);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (!strncmp(line, "What:", 5)) {
			abi_check_entry(&e);
			memset(&e, 0, sizeof(e));
			e.experimental = strstr(line, "/cc_experimental/") != NULL;
			p = strstr(line, e.experimental ? "/cc_experimental/" : "/cc/");
			assert_non_null(p);
			snprintf(e.name, sizeof(e.name), "%s", strchr(p + 1, '/') + 1);
			e.name[strcspn(e.name, "\n")] = 0;
			continue;
		}
		/* the description's first paragraph: its lines, joined */
		if (!strncmp(line, "Description:", 12)) {
			in_desc = 1;
			*desc = 0;
			continue;
		}
		if (in_desc) {
			if (strspn(line, " \t\n") == strlen(line)) {
				in_desc = 0;
				abi_first_sentence(desc, e.first, sizeof(e.first),
						   &e.marked);
			} else {
				line[strcspn(line, "\n")] = 0;
				if (*desc)
					strncat(desc, " ", sizeof(desc) - strlen(desc) - 1);
				strncat(desc, line + strspn(line, " \t"),
					sizeof(desc) - strlen(desc) - 1);
			}
			continue;
		}
		abi_field(line, "Range: ", e.range, sizeof(e.range));
		if (!strstr(line, "Default: "))
			continue;
		abi_field(line, "Default: ", e.def, sizeof(e.def));
		/* "1000." or "0 (the gated probe ...)." */
		p = e.def;
		if (*p && p[strlen(p) - 1] == '.')
			p[strlen(p) - 1] = 0;
		p[strcspn(p, "(")] = 0;
		while (*p && p[strlen(p) - 1] == ' ')
			p[strlen(p) - 1] = 0;
	}
	fclose(f);
	if (in_desc)
		abi_first_sentence(desc, e.first, sizeof(e.first), &e.marked);
	abi_check_entry(&e);
	assert_true(abi_n_seen >= 40);

	/* nothing rxe-cc describes or cc/knobs lists is undocumented */
	for (size_t i = 0; i < knob_attr_count; i++)
		if (!abi_documented(knob_attrs[i].name))
			fail_msg("%s is in rxe-cc's table, not documented",
				 knob_attrs[i].name);
	for (size_t i = 0; i < knob_desc_count; i++)
		if (!abi_documented(knob_descs[i].name))
			fail_msg("%s is described by rxe-cc, not documented",
				 knob_descs[i].name);
	for (size_t i = 0; i < fixture.n; i++)
		if (!abi_documented(fixture.k[i].name))
			fail_msg("%s is in cc/knobs, not documented",
				 fixture.k[i].name);
	assert_int_equal(abi_n_seen, (int)fixture.n);
}

static void test_json_and_rates(void **state)
{
	char buf[256], r[24];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	json_string(f, "a\"b\\c\n\x01");
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\n\\u0001\"");
	assert_string_equal(fmt_rate(r, sizeof(r), 0), "0 b/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 999), "999 b/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 20000000), "20 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 12500000000ULL), "12.5 Gb/s");
	/* rounded to nearest, as iproute2 does, not down */
	assert_string_equal(fmt_rate(r, sizeof(r), 1999999), "2 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 1949999), "1.9 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 1950000), "2 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 1250000), "1.3 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 999999), "1 Mb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 999949), "999.9 kb/s");
	assert_string_equal(fmt_rate(r, sizeof(r), 1001), "1 kb/s");
}

/* monitor: per second over the interval measured, not a nominal 1 s */
static void test_monitor_per_second(void **state)
{
	(void)state;
	assert_int_equal(monitor_per_second(100, 1000000000ULL), 100);
	/* a refresh 1.25 s after the last on a loaded host: 100 in 1.25 s */
	assert_int_equal(monitor_per_second(100, 1250000000ULL), 80);
	assert_int_equal(monitor_per_second(3, 2000000000ULL), 2);	/* 1.5 */
	assert_int_equal(monitor_per_second(1, 3000000000ULL), 0);
	assert_int_equal(monitor_per_second(7, 0), 0);			/* first */
	assert_true(monitor_per_second(UINT64_MAX / 2, 2000000000ULL) >
		    UINT64_MAX / 5);
}

/* a QP entry as nldev builds it, driver table included */
static struct nlattr *build_entry(char *buf, int with_driver)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *entry, *drv;

	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 17);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, 18);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 4242);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	if (with_driver) {
		drv = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_DRIVER);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "cc_algorithm");
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "acc");
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "cc_rate_bps");
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, 20000000);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "cc_stopped");
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, 0);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DRIVER_U32, 0);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "acc_halted");
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DRIVER_U32, 1);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "acc_halts");
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, 7);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "acc_ce_periods");
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, 12);
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "acc_ue_periods");
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, 3);
		mnl_attr_nest_end(nlh, drv);
	}
	mnl_attr_nest_end(nlh, entry);
	return entry;
}

static void test_qp_entry(void **state)
{
	static char buf[4096];
	struct qp_info qp;
	char m[48];

	(void)state;
	assert_int_equal(qp_parse_entry(build_entry(buf, 1), &qp), 0);
	assert_int_equal(qp.lqpn, 17);
	assert_int_equal(qp.rqpn, 18);
	assert_int_equal(qp.pid, 4242);
	assert_string_equal(qp_type_name(qp.type), "RC");
	assert_string_equal(qp_state_name(qp.state), "RTS");
	assert_int_equal(qp.n_drv, 7);
	assert_string_equal(qp_drv(&qp, "cc_algorithm")->str, "acc");
	assert_int_equal(qp_drv_u64(&qp, "cc_rate_bps", 0), 20000000);
	assert_int_equal(qp_drv_u64(&qp, "acc_halts", 0), 7);
	assert_int_equal(qp_drv_u64(&qp, "missing", 99), 99);
	assert_string_equal(qp_cc_state(&qp), "halted");
	assert_string_equal(qp_marks(&qp, m, sizeof(m)), "ce 12/ue 3");

	assert_int_equal(qp_parse_entry(build_entry(buf, 0), &qp), 0);
	assert_int_equal(qp.n_drv, 0);
	assert_string_equal(qp_cc_state(&qp), "-");
	assert_string_equal(qp_marks(&qp, m, sizeof(m)), "-");
}

/* a QP entry whose driver table has a nameless value or a valueless name */
static struct nlattr *bad_driver_entry(char *buf, int dangling_name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *entry, *drv;

	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	drv = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_DRIVER);
	if (dangling_name)
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "dangling");
	else
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, 5);
	mnl_attr_nest_end(nlh, drv);
	mnl_attr_nest_end(nlh, entry);
	return entry;
}

static void test_qp_entry_malformed(void **state)
{
	static char buf[4096];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *entry;
	struct qp_info qp;

	(void)state;
	/* no LQPN */
	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_nest_end(nlh, entry);
	assert_int_equal(qp_parse_entry(entry, &qp), -1);

	/* a value without a name, and a name without a value */
	assert_int_equal(qp_parse_entry(bad_driver_entry(buf, 0), &qp), -1);
	assert_int_equal(qp_parse_entry(bad_driver_entry(buf, 1), &qp), -1);

	/* a u32 of the wrong size */
	nlh = mnl_nlmsg_put_header(buf);
	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	mnl_attr_nest_end(nlh, entry);
	assert_int_equal(qp_parse_entry(entry, &qp), -1);
}

/* S32 and S64 driver attributes stay signed from netlink to JSON */
static void test_qp_signed(void **state)
{
	static char buf[4096];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *entry, *drv;
	struct qp_info qp;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	struct jw w;

	(void)state;
	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 9);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	drv = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_DRIVER);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "s32");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DRIVER_S32, (uint32_t)-7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "s64");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_S64, (uint64_t)INT64_MIN);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "u32");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DRIVER_U32, UINT32_MAX);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "u64");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_DRIVER_U64, UINT64_MAX);
	mnl_attr_nest_end(nlh, drv);
	mnl_attr_nest_end(nlh, entry);
	assert_int_equal(qp_parse_entry(entry, &qp), 0);
	assert_int_equal(qp.n_drv, 4);
	assert_int_equal(qp_drv(&qp, "s32")->kind, DRV_S64);
	assert_true(qp_drv(&qp, "s32")->sval == -7);

	f = open_memstream(&out, &len);
	jw_init(&w, f, 0);
	qp_json(&w, "rxe0", &qp, 1);
	fclose(f);
	assert_string_equal(out, "{\"schema\":1,\"ifname\":\"rxe0\",\"port\":1,"
			    "\"device\":\"rxe0\",\"lqpn\":9,\"type\":\"RC\","
			    "\"state\":\"RTS\",\"pid\":0,\"cc_state\":\"-\","
			    "\"driver\":{\"s32\":-7,\"s64\":-9223372036854775808,"
			    "\"u32\":4294967295,\"u64\":18446744073709551615}}");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_verbs),
		cmocka_unit_test(test_cli_errors),
		cmocka_unit_test(test_cli_getopt),
		cmocka_unit_test(test_cli_help_version),
		cmocka_unit_test(test_cli_dev_port_filters),
		cmocka_unit_test(test_qp_filter),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_qp_signed),
		cmocka_unit_test(test_knob_values),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_mlx5_names),
		cmocka_unit_test(test_assignment),
		cmocka_unit_test(test_table_matches_abi),
		cmocka_unit_test(test_json_and_rates),
		cmocka_unit_test(test_monitor_per_second),
		cmocka_unit_test(test_qp_entry),
		cmocka_unit_test(test_qp_entry_malformed),
	};

	return cmocka_run_group_tests_name("rxe-cc parsing", tests, NULL, NULL);
}
