/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_util.h - helpers shared by the rxe CC unit tests: cmocka includes,
 * a seeded PRNG and tolerance assertions.
 */
#ifndef RXE_CC_TEST_UTIL_H
#define RXE_CC_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxe_cc_core.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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

#endif /* RXE_CC_TEST_UTIL_H */
