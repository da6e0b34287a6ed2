// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_io.c - drives the core in real time.
 *
 * Every HOST port is a UDP socket bound to its local loopback address and
 * connected to the qemu side, one raw Ethernet frame per datagram.  The loop
 * reads the clock, runs the core up to now, then sleeps in epoll until a
 * datagram, a signal, or the core's next event (timerfd, ns resolution:
 * epoll's own timeout is only ms).  A late wake-up delays delivery but not
 * the model: departure times are computed on the virtual clock.
 */
#include "lsw_io.h"
#include "lsw_stats.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define RX_BATCH 64
#define SOCK_BUF_BYTES (4 << 20) /* ride out a late wake-up without loss */
#define MAX_EVENTS 32

struct io {
	struct lsw_core *core;
	const struct lsw_io_opts *opts;
	int fd[LSW_MAX_PORTS];
	int ep, tfd, sfd;
	FILE *csv;
	uint64_t armed_ns;
	uint64_t tx_errors, rx_batches;
	bool stop;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void tx_frame(void *ctx, int port, const uint8_t *frame, size_t len,
		     uint64_t now_ns)
{
	struct io *io = ctx;

	(void)now_ns;
	/* Nobody listening yet (qemu not started) is not an error worth more
	 * than a counter: the frame is lost as it would be on an unplugged
	 * cable. */
	if (send(io->fd[port], frame, len, MSG_DONTWAIT) < 0)
		io->tx_errors++;
}

static void sockaddr_of(struct sockaddr_in *sa, uint32_t ip, uint16_t port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(ip);
	sa->sin_port = htons(port);
}

static int open_port(struct io *io, int i)
{
	const struct lsw_port_cfg *pc = &lsw_core_config(io->core)->port[i];
	struct sockaddr_in local, remote;
	int buf = SOCK_BUF_BYTES;
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	io->fd[i] = fd;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	sockaddr_of(&local, pc->local_ip, pc->local_port);
	sockaddr_of(&remote, pc->remote_ip, pc->remote_port);
	if (bind(fd, (struct sockaddr *)&local, sizeof(local)) ||
	    connect(fd, (struct sockaddr *)&remote, sizeof(remote))) {
		fprintf(stderr, "lsw: host %s: bind/connect %s:%u -> %s:%u: %s\n",
			pc->name, inet_ntoa(local.sin_addr), pc->local_port,
			inet_ntoa(remote.sin_addr), pc->remote_port,
			strerror(errno));
		return -1;
	}
	return epoll_ctl(io->ep, EPOLL_CTL_ADD, fd, &ev);
}

static int add_fd(struct io *io, int fd, uint32_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

	return fd < 0 ? -1 : epoll_ctl(io->ep, EPOLL_CTL_ADD, fd, &ev);
}

#define TAG_TIMER 0x10000u
#define TAG_SIGNAL 0x10001u

static int setup(struct io *io)
{
	const struct lsw_config *cfg = lsw_core_config(io->core);
	sigset_t set;

	for (int i = 0; i < LSW_MAX_PORTS; i++)
		io->fd[i] = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	io->ep = epoll_create1(EPOLL_CLOEXEC);
	io->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	io->sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (io->ep < 0 || add_fd(io, io->tfd, TAG_TIMER) ||
	    add_fd(io, io->sfd, TAG_SIGNAL)) {
		perror("lsw: epoll/timerfd/signalfd");
		return -1;
	}
	for (int i = 0; i < cfg->n_ports; i++)
		if (cfg->port[i].kind == LSW_PORT_HOST && open_port(io, i))
			return -1;
	if (io->opts->csv_path) {
		io->csv = fopen(io->opts->csv_path, "w");
		if (!io->csv) {
			fprintf(stderr, "lsw: %s: %s\n", io->opts->csv_path,
				strerror(errno));
			return -1;
		}
		lsw_stats_csv_header(io->csv);
	}
	return 0;
}

/* Written to a temporary name and renamed: readers never see half a file. */
static void write_counters(struct io *io, uint64_t now_ns)
{
	const char *path = io->opts->counters_path;
	char tmp[4096];
	FILE *f;

	if (!path) {
		lsw_stats_json(stdout, io->core, now_ns);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "lsw: %s: %s\n", tmp, strerror(errno));
		return;
	}
	lsw_stats_json(f, io->core, now_ns);
	if (fclose(f) || rename(tmp, path))
		fprintf(stderr, "lsw: cannot write %s: %s\n", path, strerror(errno));
	if (io->csv)
		fflush(io->csv);
}

static void on_signal(struct io *io)
{
	struct signalfd_siginfo si;

	while (read(io->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGUSR1)
			write_counters(io, mono_ns());
		else
			io->stop = true;
	}
}

static void on_readable(struct io *io, int port)
{
	static uint8_t buf[RX_BATCH][LSW_MAX_FRAME_BYTES + 1];
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];

	for (;;) {
		int n;
		uint64_t now;

		for (int i = 0; i < RX_BATCH; i++) {
			iov[i] = (struct iovec){ buf[i], sizeof(buf[i]) };
			msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i],
								.msg_iovlen = 1 } };
		}
		n = recvmmsg(io->fd[port], msgs, RX_BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return; /* EAGAIN, or ECONNREFUSED from an ICMP error */
		io->rx_batches++;
		now = mono_ns();
		for (int i = 0; i < n; i++)
			lsw_core_rx(io->core, port, buf[i], msgs[i].msg_len, now);
		if (n < RX_BATCH)
			return;
	}
}

static void arm_timer(struct io *io, uint64_t at_ns)
{
	struct itimerspec its = { 0 };

	if (at_ns == io->armed_ns)
		return;
	io->armed_ns = at_ns;
	if (at_ns != LSW_TIME_NEVER) {
		its.it_value.tv_sec = (time_t)(at_ns / 1000000000ULL);
		its.it_value.tv_nsec = (long)(at_ns % 1000000000ULL);
	}
	timerfd_settime(io->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void loop(struct io *io)
{
	uint64_t start = mono_ns();
	uint64_t end = io->opts->duration_ns ? start + io->opts->duration_ns :
					       LSW_TIME_NEVER;
	uint64_t next_sample = io->csv ? start : LSW_TIME_NEVER;
	struct epoll_event evs[MAX_EVENTS];

	while (!io->stop) {
		uint64_t now = mono_ns(), deadline;
		uint64_t drain;
		int n;

		lsw_core_advance(io->core, now, tx_frame, io);
		if (now >= next_sample) {
			lsw_stats_csv_sample(io->csv, io->core, now);
			next_sample += io->opts->sample_ns;
			if (next_sample <= now) /* fell behind: skip, don't burst */
				next_sample = now + io->opts->sample_ns;
		}
		if (now >= end)
			break;
		deadline = min_u64(lsw_core_next_event_ns(io->core),
				   min_u64(next_sample, end));
		arm_timer(io, deadline);
		n = epoll_wait(io->ep, evs, MAX_EVENTS, deadline <= now ? 0 : -1);
		for (int i = 0; i < n; i++) {
			uint32_t tag = evs[i].data.u32;

			if (tag == TAG_TIMER)
				while (read(io->tfd, &drain, sizeof(drain)) > 0)
					;
			else if (tag == TAG_SIGNAL)
				on_signal(io);
			else
				on_readable(io, (int)tag);
		}
	}
}

int lsw_io_run(struct lsw_core *core, const struct lsw_io_opts *opts)
{
	struct io io = { .core = core, .opts = opts, .armed_ns = 0 };
	int rc = setup(&io);

	if (!rc) {
		fprintf(stderr, "lsw: ready: %d switches, %d ports\n",
			lsw_core_config(core)->n_switches,
			lsw_core_config(core)->n_ports);
		loop(&io);
		lsw_core_advance(core, mono_ns(), tx_frame, &io);
		write_counters(&io, mono_ns());
		if (io.tx_errors)
			fprintf(stderr, "lsw: %llu frames could not be sent to a host (not listening?)\n",
				(unsigned long long)io.tx_errors);
	}
	if (io.csv)
		fclose(io.csv);
	for (int i = 0; i < LSW_MAX_PORTS; i++)
		if (io.fd[i] >= 0)
			close(io.fd[i]);
	if (io.ep >= 0)
		close(io.ep);
	if (io.tfd >= 0)
		close(io.tfd);
	if (io.sfd >= 0)
		close(io.sfd);
	return rc;
}
