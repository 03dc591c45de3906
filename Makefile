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

# Cross builds: make CROSS_COMPILE=aarch64-linux-gnu- (or riscv64-linux-gnu-,
# arm-linux-gnueabihf-)
# fetches Debian's -dev packages of that architecture into a cached sysroot
# (scripts/cross-sysroot.sh, through scripts/deps.sh cross-ARCH) and points
# the compiler and pkg-config at it; objects go to build-ARCH. Another
# prefix needs SYSROOT=DIR (a root with the -dev files of its libraries).
CROSS_TRIPLET := $(patsubst %-,%,$(notdir $(CROSS_COMPILE)))
CROSS_ARCH := $(if $(filter aarch64-%,$(CROSS_TRIPLET)),arm64,$(if $(filter riscv64-%,$(CROSS_TRIPLET)),riscv64,$(if $(filter arm-%-gnueabihf,$(CROSS_TRIPLET)),armhf)))
RTLA_CROSS_CACHE ?= /var/cache/rtla-cross
SYSROOT   ?= $(if $(CROSS_ARCH),$(RTLA_CROSS_CACHE)/$(CROSS_ARCH)/sysroot)

O         ?= build$(if $(CROSS_ARCH),-$(CROSS_ARCH))
BUILD     := $(O)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man/man1

# ccache, where installed (make check installs it), keeps what was compiled
# across trees and clones in /var/cache/rtla-ccache (CCACHE_DIR): a check on
# a fresh clone compiles only what changed since the last. CCACHE= turns it off.
# The debug information names the tree "." (BASE_CFLAGS), so ccache leaves
# the tree's folder out of its key when it is CCACHE_BASEDIR: without that,
# -g put every clone's own path into the key and a fresh clone compiled all.
CCACHE    ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
export CCACHE_DIR ?= /var/cache/rtla-ccache
export CCACHE_BASEDIR := $(CURDIR)
endif
ifeq ($(origin CC),default)
CC        := $(if $(CCACHE),$(CCACHE) )$(CROSS_COMPILE)gcc$(if $(SYSROOT), --sysroot=$(SYSROOT))
# riscv64 links with trixie's ld, as its sysroot is trixie's: bookworm's
# crashes on trixie's objects (scripts/cross-sysroot.sh says why).
ifeq ($(CROSS_ARCH),riscv64)
CC        += -B$(RTLA_CROSS_CACHE)/riscv64/linker/ld-only/
endif
endif
# make predefines AR (as it does CC): only a value of its own is kept.
ifeq ($(origin AR),default)
AR        := $(CROSS_COMPILE)ar
endif
ifeq ($(origin PKG_CONFIG),undefined)
PKG_CONFIG := $(if $(SYSROOT),PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig )pkg-config
endif
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
	smartcols:2.33:libsmartcols-dev \
	zlib:1.2:zlib1g-dev
PKG_NAMES := $(foreach p,$(PKGS),$(word 1,$(subst :, ,$(p))))

# Expanded on first use, inside recipes: "make check" installs the packages
# before anything is compiled, so the flags cannot be read at parse time.
pkg_cflags = $(eval pkg_cflags := $(shell $(PKG_CONFIG) --cflags $(PKG_NAMES)))$(pkg_cflags)
# libproc2 from its archive: its shared library would bring libsystemd and
# five more to every start of rtla (src/procscan.c answers libsystemd's part)
comma      := ,
proc2_ar   := -Wl$(comma)-Bstatic -lproc2 -Wl$(comma)-Bdynamic
pkg_libs   = $(eval pkg_libs := $(patsubst -lproc2,$(proc2_ar),\
		$(shell $(PKG_CONFIG) --libs $(PKG_NAMES))))$(pkg_libs)

WARN      := -Wall -Wextra -Wno-unused-parameter
# CPPFLAGS: the preprocessor's (dpkg-buildflags' -D_FORTIFY_SOURCE=2)
BASE_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DRTLA_VERSION='"$(VERSION)"' -Isrc \
	      -fdebug-prefix-map=$(CURDIR)=. \
	      $(WARN) -MMD -MP $(pkg_cflags) $(CPPFLAGS)

# Dhrystone's two benchmark units follow its ground rules: compiled
# separately, no inlining across procedures, no LTO (src/dhry/); gcc's
# interprocedural passes are off too (clang has no such flags).
DHRY_UNITS := src/dhry/dhry_1.c src/dhry/dhry_2.c
DHRY_OPT  := -O2 -fno-inline -fno-lto -falign-functions=64 \
	     $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n1)),,\
		-fno-ipa-icf -fno-ipa-cp -fno-ipa-sra -fno-whole-program)
# Dhrystone's speed moves by several % with where its code lands in the binary;
# cache-line aligned procedures keep a score from changing with unrelated code.
# "optimizations are allowed but should be indicated": rtla dhry reports them
# (less the path maps of a package build, which name the build folder)
DHRY_CFLAGS = $(DHRY_OPT) -DDHRY_BUILD_FLAGS='"$(strip $(filter-out -ffile-prefix-map=% \
	      -fdebug-prefix-map=%,$(CFLAGS)) $(DHRY_OPT))"'

SRCS      := $(filter-out src/main.c $(DHRY_UNITS) %.bpf.c,$(wildcard src/*.c src/*/*.c))
OBJS      := $(SRCS:%.c=$(BUILD)/%.o)
DHRY_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter $(wildcard $(DHRY_UNITS)),$(DHRY_UNITS)))
LIB       := $(BUILD)/librtla.a
RTLA      := $(BUILD)/rtla

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)

DOCS      := $(wildcard Documentation/rtla*.rst)
MANS      := $(DOCS:Documentation/%.rst=$(BUILD)/man/%.1)
RST2MAN   := $(firstword $(shell command -v rst2man rst2man.py 2>/dev/null))
# Names that reach a page as well ("man osnoise"): installed as .so stubs,
# which man-db and mandoc follow. alias:page, both in section 1.
MAN_ALIASES := osnoise:rtla-osnoise-top rtla-osnoise:rtla-osnoise-top hwnoise:rtla-hwnoise \
	       timerlat:rtla-timerlat-top rtla-timerlat:rtla-timerlat-top
man_alias  = $(word 1,$(subst :, ,$(1)))
man_page   = $(word 2,$(subst :, ,$(1)))

# The names rtla answers to as its own commands (main.c): installed as links.
TOOL_LINKS := osnoise hwnoise timerlat

# Bash completion: where bash-completion loads it from (its .pc file, moved
# under PREFIX: /usr/local/share is on bash-completion's XDG_DATA_DIRS path).
COMPLETION  := $(wildcard scripts/rtla-completion.bash)
BASHCOMPDIR ?= $(or $(shell $(PKG_CONFIG) --define-variable=prefix=$(PREFIX) \
			--variable=completionsdir bash-completion 2>/dev/null), \
		    $(PREFIX)/share/bash-completion/completions)

.PHONY: all check run install uninstall clean bench deps-build deps-check deps-bench \
	deps-cross-arm64 deps-cross-armhf deps-cross-riscv64 pkgcheck unit vm-run
.DELETE_ON_ERROR:

all: $(RTLA) $(if $(RST2MAN),$(MANS))

# "make check" and "make run" first install what a fresh Debian 12 lacks.
ifneq ($(filter check run,$(MAKECMDGOALS)),)
pkgcheck: deps-$(if $(filter check,$(MAKECMDGOALS)),check,build)
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
pkgcheck: deps-bench
endif

# A cross build fetches its compiler and sysroot first (silent once there).
ifneq ($(CROSS_ARCH),)
pkgcheck: deps-cross-$(CROSS_ARCH)
endif

deps-build deps-check deps-bench deps-cross-arm64 deps-cross-armhf deps-cross-riscv64:
	$(Q)scripts/deps.sh $(@:deps-%=%)

pkgcheck:
	$(Q)command -v $(firstword $(filter-out $(CCACHE),$(CC))) >/dev/null || { \
		echo "rtla: no compiler $(firstword $(filter-out $(CCACHE),$(CC)))$(if $(CROSS_TRIPLET),: install the Debian package gcc-$(CROSS_TRIPLET))" >&2; \
		exit 1; }
	$(Q)for p in $(PKGS); do \
		mod=$${p%%:*}; rest=$${p#*:}; min=$${rest%%:*}; deb=$${rest#*:}; \
		$(PKG_CONFIG) --exists "$$mod >= $$min" || { \
			echo "rtla needs $$mod >= $$min: install the Debian package $$deb$(if $(SYSROOT),$(if $(CROSS_ARCH),:$(CROSS_ARCH)) in $(SYSROOT)$(if $(CROSS_ARCH), (scripts/deps.sh cross-$(CROSS_ARCH))))" >&2; \
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

# The BPF readers of rtla mdwe and rtla capdump: src/CMD/NAME.bpf.c compiled
# by clang into a CO-RE object and embedded as a libbpf light skeleton,
# build/gen/NAME.skel.h (bpftool gen skeleton -L: a loader program has the
# kernel fit it, rtla links no libbpf and never parses the kernel's BTF
# itself). Without clang, bpftool or libbpf-dev the skeleton is a stub that
# defines NAME_NO_BPF, and rtla builds without the reader (and says so when
# asked). Decided when the recipe runs, as pkg_cflags above.
BPF_CLANG ?= clang
BPFTOOL   ?= $(firstword $(shell command -v bpftool 2>/dev/null) $(wildcard /usr/sbin/bpftool))
BPF_SKELS := $(BUILD)/gen/mdwe.skel.h $(BUILD)/gen/capdump.skel.h
# A package build's path maps (dpkg-buildflags): the object's BTF names its
# source file, which rtla embeds, so not the build folder.
BPF_PATH_MAPS = $(filter -ffile-prefix-map=% -fdebug-prefix-map=%,$(CFLAGS))

$(BUILD)/gen/mdwe.skel.h: src/mdwe_check/mdwe.bpf.c src/mdwe_check/mdwe_rec.h src/bpf_iter.bpf.h
$(BUILD)/gen/capdump.skel.h: src/capdump/capdump.bpf.c src/capdump/capdump_rec.h src/bpf_iter.bpf.h
$(BPF_SKELS): | pkgcheck
	@mkdir -p $(dir $@)
	$(Q)name=$(basename $(basename $(notdir $@))); missing=; \
	command -v $(BPF_CLANG) >/dev/null || missing="$$missing clang"; \
	[ -n "$(BPFTOOL)" ] || missing="$$missing bpftool"; \
	$(PKG_CONFIG) --exists libbpf || missing="$$missing libbpf-dev"; \
	if [ -n "$$missing" ]; then \
		echo "rtla: building rtla $$name without its BPF reader: install$$missing" >&2; \
		printf '#define %s_NO_BPF "install%s to build it"\n' \
			"$$(echo $$name | tr a-z A-Z)" "$$missing" >$@; \
	else \
		printf '  %-7s %s\n' BPF $(BUILD)/gen/$$name.bpf.o; \
		$(BPF_CLANG) -g -O2 -target bpf -Wall -Isrc $(BPF_PATH_MAPS) -c $< -o $(BUILD)/gen/$$name.bpf.o && \
		$(BPFTOOL) gen skeleton -L $(BUILD)/gen/$$name.bpf.o name $${name}_bpf >$@.tmp && \
		mv $@.tmp $@; \
	fi

$(BUILD)/src/mdwe_check/bpf.o: $(BUILD)/gen/mdwe.skel.h
$(BUILD)/src/capdump/bpf.o: $(BUILD)/gen/capdump.skel.h
$(BUILD)/src/mdwe_check/bpf.o $(BUILD)/src/capdump/bpf.o: BASE_CFLAGS += -I$(BUILD)/gen

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
	$(Q)$(RST2MAN) --quiet --halt=warning $< $@

# rtla-hwnoise.rst includes the option list of rtla-osnoise-top.rst.
$(BUILD)/man/rtla-hwnoise.1: Documentation/rtla-osnoise-top.rst
# rtla-timerlat-hist.rst includes the option list of rtla-timerlat-top.rst.
$(BUILD)/man/rtla-timerlat-hist.1: Documentation/rtla-timerlat-top.rst

unit: $(UNIT_BINS)

# The board bundles, each cross-built in its own tree beside $(BUILD):
# make bundle-ARCH is make CROSS_COMPILE=TRIPLET- O=$(BUILD)-ARCH bundle.
# The arm64 one is also the VM tier's arm64 guest.
BOARD_TRIPLETS := arm64:aarch64-linux-gnu armhf:arm-linux-gnueabihf riscv64:riscv64-linux-gnu
ARM64_BUNDLE := $(patsubst %/,%,$(BUILD))-arm64/bundle/rtla-$(VERSION)-arm64
BOARD_BUNDLES := $(foreach t,$(BOARD_TRIPLETS),bundle-$(word 1,$(subst :, ,$(t))))
.PHONY: $(BOARD_BUNDLES)
$(BOARD_BUNDLES): bundle-%: pkgcheck
	$(Q)$(MAKE) --no-print-directory O=$(patsubst %/,%,$(BUILD))-$* \
		CROSS_COMPILE=$(patsubst $*:%,%-,$(filter $*:%,$(BOARD_TRIPLETS))) bundle

# make packages: everything a user installs, each part beside $(BUILD) for
# the package tier of check (tests/package/): the board bundles of the other
# architectures in $(BUILD)-ARCH/bundle, ... Each part adds itself below.
.PHONY: packages
packages: bundle-arm64
packages: bundle-riscv64 bundle-armhf
packages: deb deb-arm64

check: all $(UNIT_BINS) $(if $(CROSS_ARCH),,packages)
	$(Q)tests/check.sh --build $(BUILD) --asan $(ASAN_O) --fuzz $(FUZZ_O) \
		$(if $(CROSS_ARCH),,--arm64 $(ARM64_BUNDLE))

run: all
	$(Q)$(RTLA) hwnoise -d 10s

# Debugging aid: run one command in the 6.12 test VM, e.g.
#   make vm-run CMD='rtla hwnoise -d 3s -q; echo rc=$?'
# CMD reaches the guest's bash as written: make expands nothing in it ($?,
# $$ and $(...) are bash's), so quote it for your own shell only, best in
# single quotes. It travels in the environment, never through a recipe line.
ifneq ($(filter vm-run,$(MAKECMDGOALS)),)
ifeq ($(strip $(value CMD)),)
$(error make vm-run: CMD is empty: give the command to run, e.g. make vm-run CMD='rtla hwnoise -d 3s -q')
endif
endif
vm-run: override export CMD := $(value CMD)
vm-run: $(RTLA)
	$(Q)tests/kernel/vm-tier.sh --rtla $(RTLA) --cmd "$$CMD"

# ---------------------------------------------------------------------------
# make bundle: what to copy onto a board that has a kernel and busybox. One
# static rtla (stripped) with the $(TOOL_LINKS) links, in a folder and a
# .tar.gz: $(BUILD)/bundle/rtla-VERSION-ARCH[.tar.gz]. Native or cross
# (make CROSS_COMPILE=aarch64-linux-gnu- bundle). Debian has no static
# libsmartcols: scripts/static-smartcols.sh builds it from util-linux's
# source once (cached); libproc2's calls into libsystemd are answered by
# src/procscan.c, as in the dynamic build.
BUNDLE_ARCH := $(or $(CROSS_ARCH),$(shell dpkg --print-architecture 2>/dev/null),$(shell uname -m))
BUNDLE_NAME := rtla-$(VERSION)-$(BUNDLE_ARCH)
BUNDLE_DIR  := $(BUILD)/bundle/$(BUNDLE_NAME)
STATIC_RTLA := $(BUILD)/rtla-static
STRIP       ?= $(CROSS_COMPILE)strip
static_libs = $(shell $(PKG_CONFIG) --static --libs $(PKG_NAMES))

.PHONY: bundle
$(STATIC_RTLA): $(BUILD)/src/main.o $(LIB) | pkgcheck
	$(Q)dir=$$(scripts/static-smartcols.sh "$(CC)" $$($(CC) -dumpmachine)) || exit 1; \
	printf '  %-7s %s\n' LD $@; \
	$(CC) -static $(CFLAGS) $(LDFLAGS) -o $@ $^ -L$$dir $(static_libs) -lpthread -lm 2>$@.log || \
		{ cat $@.log >&2; exit 1; }; \
	grep -v -e 'statically linked applications requires at runtime' -e 'in function' $@.log >&2 || true

bundle: $(STATIC_RTLA)
	$(call quiet,BUNDLE,$(BUNDLE_DIR))
	$(Q)rm -rf $(BUNDLE_DIR) && mkdir -p $(BUNDLE_DIR)
	$(Q)$(STRIP) -o $(BUNDLE_DIR)/rtla $(STATIC_RTLA)
	$(Q)for l in $(TOOL_LINKS); do ln -s rtla $(BUNDLE_DIR)/$$l || exit 1; done
	$(Q)tar -C $(BUILD)/bundle -czf $(BUILD)/bundle/$(BUNDLE_NAME).tar.gz --owner=0 --group=0 $(BUNDLE_NAME)
	@printf '  %-7s %s: rtla %s bytes, %s %s bytes\n' SIZE $(BUNDLE_NAME) \
		$$(stat -c %s $(BUNDLE_DIR)/rtla) $(BUNDLE_NAME).tar.gz $$(stat -c %s $(BUILD)/bundle/$(BUNDLE_NAME).tar.gz)

# make oci: the container image of this architecture's bundle, an OCI
# archive in $(BUILD)/oci/ (scripts/oci-image.sh; podman load -i FILE).
# The last commit's time stamps it, so a tree gives the same image each time.
OCI_IMAGE := $(BUILD)/oci/rtla-$(VERSION)-$(BUNDLE_ARCH).oci.tar
.PHONY: oci
oci: bundle
	$(call quiet,OCI,$(OCI_IMAGE))
	@mkdir -p $(dir $(OCI_IMAGE))
	$(Q)SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || stat -c %Y VERSION) \
		scripts/oci-image.sh $(BUNDLE_DIR) $(BUNDLE_ARCH) $(VERSION) $(OCI_IMAGE)
packages: oci

# ---------------------------------------------------------------------------
# make deb [DEB_ARCH=arm64]: the Debian package rtla-suite (debian/), built by
# dpkg-buildpackage from a copy of the tree in $(DEB_O)/src-ARCH, the .deb
# left in $(DEB_O). This machine's architecture is built here (its build
# dependencies are those of "scripts/deps.sh check"); another one is
# cross-built in a bookworm root that holds the build dependencies of that
# architecture (scripts/deb-root.sh, cached), so that dh_shlibdeps reads the
# libraries' own dependency information, as on Debian's build daemons.
DEB_O       := $(patsubst %/,%,$(BUILD))/deb
DEB_HOST    := $(shell dpkg --print-architecture 2>/dev/null)
DEB_ARCH    ?= $(DEB_HOST)
DEB_SRC     := $(DEB_O)/src-$(DEB_ARCH)/rtla-suite-$(VERSION)
DEB_VERSION  = $(shell dpkg-parsechangelog -l debian/changelog -S Version)
DEB_FILES   := Makefile VERSION README.md Documentation scripts src tests/unit debian

.PHONY: deb deps-deb
deb: $(if $(filter $(DEB_HOST),$(DEB_ARCH)),deps-deb)
	$(Q)[ "$(DEB_VERSION)" = "$(VERSION)" ] || { echo "rtla: debian/changelog is at $(DEB_VERSION), VERSION at $(VERSION): add a changelog entry" >&2; exit 1; }
	$(call quiet,DEB,$(DEB_O)/rtla-suite_$(VERSION)_$(DEB_ARCH).deb)
	$(Q)rm -rf $(dir $(DEB_SRC)) && mkdir -p $(DEB_SRC)
	$(Q)tar -c $(DEB_FILES) | tar -x -C $(DEB_SRC)
ifeq ($(DEB_ARCH),$(DEB_HOST))
	$(Q)cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b >../build.log 2>&1 || { tail -n 40 ../build.log >&2; exit 1; }
else
	$(Q)root=$(DEB_O)/root-$(DEB_ARCH) && \
	tar=$$(scripts/deb-root.sh make deb-build-$(DEB_ARCH) --foreign $(DEB_ARCH) --build-deps . \
		build-essential crossbuild-essential-$(DEB_ARCH)) && \
	scripts/deb-root.sh unpack $$tar $$root && \
	scripts/deb-root.sh run $$root --bind $(abspath $(dir $(DEB_SRC))):/build -- \
		sh -c 'cd /build/$(notdir $(DEB_SRC)) && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -a $(DEB_ARCH) -Pcross,nocheck -us -uc -b' \
		>$(dir $(DEB_SRC))build.log 2>&1 || { tail -n 40 $(dir $(DEB_SRC))build.log >&2; exit 1; }; \
	rm -rf $$root
endif
	$(Q)rm -f $(DEB_O)/rtla-suite*_$(DEB_ARCH).*
	$(Q)mv $(dir $(DEB_SRC))rtla-suite*_$(DEB_ARCH).* $(DEB_O)/
	@printf '  %-7s %s: %s bytes\n' SIZE rtla-suite_$(VERSION)_$(DEB_ARCH).deb \
		$$(stat -c %s $(DEB_O)/rtla-suite_$(VERSION)_$(DEB_ARCH).deb)

deps-deb:
	$(Q)scripts/deps.sh deb

# the arm64 package beside this machine's, for the package tier
.PHONY: deb-arm64
deb-arm64: deb
	$(Q)$(MAKE) --no-print-directory deb DEB_ARCH=arm64

bench: all
	$(Q)bench/run.sh --build $(BUILD)

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(RTLA) $(DESTDIR)$(BINDIR)/rtla
	for l in $(TOOL_LINKS); do ln -sf rtla $(DESTDIR)$(BINDIR)/$$l || exit 1; done
	$(if $(wildcard $(MANS)),install -d $(DESTDIR)$(MANDIR) && install -m 0644 $(wildcard $(MANS)) $(DESTDIR)$(MANDIR))
	$(foreach a,$(MAN_ALIASES),$(if $(wildcard $(BUILD)/man/$(call man_page,$(a)).1),\
		printf '.so man1/%s.1\n' $(call man_page,$(a)) >$(DESTDIR)$(MANDIR)/$(call man_alias,$(a)).1;))
	$(if $(COMPLETION),install -d $(DESTDIR)$(BASHCOMPDIR) && \
		install -m 0644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/rtla && \
		for l in $(TOOL_LINKS); do ln -sf rtla $(DESTDIR)$(BASHCOMPDIR)/$$l || exit 1; done)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,rtla $(TOOL_LINKS))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(MANS)) \
		$(foreach a,$(MAN_ALIASES),$(call man_alias,$(a)).1))
	rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,rtla $(TOOL_LINKS))

clean:
	rm -rf $(BUILD)

# (not those of make deb's copies of the tree, nor its build root's /etc/rc2.d)
-include $(shell find $(BUILD) -path $(DEB_O) -prune -o -name '*.d' -print 2>/dev/null)

# ---------------------------------------------------------------------------
# Sanitizers and fuzzing, each in a tree of its own beside $(BUILD).
#
#   make asan                  $(ASAN_O)/rtla and the unit tests with ASan+UBSan (gcc)
#   make fuzz [FUZZ_TIME=60]   run each libFuzzer target of tests/fuzz/ (clang)
#
# "make check" builds both trees too: it runs the unit and cli tiers on the
# ASan one and a short fixed run of each fuzz target (tests/check.sh --asan,
# --fuzz). A tree is this Makefile run again with other flags, so the compile
# rules, DHRY_CFLAGS included, stay in one place; SAN_TREE=1 keeps the rules
# below out of those inner runs.

ASAN_O      ?= $(patsubst %/,%,$(BUILD))-asan
SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer \
	       -fno-sanitize-recover=undefined
ASAN_CFLAGS ?= -O1 -g $(SAN_FLAGS)
# Linked in, gcc's two runtimes write whole reports to the files that
# tests/check.sh reads (log_path): shared, gcc 12's UBSan writes to stderr, and
# so does LSan beside a static libubsan. clang links its runtime in anyway.
ASAN_LDFLAGS ?= $(SAN_FLAGS) $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,\
		-static-libasan -static-libubsan)

FUZZ_O      ?= $(patsubst %/,%,$(BUILD))-fuzz
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_CFLAGS ?= -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_SRCS   := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS   := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_O)/%)
# What the targets link: the parsers and what they call, nothing more, so that
# the fuzz tree builds in seconds. A link error names what to add.
FUZZ_UNITS  := src/parse.c src/msg.c src/osnoise/actions.c src/capdump/caps.c \
	       src/sysroot.c src/damos/filter.c src/damos/tree.c src/mdwe_check/maps.c

ifeq ($(SAN_TREE),1)
$(BUILD)/libparsers.a: $(FUZZ_UNITS:%.c=$(BUILD)/%.o)
	$(call quiet,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^
else
.PHONY: asan fuzz fuzz-build deps-fuzz clean-san san-force

# The inner make sees none of the outer goals, so it installs nothing: the
# outer pkgcheck has already run the deps-* step that the goal asked for.
asan: pkgcheck
	$(Q)$(MAKE) --no-print-directory SAN_TREE=1 O=$(ASAN_O) CFLAGS="$(ASAN_CFLAGS)" \
		LDFLAGS="$(LDFLAGS) $(ASAN_LDFLAGS)" all unit

check: asan fuzz-build

# The parsers for the fuzzers: clang, with coverage but without libFuzzer's main().
$(FUZZ_O)/libparsers.a: san-force | pkgcheck
	$(Q)$(MAKE) --no-print-directory SAN_TREE=1 O=$(FUZZ_O) CC=$(FUZZ_CC) \
		CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined" $@

$(FUZZ_O)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_O)/libparsers.a
	$(call quiet,CCLD,$@)
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-Itests/fuzz -o $@ $< $(FUZZ_O)/libparsers.a $(pkg_libs) -lpthread -lm

fuzz-build: $(FUZZ_BINS)

# FUZZ_TIME seconds per target on a copy of its seeds; a crash fails the goal
# and leaves its input in $(FUZZ_O)/crashes/.
fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh --build $(FUZZ_O) --time $(FUZZ_TIME) $(notdir $(FUZZ_BINS))

ifneq ($(filter fuzz fuzz-build,$(MAKECMDGOALS)),)
pkgcheck: deps-fuzz
endif

deps-fuzz:
	$(Q)scripts/deps.sh fuzz

clean: clean-san
clean-san:
	rm -rf $(ASAN_O) $(FUZZ_O)

san-force:
endif
