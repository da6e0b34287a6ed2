// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - reading and writing the knob and counter files.
 */
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *sysfs_root(void)
{
	const char *r = getenv("RXE_CC_SYSFS");

	return r && *r ? r : "/sys/class/infiniband";
}

static int port_path(char *buf, size_t len, const char *dev, const char *dir,
		     const char *name)
{
	int n = snprintf(buf, len, "%s/%s/ports/1/%s%s%s", sysfs_root(), dev,
			 dir, name ? "/" : "", name ? name : "");

	return n < 0 || (size_t)n >= len || strchr(dev, '/') ? -ENAMETOOLONG : 0;
}

int cc_dev_exists(const char *dev)
{
	char path[512];
	struct stat st;

	if (!*dev || port_path(path, sizeof(path), dev, CC_DIR, NULL))
		return 0;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

int cc_devices(char (*names)[DEV_NAME_MAX], int max)
{
	DIR *d = opendir(sysfs_root());
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= DEV_NAME_MAX)
			continue;
		if (!cc_dev_exists(e->d_name))
			continue;
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	return n;
}

int sysfs_read_file(const char *path, char *val, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, val, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	val[n] = 0;
	val[strcspn(val, "\n")] = 0;
	return 0;
}

int sysfs_read_all(const char *path, char *val, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	/* one byte more than fits: a file that fills VAL is too long */
	while ((n = read(fd, val + got, len - got)) > 0) {
		got += n;
		if (got == len) {
			close(fd);
			return -EFBIG;
		}
	}
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	val[got] = 0;
	return 0;
}

int knob_read_in(const char *dev, const char *dir, const char *name,
		 char *val, size_t len)
{
	char path[512];

	if (port_path(path, sizeof(path), dev, dir, name))
		return -ENAMETOOLONG;
	return sysfs_read_file(path, val, len);
}

int knob_read(const char *dev, const char *name, char *val, size_t len)
{
	return knob_read_in(dev, CC_DIR, name, val, len);
}

int knob_read_all(const char *dev, const char *name, char *val, size_t len)
{
	char path[512];

	if (port_path(path, sizeof(path), dev, CC_DIR, name))
		return -ENAMETOOLONG;
	return sysfs_read_all(path, val, len);
}

int knob_write_in(const char *dev, const char *dir, const char *name,
		  const char *val)
{
	char path[512];
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	if (port_path(path, sizeof(path), dev, dir, name))
		return -ENAMETOOLONG;
	/* no O_CREAT: only an existing knob is written (O_TRUNC as echo) */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	if (close(fd))
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int knob_write(const char *dev, const char *name, const char *val)
{
	return knob_write_in(dev, CC_DIR, name, val);
}

int counter_read(const char *dev, const char *name, uint64_t *val)
{
	char path[512], buf[32], *end;
	int err;

	if (port_path(path, sizeof(path), dev, "hw_counters", name))
		return -ENAMETOOLONG;
	err = sysfs_read_file(path, buf, sizeof(buf));
	if (err)
		return err;
	*val = strtoull(buf, &end, 10);
	return end == buf ? -EINVAL : 0;
}
