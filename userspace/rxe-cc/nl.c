// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - the two dumps rxe-cc needs: devices (name to index) and a
 * device's QPs with the driver's details, as "rdma -dd res show qp".
 */
#include "nl.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * RDMA_NLDEV_ATTR_DRIVER_DETAILS (u8: "rdma -dd"), by its ABI value: the
 * UAPI enum has it only in newer headers (Debian 12's linux-libc-dev
 * 6.1.192 has it, 6.1.176 does not), and a kernel without it ignores the
 * attribute, so rxe-cc builds and runs with either.
 */
enum { RXE_CC_NLDEV_ATTR_DRIVER_DETAILS = 97 };

typedef int (*msg_cb)(const struct nlmsghdr *nlh, void *arg);

/* Sends a dump request built by the caller in BUF, runs CB on replies. */
static int nl_dump(char *buf, struct nlmsghdr *nlh, msg_cb cb, void *arg)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_RDMA);
	unsigned int portid, seq = time(NULL);
	int ret;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	do {
		ret = mnl_socket_recvfrom(nl, buf, MNL_SOCKET_BUFFER_SIZE);
		if (ret < 0) {
			ret = -errno;
			break;
		}
		ret = mnl_cb_run(buf, ret, seq, portid, cb, arg);
		if (ret < 0)
			ret = -errno;
	} while (ret > 0);
out:
	mnl_socket_close(nl);
	return ret;
}

static struct nlmsghdr *put_request(char *buf, int cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP;
	return nlh;
}

struct dev_lookup {
	const char *name;
	uint32_t index;
	int found;
};

static int dev_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dev_lookup *l = arg;
	const struct nlattr *a;
	uint32_t index = 0;
	const char *name = NULL;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_DEV_INDEX &&
		    mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			index = mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_DEV_NAME &&
			 mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			name = mnl_attr_get_str(a);
	}
	if (name && !strcmp(name, l->name)) {
		l->index = index;
		l->found = 1;
	}
	return MNL_CB_OK;
}

int nl_dev_index(const char *dev, uint32_t *index)
{
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct dev_lookup l = { .name = dev };
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = nl_dump(buf, put_request(buf, RDMA_NLDEV_CMD_GET), dev_cb, &l);
	free(buf);
	if (ret < 0)
		return ret;
	if (!l.found)
		return -ENODEV;
	*index = l.index;
	return 0;
}

struct qp_walk {
	void (*fn)(const struct qp_info *qp, void *arg);
	void *arg;
	int n;
	int bad;
};

static int qp_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct qp_walk *w = arg;
	const struct nlattr *a, *e;
	struct qp_info qp;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_RES_QP)
			continue;
		mnl_attr_for_each_nested(e, a) {
			if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
				continue;
			if (qp_parse_entry(e, &qp)) {
				w->bad++;
				continue;
			}
			w->fn(&qp, w->arg);
			w->n++;
		}
	}
	return MNL_CB_OK;
}

int nl_qps(uint32_t index, void (*fn)(const struct qp_info *qp, void *arg),
	   void *arg)
{
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct qp_walk w = { .fn = fn, .arg = arg };
	struct nlmsghdr *nlh;
	int ret;

	if (!buf)
		return -ENOMEM;
	nlh = put_request(buf, RDMA_NLDEV_CMD_RES_QP_GET);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	mnl_attr_put_u8(nlh, RXE_CC_NLDEV_ATTR_DRIVER_DETAILS, 1);
	ret = nl_dump(buf, nlh, qp_cb, &w);
	free(buf);
	if (ret == -EINVAL)	/* the kernel's answer for an unknown index */
		return -ENODEV;
	return ret < 0 ? ret : w.n;
}

const char *nl_strerror(int err)
{
	switch (err) {
	case -EPROTONOSUPPORT:
		return "the kernel has no RDMA netlink (EPROTONOSUPPORT): load ib_core (modprobe rdma_rxe loads it)";
	case -ENODEV:
		return "no such RDMA device";
	default:
		return strerror(-err);
	}
}
