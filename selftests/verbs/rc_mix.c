// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rc-mix: one RC QP that mixes RDMA WRITEs and large RDMA READs, with many
 * more packets outstanding than any fixed-size per-PSN table holds, and
 * checks every byte.  Connection set-up goes through rdma_cm.
 *
 *   rc-mix -s [-b ADDR] [-p PORT] [-t TOS] [-a TIMEOUT] [-T SEC]  server
 *   rc-mix [options] SERVER_ADDR                               client
 *
 * Client options:
 *   -i ITERS   batches (default 32); each batch is WRITES writes of
 *              WSIZE bytes and one read of RSIZE bytes (RSIZE 0: no read)
 *   -w WRITES  writes per batch (default 4)
 *   -W WSIZE   bytes per write (default 16384, a multiple of 8)
 *   -R RSIZE   bytes per read (default 1 MiB, a multiple of 8)
 *   -d DEPTH   reads outstanding at most (default 4)
 *   -G         gate: once the first batch has completed, print "rc-mix:
 *              gate ..." and post the others only after SIGUSR2 (a test
 *              changes the path between the two)
 *   -H         hold: once idle, print "rc-mix: idle ..." and keep the QP
 *              until SIGUSR1 (or the timeout)
 *   -E         error mode: run batches until SIGUSR2, then move the QP to
 *              ERROR (ibv_modify_qp), write "rc-mix: qpn=N error" to the
 *              trace marker (-M), drain the flushed work requests, print
 *              "rc-mix: error ..." and hold as with -H
 *   -M PATH    the trace marker file (tracefs trace_marker); "ip netns
 *              exec" mounts its own /sys, so tracefs must be mounted
 *              elsewhere to be seen from a namespace
 *   -t TOS     IP TOS of the connection (rdma_cm)
 *   -a TIMEOUT local ACK timeout exponent (4.096 us << TIMEOUT), rdma_cm's
 *              default if not given (the server too: rdma_cm sets it on
 *              one end only, and a READ responder paces by its own)
 *   -T SEC     give up after SEC seconds (default 120), exit status 124
 *
 * The server owns region A (written by the client, WSIZE-byte slots, the
 * last WRITE of a run is an 8-byte done flag after them) and region B (a
 * known pattern the client reads).  The client checks every READ and, at
 * the end, reads A back; the server checks A after the disconnect.
 * Exit status: 0 verified (server: 3 when the client never wrote the done
 * flag, as in error mode), 1 on a data or verbs error, 2 usage, 124 timeout.
 */

#include "rc_mix.h"

volatile sig_atomic_t got_usr1, got_usr2;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1 = 1;
	else if (sig == SIGUSR2)
		got_usr2 = 1;
}

static void on_alarm(int sig)
{
	static const char msg[] = "rc-mix: timeout\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(124);
	_exit(124);
}

static unsigned int num(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s == '\0' || *end != '\0' || v > UINT32_MAX) {
		fprintf(stderr, "rc-mix: bad %s '%s'\n", what, s);
		exit(2);
	}
	return (unsigned int)v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rc-mix -s [-b ADDR] [-p PORT] [-t TOS] [-a TIMEOUT] [-T SEC]\n"
		"       rc-mix [-p PORT] [-i ITERS] [-w WRITES] [-W WSIZE] [-R RSIZE]\n"
		"              [-d DEPTH] [-G] [-H] [-E] [-M PATH] [-t TOS] [-a TIMEOUT]\n"
		"              [-T SEC] SERVER_ADDR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct mix_opts o = { .port = "18600", .iters = 32, .writes = 4,
			      .wsize = 16384, .rsize = 1u << 20, .depth = 4,
			      .timeout_s = 120, .tos = -1, .ack_timeout = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	bool server = false;
	int opt;

	while ((opt = getopt(argc, argv, "sb:p:i:w:W:R:d:GHEM:t:a:T:")) != -1) {
		switch (opt) {
		case 's': server = true; break;
		case 'b': o.bind = optarg; break;
		case 'p': o.port = optarg; break;
		case 'i': o.iters = num(optarg, "ITERS"); break;
		case 'w': o.writes = num(optarg, "WRITES"); break;
		case 'W': o.wsize = num(optarg, "WSIZE"); break;
		case 'R': o.rsize = num(optarg, "RSIZE"); break;
		case 'd': o.depth = num(optarg, "DEPTH"); break;
		case 'G': o.gate = true; break;
		case 'H': o.hold = true; break;
		case 'E': o.error_mode = true; break;
		case 'M': o.marker = optarg; break;
		case 't': o.tos = (int)num(optarg, "TOS"); break;
		case 'a': o.ack_timeout = (int)num(optarg, "TIMEOUT"); break;
		case 'T': o.timeout_s = num(optarg, "SEC"); break;
		default: usage();
		}
	}
	if (server == (optind < argc) || (!server && optind + 1 != argc))
		usage();
	o.server = server ? NULL : argv[optind];
	if (o.ack_timeout > 31 ||
	    (!server && (!o.iters || !o.writes || !o.wsize || o.wsize % 8 ||
			 o.rsize % 8 || !o.depth || o.depth > 16 || o.tos > 255 ||
			 o.writes + 1 > MIX_SQ_DEPTH))) {
		fprintf(stderr, "rc-mix: sizes must be non-zero multiples of 8, "
			"DEPTH 1..16, WRITES < %u, TIMEOUT 0..31\n", MIX_SQ_DEPTH);
		return 2;
	}

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(o.timeout_s);
	setvbuf(stdout, NULL, _IOLBF, 0);

	return server ? run_server(&o) : run_client(&o);
}
