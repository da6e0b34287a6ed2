/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_mark.h - ECN marking decisions: RED (DCQCN's CP) and TCD.
 *
 * Both are pure: the caller owns the state and passes queue lengths and
 * times in.  The caller applies the result with lsw_frame_set_ecn().
 *
 * Hermetic: this file and lsw_mark.c include nothing of lsw but
 * lsw_rng.h, so the simulator (sim/) compiles the very same two files.
 */
#ifndef LSW_MARK_H
#define LSW_MARK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* IP ECN codepoints (RFC 3168); TCD meanings: Documentation/rxe-acc/wire.rst */
#define LSW_ECN_NOT_ECT 0x0
#define LSW_ECN_ECT1 0x1 /* TCD: UE */
#define LSW_ECN_ECT0 0x2 /* TCD: NO */
#define LSW_ECN_CE 0x3

/*
 * TCD port states (Documentation/rxe-acc/acc.rst); TREND is the silent
 * "leaving UE" check.
 */
enum lsw_tcd_state { LSW_TCD_NO, LSW_TCD_UE, LSW_TCD_CE, LSW_TCD_TREND };

#define LSW_RED_PROB_ONE (1ULL << 32) /* probabilities in 32-bit fixed point */

struct lsw_red {
	uint64_t kmin_bytes, kmax_bytes;
	uint64_t pmax_fx; /* Pmax scaled by LSW_RED_PROB_ONE */
};

void lsw_red_init(struct lsw_red *red, uint64_t kmin_bytes, uint64_t kmax_bytes,
		  double pmax);
/* Marking probability at queue length q, scaled by LSW_RED_PROB_ONE. */
uint64_t lsw_red_prob(const struct lsw_red *red, uint64_t q_bytes);
bool lsw_red_mark(const struct lsw_red *red, uint64_t q_bytes, uint64_t *rng);

/*
 * How a TCD port decides NO/CE outside UE (Documentation/rxe-acc/acc.rst,
 * "TCD: switch marking"):
 *
 * DEQUEUE (default, as the TCD authors' simulator does): every departing
 * packet is judged by the queue it leaves, with a step at K or RED
 * (K..kmax, pmax).  The queue's trend is read only when a port leaves UE.
 *
 * PERIOD (the rule lsw had before; kept for comparison): the state is
 * decided at each period boundary, CE iff q > K and q did not fall since
 * the previous boundary, and every packet until the next boundary carries
 * that state.
 */
enum lsw_tcd_rule { LSW_TCD_RULE_DEQUEUE, LSW_TCD_RULE_PERIOD };

/*
 * TCD per (egress port, priority).  States and transitions:
 *
 *        PAUSE with T_on < max(T_on)
 *   NO/CE ---------------------------> UE
 *     ^                                 | ON (not paused) for > max(T_on)
 *     |  see below                      v
 *     +----------------------------- TREND (marks nothing)
 *
 * DEQUEUE rule: leaving UE with q >= q at the last resume goes straight to
 * NO/CE; else TREND checks q every period T: q rose -> NO/CE; q fell or
 * stayed -> keep checking; q <= 2 MTU (at a boundary or a dequeue) -> NO.
 * In NO/CE each dequeue decides: CE iff the step/RED says so.
 *
 * PERIOD rule: TREND lasts one period: q > K and not fallen -> CE, else
 * NO.  In NO/CE, every period T while the port may send: q > K and q not
 * falling -> CE, else NO.  While paused, NO/CE are held: a port that is
 * not allowed to send cannot be judged congested by its queue.
 */
struct lsw_tcd {
	enum lsw_tcd_state state;
	enum lsw_tcd_rule rule;
	bool paused;
	uint64_t paused_until_ns; /* pause expiry counts as a resume */
	uint64_t t_on_start_ns;   /* last resume (or start) */
	uint64_t next_check_ns;   /* next period boundary */
	uint64_t q_prev_bytes;    /* queue at the previous boundary */
	uint64_t q_resume_bytes;  /* queue at the last resume */
	uint64_t low_bytes;       /* DEQUEUE: TREND ends at q <= this (2 MTU) */
	uint64_t threshold_bytes, period_ns, max_ton_ns;
	struct lsw_red ce;        /* DEQUEUE: the CE decision (step or RED) */
};

/* Starts in NO with the DEQUEUE rule, a step at threshold_bytes, 2 KB low. */
void lsw_tcd_init(struct lsw_tcd *t, uint64_t threshold_bytes,
		  uint64_t period_ns, uint64_t max_ton_ns, uint64_t now_ns);
/*
 * Chooses the rule and, for DEQUEUE, the CE decision: a step at K when
 * kmax_bytes <= K (pmax ignored), else RED from K to kmax_bytes with pmax.
 * mtu_bytes sets the low mark (2 MTU) that ends the trend check.
 */
void lsw_tcd_set_rule(struct lsw_tcd *t, enum lsw_tcd_rule rule,
		      uint64_t kmax_bytes, double pmax, uint64_t mtu_bytes);
int lsw_tcd_parse_rule(const char *s, enum lsw_tcd_rule *rule);
const char *lsw_tcd_rule_name(enum lsw_tcd_rule rule);
/*
 * max(T_on) = (B1 - B0)/(eps*C) + tau, tau = 2*MTU/C + 2*t_prop.
 * xoff_minus_xon_bytes is B1 - B0 of the downstream (peer) ingress.
 */
uint64_t lsw_tcd_max_ton_ns(uint64_t xoff_minus_xon_bytes, double epsilon,
			    uint64_t rate_bps, uint64_t mtu_bytes,
			    uint64_t delay_ns);
/*
 * Brings the state machine to now_ns.  q_bytes must be the queue length
 * since the previous call (the caller calls this before every queue change,
 * so the queue was constant in between and each boundary sees the right q).
 */
void lsw_tcd_catch_up(struct lsw_tcd *t, uint64_t q_bytes, uint64_t now_ns);
/* A PFC frame for this priority: pause_ns == 0 is a resume. */
void lsw_tcd_on_pfc(struct lsw_tcd *t, uint64_t q_bytes, uint64_t pause_ns,
		    uint64_t now_ns);
/*
 * The state a packet departing now marks with, q_bytes the queue it leaves
 * (itself included).  Brings the machine to now_ns first (q_bytes must
 * then also be the queue since the previous call, as for catch_up).  With
 * the DEQUEUE rule a NO/CE port judges q_bytes here (RED draws from rng);
 * with PERIOD this is the state of the last boundary.  TREND marks nothing.
 */
enum lsw_tcd_state lsw_tcd_dequeue(struct lsw_tcd *t, uint64_t q_bytes,
				   uint64_t now_ns, uint64_t *rng);
/* ECN to write on a departing packet with ECN `ecn` (never 00). */
uint8_t lsw_tcd_remark(enum lsw_tcd_state state, uint8_t ecn);

#ifdef __cplusplus
}
#endif

#endif
