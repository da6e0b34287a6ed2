// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_stats.c - counters (JSON) and time series (CSV); schema in README.md.
 *
 * One priority object per line, so that shell tools and the integration
 * test can pick values out without a JSON library.
 */
#include "lsw_stats.h"

#include <inttypes.h>

static bool prio_active(const struct lsw_core *core, int port, int prio,
			const struct lsw_prio_stats *st)
{
	const struct lsw_config *cfg = lsw_core_config(core);

	return (cfg->sw[cfg->port[port].sw].lossless_mask & (1u << prio)) ||
	       st->frames_in || st->frames_out || st->host_frames ||
	       st->drops || st->host_drops || st->pfc_rx;
}

static void json_prio(FILE *f, const struct lsw_prio_stats *s, int prio,
		      const char *sep)
{
	fprintf(f,
		"        {\"prio\": %d, \"frames_in\": %" PRIu64 ", \"bytes_in\": %" PRIu64
		", \"frames_out\": %" PRIu64 ", \"bytes_out\": %" PRIu64
		", \"drops\": %" PRIu64 ", \"pfc_tx\": %" PRIu64 ", \"xoff_tx\": %" PRIu64
		", \"xon_tx\": %" PRIu64 ", \"pfc_rx\": %" PRIu64 ", \"paused_ns\": %" PRIu64
		", \"queue_peak_bytes\": %" PRIu64 ", \"ingress_peak_bytes\": %" PRIu64
		", \"ce_marks\": %" PRIu64 ", \"ue_marks\": %" PRIu64
		", \"not_ect_in\": %" PRIu64 ", \"ect0_in\": %" PRIu64
		", \"ect1_in\": %" PRIu64 ", \"ce_in\": %" PRIu64
		", \"tx_first_ns\": %" PRIu64 ", \"tx_last_ns\": %" PRIu64
		", \"host_frames\": %" PRIu64 ", \"host_drops\": %" PRIu64
		", \"host_queue_peak_bytes\": %" PRIu64 ", \"host_paused_ns\": %" PRIu64
		"}%s\n",
		prio, s->frames_in, s->bytes_in, s->frames_out, s->bytes_out,
		s->drops, s->pfc_tx, s->xoff_tx, s->xon_tx, s->pfc_rx,
		s->paused_ns, s->queue_peak_bytes, s->ingress_peak_bytes,
		s->ce_marks, s->ue_marks, s->ecn_in[0], s->ecn_in[2], s->ecn_in[1],
		s->ecn_in[3], s->tx_first_ns, s->tx_last_ns,
		s->host_frames, s->host_drops, s->host_queue_peak_bytes,
		s->host_paused_ns, sep);
}

static void json_port(FILE *f, struct lsw_core *core, int port,
		      uint64_t now_ns, const char *sep)
{
	const struct lsw_config *cfg = lsw_core_config(core);
	const struct lsw_port_cfg *pc = &cfg->port[port];
	const struct lsw_port_errors *e = lsw_core_port_errors(core, port);
	struct lsw_prio_stats st[LSW_NPRIO];
	int last = -1;

	for (int p = 0; p < LSW_NPRIO; p++) {
		lsw_core_prio_stats(core, port, p, now_ns, &st[p]);
		if (prio_active(core, port, p, &st[p]))
			last = p;
	}
	fprintf(f,
		"      {\"name\": \"%s\", \"kind\": \"%s\", \"peer\": \"%s\", \"rate_bps\": %" PRIu64
		", \"delay_ns\": %" PRIu64 ",\n",
		pc->name, pc->kind == LSW_PORT_HOST ? "host" : "link",
		pc->kind == LSW_PORT_LINK ? cfg->sw[cfg->port[pc->peer].sw].name : "",
		pc->rate_bps, pc->delay_ns);
	fprintf(f,
		"       \"errors\": {\"runts\": %" PRIu64 ", \"oversize\": %" PRIu64
		", \"bad_ip\": %" PRIu64 ", \"ctrl_other\": %" PRIu64
		", \"reserved_dst\": %" PRIu64 ", \"filtered\": %" PRIu64
		", \"learn_full\": %" PRIu64 "},\n       \"prio\": [\n",
		e->runts, e->oversize, e->bad_ip, e->ctrl_other, e->reserved_dst,
		e->filtered, e->learn_full);
	for (int p = 0; p <= last; p++)
		if (prio_active(core, port, p, &st[p]))
			json_prio(f, &st[p], p, p == last ? "" : ",");
	fprintf(f, "      ]}%s\n", sep);
}

void lsw_stats_json(FILE *f, struct lsw_core *core, uint64_t now_ns)
{
	const struct lsw_config *cfg = lsw_core_config(core);

	fprintf(f, "{\"time_ns\": %" PRIu64 ", \"switches\": [\n", now_ns);
	for (int s = 0; s < cfg->n_switches; s++) {
		const struct lsw_switch_stats *ss = lsw_core_switch_stats(core, s);
		int last = -1;

		for (int i = 0; i < cfg->n_ports; i++)
			if (cfg->port[i].sw == s)
				last = i;
		fprintf(f,
			"  {\"name\": \"%s\", \"marking\": \"%s\", \"buffer_bytes\": %" PRIu64
			", \"buffer_used_bytes\": %" PRIu64 ", \"buffer_peak_bytes\": %" PRIu64
			", \"headroom_peak_bytes\": %" PRIu64 ",\n   \"ports\": [\n",
			cfg->sw[s].name, lsw_marking_name(cfg->sw[s].marking),
			cfg->sw[s].buffer_bytes, ss->buffer_used_bytes,
			ss->buffer_peak_bytes, ss->headroom_peak_bytes);
		for (int i = 0; i < cfg->n_ports; i++)
			if (cfg->port[i].sw == s)
				json_port(f, core, i, now_ns, i == last ? "" : ",");
		fprintf(f, "   ]}%s\n", s == cfg->n_switches - 1 ? "" : ",");
	}
	fprintf(f, "]}\n");
	fflush(f);
}

void lsw_stats_csv_header(FILE *f)
{
	fprintf(f, "time_ns,switch,port,prio,queue_bytes,paused,tcd_state,"
		   "ingress_bytes,host_queue_bytes,bytes_in,bytes_out,pfc_tx,"
		   "paused_ns\n");
}

void lsw_stats_csv_sample(FILE *f, struct lsw_core *core, uint64_t now_ns)
{
	const struct lsw_config *cfg = lsw_core_config(core);

	for (int i = 0; i < cfg->n_ports; i++) {
		for (int p = 0; p < LSW_NPRIO; p++) {
			struct lsw_prio_stats st;
			struct lsw_prio_view v;

			lsw_core_prio_stats(core, i, p, now_ns, &st);
			if (!prio_active(core, i, p, &st))
				continue;
			lsw_core_view(core, i, p, now_ns, &v);
			fprintf(f, "%" PRIu64 ",%s,%s,%d,%" PRIu64 ",%d,%s,%" PRIu64
				   ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				   ",%" PRIu64 "\n",
				now_ns, cfg->sw[cfg->port[i].sw].name,
				cfg->port[i].name, p, v.queue_bytes, v.paused,
				lsw_tcd_state_name(v.tcd_state), v.ingress_bytes,
				v.host_queue_bytes, st.bytes_in, st.bytes_out,
				st.pfc_tx, st.paused_ns);
		}
	}
}
