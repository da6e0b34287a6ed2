/* SPDX-License-Identifier: GPL-2.0 */
/* lsw_rng.h - xorshift64*: seeded, reproducible, good enough for RED. */
#ifndef LSW_RNG_H
#define LSW_RNG_H

#include <stdint.h>

static inline uint64_t lsw_rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* xorshift must never hold 0; any other seed works. */
static inline uint64_t lsw_rng_seed(uint64_t seed)
{
	return seed ? seed : 0x9E3779B97F4A7C15ULL;
}

#endif
