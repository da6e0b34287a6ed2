/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs.h - the files of /sys/class/infiniband/DEV/ports/1/{cc,hw_counters}.
 * RXE_CC_SYSFS in the environment replaces /sys/class/infiniband (tests).
 */
#ifndef RXE_CC_SYSFS_H
#define RXE_CC_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#define DEV_NAME_MAX	64

/* the device has a cc/ directory: it is an rxe-acc device */
int cc_dev_exists(const char *dev);

/* Names of the rxe-acc devices, sorted; returns how many (at most MAX). */
int cc_devices(char (*names)[DEV_NAME_MAX], int max);

/* Reads the first line of PATH without its newline: 0, or -errno. */
int sysfs_read_file(const char *path, char *val, size_t len);

/* Reads cc/NAME without its newline: 0, or -errno. */
int knob_read(const char *dev, const char *name, char *val, size_t len);

/* Writes VAL to cc/NAME in one write(): 0, or -errno (the kernel's). */
int knob_write(const char *dev, const char *name, const char *val);

/* Reads hw_counters/NAME: 0, or -errno. */
int counter_read(const char *dev, const char *name, uint64_t *val);

#endif
