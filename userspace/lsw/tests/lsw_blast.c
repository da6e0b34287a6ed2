// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_blast.c - native integration test of lsw over its UDP datagram ports,
 * no VMs.  Starts lsw as a child, remembers its PID and signals only it.
 *
 *   lsw-blast LSW_BINARY WORKDIR
 *
 * 1. Incast: two senders at 0.75 x line rate each (1.5 x in all) into one
 *    receiver port: egress at line rate (from lsw's own departure
 *    timestamps), zero loss (PFC holds the excess in the host NIC model).
 * 2. Forwarding benchmark: one sender, closed loop, a fast port: frames/s
 *    and its ratio to what VM flows need.
 * Prints TAP (CONVENTIONS.md).
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_frames.h"

#define NS_PER_S 1000000000ULL
#define INCAST_RATE_BPS 20000000ULL
#define INCAST_FRAME_BYTES 1000
#define WIRE_OVERHEAD_BYTES 24
#define INCAST_LOAD 0.75 /* per sender, of line rate */
#define INCAST_SEND_NS (2 * NS_PER_S)
#define DRAIN_TIMEOUT_NS (6 * NS_PER_S)
#define RATE_TOLERANCE 0.02      /* from lsw's virtual departure times */
#define WALL_RATE_TOLERANCE 0.10 /* wall clock at the receiver: noisy host */
#define BENCH_FRAME_BYTES 100
#define BENCH_NS (2 * NS_PER_S)
#define BENCH_WINDOW 256 /* frames in flight: below every socket buffer */
/* VM flows under TCG: a few tens of Mb/s each, ~1 kB frames; 10k frames/s
 * covers several such flows at once. */
#define VM_NEED_FPS 10000.0
#define HEADROOM_GOAL 5.0
#define SOCK_BUF_BYTES (4 << 20)
#define PROBE_ETHERTYPE 0x88b5 /* IEEE local experimental */

enum { H_A, H_B, H_R, N_HOSTS };

struct rig {
	const char *lsw, *dir;
	pid_t pid;
	int fd[N_HOSTS];          /* our side of each host port */
	uint16_t lsw_port[N_HOSTS];
	char conf[512], counters[512], csv[512];
};

static int n_test;
static int n_failed;

static void tap(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	n_failed += !ok;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static int udp_socket(uint16_t *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int buf = SOCK_BUF_BYTES;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	*port = ntohs(sa.sin_port);
	return fd;
}

static int connect_to(int fd, uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return connect(fd, (struct sockaddr *)&sa, sizeof(sa));
}

/* Free ports for lsw: bind, read the number, close (lsw binds it next). */
static int setup_rig(struct rig *rg, const char *name, const char *knobs)
{
	uint16_t ours[N_HOSTS];
	FILE *f;

	for (int h = 0; h < N_HOSTS; h++) {
		int tmp = udp_socket(&rg->lsw_port[h]);

		if (tmp < 0)
			return -1;
		close(tmp);
		rg->fd[h] = udp_socket(&ours[h]);
		if (rg->fd[h] < 0 || connect_to(rg->fd[h], rg->lsw_port[h]))
			return -1;
	}
	snprintf(rg->conf, sizeof(rg->conf), "%s/%s.conf", rg->dir, name);
	snprintf(rg->counters, sizeof(rg->counters), "%s/%s.json", rg->dir, name);
	snprintf(rg->csv, sizeof(rg->csv), "%s/%s.csv", rg->dir, name);
	f = fopen(rg->conf, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\nswitch s1\n", knobs);
	for (int h = 0; h < N_HOSTS; h++)
		fprintf(f, "host h%d s1 127.0.0.1:%u 127.0.0.1:%u\n", h,
			rg->lsw_port[h], ours[h]);
	for (int h = 0; h < N_HOSTS; h++)
		fprintf(f, "mac s1 52:54:00:00:00:%02x h%d\n", h + 1, h);
	return fclose(f) ? -1 : 0;
}

static int start_lsw(struct rig *rg)
{
	rg->pid = fork();
	if (rg->pid < 0)
		return -1;
	if (rg->pid == 0) {
		execl(rg->lsw, rg->lsw, "-c", rg->counters, "-t", rg->csv,
		      "-i", "1ms", rg->conf, (char *)NULL);
		perror("exec lsw");
		_exit(127);
	}
	return 0;
}

static int stop_lsw(struct rig *rg)
{
	int status = 0;

	if (rg->pid <= 0)
		return -1;
	kill(rg->pid, SIGTERM);
	waitpid(rg->pid, &status, 0);
	rg->pid = 0;
	for (int h = 0; h < N_HOSTS; h++)
		close(rg->fd[h]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void send_frame(struct rig *rg, int from, int to, size_t len,
		       uint32_t seq)
{
	uint8_t f[INCAST_FRAME_BYTES];

	tf_ipv4(f, len, (unsigned)from + 1, (unsigned)to + 1, 26, 2);
	memcpy(f + 42, &seq, sizeof(seq));
	send(rg->fd[from], f, len, 0);
}

/* Receives everything waiting at host h; returns frames, stamps times. */
static int drain_rx(struct rig *rg, int h, uint64_t *first, uint64_t *last)
{
	uint8_t buf[2048];
	int n = 0;

	while (recv(rg->fd[h], buf, sizeof(buf), MSG_DONTWAIT) > 0) {
		uint64_t t = now_ns();

		if (buf[12] == (PROBE_ETHERTYPE >> 8))
			continue;
		if (first && !*first)
			*first = t;
		if (last)
			*last = t;
		n++;
	}
	return n;
}

/* lsw is up when a probe from host 0 comes out at host `to`. */
static bool wait_ready(struct rig *rg, int to)
{
	uint8_t probe[60] = { 0 };
	uint8_t buf[2048];

	tf_mac(probe, (unsigned)to + 1);
	tf_mac(probe + 6, 1);
	probe[12] = PROBE_ETHERTYPE >> 8;
	probe[13] = PROBE_ETHERTYPE & 0xff;
	for (int i = 0; i < 150; i++) {
		struct pollfd pfd = { .fd = rg->fd[to], .events = POLLIN };

		send(rg->fd[0], probe, sizeof(probe), 0);
		if (poll(&pfd, 1, 20) > 0 &&
		    recv(rg->fd[to], buf, sizeof(buf), MSG_DONTWAIT) > 0)
			return true;
	}
	return false;
}

/* Finds `"key": N` after `"name": "port"`, in the `"prio": prio` line. */
static uint64_t counter(const char *json, const char *port, int prio,
			const char *key)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "\"name\": \"%s\"", port);
	p = strstr(json, pat);
	if (!p)
		return 0;
	snprintf(pat, sizeof(pat), "{\"prio\": %d,", prio);
	p = strstr(p, pat);
	if (!p)
		return 0;
	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(p, pat);
	return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

static uint64_t sum_key(const char *json, const char *key)
{
	char pat[64];
	uint64_t sum = 0;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	for (const char *p = strstr(json, pat); p; p = strstr(p + 1, pat))
		sum += strtoull(p + strlen(pat), NULL, 10);
	return sum;
}

/*
 * The time series' last value of COLUMN for (port, prio): what a reader
 * polling the CSV during a run sees, as from a switch's CLI.
 */
static uint64_t csv_last(const char *path, const char *port, int prio,
			 const char *column)
{
	char line[512], *tok, *save;
	uint64_t v = 0;
	int col = -1;
	FILE *f = fopen(path, "r");

	if (!f || !fgets(line, sizeof(line), f))
		goto out;
	tok = strtok_r(line, ",\n", &save);
	for (int i = 0; tok; i++, tok = strtok_r(NULL, ",\n", &save))
		if (!strcmp(tok, column))
			col = i;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		const char *field[16] = { 0 };
		int n = 0;

		for (tok = strtok_r(line, ",\n", &save); tok && n < 16;
		     tok = strtok_r(NULL, ",\n", &save))
			field[n++] = tok;
		if (n > col && !strcmp(field[2], port) && atoi(field[3]) == prio)
			v = strtoull(field[col], NULL, 10);
	}
out:
	if (f)
		fclose(f);
	return v;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = calloc(1, 1 << 20);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_incast(const char *lsw, const char *dir)
{
	struct rig rg = { .lsw = lsw, .dir = dir };
	char knobs[256];
	const double c_fps = (double)INCAST_RATE_BPS /
			     ((INCAST_FRAME_BYTES + WIRE_OVERHEAD_BYTES) * 8);
	const uint64_t gap_ns = (uint64_t)(NS_PER_S / (c_fps * INCAST_LOAD));
	uint64_t t0, next, first = 0, last = 0, rx_first = 0;
	int sent = 0, got = 0;
	uint32_t seq = 0;
	char *json;

	snprintf(knobs, sizeof(knobs),
		 "rate %llu\ndelay 10us\nhost_queue 8MB\noverhead %d\n",
		 INCAST_RATE_BPS, WIRE_OVERHEAD_BYTES);
	if (setup_rig(&rg, "incast", knobs) || start_lsw(&rg) ||
	    !wait_ready(&rg, H_R)) {
		tap(false, "incast: lsw started and forwards");
		if (rg.pid > 0)
			stop_lsw(&rg);
		return;
	}
	drain_rx(&rg, H_R, NULL, NULL);
	t0 = next = now_ns();
	/* Paced senders: catch up after a late wake-up, never skip frames. */
	while (next < t0 + INCAST_SEND_NS) {
		uint64_t now = now_ns();
		struct timespec ts;

		while (next <= now && next < t0 + INCAST_SEND_NS) {
			send_frame(&rg, H_A, H_R, INCAST_FRAME_BYTES, seq++);
			send_frame(&rg, H_B, H_R, INCAST_FRAME_BYTES, seq++);
			sent += 2;
			next += gap_ns;
		}
		got += drain_rx(&rg, H_R, &rx_first, &last);
		ts.tv_sec = (time_t)(next / NS_PER_S);
		ts.tv_nsec = (long)(next % NS_PER_S);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	first = rx_first;
	while (got < sent && now_ns() < t0 + INCAST_SEND_NS + DRAIN_TIMEOUT_NS) {
		struct pollfd pfd = { .fd = rg.fd[H_R], .events = POLLIN };

		poll(&pfd, 1, 50);
		got += drain_rx(&rg, H_R, &first, &last);
	}
	stop_lsw(&rg);
	json = slurp(rg.counters);
	if (!json) {
		tap(false, "incast: counters written on SIGTERM");
		return;
	}
	{
		uint64_t frames = counter(json, "h2", 3, "frames_out");
		uint64_t span = counter(json, "h2", 3, "tx_last_ns") -
				counter(json, "h2", 3, "tx_first_ns");
		double bits = (double)(frames - 1) *
			      (INCAST_FRAME_BYTES + WIRE_OVERHEAD_BYTES) * 8;
		double rate = span ? bits * NS_PER_S / (double)span : 0;
		double wall = last > first ? (double)(got - 1) *
						     (INCAST_FRAME_BYTES + WIRE_OVERHEAD_BYTES) *
						     8 * NS_PER_S / (double)(last - first) :
					     0;
		uint64_t drops = sum_key(json, "drops") + sum_key(json, "host_drops");
		uint64_t pauses = counter(json, "h0", 3, "xoff_tx") +
				  counter(json, "h1", 3, "xoff_tx");

		printf("# incast: offered %.2f x line rate, sent %d, received %d, drops %" PRIu64
		       ", pauses %" PRIu64 ", host queue peak %" PRIu64 " B\n",
		       2 * INCAST_LOAD, sent, got, drops, pauses,
		       counter(json, "h0", 3, "host_queue_peak_bytes"));
		printf("# incast: egress %.3f Mb/s by lsw's clock (%+.3f %%), %.3f Mb/s by the receiver's wall clock (%+.2f %%), line rate %.3f Mb/s\n",
		       rate / 1e6, 100 * (rate / INCAST_RATE_BPS - 1), wall / 1e6,
		       100 * (wall / INCAST_RATE_BPS - 1), INCAST_RATE_BPS / 1e6);
		tap(fabs(rate / INCAST_RATE_BPS - 1) <= RATE_TOLERANCE,
		    "incast 1.5x: egress at line rate +-2%% (lsw counters)");
		tap(fabs(wall / INCAST_RATE_BPS - 1) <= WALL_RATE_TOLERANCE,
		    "incast 1.5x: receiver sees line rate +-10%% (wall clock)");
		tap(got == sent && drops == 0 && pauses > 0,
		    "incast 1.5x: zero loss, PFC held the excess in the host NIC");
		{
			uint64_t csv_pfc = csv_last(rg.csv, "h0", 3, "pfc_tx") +
					   csv_last(rg.csv, "h1", 3, "pfc_tx");
			uint64_t pfc = counter(json, "h0", 3, "pfc_tx") +
				       counter(json, "h1", 3, "pfc_tx");
			uint64_t csv_paused = csv_last(rg.csv, "h2", 3, "paused_ns");
			uint64_t paused = counter(json, "h2", 3, "paused_ns");

			printf("# incast: PFC frames %" PRIu64 " in the time series, %" PRIu64
			       " in the counters; paused %" PRIu64 " / %" PRIu64 " ns\n",
			       csv_pfc, pfc, csv_paused, paused);
			tap(pfc > 0 && csv_pfc == pfc && csv_paused == paused,
			    "incast 1.5x: the time series carries the PFC counters");
		}
	}
	free(json);
}

static void test_bench(const char *lsw, const char *dir)
{
	struct rig rg = { .lsw = lsw, .dir = dir };
	uint64_t t0, elapsed;
	long sent = 0, got = 0;
	double fps;

	if (setup_rig(&rg, "bench",
		      "rate 10G\ndelay 1us\nheadroom 64KB\nhost_queue 8MB\n") ||
	    start_lsw(&rg) || !wait_ready(&rg, H_R)) {
		tap(false, "bench: lsw started and forwards");
		if (rg.pid > 0)
			stop_lsw(&rg);
		return;
	}
	drain_rx(&rg, H_R, NULL, NULL);
	t0 = now_ns();
	while ((elapsed = now_ns() - t0) < BENCH_NS) {
		struct pollfd pfd = { .fd = rg.fd[H_R], .events = POLLIN };

		while (sent - got < BENCH_WINDOW) {
			send_frame(&rg, H_A, H_R, BENCH_FRAME_BYTES, (uint32_t)sent);
			sent++;
		}
		if (poll(&pfd, 1, 100) > 0)
			got += drain_rx(&rg, H_R, NULL, NULL);
		else
			got = sent; /* a frame was lost: don't stall the window */
	}
	stop_lsw(&rg);
	fps = (double)got / ((double)elapsed / NS_PER_S);
	printf("# forwarding: %.0f frames/s (%d-byte frames, 1 sender), %.1fx the %.0f frames/s VM flows need\n",
	       fps, BENCH_FRAME_BYTES, fps / VM_NEED_FPS, VM_NEED_FPS);
	tap(fps / VM_NEED_FPS >= HEADROOM_GOAL,
	    "forwarding rate >= %.0fx what VM flows need", HEADROOM_GOAL);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: lsw-blast LSW_BINARY WORKDIR\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	printf("1..4\n");
	test_incast(argv[1], argv[2]);
	test_bench(argv[1], argv[2]);
	return n_failed ? 1 : 0;
}
