/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_util.h - helpers shared by the rxe CC unit tests: cmocka includes,
 * a seeded PRNG, tolerance assertions, and the few calls the tests make
 * on an algorithm run through its ops table (sim/src/cc_host.h).
 */
#ifndef RXE_CC_TEST_UTIL_H
#define RXE_CC_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxe_cc_core.h"	/* ARRAY_SIZE() comes with <linux/kernel.h> */
#include "cc_host.h"

#define NS_PER_US	1000ULL
#define NS_PER_MS	(1000ULL * NS_PER_US)
#define NS_PER_SEC	(1000ULL * NS_PER_MS)
#define KBPS		1000ULL
#define MBPS		(1000ULL * KBPS)
#define GBPS		(1000ULL * MBPS)

/* splitmix64: small, seedable, good enough to drive event sequences. */
static inline u64 prng_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline u64 prng_range(u64 *state, u64 lo, u64 hi)
{
	return lo + prng_next(state) % (hi - lo + 1);
}

/* |actual - expected| <= expected * ppm / 1e6, with a diagnostic. */
#define assert_within_ppm(actual, expected, ppm)			\
	do {								\
		long double a_ = (long double)(actual);			\
		long double e_ = (long double)(expected);		\
		long double d_ = a_ > e_ ? a_ - e_ : e_ - a_;		\
		if (d_ > e_ * (ppm) / 1e6L)				\
			fail_msg("%s = %.6Lg, expected %.6Lg +- %g ppm", \
				 #actual, a_, e_, (double)(ppm));	\
	} while (0)

/* |actual - expected| <= abs_tol. */
#define assert_within_abs(actual, expected, abs_tol)			\
	do {								\
		long double a_ = (long double)(actual);			\
		long double e_ = (long double)(expected);		\
		long double d_ = a_ > e_ ? a_ - e_ : e_ - a_;		\
		if (d_ > (long double)(abs_tol))			\
			fail_msg("%s = %.9Lg, expected %.9Lg +- %.9Lg", \
				 #actual, a_, e_, (long double)(abs_tol)); \
	} while (0)

/* Write knob @name, in its file's unit, as sysfs would: it must take it. */
static inline void knob(struct cc_host *h, const char *name, u64 value)
{
	int err = cc_host_set(h, name, value);

	if (err)
		fail_msg("%s = %llu: %d", name, (unsigned long long)value, err);
}

/*
 * ACC's period and halt cap, in us: params_check wants halt_max >= T on
 * every write, so the cap goes to the top of its row first.
 */
static inline void knob_acc_period(struct cc_host *h, u64 period_us,
				   u64 halt_max_us)
{
	const struct rxe_cc_knob *k = cc_host_knob(h, "acc_halt_max_us");

	assert_non_null(k);
	knob(h, "acc_halt_max_us", k->max);
	knob(h, "acc_period_us", period_us);
	knob(h, "acc_halt_max_us", halt_max_us);
}

/* Statistic @name of the flow, by its row (ops->stat_names). */
static inline u64 host_stat(struct cc_host *h, const char *name)
{
	u64 v[64];
	u32 i;

	assert_true(h->ops->n_stats <= ARRAY_SIZE(v));
	cc_host_stats(h, v);
	for (i = 0; i < h->ops->n_stats; i++)
		if (!strcmp(h->ops->stat_names[i], name))
			return v[i];
	fail_msg("no statistic %s", name);
	return 0;
}

/*
 * The ACK of one packet of @bytes, echoing the strongest mark it saw,
 * with the RTT sample @rtt_ns (0: none).  Returns the events it raised.
 */
static inline u32 host_ack1(struct cc_host *h, u32 bytes,
			    enum rxe_cc_mark mark, u64 rtt_ns, u64 now_ns)
{
	const struct rxe_cc_ack ack = {
		.bytes = bytes,
		.pkts = 1,
		.ce_pkts = mark == RXE_CC_MARK_CE,
		.ue_pkts = mark == RXE_CC_MARK_UE,
		.rtt_ns = rtt_ns,
	};

	return cc_host_ack(h, &ack, now_ns);
}

#endif /* RXE_CC_TEST_UTIL_H */
