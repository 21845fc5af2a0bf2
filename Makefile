# Postcard — see README.md. `make run` and `make test` install what is missing (Debian 12, apt).
SHELL := /bin/bash
.DEFAULT_GOAL := run

# Debian packages: build (gtk4, sqlite3, XTEST for test input), run (icons, fonts), test display (Xvfb, D-Bus).
# Photos: thumbnails (libgnome-desktop-4 and its thumbnailers), EXIF (gexiv2), HEIC/WebP/AVIF/SVG loaders.
# Codes: GStreamer's zbar element (plugins-bad) reads them, libqrencode draws them, zbarimg (zbar-tools) checks
# the drawn ones in the tests.
PACKAGES := pkg-config libgtk-4-dev libadwaita-1-dev libsqlite3-dev libxtst-dev adwaita-icon-theme fonts-dejavu-core \
            libgnome-desktop-4-dev libgexiv2-dev libgdk-pixbuf2.0-bin bubblewrap \
            heif-gdk-pixbuf webp-pixbuf-loader libavif-gdk-pixbuf librsvg2-common \
            libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
            gstreamer1.0-plugins-bad libqrencode-dev zbar-tools \
            libwebkitgtk-6.0-dev \
            desktop-file-utils appstream xvfb xauth dbus dbus-x11 at-spi2-core python3-pyatspi \
            gettext locales e2fsprogs
SWIFT ?= swift
# The release configuration: what ships (make install, make deb), what make test tests and make bench
# measures, one build in .build/release. With -enable-testing, so the tests' @testable imports build against
# it; the optimizer's work is the same.
RELEASE := -c release -Xswiftc -enable-testing
PREFIX ?= /usr/local
ARGS ?=
# A GTK warning or critical during tests is a failure. Tests use their own, fresh thumbnail cache, and
# settings in memory (GSettings' memory backend: a test that changes the desktop's dark or high-contrast
# preference changes nobody's real settings), read by libadwaita from GSettings rather than through the
# Settings portal (the same keys; not every machine that runs the tests has the portal).
TEST_CACHE := $(CURDIR)/.build/test-cache
TEST_ENV := G_DEBUG=fatal-warnings XDG_CACHE_HOME=$(TEST_CACHE) GSETTINGS_BACKEND=memory ADW_DISABLE_PORTAL=1 SWIFT_BACKTRACE=interactive=no,symbolicate=fast
XVFB := dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24"
# What the spoken journeys need beside PACKAGES (make test-orca), without recommends (no sound stack); xprop
# (x11-utils) tells when the window manager runs.
# Their display is looked for from :400 up, apart from the suites' beside which `make test` runs them.
ORCA_PACKAGES := orca speech-dispatcher xdotool metacity x11-utils
ORCA_JOURNEYS = dbus-run-session -- xvfb-run -a -n 400 -s "-screen 0 1280x800x24" /usr/bin/python3 Tests/orca/orca-journeys.py "$$($(SWIFT) build --show-bin-path)/postcard" \
  Tests/orca/journeys.txt --actual .build/orca-journeys.actual.txt
# The review gallery's tour under Orca (Tests/orca/review-under-orca.py GALLERY [--journey FILE]): what Orca said as
# each screen appeared, saved beside its pictures for the index. Only one Orca may run at a time (a new one ends
# the others: `orca --replace`), so make test runs its check after the journeys, in the same lane.
ORCA_REVIEW = dbus-run-session -- xvfb-run -a -n 420 -s "-screen 0 2560x1600x24" /usr/bin/python3 Tests/orca/review-under-orca.py \
  "$$($(SWIFT) build --show-bin-path)/postcard-review"
ORCA_REVIEW_CHECK = rm -rf .build/review-orca && $(ORCA_REVIEW) .build/review-orca --journey Tests/orca/review-check.journey \
  --expect Tests/orca/review-check.txt
# The navigation toolkit's own tests (Tests/NavigationTests, the model; Tests/NavigationGtkTests, GTK) build
# with POSTCARD_TOOLKIT_ONLY=1 in a scratch path of their own: the manifest then declares the toolkit and
# its tests alone, so the app is not built. The GTK tests run twice, as a plain GTK 4 app uses the toolkit
# (Swatches) and with libadwaita loaded and initialized, as an app built on it (Postcard) does.
TOOLKIT_BUILD := .build/toolkit
TOOLKIT_SWIFT = env POSTCARD_TOOLKIT_ONLY=1 $(SWIFT)
TOOLKIT_TEST = $(TOOLKIT_SWIFT) test --skip-build --scratch-path $(TOOLKIT_BUILD)
RUN_TOOLKIT_TESTS = set -o pipefail; env -u DISPLAY -u WAYLAND_DISPLAY $(TOOLKIT_TEST) --filter '^NavigationTests\.' 2>&1 \
	  | tee .build/test-model.log && rm -rf $(TEST_CACHE)-toolkit && \
	  $(TEST_ENV) XDG_CACHE_HOME=$(TEST_CACHE)-toolkit $(XVFB) $(TOOLKIT_TEST) --filter '^NavigationGtkTests\.' 2>&1 \
	  | tee .build/test-toolkit.log && \
	  NAVIGATION_GTK_TESTS_WITH_LIBADWAITA=1 $(TEST_ENV) XDG_CACHE_HOME=$(TEST_CACHE)-toolkit $(XVFB) $(TOOLKIT_TEST) \
	    --filter '^NavigationGtkTests\.' 2>&1 | tee .build/test-toolkit-adwaita.log

# The sample photos sort newest first, then by name. A clone gives them its own modification times, which
# can straddle a second (three of eight a second older, say): the tests, which hear and picture them in name
# order, give them one time first. Only the times change; git does not track them.
SAMPLE_PHOTOS_ONE_TIME = touch -d "2026-01-01 12:00:00 UTC" Resources/photos/*

# Translations, in two gettext domains:
# - the app's, "postcard": po/postcard.pot from the app's sources (make po), one po/<lang>.po per language
#   in po/LINGUAS, compiled during `swift build` (the CompileResources plugin, with the app's style sheet)
#   and installed into $(PREFIX)/share/locale;
# - the toolkit's, "navigation-gtk" (Gtk, Navigation, NavigationGtk, NavigationWeb): po/navigation-gtk/,
#   compiled during `swift build` (the CompileResources plugin, with the toolkit's style sheet) and installed
#   into $(PREFIX)/share/locale, so apps using the toolkit get it translated.
# The running checkout uses what `swift build` compiled (the plugin, for both domains); .build/locale is
# what make install copies.
LINGUAS := $(shell cat po/LINGUAS)
MO_FILES := $(foreach lang,$(LINGUAS),.build/locale/$(lang)/LC_MESSAGES/postcard.mo)
TOOLKIT_DIRS := Sources/GLib Sources/Gtk Sources/Navigation Sources/NavigationGtk Sources/NavigationWeb
TOOLKIT_SOURCES = $(shell find $(TOOLKIT_DIRS) -name '*.swift' | LC_ALL=C sort)
PO_SOURCES = $(shell find Sources -name '*.swift' -not -path 'Sources/PostcardBench/*' $(foreach d,$(TOOLKIT_DIRS),-not -path '$(d)/*') | LC_ALL=C sort)
# xgettext reads Swift as C: marked strings must be one-line literals without \( ) interpolation.
XGETTEXT := xgettext --language=C --from-code=UTF-8 --keyword= --keyword=localized --keyword=localizedPlural:1,2 \
            --add-comments=Translators: --package-name=Postcard --msgid-bugs-address=https://github.com/postcard \
            --no-location --sort-output
TOOLKIT_XGETTEXT := xgettext --language=C --from-code=UTF-8 --keyword= --keyword=toolkitLocalized \
            --add-comments=Translators: --package-name=NavigationGtk --msgid-bugs-address=https://github.com/postcard \
            --no-location --sort-output
make-toolkit-pot = mkdir -p .build && $(TOOLKIT_XGETTEXT) --output=$(1) $(TOOLKIT_SOURCES) 2>.build/xgettext-toolkit.log
TOOLKIT_MO_FILES := $(foreach lang,$(LINGUAS),.build/locale/$(lang)/LC_MESSAGES/navigation-gtk.mo)
# The launcher and AppStream texts are translated too (xgettext reads them as Desktop and ITS/XML).
PO_DATA := data/io.github.postcard.Postcard.desktop data/io.github.postcard.Postcard.metainfo.xml
make-pot = mkdir -p .build && $(XGETTEXT) --output=$(1) $(PO_SOURCES) 2>.build/xgettext.log && \
           xgettext --join-existing --from-code=UTF-8 --no-location --sort-output --package-name=Postcard \
             --msgid-bugs-address=https://github.com/postcard --output=$(1) $(PO_DATA)
# The locales the tests run the app in (German; generated if missing, as Debian's locales package leaves them out).
TEST_LOCALES := de_DE.UTF-8

.PHONY: deps deps-orca build run test check-all check-translations test-toolkit api-baseline test-model test-gtk test-install test-example test-orca install uninstall deb test-resources review bench bench-programs bench-navigation bench-hostile clean po locale stress docs

# $(call install-missing,PACKAGES,APT_OPTIONS): installs those of PACKAGES that are not installed yet.
install-missing = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(2) $$missing; \
	fi

deps:
	@$(call install-missing,$(PACKAGES),)
	@for l in $(TEST_LOCALES); do \
	  locale -a | grep -qix "$$(echo $$l | sed 's/UTF-8/utf8/')" || { \
	    echo "Generating the $$l locale"; if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO localedef -i $${l%%.*} -f UTF-8 $$l; }; done
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 toolchain not found: put swift on PATH (e.g. /opt/swift/usr/bin)"; exit 1; }

deps-orca: deps
	@$(call install-missing,$(ORCA_PACKAGES),--no-install-recommends)

build: deps locale
	$(SWIFT) build

# The compiled translations, checked by msgfmt (placeholders must match the English).
locale: $(MO_FILES) $(TOOLKIT_MO_FILES)
.build/locale/%/LC_MESSAGES/postcard.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check --output-file=$@ $<
.build/locale/%/LC_MESSAGES/navigation-gtk.mo: po/navigation-gtk/%.po
	@mkdir -p $(dir $@)
	msgfmt --check --output-file=$@ $<

# Updates the template from the sources and merges it into every translation (then translate what is new).
po:
	$(call make-pot,po/postcard.pot)  # xgettext's warnings about Swift's """ literals: .build/xgettext.log
	for lang in $(LINGUAS); do msgmerge --quiet --update --backup=none --no-location --sort-output po/$$lang.po po/postcard.pot; done
	$(call make-toolkit-pot,po/navigation-gtk/navigation-gtk.pot)
	for lang in $(LINGUAS); do msgmerge --quiet --update --backup=none --no-location --sort-output \
	  po/navigation-gtk/$$lang.po po/navigation-gtk/navigation-gtk.pot; done

run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  echo "No display (DISPLAY/WAYLAND_DISPLAY unset): run this from a desktop session, or try 'make review'."; exit 1; fi
	$$($(SWIFT) build --show-bin-path)/postcard $(ARGS)

# Everything, in lanes (Tests/make-test.sh: which lane runs what, side by side): the app and its tests in
# the release build (the one that ships), the toolkit alone in debug and release, Orca's journeys, the
# example, the resources, the install and the Debian package; each lane's time is printed at the end
# (docs/development.md gives the budget). Model tests need no display; GTK tests run under their own Xvfb and
# D-Bus session and fail (never skip) when they cannot open a display.
test: deps deps-orca locale
	@$(call install-missing,$(DEB_PACKAGES),--no-install-recommends)
	@$(SAMPLE_PHOTOS_ONE_TIME)
	SWIFT="$(SWIFT)" Tests/make-test.sh

# make test, then the app's GTK tests again in the debug build (what `make run` runs), in two lanes side
# by side: CI runs this.
check-all: test
	SWIFT="$(SWIFT)" Tests/make-test.sh --debug-app

# The translation templates are current and every translation complete (make test runs it first).
check-translations:
	@$(call make-pot,.build/postcard.pot) && \
	  { diff -q -I '^"POT-Creation-Date' .build/postcard.pot po/postcard.pot >/dev/null || \
	    { echo "po/postcard.pot is out of date: run make po, then translate what is new"; exit 1; }; } && \
	  $(call make-toolkit-pot,.build/navigation-gtk.pot) && \
	  { diff -q -I '^"POT-Creation-Date' .build/navigation-gtk.pot po/navigation-gtk/navigation-gtk.pot >/dev/null || \
	    { echo "po/navigation-gtk/navigation-gtk.pot is out of date: run make po, then translate what is new"; exit 1; }; } && \
	  for po in $(foreach lang,$(LINGUAS),po/$(lang).po po/navigation-gtk/$(lang).po); do \
	    [ "$$(msgattrib --untranslated $$po | grep -c '^msgid')" = 0 ] && [ "$$(msgattrib --only-fuzzy $$po | grep -c '^msgid')" = 0 ] || \
	      { echo "$$po is not complete: untranslated or fuzzy strings (msgattrib --untranslated / --only-fuzzy)"; exit 1; }; \
	  done

# The navigation toolkit alone (see TOOLKIT_BUILD): built without the app, its model tests, then its GTK
# tests without and with libadwaita. make test runs the same beside the app's tests.
test-toolkit: deps
	$(TOOLKIT_SWIFT) build --build-tests --scratch-path $(TOOLKIT_BUILD)
	$(RUN_TOOLKIT_TESTS)

# The random-action stress test, long: STRESS_SEQUENCES sequences (make test runs 200), shared out over
# STRESS_JOBS processes (one per core), each with its own Xvfb, D-Bus session and cache, running the
# sequences an unsharded run gives it, with the same seeds; a failure names its seed (replay with
# STRESS_SEED=<seed> STRESS_SEQUENCES=1, one process). Logs: .build/test-stress-K.log.
STRESS_SEQUENCES ?= 10000
STRESS_JOBS ?= $(if $(STRESS_SEED),1,$(shell nproc))
stress: deps locale
	@$(SAMPLE_PHOTOS_ONE_TIME)
	$(SWIFT) build --build-tests
	rm -rf $(TEST_CACHE) $(TEST_CACHE)-stress-*
	@echo "stress: $(STRESS_SEQUENCES) sequences in $(STRESS_JOBS) processes"
	@pids=; for k in $$(seq 0 $$(($(STRESS_JOBS) - 1))); do \
	  ( POSTCARD_STRESS_SEQUENCES=$(STRESS_SEQUENCES) POSTCARD_STRESS_SHARD=$$k/$(STRESS_JOBS) \
	    $(if $(STRESS_SEED),POSTCARD_STRESS_SEED=$(STRESS_SEED)) $(TEST_ENV) XDG_CACHE_HOME=$(TEST_CACHE)-stress-$$k \
	    dbus-run-session -- xvfb-run -a -n $$((300 + 20 * k)) -s "-screen 0 1280x800x24" \
	    "$$($(SWIFT) build --show-bin-path)/PostcardPackageTests.xctest" PostcardTests.StressTests \
	    >.build/test-stress-$$k.log 2>&1 ) & pids="$$pids $$!"; done; \
	  status=0; for pid in $$pids; do wait $$pid || status=1; done; \
	  grep -hE 'stress:|error:|Executed .* tests?, with' .build/test-stress-*.log; exit $$status

# Installs into a temporary DESTDIR, validates the desktop files and starts the installed app with the
# toolchain off PATH and LD_LIBRARY_PATH (Tests/install-test.sh).
# The toolkit as another app uses it: Examples/ (a package of its own) built, tested and started; the
# snippets of docs/toolkit.md checked against it.
test-example: deps
	SWIFT="$(SWIFT)" Tests/example-test.sh

# What a blind user hears: Postcard driven with real keys under Orca 43 (speech-dispatcher's dummy module),
# Orca's words for each key compared with Tests/orca/journeys.txt (Tests/orca/orca-journeys.py). What was
# heard is written to .build/orca-journeys.actual.txt, in the same format. `make test` runs them too.
test-orca: deps-orca
	@$(SAMPLE_PHOTOS_ONE_TIME)
	$(SWIFT) build --product postcard
	$(SWIFT) build --product postcard-review
	$(ORCA_JOURNEYS)
	$(ORCA_REVIEW_CHECK)

test-install: deps locale
	@$(call install-missing,$(DEB_PACKAGES),--no-install-recommends)
	./Tests/install-test.sh
	./Tests/deb-test.sh

# Style sheets and translations are compiled during `swift build` (Plugins/CompileResources), not committed:
# this checks, in a copy of the package, that an edited navigation.css and de.po are in the next build.
test-resources: deps
	SWIFT="$(SWIFT)" Tests/resources-test.sh

# The installed app: the release build make test tests (RELEASE, in .build; the Swift runtime linked in, so it
# runs without the toolchain: Package.swift), its resources, and the desktop files (launcher, AppStream
# metainfo, icons, D-Bus activation).
APP_ID := io.github.postcard.Postcard
install: deps locale
	$(SWIFT) build $(RELEASE) --product postcard
	install -D -m 755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/postcard" "$(DESTDIR)$(PREFIX)/bin/postcard"
	mkdir -p "$(DESTDIR)$(PREFIX)/share/postcard"
	cp -r Resources/. "$(DESTDIR)$(PREFIX)/share/postcard/"
	for lang in $(LINGUAS); do for domain in postcard navigation-gtk; do \
	  install -D -m 644 .build/locale/$$lang/LC_MESSAGES/$$domain.mo "$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/$$domain.mo"; \
	done; done
	mkdir -p "$(DESTDIR)$(PREFIX)/share/applications" "$(DESTDIR)$(PREFIX)/share/metainfo"
	msgfmt --desktop --template=data/$(APP_ID).desktop -d po -o "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop"
	msgfmt --xml --template=data/$(APP_ID).metainfo.xml -d po -o "$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml"
	install -D -m 644 data/icons/hicolor/scalable/apps/$(APP_ID).svg "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -D -m 644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg "$(DESTDIR)$(PREFIX)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	mkdir -p "$(DESTDIR)$(PREFIX)/share/dbus-1/services"
	sed 's|@bindir@|$(PREFIX)/bin|' data/$(APP_ID).service.in > "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(APP_ID).service"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/postcard" "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop" \
	  "$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml" \
	  "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg" \
	  "$(DESTDIR)$(PREFIX)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg" \
	  "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(APP_ID).service"
	for lang in $(LINGUAS); do rm -f "$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/postcard.mo" \
	  "$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/navigation-gtk.mo"; done
	rm -rf "$(DESTDIR)$(PREFIX)/share/postcard"

# The Debian package (packaging/make-deb.sh): postcard_VERSION_ARCH.deb in this folder, from make install into
# a staging folder, Depends from dpkg-shlibdeps, checked by lintian (an error fails it). Needs dpkg-dev and
# lintian (installed when missing).
DEB_PACKAGES := dpkg-dev lintian
deb: deps locale
	@$(call install-missing,$(DEB_PACKAGES),--no-install-recommends)
	packaging/make-deb.sh

# The review gallery (for UX review): every screen in every state, light, dark and high contrast, 360 and 1280 px wide,
# left to right and right to left, and 360 px at 2×, as GTK renders them, with review/index.html. The
# gallery before is kept in review.previous/ and compared: index.html lists the pictures that changed.
# A larger Xvfb screen holds the 2× window (720 × 1440 device pixels).
# The gallery's styles are set by the tour, not read from the desktop (memory settings, no portal).
REVIEW_XVFB := GSETTINGS_BACKEND=memory ADW_DISABLE_PORTAL=1 dbus-run-session -- xvfb-run -a -s "-screen 0 2560x1600x24"
# JOURNEY=FILE: a picture of each step of a recorded journey (postcard --record FILE) instead, in every
# part and style, in review-journey/ (the one before in review-journey.previous/, compared).
REVIEW_DIR = $(if $(JOURNEY),review-journey,review)
# First the tour runs once under Orca (at 1280 px), saving what Orca said as each screen appeared, which the
# index shows under the screen; make review fails, after the gallery is made, when that run failed.
review: build deps-orca
	@$(SAMPLE_PHOTOS_ONE_TIME)
	@if [ -d $(REVIEW_DIR) ]; then rm -rf $(REVIEW_DIR).previous && mv $(REVIEW_DIR) $(REVIEW_DIR).previous; fi
	$(ORCA_REVIEW) "$(CURDIR)/$(REVIEW_DIR)" $(if $(JOURNEY),--journey "$(abspath $(JOURNEY))"); orca=$$?; \
	$(REVIEW_XVFB) "$$($(SWIFT) build --show-bin-path)/postcard-review" --review-tour "$(CURDIR)/$(REVIEW_DIR)" --camera test \
	  $(if $(JOURNEY),--journey "$(abspath $(JOURNEY))") \
	  $$([ -d $(REVIEW_DIR).previous ] && echo --compare "$(CURDIR)/$(REVIEW_DIR).previous") && exit $$orca

# Scale benchmarks (a program, not tests): release build, under Xvfb; data is made once in
# $(BENCH_CACHE) (outside the repository); results go to bench/results.md, then the navigation
# benchmarks' to bench/navigation.md.
BENCH_CACHE ?= $(HOME)/.cache/postcard-bench
# The bench programs, built for release; RUN_BENCH runs PostcardBench under Xvfb with its data folder.
bench-programs: deps
	$(SWIFT) build $(RELEASE) --product postcard-measure
	$(SWIFT) build $(RELEASE) --product postcard-review
	$(SWIFT) build $(RELEASE) --product PostcardBench
	mkdir -p "$(BENCH_CACHE)/xdg-cache"
RUN_BENCH = XDG_CACHE_HOME="$(BENCH_CACHE)/xdg-cache" $(XVFB) "$$($(SWIFT) build $(RELEASE) --show-bin-path)/PostcardBench" \
	--cache "$(BENCH_CACHE)"

bench: bench-programs
	$(RUN_BENCH) --out "$(CURDIR)/bench/results.md" --navigation-out "$(CURDIR)/bench/navigation.md" \
	  --hostile-out "$(CURDIR)/bench/hostile-input.md"

# The navigation benchmarks alone (issues 12 and 25: pushes and pops against the same widget work in C,
# three times, the app's own work per frame, main-actor hops, idle wake-ups also after the review tour with
# 100 photos, flow and stack cycles, start-up against a bare C window): about twenty minutes; results go to
# bench/navigation.md.
bench-navigation: bench-programs
	$(RUN_BENCH) --navigation-only --navigation-out "$(CURDIR)/bench/navigation.md"

# The hostile-input benchmarks alone (issue 22: a photo file far larger than its pixels, a megabyte of
# comment, each against an ordinary photo and comment in the same run; issue 46: a storm of 1,000 links over
# D-Bus against the last link alone): a few minutes; results go to bench/hostile-input.md.
bench-hostile: bench-programs
	$(RUN_BENCH) --hostile-only --hostile-out "$(CURDIR)/bench/hostile-input.md"

# The toolkit's public API as swift-api-digester dumps it, written to api/ (make test fails while the API
# differs from it, with the digester's diagnosis): run after an intended API change and commit api/ with it.
api-baseline: deps
	$(SWIFT) build
	/usr/bin/python3 Tests/api-baseline.py "$$($(SWIFT) build --show-bin-path)" --update

# The toolkit's API documentation (DocC): each library module's public symbol graph with its catalogue of
# articles (Sources/<Module>/<Module>.docc), converted by the toolchain's docc into a static site in
# .build/docs (serve it: python3 -m http.server -d .build/docs). A warning fails it; make test runs it.
DOC_MODULES := GLib Gtk Navigation NavigationGtk NavigationWeb
docs: deps
	@dir=$$($(SWIFT) package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p'); \
	  SWIFT="$(SWIFT)" Tests/build-docs.sh "$$dir" .build/docs $(DOC_MODULES)

clean:
	rm -rf .build review review.previous review-journey review-journey.previous
