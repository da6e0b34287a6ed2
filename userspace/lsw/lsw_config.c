// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_config.c - parse the config text; see README.md for the format.
 *
 * Line oriented: `keyword args... [key=value ...]`, `#` starts a comment.
 * Global knobs come first and become the defaults of every switch and port
 * declared after them; `switch`, `host`, `link` lines may override them
 * with key=value.  Everything is checked here with a line number, and the
 * result is checked again as a whole by lsw_core_create().
 */
#include "lsw_config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 16
#define LINE_MAX_BYTES 1024
#define MAX_QUEUE_BYTES (1ULL << 31) /* keeps RED's fixed point in 64 bits */
#define LOOPBACK_NET 0x7f000000u
#define LOOPBACK_MASK 0xff000000u

/* Defaults sized for VM flows of tens of Mb/s; see README.md. */
#define DEF_RATE_BPS 40000000ULL
#define DEF_DELAY_NS 10000ULL
#define DEF_HOST_QUEUE_BYTES (4ULL << 20)
#define DEF_BUFFER_BYTES (2ULL << 20)
#define DEF_XOFF_BYTES 30000ULL
#define DEF_XON_BYTES 27000ULL /* B1 - B0 = 2 MTU, as TCD recommends */
#define DEF_HEADROOM_BYTES 12000ULL
#define DEF_PAUSE_QUANTA 65535u
#define DEF_PAUSE_REFRESH_PCT 50u
#define DEF_LOSSY_QUEUE_BYTES 200000ULL
#define DEF_RED_KMIN_BYTES 10000ULL
#define DEF_RED_KMAX_BYTES 50000ULL
#define DEF_RED_PMAX 0.2
#define DEF_TCD_THRESHOLD_BYTES 15000ULL
#define DEF_TCD_PERIOD_NS 500000ULL
#define DEF_TCD_EPSILON 0.05
#define DEF_STRICT_MIN_PRIO 6
#define DEF_WIRE_OVERHEAD_BYTES 24u /* preamble 8 + FCS 4 + IFG 12 */
#define DEF_MTU_BYTES 1500u
#define DSCP_ROCE_DATA 26
#define DSCP_ROCE_ACK_CNP 48
#define PRIO_ROCE_DATA 3
#define PRIO_ROCE_ACK_CNP 6

struct parser {
	const char *fname;
	int line;
	char *err;
	size_t errlen;
	struct lsw_config *cfg;
	struct lsw_switch_cfg sw_def;
	struct lsw_port_cfg port_def;
	bool declared; /* a switch/host/link was seen: globals are closed */
};

static int fail(struct parser *ps, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->fname, ps->line, msg);
	return -1;
}

struct unit {
	const char *suffix;
	double mult;
};

static int parse_scaled(const char *s, const struct unit *units, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (*end) {
		for (; units->suffix; units++)
			if (!strcasecmp(end, units->suffix))
				break;
		if (!units->suffix)
			return -1;
		v *= units->mult;
	}
	*out = v;
	return v < 1.8e19 ? 0 : -1;
}

int lsw_parse_rate(const char *s, uint64_t *bps)
{
	static const struct unit u[] = {
		{ "bps", 1 },	 { "k", 1e3 }, { "kbps", 1e3 }, { "kbit", 1e3 },
		{ "m", 1e6 },	 { "mbps", 1e6 }, { "mbit", 1e6 },
		{ "g", 1e9 },	 { "gbps", 1e9 }, { "gbit", 1e9 }, { NULL, 0 },
	};
	double v;

	if (parse_scaled(s, u, &v) || v < 1000 || v > 1e12)
		return -1;
	*bps = (uint64_t)v;
	return 0;
}

int lsw_parse_time(const char *s, uint64_t *ns)
{
	static const struct unit u[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 },
	};
	double v;

	if (parse_scaled(s, u, &v) || v > 1e13)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}

int lsw_parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit u[] = {
		{ "b", 1 },	   { "kb", 1e3 }, { "mb", 1e6 },
		{ "kib", 1024 }, { "mib", 1048576 }, { NULL, 0 },
	};
	double v;

	if (parse_scaled(s, u, &v) || v > (double)MAX_QUEUE_BYTES)
		return -1;
	*bytes = (uint64_t)v;
	return 0;
}

int lsw_parse_marking(const char *s, enum lsw_marking *m)
{
	for (int i = LSW_MARK_OFF; i <= LSW_MARK_TCD; i++)
		if (!strcmp(s, lsw_marking_name(i))) {
			*m = i;
			return 0;
		}
	return -1;
}

static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end || errno || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *b)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "1"))
		*b = true;
	else if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "0"))
		*b = false;
	else
		return -1;
	return 0;
}

static int parse_fraction(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return (end == s || *end || errno || !(*d >= 0 && *d <= 1)) ? -1 : 0;
}

/* Switch knobs: one table for global lines and switch key=value. */
enum kind { K_SIZE, K_TIME, K_U32, K_FRAC, K_BOOL, K_MARKING, K_TCD_RULE };

struct knob {
	const char *name;
	enum kind kind;
	size_t off;
	uint64_t max; /* K_U32 */
};

#define SWK(n, k, f, m) { n, k, offsetof(struct lsw_switch_cfg, f), m }
static const struct knob switch_knobs[] = {
	SWK("marking", K_MARKING, marking, 0),
	SWK("buffer", K_SIZE, buffer_bytes, 0),
	SWK("xoff", K_SIZE, xoff_bytes, 0),
	SWK("xon", K_SIZE, xon_bytes, 0),
	SWK("headroom", K_SIZE, headroom_bytes, 0),
	SWK("pause_quanta", K_U32, pause_quanta, 65535),
	SWK("pause_refresh", K_U32, pause_refresh_pct, 99),
	SWK("lossy_queue", K_SIZE, lossy_queue_bytes, 0),
	SWK("red_kmin", K_SIZE, red_kmin_bytes, 0),
	SWK("red_kmax", K_SIZE, red_kmax_bytes, 0),
	SWK("red_pmax", K_FRAC, red_pmax, 0),
	SWK("tcd_threshold", K_SIZE, tcd_threshold_bytes, 0),
	SWK("tcd_period", K_TIME, tcd_period_ns, 0),
	SWK("tcd_max_ton", K_TIME, tcd_max_ton_ns, 0),
	SWK("tcd_epsilon", K_FRAC, tcd_epsilon, 0),
	SWK("tcd_rule", K_TCD_RULE, tcd_rule, 0),
	SWK("tcd_kmax", K_SIZE, tcd_kmax_bytes, 0),
	SWK("tcd_pmax", K_FRAC, tcd_pmax, 0),
	SWK("strict_min", K_U32, strict_min_prio, LSW_NPRIO),
	SWK("learn", K_BOOL, learn, 0),
	{ NULL, 0, 0, 0 },
};

static int set_knob(const struct knob *k, void *base, const char *v)
{
	char *p = (char *)base + k->off;
	uint64_t u;

	switch (k->kind) {
	case K_SIZE:
		return lsw_parse_size(v, (uint64_t *)p);
	case K_TIME:
		return lsw_parse_time(v, (uint64_t *)p);
	case K_FRAC:
		return parse_fraction(v, (double *)p);
	case K_BOOL:
		return parse_bool(v, (bool *)p);
	case K_MARKING:
		return lsw_parse_marking(v, (enum lsw_marking *)p);
	case K_TCD_RULE:
		return lsw_tcd_parse_rule(v, (enum lsw_tcd_rule *)p);
	case K_U32:
		if (parse_uint(v, k->max, &u))
			return -1;
		if (k->off == offsetof(struct lsw_switch_cfg, strict_min_prio))
			*(uint8_t *)p = (uint8_t)u;
		else
			*(uint32_t *)p = (uint32_t)u;
		return 0;
	}
	return -1;
}

static const struct knob *find_knob(const char *name)
{
	for (const struct knob *k = switch_knobs; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* Port knobs: rate, delay, host_queue. */
static int set_port_knob(struct lsw_port_cfg *pc, const char *name,
			 const char *v, bool *known)
{
	*known = true;
	if (!strcmp(name, "rate"))
		return lsw_parse_rate(v, &pc->rate_bps);
	if (!strcmp(name, "delay"))
		return lsw_parse_time(v, &pc->delay_ns);
	if (!strcmp(name, "host_queue"))
		return lsw_parse_size(v, &pc->host_queue_bytes);
	*known = false;
	return -1;
}

static int check_name(struct parser *ps, const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= LSW_NAME_MAX - 3)
		return fail(ps, "name '%s' must be 1..%d characters", name,
			    LSW_NAME_MAX - 4);
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return fail(ps, "name '%s': use letters, digits, _ and -",
				    name);
	return 0;
}

static int find_switch(const struct lsw_config *cfg, const char *name)
{
	for (int s = 0; s < cfg->n_switches; s++)
		if (!strcmp(cfg->sw[s].name, name))
			return s;
	return -1;
}

static int find_port(const struct lsw_config *cfg, int sw, const char *name)
{
	for (int i = 0; i < cfg->n_ports; i++)
		if (cfg->port[i].sw == sw && !strcmp(cfg->port[i].name, name))
			return i;
	return -1;
}

/* Splits key=value; returns the value or NULL if there is no '='. */
static char *split_kv(char *word)
{
	char *eq = strchr(word, '=');

	if (!eq)
		return NULL;
	*eq = 0;
	return eq + 1;
}

static int global_line(struct parser *ps, char **w, int n)
{
	const struct knob *k = find_knob(w[0]);
	struct lsw_config *cfg = ps->cfg;
	bool known;
	uint64_t u, v;

	if (ps->declared)
		return fail(ps, "'%s' is global: put it before the first switch, host or link",
			    w[0]);
	if (!strcmp(w[0], "dscp")) {
		if (n != 3 || parse_uint(w[1], LSW_NDSCP - 1, &u) ||
		    parse_uint(w[2], LSW_NPRIO - 1, &v))
			return fail(ps, "usage: dscp DSCP(0-63) PRIO(0-7)");
		ps->sw_def.dscp_prio[u] = (uint8_t)v;
		return 0;
	}
	if (!strcmp(w[0], "lossless")) {
		ps->sw_def.lossless_mask = 0;
		for (int i = 1; i < n; i++) {
			if (parse_uint(w[i], LSW_NPRIO - 1, &u))
				return fail(ps, "lossless: '%s' is not a priority 0-7",
					    w[i]);
			ps->sw_def.lossless_mask |= (uint8_t)(1u << u);
		}
		return 0;
	}
	if (n != 2)
		return fail(ps, "usage: %s VALUE", w[0]);
	if (!strcmp(w[0], "overhead"))
		return parse_uint(w[1], 64, &u) ? fail(ps, "overhead: 0-64 bytes") :
						  (cfg->wire_overhead_bytes = (uint32_t)u, 0);
	if (!strcmp(w[0], "mtu"))
		return parse_uint(w[1], 9000, &u) || u < 256 ?
			       fail(ps, "mtu: 256-9000 bytes") :
			       (cfg->mtu_bytes = (uint32_t)u, 0);
	if (!strcmp(w[0], "seed"))
		return parse_uint(w[1], UINT64_MAX, &cfg->seed) ?
			       fail(ps, "seed: an unsigned integer") : 0;
	if (k)
		return set_knob(k, &ps->sw_def, w[1]) ?
			       fail(ps, "%s: bad value '%s'", w[0], w[1]) : 0;
	if (!set_port_knob(&ps->port_def, w[0], w[1], &known))
		return 0;
	if (known)
		return fail(ps, "%s: bad value '%s'", w[0], w[1]);
	return fail(ps, "unknown keyword '%s'", w[0]);
}

static int switch_line(struct parser *ps, char **w, int n)
{
	struct lsw_config *cfg = ps->cfg;
	struct lsw_switch_cfg *sc;

	if (n < 2)
		return fail(ps, "usage: switch NAME [knob=value ...]");
	if (check_name(ps, w[1]))
		return -1;
	if (find_switch(cfg, w[1]) >= 0)
		return fail(ps, "switch '%s' declared twice", w[1]);
	if (cfg->n_switches >= LSW_MAX_SWITCHES)
		return fail(ps, "more than %d switches", LSW_MAX_SWITCHES);
	sc = &cfg->sw[cfg->n_switches];
	*sc = ps->sw_def;
	snprintf(sc->name, sizeof(sc->name), "%s", w[1]);
	for (int i = 2; i < n; i++) {
		char *v = split_kv(w[i]);
		const struct knob *k = find_knob(w[i]);

		if (!v || !k)
			return fail(ps, "switch %s: '%s' is not knob=value", sc->name,
				    w[i]);
		if (set_knob(k, sc, v))
			return fail(ps, "switch %s: %s: bad value '%s'", sc->name,
				    w[i], v);
	}
	cfg->n_switches++;
	return 0;
}

static int port_kvs(struct parser *ps, struct lsw_port_cfg *pc, char **w, int n)
{
	for (int i = 0; i < n; i++) {
		char *v = split_kv(w[i]);
		bool known;

		if (!v)
			return fail(ps, "'%s' is not knob=value", w[i]);
		if (set_port_knob(pc, w[i], v, &known))
			return fail(ps, known ? "%s: bad value '%s'" :
						"unknown port knob '%s'",
				    w[i], v);
	}
	return 0;
}

static int new_port(struct parser *ps, int sw, const char *name,
		    enum lsw_port_kind kind, struct lsw_port_cfg **out)
{
	struct lsw_config *cfg = ps->cfg;
	struct lsw_port_cfg *pc;

	if (find_port(cfg, sw, name) >= 0)
		return fail(ps, "switch %s already has a port '%s'",
			    cfg->sw[sw].name, name);
	if (cfg->n_ports >= LSW_MAX_PORTS)
		return fail(ps, "more than %d ports", LSW_MAX_PORTS);
	pc = &cfg->port[cfg->n_ports++];
	*pc = ps->port_def;
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	pc->sw = sw;
	pc->kind = kind;
	pc->peer = -1;
	*out = pc;
	return 0;
}

static int parse_endpoint(struct parser *ps, const char *s, const char *what,
			  uint32_t *ip, uint16_t *port)
{
	unsigned a, b, c, d, p;
	char tail;

	if (sscanf(s, "%u.%u.%u.%u:%u%c", &a, &b, &c, &d, &p, &tail) != 5 ||
	    a > 255 || b > 255 || c > 255 || d > 255 || !p || p > 65535)
		return fail(ps, "%s '%s': want IPV4:PORT", what, s);
	*ip = a << 24 | b << 16 | c << 8 | d;
	*port = (uint16_t)p;
	if ((*ip & LOOPBACK_MASK) != LOOPBACK_NET)
		return fail(ps, "%s '%s': only loopback (127.0.0.0/8) is allowed",
			    what, s);
	return 0;
}

static int host_line(struct parser *ps, char **w, int n)
{
	struct lsw_config *cfg = ps->cfg;
	struct lsw_port_cfg *pc;
	int sw;

	if (n < 5)
		return fail(ps, "usage: host NAME SWITCH LOCAL_IP:PORT REMOTE_IP:PORT [rate=] [delay=] [host_queue=]");
	if (check_name(ps, w[1]))
		return -1;
	sw = find_switch(cfg, w[2]);
	if (sw < 0)
		return fail(ps, "host %s: unknown switch '%s'", w[1], w[2]);
	if (new_port(ps, sw, w[1], LSW_PORT_HOST, &pc) ||
	    parse_endpoint(ps, w[3], "local", &pc->local_ip, &pc->local_port) ||
	    parse_endpoint(ps, w[4], "remote", &pc->remote_ip, &pc->remote_port))
		return -1;
	for (int i = 0; i < cfg->n_ports - 1; i++)
		if (cfg->port[i].kind == LSW_PORT_HOST &&
		    cfg->port[i].local_ip == pc->local_ip &&
		    cfg->port[i].local_port == pc->local_port)
			return fail(ps, "host %s: local %s is already used by %s",
				    w[1], w[3], cfg->port[i].name);
	return port_kvs(ps, pc, w + 5, n - 5);
}

static int link_line(struct parser *ps, char **w, int n)
{
	struct lsw_config *cfg = ps->cfg;
	struct lsw_port_cfg *a, *b;
	char name[LSW_NAME_MAX];
	int sa, sb;

	if (n < 3)
		return fail(ps, "usage: link SWITCH SWITCH [rate=] [delay=]");
	sa = find_switch(cfg, w[1]);
	sb = find_switch(cfg, w[2]);
	if (sa < 0 || sb < 0 || sa == sb)
		return fail(ps, "link: need two different declared switches");
	snprintf(name, sizeof(name), "to-%s", w[2]);
	if (new_port(ps, sa, name, LSW_PORT_LINK, &a) || port_kvs(ps, a, w + 3, n - 3))
		return -1;
	snprintf(name, sizeof(name), "to-%s", w[1]);
	if (new_port(ps, sb, name, LSW_PORT_LINK, &b))
		return -1;
	*b = *a; /* same rate and delay both ways */
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->sw = sb;
	a->peer = cfg->n_ports - 1;
	b->peer = cfg->n_ports - 2;
	return 0;
}

static int mac_line(struct parser *ps, char **w, int n)
{
	struct lsw_config *cfg = ps->cfg;
	struct lsw_mac_cfg *mc;
	unsigned m[6];
	char tail;
	int sw;

	if (n != 4)
		return fail(ps, "usage: mac SWITCH MAC PORT");
	sw = find_switch(cfg, w[1]);
	if (sw < 0)
		return fail(ps, "mac: unknown switch '%s'", w[1]);
	if (cfg->n_macs >= LSW_MAX_SWITCHES * LSW_MAX_MACS)
		return fail(ps, "too many mac entries");
	mc = &cfg->mac[cfg->n_macs];
	if (sscanf(w[2], "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3],
		   &m[4], &m[5], &tail) != 6)
		return fail(ps, "mac: '%s' is not xx:xx:xx:xx:xx:xx", w[2]);
	for (int i = 0; i < 6; i++) {
		if (m[i] > 255)
			return fail(ps, "mac: '%s' is not xx:xx:xx:xx:xx:xx", w[2]);
		mc->mac[i] = (uint8_t)m[i];
	}
	if (mc->mac[0] & 1)
		return fail(ps, "mac: %s is a group address", w[2]);
	mc->sw = sw;
	mc->port = find_port(cfg, sw, w[3]);
	if (mc->port < 0)
		return fail(ps, "mac: switch %s has no port '%s'", w[1], w[3]);
	cfg->n_macs++;
	return 0;
}

static int parse_line(struct parser *ps, char *line)
{
	char *w[MAX_WORDS];
	int n = 0;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = 0;
	for (char *tok = strtok(line, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
		if (n == MAX_WORDS)
			return fail(ps, "more than %d words", MAX_WORDS);
		w[n++] = tok;
	}
	if (!n)
		return 0;
	if (!strcmp(w[0], "switch")) {
		ps->declared = true;
		return switch_line(ps, w, n);
	}
	if (!strcmp(w[0], "host")) {
		ps->declared = true;
		return host_line(ps, w, n);
	}
	if (!strcmp(w[0], "link")) {
		ps->declared = true;
		return link_line(ps, w, n);
	}
	if (!strcmp(w[0], "mac"))
		return mac_line(ps, w, n);
	return global_line(ps, w, n);
}

static void set_defaults(struct parser *ps)
{
	struct lsw_switch_cfg *d = &ps->sw_def;

	memset(ps->cfg, 0, sizeof(*ps->cfg));
	*d = (struct lsw_switch_cfg){
		.marking = LSW_MARK_OFF,
		.buffer_bytes = DEF_BUFFER_BYTES,
		.xoff_bytes = DEF_XOFF_BYTES,
		.xon_bytes = DEF_XON_BYTES,
		.headroom_bytes = DEF_HEADROOM_BYTES,
		.pause_quanta = DEF_PAUSE_QUANTA,
		.pause_refresh_pct = DEF_PAUSE_REFRESH_PCT,
		.lossy_queue_bytes = DEF_LOSSY_QUEUE_BYTES,
		.red_kmin_bytes = DEF_RED_KMIN_BYTES,
		.red_kmax_bytes = DEF_RED_KMAX_BYTES,
		.red_pmax = DEF_RED_PMAX,
		.tcd_threshold_bytes = DEF_TCD_THRESHOLD_BYTES,
		.tcd_period_ns = DEF_TCD_PERIOD_NS,
		.tcd_epsilon = DEF_TCD_EPSILON,
		/*
		 * The VM bed's default stays the period rule: at its 4 KB K
		 * the per-packet rule let two ACC flows' paced rates sit within
		 * 10 % of the share a median 0.79 of the time (runs 0.45-0.92)
		 * against 0.95 (0.81-0.99), at twice the halts (lsw README).
		 */
		.tcd_rule = LSW_TCD_RULE_PERIOD,
		.tcd_pmax = 1.0,
		.lossless_mask = 1u << PRIO_ROCE_DATA,
		.strict_min_prio = DEF_STRICT_MIN_PRIO,
		.learn = true,
	};
	d->dscp_prio[DSCP_ROCE_DATA] = PRIO_ROCE_DATA;
	d->dscp_prio[DSCP_ROCE_ACK_CNP] = PRIO_ROCE_ACK_CNP;
	ps->port_def = (struct lsw_port_cfg){
		.rate_bps = DEF_RATE_BPS,
		.delay_ns = DEF_DELAY_NS,
		.host_queue_bytes = DEF_HOST_QUEUE_BYTES,
		.peer = -1,
	};
	ps->cfg->wire_overhead_bytes = DEF_WIRE_OVERHEAD_BYTES;
	ps->cfg->mtu_bytes = DEF_MTU_BYTES;
	ps->cfg->seed = 1;
}

static int check_whole(struct parser *ps)
{
	/* Cross-checks (xon < xoff, headroom, loops) live in lsw_core_create,
	 * so that command-line overrides are checked too. */
	return ps->cfg->n_switches ? 0 : fail(ps, "no switch declared");
}

int lsw_config_parse(const char *text, size_t len, const char *fname,
		     struct lsw_config *cfg, char *err, size_t errlen)
{
	struct parser ps = { .fname = fname, .err = err, .errlen = errlen,
			     .cfg = cfg };
	char line[LINE_MAX_BYTES];
	size_t pos = 0;

	set_defaults(&ps);
	while (pos < len) {
		size_t end = pos;

		while (end < len && text[end] != '\n')
			end++;
		ps.line++;
		if (end - pos >= sizeof(line))
			return fail(&ps, "line longer than %d bytes", LINE_MAX_BYTES - 1);
		memcpy(line, text + pos, end - pos);
		line[end - pos] = 0;
		if (strlen(line) != end - pos)
			return fail(&ps, "NUL byte in line");
		if (parse_line(&ps, line))
			return -1;
		pos = end + 1;
	}
	return check_whole(&ps);
}

int lsw_config_load(const char *path, struct lsw_config *cfg, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	long n;
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read", path);
		fclose(f);
		return -1;
	}
	text = malloc((size_t)n + 1);
	if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "%s: cannot read", path);
		free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	rc = lsw_config_parse(text, (size_t)n, path, cfg, err, errlen);
	free(text);
	return rc;
}

void lsw_config_override(struct lsw_config *cfg, const struct lsw_overrides *o)
{
	for (int i = 0; i < cfg->n_ports; i++) {
		if (o->rate_bps)
			cfg->port[i].rate_bps = o->rate_bps;
		if (o->delay_ns >= 0)
			cfg->port[i].delay_ns = (uint64_t)o->delay_ns;
	}
	for (int s = 0; o->marking >= 0 && s < cfg->n_switches; s++)
		cfg->sw[s].marking = (enum lsw_marking)o->marking;
}
