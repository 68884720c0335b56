# big.LITTLE in-kernel switcher lab: build and boot an ARM32 guest in QEMU.
#
#   make run      install what is missing, build, boot to a shell in the guest
#   make test     build the debug guest and run the whole test suite
#   make series   each topic of both series as a mailbox under build/series
#   make help     everything else

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := all

TOP := $(abspath .)
B := $(TOP)/build
TREE := $(B)/linux
TREE_STAMP := $(TREE)/.git/lab-series
VARIANT ?= release
# The guest's machine for make run and make soak: rtsm (the lab's modelled
# vexpress-a15-a7) or virt (QEMU virt on Debian's qemu-system-arm).
PLATFORM ?= rtsm
# How the guest's time runs (docs/timing.md): host or modelled.  Unset,
# each target takes its own: make run host (a person at a shell), make
# bench and make governors modelled (figures that repeat exactly).
TIMING ?=
JOBS ?= $(shell nproc)
# The kernel's banner names no build machine, user, time or count: the
# same tree builds the same image anywhere, and modelled-time figures
# (docs/timing.md), which follow every instruction the guest executes,
# repeat from this machine to CI's.
KBUILD_ID = KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026' \
	KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab KBUILD_BUILD_VERSION=1
# The kernel's make runs JOBS jobs of its own, outside our jobserver: under
# make -j (the guest's parts are built side by side) QEMU's ninja holds a
# job of ours and runs JOBS of its own, and a kernel make that took its
# jobs from ours was left with one (on a fresh clone of a 2-core host the
# kernel finished two minutes after QEMU).  QEMU builds at nice 10, so the
# kernel's jobs go first.
KMAKE = MAKEFLAGS= $(MAKE) -C $(TREE) O=$(B)/kernel-$* ARCH=arm \
	CROSS_COMPILE=arm-linux-gnueabihf- -j$(JOBS) $(KBUILD_ID)

# Config fragments of each kernel variant, merged onto allnoconfig in order.
FRAGS_release := kernel/configs/base.config
FRAGS_debug := kernel/configs/base.config kernel/configs/debug.config

SERIES := kernel/patches/series $(wildcard kernel/patches/*/*.patch kernel/patches/*/cover-letter)
# QEMU: Debian's qemu source + qemu/patches, built into a fixed path.
QEMU_TREE := $(B)/qemu
QEMU_STAMP := $(QEMU_TREE)/.git/lab-series
QEMU_SERIES := qemu/patches/series $(wildcard qemu/patches/*/*.patch qemu/patches/*/cover-letter)
QEMU_BIN := $(B)/qemu-build/qemu-system-arm
DTS := $(wildcard dts/*.dts)
DTBS := $(patsubst dts/%.dts,$(B)/dtb/%.dtb,$(DTS))
# The tc2 platform boots the kernel tree's own TC2 device tree, built by the
# kernel's make from the unmodified source (after the kernel: the two must
# not run in the kernel's build directory at once).
TC2_DTB := $(B)/dtb/vexpress-v2p-ca15_a7.dtb
# Static armhf C tools for the guest, from every folder that has some.
GUEST_TOOL_DIRS := initramfs/tools switcher cpufreq tests/tools
GUEST_TOOLS_SRC := $(foreach d,$(GUEST_TOOL_DIRS),$(wildcard $(d)/*.c))
GUEST_TOOLS := $(foreach f,$(GUEST_TOOLS_SRC),$(B)/guest-tools/usr/local/bin/$(basename $(notdir $(f))))
GUEST_CFLAGS := -O2 -Wall -Wextra -Werror -mfpu=neon -static -pthread
vpath %.c $(GUEST_TOOL_DIRS)
# Guest shell tools, installed as they are.
GUEST_SCRIPTS := switcher/switch-storm cpufreq/idle-switches cpufreq/governor-study
GUEST_TOOLS += $(foreach f,$(GUEST_SCRIPTS),$(B)/guest-tools/usr/local/bin/$(notdir $(f)))
INITRAMFS := $(B)/initramfs/base.cpio.gz
GUEST_DEBS := $(B)/guest-debs/root/.stamp

.PHONY: all run test soak bench governors verify series kernel-series bisect-check tree deps guest kernel dtbs initramfs clean \
	distclean help qemu qemu-tree qemu-series

all: deps guest

help:
	@echo "make run              install missing packages, build, boot the guest to a shell"
	@echo "                      (PLATFORM=rtsm, the modelled vexpress-a15-a7, tc2, the"
	@echo "                      modelled TC2 with mainline's TC2 stack, or virt;"
	@echo "                      TIMING=host, the host's clock, or modelled: docs/timing.md)"
	@echo "make test             build the debug guest and run the whole test suite"
	@echo "make soak             switch-storm chaos for SOAK_MINUTES (default 30) minutes (PLATFORM=)"
	@echo "make bench            IKS switch cost against hotplug migration, in one boot,"
	@echo "                      TC2's cluster sleep (idle power, wake-up), then the"
	@echo "                      governor study on rtsm and tc2; in modelled time unless"
	@echo "                      TIMING=host"
	@echo "make governors        five governors x three workloads, switcher on and off:"
	@echo "                      time, deadline misses and energy (PLATFORM=rtsm or tc2)"
	@echo "make verify           SPIN models of vlocks and MCPM, stress of the real vlock.S"
	@echo "make guest            build kernel ($(VARIANT)), DTBs and initramfs"
	@echo "make kernel           build the kernel only (VARIANT=release|debug)"
	@echo "make tree             unpack Debian's linux-source-6.1 and apply kernel/patches"
	@echo "make kernel-series    export the kernel tree's commits back to kernel/patches (as topics)"
	@echo "make qemu             build qemu-system-arm from Debian's qemu source + qemu/patches"
	@echo "make qemu-tree        unpack Debian's qemu source (apt-get source) and apply qemu/patches"
	@echo "make qemu-series      export the QEMU tree's commits back to qemu/patches (as topics)"
	@echo "make series           each topic of both series as a mailbox with its cover"
	@echo "                      letter and get_maintainer.pl recipients, under build/series"
	@echo "make bisect-check     build every commit of the QEMU and kernel series in turn,"
	@echo "                      and boot each kernel commit that changes what runs"
	@echo "make clean            remove build products, keep the tree and downloads"
	@echo "make distclean        remove build/ entirely"

deps:
	@scripts/install-deps

# ---- kernel tree and series --------------------------------------------------
tree: $(TREE_STAMP)

$(TREE_STAMP): $(SERIES) scripts/kernel-tree
	@scripts/kernel-tree prepare
	@touch $@

kernel-series:
	@scripts/kernel-tree export

# ---- QEMU ---------------------------------------------------------------------
qemu-tree: $(QEMU_STAMP)

$(QEMU_STAMP): $(QEMU_SERIES) scripts/qemu-tree
	@scripts/qemu-tree prepare
	@touch $@

qemu-series:
	@scripts/qemu-tree export

# Both series, each topic as a mailbox with its cover letter and the
# recipients get_maintainer.pl names: build/series/{kernel,qemu}/.
series: $(QEMU_STAMP) $(TREE_STAMP)
	@scripts/kernel-tree mbox $(B)/series/kernel
	@scripts/qemu-tree mbox $(B)/series/qemu

# Every commit of both series built in turn (build/bisect/), and each
# kernel commit that changes what runs booted on rtsm (with the lab's
# QEMU, DTB and initramfs); not part of make test: about 25 minutes on
# two cores.
bisect-check: $(QEMU_STAMP) $(TREE_STAMP)
	@$(MAKE) -s qemu dtbs initramfs
	@scripts/bisect-check --jobs $(JOBS) qemu
	@scripts/bisect-check --jobs $(JOBS) --boot kernel

# ninja decides what is out of date below this.
qemu: $(QEMU_STAMP)
	@echo "  QEMU    $(QEMU_BIN)"
	@nice scripts/qemu-build $(JOBS)

# ---- kernel -------------------------------------------------------------------
kernel: $(B)/kernel-$(VARIANT)/arch/arm/boot/zImage

.SECONDEXPANSION:
$(B)/kernel-%/.config: $$(FRAGS_$$*) $(TREE_STAMP) scripts/kernel-config
	+@scripts/kernel-config $(TREE) $(B)/kernel-$* $(FRAGS_$*)

# The kernel's own make decides what is out of date below this.
$(B)/kernel-%/arch/arm/boot/zImage: $(B)/kernel-%/.config FORCE
	@echo "  KERNEL  $* -> $@"
	@$(KMAKE) -s zImage

FORCE:
.PRECIOUS: $(B)/kernel-%/.config

# ---- device trees -------------------------------------------------------------
dtbs: $(DTBS)

$(TC2_DTB): $(B)/kernel-$(VARIANT)/arch/arm/boot/zImage
	@mkdir -p $(@D)
	@echo "  DTB     $(notdir $@) (the kernel tree's own)"
	@MAKEFLAGS= $(MAKE) -C $(TREE) O=$(B)/kernel-$(VARIANT) ARCH=arm \
		CROSS_COMPILE=arm-linux-gnueabihf- $(KBUILD_ID) -s $(notdir $@)
	@cp $(B)/kernel-$(VARIANT)/arch/arm/boot/dts/$(notdir $@) $@

# A tree may include another .dts (the 2+3 layouts do): each depends on all.
$(B)/dtb/%.dtb: dts/%.dts $(wildcard dts/*.dtsi) $(DTS)
	@mkdir -p $(@D)
	@echo "  DTC     $<"
	@dtc -I dts -O dtb -o $@.tmp $< 2> $@.warn || { cat $@.warn; rm -f $@.tmp; exit 1; }
	@if [ -s $@.warn ]; then cat $@.warn; rm -f $@.tmp; echo "dtc warnings are errors here" >&2; exit 1; fi
	@rm -f $@.warn; mv $@.tmp $@

# ---- initramfs ------------------------------------------------------------------
initramfs: $(INITRAMFS)

$(GUEST_DEBS): scripts/fetch-guest-debs
	@echo "  DEBS    busybox-static cpufrequtils libcpufreq0 libc6 kexec-tools rt-tests (armhf)"
	@scripts/fetch-guest-debs $(B)/guest-debs
	@touch $@

# each guest shell tool, installed from its folder
$(foreach f,$(GUEST_SCRIPTS),$(eval $(B)/guest-tools/usr/local/bin/$(notdir $(f)): $(f)))
$(foreach f,$(GUEST_SCRIPTS),$(B)/guest-tools/usr/local/bin/$(notdir $(f))):
	@mkdir -p $(@D)
	@install -m 0755 $< $@

$(B)/guest-tools/usr/local/bin/%: %.c $(wildcard switcher/*.h tests/tools/*.h)
	@mkdir -p $(@D)
	@echo "  CC      $< (static armhf)"
	@arm-linux-gnueabihf-gcc $(GUEST_CFLAGS) -o $@ $<

$(INITRAMFS): initramfs/init initramfs/files.list $(shell find initramfs/rootfs -type f) \
		$(GUEST_DEBS) $(GUEST_TOOLS) scripts/mkinitramfs scripts/lab/cpio.py
	@mkdir -p $(@D) $(B)/guest-tools
	@echo "  CPIO    $@"
	@scripts/mkinitramfs $@ initramfs/files.list initramfs \
		$(B)/guest-debs/root initramfs/rootfs $(B)/guest-tools

# ---- the guest as a whole ----------------------------------------------------
# The targets below build it with make -j: the kernel's and QEMU's trees are
# prepared, configured and linked (one core each) while the other compiles.
guest: kernel dtbs $(TC2_DTB) initramfs qemu

run: deps
	@scripts/check-disk
	@$(MAKE) -s -j$(JOBS) guest VARIANT=$(VARIANT)
	@scripts/guest-run --no-build --interactive --variant $(VARIANT) --platform $(PLATFORM) \
		--timing $(or $(TIMING),host)

test: deps
	@scripts/check-disk
	@$(MAKE) -s -j$(JOBS) guest VARIANT=debug
	@tests/run

verify: deps tree
	@tests/verify/run $(TREE)

bench: deps
	@scripts/check-disk
	@$(MAKE) -s -j$(JOBS) guest VARIANT=release
	@scripts/bench --timing $(or $(TIMING),modelled) \
		$(if $(filter host,$(TIMING)),,--host-cost)
	@scripts/governors --timing $(or $(TIMING),modelled) \
		$(if $(filter host,$(TIMING)),,--quanta 1000,100000 --host-cost)
	@scripts/governors --platform tc2 --timing $(or $(TIMING),modelled)

governors: deps
	@$(MAKE) -s -j$(JOBS) guest VARIANT=release
	@scripts/governors --platform $(PLATFORM) --timing $(or $(TIMING),modelled)

SOAK_MINUTES ?= 30
soak: deps
	@$(MAKE) -s -j$(JOBS) guest VARIANT=debug
	@PLATFORM=$(PLATFORM) scripts/soak $(SOAK_MINUTES)

clean:
	rm -rf $(B)/kernel-* $(B)/dtb $(B)/initramfs $(B)/guest-tools $(B)/runs $(B)/test $(B)/soak

distclean:
	rm -rf $(B)
