# SPDX-License-Identifier: GPL-2.0-only
#
# The rtla suite: one non-recursive Makefile.
#
#   make [O=dir] [V=1]     build O/rtla (default O=build)
#   make check             install test dependencies, build, run every test tier
#   make run               install dependencies, build, run the main job
#   make install|uninstall [DESTDIR=] [PREFIX=/usr/local]
#   make bench             benchmarks (not part of check)

VERSION   := $(shell cat VERSION)
O         ?= build
BUILD     := $(O)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man/man1

ifeq ($(origin CC),default)
CC        := $(CROSS_COMPILE)gcc
endif
AR        ?= $(CROSS_COMPILE)ar
PKG_CONFIG ?= pkg-config
CFLAGS    ?= -O2 -g
LDFLAGS   ?=

ifneq ($(V),1)
Q         := @
quiet      = @printf '  %-7s %s\n' $(1) $(2);
else
Q         :=
quiet      =
endif

# pkg-config module, minimum version, Debian package that provides it
PKGS := libtracefs:1.6:libtracefs-dev \
	libtraceevent:1.5:libtraceevent-dev \
	libproc2:4.0:libproc2-dev \
	ncursesw:6.0:libncurses-dev \
	libcap:2.25:libcap-dev \
	smartcols:2.33:libsmartcols-dev
PKG_NAMES := $(foreach p,$(PKGS),$(word 1,$(subst :, ,$(p))))

# Expanded on first use, inside recipes: "make check" installs the packages
# before anything is compiled, so the flags cannot be read at parse time.
pkg_cflags = $(eval pkg_cflags := $(shell $(PKG_CONFIG) --cflags $(PKG_NAMES)))$(pkg_cflags)
pkg_libs   = $(eval pkg_libs := $(shell $(PKG_CONFIG) --libs $(PKG_NAMES)))$(pkg_libs)

WARN      := -Wall -Wextra -Wno-unused-parameter
BASE_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DRTLA_VERSION='"$(VERSION)"' -Isrc \
	      $(WARN) -MMD -MP $(pkg_cflags)

# Dhrystone's two benchmark units follow its ground rules: compiled
# separately, no inlining across procedures, no LTO (src/dhry/).
DHRY_UNITS := src/dhry/dhry_1.c src/dhry/dhry_2.c
DHRY_OPT  := -O2 -fno-inline -fno-lto -fno-ipa-icf -fno-ipa-cp -fno-ipa-sra -fno-whole-program \
	     -falign-functions=64
# Dhrystone's speed moves by several % with where its code lands in the binary;
# cache-line aligned procedures keep a score from changing with unrelated code.
# "optimizations are allowed but should be indicated": rtla dhry reports them
DHRY_CFLAGS = $(DHRY_OPT) -DDHRY_BUILD_FLAGS='"$(strip $(CFLAGS) $(DHRY_OPT))"'

SRCS      := $(filter-out src/main.c $(DHRY_UNITS),$(wildcard src/*.c src/*/*.c))
OBJS      := $(SRCS:%.c=$(BUILD)/%.o)
DHRY_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter $(wildcard $(DHRY_UNITS)),$(DHRY_UNITS)))
LIB       := $(BUILD)/librtla.a
RTLA      := $(BUILD)/rtla

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)

DOCS      := $(wildcard Documentation/rtla*.rst)
MANS      := $(DOCS:Documentation/%.rst=$(BUILD)/man/%.1)
RST2MAN   := $(firstword $(shell command -v rst2man rst2man.py 2>/dev/null))

.PHONY: all check run install uninstall clean bench deps-build deps-check deps-bench \
	pkgcheck unit vm-run
.DELETE_ON_ERROR:

all: $(RTLA) $(if $(RST2MAN),$(MANS))

# "make check" and "make run" first install what a fresh Debian 12 lacks.
ifneq ($(filter check run,$(MAKECMDGOALS)),)
pkgcheck: deps-$(if $(filter check,$(MAKECMDGOALS)),check,build)
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
pkgcheck: deps-bench
endif

deps-build deps-check deps-bench:
	$(Q)scripts/deps.sh $(@:deps-%=%)

pkgcheck:
	$(Q)for p in $(PKGS); do \
		mod=$${p%%:*}; rest=$${p#*:}; min=$${rest%%:*}; deb=$${rest#*:}; \
		$(PKG_CONFIG) --exists "$$mod >= $$min" || { \
			echo "rtla needs $$mod >= $$min: install the Debian package $$deb" >&2; \
			exit 1; }; \
	done

$(BUILD)/%.o: %.c | pkgcheck
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(DHRY_OBJS): $(BUILD)/%.o: %.c | pkgcheck
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(DHRY_CFLAGS) -c -o $@ $<

$(LIB): $(OBJS) $(DHRY_OBJS)
	$(call quiet,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(RTLA): $(BUILD)/src/main.o $(LIB)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(pkg_libs) -lpthread -lm

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIB) tests/unit/tap.h | pkgcheck
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(LIB) \
		$(pkg_libs) -lpthread -lm

$(BUILD)/man/%.1: Documentation/%.rst
	$(call quiet,RST2MAN,$@)
	@mkdir -p $(dir $@)
	$(Q)$(RST2MAN) --quiet $< $@

unit: $(UNIT_BINS)

check: all $(UNIT_BINS)
	$(Q)tests/check.sh --build $(BUILD)

run: all
	$(Q)$(RTLA) hwnoise -d 10s

# Debugging aid: run one command in the 6.12 test VM, e.g. make vm-run CMD='rtla hwnoise -d 3s -q'
vm-run: $(RTLA)
	$(Q)tests/kernel/vm-tier.sh --rtla $(RTLA) --cmd "$(CMD)"

bench: all
	$(Q)bench/run.sh --build $(BUILD)

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(RTLA) $(DESTDIR)$(BINDIR)/rtla
	ln -sf rtla $(DESTDIR)$(BINDIR)/osnoise
	ln -sf rtla $(DESTDIR)$(BINDIR)/hwnoise
	$(if $(wildcard $(MANS)),install -d $(DESTDIR)$(MANDIR) && install -m 0644 $(wildcard $(MANS)) $(DESTDIR)$(MANDIR))

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rtla $(DESTDIR)$(BINDIR)/osnoise $(DESTDIR)$(BINDIR)/hwnoise
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(MANS)))

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
