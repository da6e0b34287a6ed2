// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - like top: every second, each RC QP's rate, CC state and
 * halts (with its halts per second since the last refresh), and each
 * device's marks: CE and UE ACKs (ACC), CNPs sent and handled (DCQCN),
 * per second.  The rates divide by the time measured (CLOCK_MONOTONIC)
 * between two readings, which a loaded host stretches past the 1 s
 * sleep.  A terminal is redrawn in place; otherwise (or with --json, one
 * object per line) each refresh is appended.
 */
#include "monitor.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "nl.h"
#include "out.h"
#include "show.h"
#include "qpcmd.h"
#include "sysfs.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char *const marks[] = {
	"acc_ce_acks", "acc_ue_acks", "np_cnp_sent", "rp_cnp_handled",
};
#define N_MARKS (sizeof(marks) / sizeof(marks[0]))

struct dev_view {
	struct qp_list now, before;
	uint64_t mark[N_MARKS], mark_before[N_MARKS];
	uint64_t t_ns, t_before_ns;	/* CLOCK_MONOTONIC of each reading */
	int have_before;
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

uint64_t monitor_per_second(uint64_t delta, uint64_t dt_ns)
{
	if (!dt_ns)
		return 0;
	/* delta * 1e9 / dt rounded; long double: no overflow at any delta */
	return (uint64_t)((long double)delta * 1e9L / (long double)dt_ns + 0.5L);
}

/* The time between the two readings the deltas are taken over. */
static uint64_t interval_ns(const struct dev_view *v)
{
	return v->have_before && v->t_ns > v->t_before_ns ?
		v->t_ns - v->t_before_ns : 0;
}

static uint64_t halts_before(const struct dev_view *v, const struct qp_info *qp)
{
	for (int i = 0; v->have_before && i < v->before.n; i++)
		if (v->before.qp[i].lqpn == qp->lqpn)
			return qp_drv_u64(&v->before.qp[i], "acc_halts", 0);
	return qp_drv_u64(qp, "acc_halts", 0);
}

static uint64_t mark_delta(const struct dev_view *v, size_t m)
{
	return v->have_before && v->mark[m] >= v->mark_before[m] ?
		v->mark[m] - v->mark_before[m] : 0;
}

/* a counter's rate over the measured interval, not over a nominal 1 s */
static uint64_t mark_rate(const struct dev_view *v, size_t m)
{
	return monitor_per_second(mark_delta(v, m), interval_ns(v));
}

static void print_text(FILE *f, const char *dev, const struct dev_view *v)
{
	uint64_t dt = interval_ns(v), cs = (dt + 5000000) / 10000000;

	fprintf(f, "%s: per second over %" PRIu64 ".%02" PRIu64 " s: %" PRIu64
		" CE ACKs, %" PRIu64 " UE ACKs, %" PRIu64 " CNPs sent, %" PRIu64
		" CNPs handled; %d RC QPs\n", dev, (uint64_t)(cs / 100),
		(uint64_t)(cs % 100), mark_rate(v, 0),
		mark_rate(v, 1), mark_rate(v, 2), mark_rate(v, 3), v->now.n);
	fprintf(f, "%6s %-6s %-8s %12s %10s %8s %6s  %s\n", "lqpn", "algo",
		"cc", "rate", "inflight_B", "halts", "halt/s", "marks");
	for (int i = 0; i < v->now.n; i++) {
		const struct qp_info *qp = &v->now.qp[i];
		const struct qp_drv_attr *algo = qp_drv(qp, "cc_algorithm");
		uint64_t halts = qp_drv_u64(qp, "acc_halts", 0);
		char rate[24] = "-", m[48];

		if (qp_drv(qp, "cc_rate_bps"))
			fmt_rate(rate, sizeof(rate),
				 qp_drv_u64(qp, "cc_rate_bps", 0));
		fprintf(f, "%6" PRIu32 " %-6s %-8s %12s %10" PRIu64 " %8" PRIu64
			" %6" PRIu64 "  %s\n", qp->lqpn,
			algo && algo->is_string ? algo->str : "?",
			qp_cc_state(qp), rate,
			qp_drv_u64(qp, "cc_inflight_bytes", 0), halts,
			monitor_per_second(halts - halts_before(v, qp), dt),
			qp_marks(qp, m, sizeof(m)));
	}
	fputc('\n', f);
}

static void print_json(struct jw *w, const char *dev,
		       const struct dev_view *v)
{
	jw_obj_open(w, NULL);
	json_dev_keys(w, dev);
	jw_u64(w, "interval_ms", (interval_ns(v) + 500000) / 1000000);
	jw_obj_open(w, "per_second");
	for (size_t m = 0; m < N_MARKS; m++)
		jw_u64(w, marks[m], mark_rate(v, m));
	jw_obj_close(w);
	jw_arr_open(w, "qps");
	for (int i = 0; i < v->now.n; i++)
		qp_json(w, dev, &v->now.qp[i], 0);
	jw_arr_close(w);
	jw_obj_close(w);
}

/* Sleeps one second unless a signal ends it. */
static void nap(void)
{
	struct timespec t = { .tv_sec = 1 };

	while (!stop && nanosleep(&t, &t) && errno == EINTR)
		;
}

int monitor_run(FILE *f, char (*devs)[DEV_NAME_MAX], int n,
		const struct qp_filter *filter, int json, int pretty,
		long count)
{
	struct jw w;
	struct sigaction sa = { .sa_handler = on_signal };
	struct dev_view *v = calloc(n, sizeof(*v));
	int tty = !json && isatty(fileno(f)), ret = 0, gone = -1;

	if (!v)
		return -1;
	jw_init(&w, f, pretty);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (long round = 0; !stop && (!count || round < count); round++) {
		if (round)
			nap();
		if (stop)
			break;
		for (int d = 0; d < n && gone < 0; d++) {
			struct qp_list tmp = v[d].before;
			int e;

			v[d].before = v[d].now;
			v[d].now = tmp;
			memcpy(v[d].mark_before, v[d].mark, sizeof(v[d].mark));
			v[d].t_before_ns = v[d].t_ns;
			v[d].have_before = round > 0;
			e = qp_collect(devs[d], filter, &v[d].now);
			if (e == -ENODEV || !cc_dev_exists(devs[d])) {
				gone = d;
				break;
			}
			if (e) {
				fprintf(stderr, "rxe-cc: %s: %s\n", devs[d],
					nl_strerror(e));
				ret = -1;
				goto out;
			}
			v[d].t_ns = mono_ns();
			for (size_t m = 0; m < N_MARKS; m++)
				counter_read(devs[d], marks[m], &v[d].mark[m]);
		}
		if (gone >= 0)
			break;
		if (tty)
			fputs("\033[H\033[2J", f);
		if (json) {
			jw_obj_open(&w, NULL);
			jw_u64(&w, "schema", JSON_SCHEMA);
			jw_s64(&w, "time", (int64_t)time(NULL));
			jw_arr_open(&w, "devices");
		}
		for (int d = 0; d < n; d++) {
			if (json)
				print_json(&w, devs[d], &v[d]);
			else
				print_text(f, devs[d], &v[d]);
		}
		if (json) {
			jw_arr_close(&w);
			jw_obj_close(&w);
			jw_end(&w);
		}
		fflush(f);
	}
	if (gone >= 0)
		fprintf(stderr, "rxe-cc: %s went away\n", devs[gone]);
out:
	for (int d = 0; d < n; d++) {
		qp_list_free(&v[d].now);
		qp_list_free(&v[d].before);
	}
	free(v);
	return ret;
}
