/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs.h - the files of
 * /sys/class/infiniband/DEV/ports/1/{cc,cc_experimental,hw_counters}.
 * RXE_CC_SYSFS in the environment replaces /sys/class/infiniband (tests).
 */
#ifndef RXE_CC_SYSFS_H
#define RXE_CC_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#define DEV_NAME_MAX	64

/* the directories of ports/1/ that hold knobs */
#define CC_DIR		"cc"
#define CC_EXP_DIR	"cc_experimental"	/* research ablations */

/* the device has a cc/ directory: it is an rxe-acc device */
int cc_dev_exists(const char *dev);

/* Names of the rxe-acc devices, sorted; returns how many (at most MAX). */
int cc_devices(char (*names)[DEV_NAME_MAX], int max);

/* Reads the first line of PATH without its newline: 0, or -errno. */
int sysfs_read_file(const char *path, char *val, size_t len);

/*
 * Reads PATH whole, every line, into VAL (NUL-terminated): 0, -errno, or
 * -EFBIG when it does not fit in LEN - 1 bytes.
 */
int sysfs_read_all(const char *path, char *val, size_t len);

/* Reads cc/NAME without its newline: 0, or -errno. */
int knob_read(const char *dev, const char *name, char *val, size_t len);

/* Reads DIR/NAME (DIR: CC_DIR, CC_EXP_DIR) without its newline. */
int knob_read_in(const char *dev, const char *dir, const char *name,
		 char *val, size_t len);

/* Reads cc/NAME whole (sysfs_read_all()): 0, or -errno. */
int knob_read_all(const char *dev, const char *name, char *val, size_t len);

/* Writes VAL to cc/NAME in one write(): 0, or -errno (the kernel's). */
int knob_write(const char *dev, const char *name, const char *val);

/* Writes VAL to DIR/NAME, as knob_write(). */
int knob_write_in(const char *dev, const char *dir, const char *name,
		  const char *val);

/* Reads hw_counters/NAME: 0, or -errno. */
int counter_read(const char *dev, const char *name, uint64_t *val);

#endif
