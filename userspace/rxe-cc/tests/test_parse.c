// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - rxe-cc's parsing: the command line, knob values, the
 * knob table against the ABI document, netlink QP entries, and output.
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
	cli_free(&c);
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

static void check_ok(const char *name, const char *v)
{
	char why[160] = "";
	const struct knob *k = knob_find(name);

	assert_non_null(k);
	if (knob_check(k, v, "none dcqcn acc\n", why, sizeof(why)))
		fail_msg("%s=%s refused: %s", name, v, why);
}

static void check_bad(const char *name, const char *v, const char *reason)
{
	char why[160] = "";
	const struct knob *k = knob_find(name);

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
	check_bad("rpg_byte_reset", "99999999999999999999999", "not a whole number");
	check_ok("rpg_byte_reset", "0");
	check_ok("line_rate_mbps", "1600000");
	check_bad("line_rate_mbps", "1600001", "out of range 0..1600000 Mb/s");
	check_bad("available", "acc", "read-only");
	check_bad("acc_period_us", "1111111111111111111111111111111111111111111111111111111111111111111",
		  "too long");
	assert_null(knob_find("acc_period"));
	assert_null(knob_find("prio8_np"));
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
 * space.  TEXT is the description's paragraph, its lines joined by spaces.
 */
static void abi_first_sentence(const char *text, char *out, size_t len)
{
	const char *p = text, *e;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "(RW) ", 5) || !strncmp(p, "(RO) ", 5))
		p += 5;
	for (e = p; *e; e++)
		if (*e == '.' && (!e[1] || e[1] == ' ' || e[1] == '\t'))
			break;
	snprintf(out, len, "%.*s%s", (int)(e - p), p, *e ? "." : "");
}

static void check_means(const struct knob *k, const char *abi_first)
{
	if (!k->means || strcmp(k->means, abi_first))
		fail_msg("%s: table says '%s', the ABI's first sentence '%s'",
			 k->name, k->means ? k->means : "(none)", abi_first);
}

/*
 * The table says what the ABI document says: every cc/ file it documents
 * is in the table with the same default and, as its one-line meaning, the
 * first sentence of its description; nothing else is.
 */
static void test_table_matches_abi(void **state)
{
	const char *path = getenv("ABI");
	char line[1024], name[64] = "", desc[2048] = "", first[512] = "";
	int documented = 0, checked = 0, in_desc = 0;
	FILE *f;

	(void)state;
	assert_non_null(path);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (!strncmp(line, "What:", 5)) {
			p = strstr(line, "/cc/");
			assert_non_null(p);
			snprintf(name, sizeof(name), "%s", p + 4);
			name[strcspn(name, "\n")] = 0;
			documented++;
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
				abi_first_sentence(desc, first, sizeof(first));
			} else {
				line[strcspn(line, "\n")] = 0;
				if (*desc)
					strncat(desc, " ", sizeof(desc) - strlen(desc) - 1);
				strncat(desc, line + strspn(line, " \t"),
					sizeof(desc) - strlen(desc) - 1);
			}
			continue;
		}
		p = strstr(line, "Default: ");
		if (!p || !*name)
			continue;
		p += strlen("Default: ");
		p[strcspn(p, "\n")] = 0;
		/* "1000." or "0 (the gated probe ...)." */
		if (p[strlen(p) - 1] == '.')
			p[strlen(p) - 1] = 0;
		p[strcspn(p, "(")] = 0;
		while (*p && p[strlen(p) - 1] == ' ')
			p[strlen(p) - 1] = 0;
		if (!strcmp(name, "prio<N>_algorithm") ||
		    !strcmp(name, "prio<N>_np")) {
			for (int n = 0; n < KNOB_PRIOS; n++) {
				char pn[64];
				const struct knob *k;

				snprintf(pn, sizeof(pn), "prio%d%s", n,
					 strchr(name, '_'));
				k = knob_find(pn);
				assert_non_null(k);
				assert_string_equal(k->def, p);
				check_means(k, first);
				checked++;
			}
		} else {
			const struct knob *k = knob_find(name);

			if (!k)
				fail_msg("%s is documented, not in the table", name);
			if (strcmp(k->def, p))
				fail_msg("%s: table default '%s', ABI '%s'", name,
					 k->def, p);
			check_means(k, first);
			checked++;
		}
		*name = 0;
	}
	fclose(f);
	assert_true(documented >= 30);
	assert_int_equal(checked, (int)knob_count);
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
		cmocka_unit_test(test_assignment),
		cmocka_unit_test(test_table_matches_abi),
		cmocka_unit_test(test_json_and_rates),
		cmocka_unit_test(test_monitor_per_second),
		cmocka_unit_test(test_qp_entry),
		cmocka_unit_test(test_qp_entry_malformed),
	};

	return cmocka_run_group_tests_name("rxe-cc parsing", tests, NULL, NULL);
}
