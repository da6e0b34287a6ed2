# SPDX-License-Identifier: GPL-2.0
#
# rxe-acc: SoftRoCE (rdma_rxe) with ACC and DCQCN congestion control.
#
#   make deps    install what is needed (Debian 12, apt-get only)
#   make         build rdma_rxe.ko (patched, out of tree) and the tools
#                (KVER=... another kernel of scripts/kernels)
#   make check   all tests; ends with "N passed, N failed, N skipped"
#   make demo    the main job: ACC vs DCQCN (2 presets) vs none, 2:1 incast,
#                3 repeats (README.md)
#   make eval    every evaluation scenario (S1-S5), 3 repeats each
#   make sim     ns-3 at the ACC paper's scale, reduced grid (FULL=1: the
#                paper's fat tree, hours; SIM_FULL_MS=x: x ms of arrivals)
#   make sim-full-smoke  the fat tree at full scale for 0.25 ms (minutes)
#   make series  export netns and CC as upstream series (build/series-export)
#   make series-stable  export the fixes mainline needs too (patches/stable)
#                against 7.2, each with Fixes: (build/series-export/stable)
#   make check-32bit  build rdma_rxe.ko for i386 (32-bit x86)
#   make check-series  every patch of every series builds on its own: the
#                exported series on pristine trees (make check builds only
#                each series' last patch), then patches/6.1 with rxe-acc/
#   make deb     build/deb/rxe-acc-dkms_VERSION_all.deb (DKMS, dh-dkms) and
#                rxe-acc-tools_VERSION_ARCH.deb (rxe-cc, lsw, rxe-acc-setup);
#                VERSION from git; needs linux-source-SERIES, not the roots
#                (dkms/mkdeb)
#   make check-deb  the DKMS package installed on 6.1, 6.12 and 7.2 in the
#                VM, the tools package on 6.1; make deb on a plain Debian 12
#                box (a debootstrap'd bookworm, cached) (~40 min)
#   make check-debug [KVER=...]  netns, cc and fault suites on a KASAN/
#                lockdep/kmemleak kernel built from the linux-source of KVER's
#                series (6.1 by default; 6.12, 7.2) (long: selftests/fault)
#   make soak    SOAK_MIN (30) minutes of mixed traffic with churn in the VM
#   make check-lab  the lab runner (eval/run --lab) on the test bed, as root
#                and as a user with sudo over an ECN-only switch (~15 min)
#   make clean

KVER ?= $(shell cat .kver 2>/dev/null || sed -n 's/^KVER=//p' scripts/kver)
KDIR ?= /lib/modules/$(KVER)/build
# A kernel of scripts/kernels with a root of its own (6.12, 7.2) is built
# inside that root (scripts/kbuild) into build/k/KVER/rdma_rxe.ko.
K_ROOT := $(shell scripts/kinfo $(KVER) root)
TOP := $(CURDIR)
RXE_SRC := build/src/linux/drivers/infiniband/sw/rxe
MODULE := $(RXE_SRC)/rdma_rxe.ko
SRC_INPUTS := $(wildcard patches/6.1/* rxe-acc/*.[ch] rxe-acc/Kbuild.inc) \
	      scripts/prepare-src

export KVER

.PHONY: all deps module tools check check-debug soak demo eval sim clean \
	sim-full-smoke checkpatch check-series series series-stable check-32bit check-lab deb \
	check-deb

SOAK_MIN ?= 30

all: module tools

deps:
	./scripts/deps

build/.src-stamp: $(SRC_INPUTS)
	@mkdir -p build
	./scripts/prepare-src build/src
	@touch $@

ifeq ($(K_ROOT),)
module: build/.src-stamp
	@test -d $(KDIR) || { echo "error: $(KDIR) missing: run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules
	@cp $(MODULE) build/rdma_rxe.ko
	@echo "built build/rdma_rxe.ko for $(KVER)"
else
module:
	./scripts/kbuild $(KVER)
endif

tools:
	@for d in userspace/*/; do \
		if [ -f $$d/Makefile ]; then $(MAKE) -C $$d || exit 1; fi; \
	done

# On a kernel with a root of its own (make check KVER=...): its build, and
# the netns, CC, incast, DCQCN and ACC suites in its VM.
check: all
ifeq ($(K_ROOT),)
	./selftests/run-all
else
	./selftests/kernel-check $(KVER)
endif

check-debug: all
	./selftests/fault/check-debug

soak: all
	$(MAKE) -s -C selftests/verbs
	./selftests/rxe/vm-suite --timeout $$(( $(SOAK_MIN) * 60 + 900 )) ../fault/soak.sh $(SOAK_MIN)

demo: all
	./scripts/demo

eval: all
	./eval/run

sim:
	$(MAKE) -C sim grid FULL=$(FULL)

sim-full-smoke:
	$(MAKE) -C sim full-smoke

checkpatch: build/.src-stamp
	./scripts/checkpatch-series

check-series:
	./scripts/check-export --each
	./scripts/check-series

check-lab: all
	./selftests/e2e/lab.sh

series:
	./scripts/export-series

series-stable:
	./scripts/export-series --stable

check-32bit: build/.src-stamp
	./scripts/check-32bit

deb:
	./dkms/mkdeb

# every series in the package: the VM installs it on each kernel; then
# make deb on a plain Debian 12 box (dkms/tests/plain-box)
check-deb:
	RXE_ALL_SERIES=1 ./dkms/mkdeb
	./selftests/rxe/dkms-kernels
	./dkms/tests/plain-box

clean:
	-@test -d $(KDIR) && $(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1
	@for d in userspace/*/ selftests/unit/; do \
		if [ -f $$d/Makefile ]; then $(MAKE) -C $$d clean >/dev/null; fi; \
	done
	@# the kernel roots (build/roots, made by make deps) stay: minutes to redo
	-@find build -mindepth 1 -maxdepth 1 ! -name roots -exec rm -rf {} + 2>/dev/null
	rm -rf modules.order Module.symvers
