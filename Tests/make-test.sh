#!/usr/bin/env bash
# `make test`: every check, in lanes, with the time of each printed at the end (docs/development.md gives
# the budget). Run by `make test` after it has installed what is missing; SWIFT names the toolchain's swift.
#
#   checks    translations complete and templates current, README/docs links, the isolation guard
#   build     the app and all its tests in the release configuration (the one that ships), then the
#             toolkit alone with its tests in the debug configuration (a package without the app)
#   api       the toolkit's public API (no undocumented or test-only declarations), its DocC site, and the
#             committed API baseline: from the toolkit's own build
# then, side by side (each with its own display, D-Bus session, runtime folder and cache):
#   app-1/2   the app's GTK tests in the release build, shared out over two processes (the stress test's
#             sequences too: half each)
#   toolkit   the toolkit's model tests, then its GTK tests: in its own debug build as a plain GTK app uses
#             the toolkit, then in the release build with libadwaita loaded, as an app built on it does
#   resources an edited style sheet and translation are in the next build (a copy of the package)
#   example   the Swatches example, a package of its own, built, tested and started
#   install   make install into a folder and the installed program started; the Debian package built,
#             installed, opened with a link and removed
# and once the last four have ended, beside the app's lanes:
#   orca      Orca's spoken journeys, then the review tour under Orca (one Orca at a time)
# Every test process is bounded (`bounded`): one that hangs fails its lane, never the whole run.
#
# With --debug-app (`make check-all`, what CI runs after make test): the app and its tests built in the
# debug configuration, what `make run` runs, and the app's GTK tests run in it in the same two lanes
# (debug-1/2, logs in .build/lanes-debug/).
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
lanes=.build/lanes  # .build/lanes-debug for --debug-app
[ "${1:-}" = --debug-app ] && lanes=.build/lanes-debug
rm -rf "$lanes"
mkdir -p "$lanes"
# A crash's backtrace names functions but reads no line tables: reading them for the test bundle's
# debug information can take many minutes (Swift's backtracer, symbolicate=full).
export TEST_ENV_BASE="G_DEBUG=fatal-warnings GSETTINGS_BACKEND=memory ADW_DISABLE_PORTAL=1 SWIFT_BACKTRACE=interactive=no,symbolicate=fast"
RELEASE=(-c release -Xswiftc -enable-testing)
TOOLKIT=(--scratch-path .build/toolkit)
started=$(date +%s)

# lane NAME COMMAND…: runs COMMAND with its output in $lanes/NAME.log and a runtime folder of its own
# ($XDG_RUNTIME_DIR: the accessibility bus's socket is made there, and two lanes sharing one would end each
# other's); records its time and status.
lane() {
  local name=$1; shift
  local begin; begin=$(date +%s.%N)
  local runtime; runtime=$(mktemp -d /tmp/postcard-lane-XXXXXX)
  ( export XDG_RUNTIME_DIR=$runtime; "$@" ) > "$lanes/$name.log" 2>&1
  local status=$?
  rm -rf "$runtime"
  echo "$status $begin $(date +%s.%N)" > "$lanes/$name.time"
  return $status
}

# bounded SECONDS COMMAND…: COMMAND, and every process it started, stopped if it runs SECONDS. An upper
# bound for a hang, never a measure (the lanes' usual times are in docs/development.md): a crash whose
# backtrace never ends, or a process that waits for ever, fails its lane instead of the whole CI run.
bounded() {
  local limit=$1; shift
  timeout --kill-after=30 "$limit" "$@"  # the command's own process group, all of it
  local status=$?
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "make test: stopped after $limit s, far over its usual time (it hung?): $*"
  fi
  return $status
}

# isolated N SECONDS COMMAND…: COMMAND with a display (number N) and D-Bus session of its own, bounded.
isolated() {
  local display=$1 limit=$2; shift 2
  bounded "$limit" dbus-run-session -- xvfb-run -n "$display" -s "-screen 0 1280x800x24" "$@"
}

lane_names="checks build api app-1 app-2 toolkit orca resources example install"
summary() {
  echo
  echo "make test lanes (wall-clock seconds; side-by-side lanes overlap):"
  for name in $lane_names; do
    [ -f "$lanes/$name.time" ] || continue
    read -r status begin end < "$lanes/$name.time"
    printf "  %-10s %5.0f s  %s\n" "$name" "$(awk "BEGIN { print $end - $begin }")" \
      "$([ "$status" = 0 ] && echo passed || echo "FAILED ($lanes/$name.log)")"
  done
  printf "  %-10s %5d s\n" total $(( $(date +%s) - started ))
}
fail() { echo "make test: FAILED in the $1 lane ($lanes/$1.log):"; tail -40 "$lanes/$1.log"; summary; exit 1; }

# The app's GTK tests, in two lanes: the long ones that run programs of their own (the gallery, the tour
# over AT-SPI), the recorded journeys and the feed at scale in one process, the rest in the other, and the
# stress test's sequences in both (half each, POSTCARD_STRESS_SHARD). Each runs its test bundle itself (as
# `make stress` does): `swift test` takes the build folder's lock, so two of them on one folder would run
# one after the other.
classes() { "$bundle" --list-tests 2>/dev/null | sed -n "s|^\($1\.[A-Za-z0-9_]*\)/.*|\1|p" | sort -u; }
HEAVY='ReviewGalleryTests|AccessibilityTourTests|FeedScaleTests|JourneyTests'
split_app_tests() {
  app_1=$(classes PostcardTests | grep -E "\.($HEAVY|StressTests)\$" | paste -sd, -)
  app_2=$(classes PostcardTests | grep -vE "\.($HEAVY)\$" | paste -sd, -)
  [ -n "$app_1" ] && [ -n "$app_2" ] || { echo "make test: no test classes listed by $bundle"; exit 1; }
}
app_shard() {
  local shard=$1 display=$2 tests=$3
  rm -rf ".build/test-cache-$shard"
  isolated "$display" 1500 env $TEST_ENV_BASE XDG_CACHE_HOME="$PWD/.build/test-cache-$shard" POSTCARD_STRESS_SHARD="$((shard - 1))/2" \
    "$bundle" "$tests"
}
# report NAME…: each lane's test totals, then the lanes that failed (in $failed).
report() {
  failed=""
  for name in "$@"; do
    read -r status _ < "$lanes/$name.time"
    grep -A1 -E "^Test Suite '(All tests|Selected tests)' (passed|failed)" "$lanes/$name.log" | grep -E 'Executed' \
      | sed "s/^[[:space:]]*/$name: /"
    [ "$status" = 0 ] || failed="$failed $name"
  done
}

# `make check-all` (CI), after make test: the app's GTK tests again in the debug build, what `make run`
# runs, in the same two lanes.
if [ "${1:-}" = --debug-app ]; then
  lane_names="debug-build debug-1 debug-2"
  echo "building the app and its tests in the debug configuration: $lanes/debug-build.log"
  lane debug-build bounded 2400 $SWIFT build --build-tests || fail debug-build
  bundle=$($SWIFT build --show-bin-path)/PostcardPackageTests.xctest
  split_app_tests
  echo "the app's GTK tests in the debug build, side by side: $lanes/debug-1.log, $lanes/debug-2.log"
  lane debug-1 app_shard 1 510 "$app_1" & first=$!
  lane debug-2 app_shard 2 530 "$app_2" & second=$!
  wait "$first"; wait "$second"
  report debug-1 debug-2
  for name in $failed; do
    echo "--- $name FAILED ($lanes/$name.log):"
    grep -E ': error: |FAILED|stopped after' "$lanes/$name.log" | head -30
  done
  summary
  [ -z "$failed" ] || exit 1
  exit 0
fi

# checks ---------------------------------------------------------------------------------------------
checks() {
  make --no-print-directory check-translations && /usr/bin/python3 Tests/check-doc-links.py &&
    /usr/bin/python3 Tests/check-isolation.py
}
lane checks checks || fail checks
cat "$lanes/checks.log"

# build ----------------------------------------------------------------------------------------------
build() {
  bounded 2400 $SWIFT build "${RELEASE[@]}" --build-tests &&
    bounded 1200 env POSTCARD_TOOLKIT_ONLY=1 $SWIFT build "${TOOLKIT[@]}" --build-tests
}
echo "building (release with tests, then the toolkit alone in debug): .build/lanes/build.log"
lane build build || fail build
release_bin=$($SWIFT build "${RELEASE[@]}" --show-bin-path)
toolkit_bin=$(env POSTCARD_TOOLKIT_ONLY=1 $SWIFT build "${TOOLKIT[@]}" --show-bin-path)

# api --------------------------------------------------------------------------------------------------
api() {
  local graphs
  graphs=$(env POSTCARD_TOOLKIT_ONLY=1 $SWIFT package "${TOOLKIT[@]}" dump-symbol-graph --minimum-access-level public 2>&1 \
    | sed -n 's/^Files written to //p')
  [ -n "$graphs" ] || { echo "dump-symbol-graph wrote no symbol graphs"; return 1; }
  /usr/bin/python3 Tests/check-public-api.py "$graphs" &&
    SWIFT="$SWIFT" Tests/build-docs.sh "$graphs" .build/docs GLib Gtk Navigation NavigationGtk NavigationWeb &&
    /usr/bin/python3 Tests/api-baseline.py "$toolkit_bin"
}

echo "the toolkit's public API, documentation and API baseline: .build/lanes/api.log"
lane api api || fail api
tail -3 "$lanes/api.log"

toolkit() {
  local cache=$PWD/.build/test-cache-toolkit
  rm -rf "$cache"
  bounded 600 env -u DISPLAY -u WAYLAND_DISPLAY POSTCARD_TOOLKIT_ONLY=1 $SWIFT test "${TOOLKIT[@]}" --skip-build --filter '^NavigationTests\.' &&
    isolated 350 900 env $TEST_ENV_BASE XDG_CACHE_HOME="$cache" POSTCARD_TOOLKIT_ONLY=1 \
      $SWIFT test "${TOOLKIT[@]}" --skip-build --filter '^NavigationGtkTests\.' &&
    isolated 350 900 env $TEST_ENV_BASE XDG_CACHE_HOME="$cache" NAVIGATION_GTK_TESTS_WITH_LIBADWAITA=1 "$bundle" "$toolkit_release"
}
orca() {
  bounded 900 dbus-run-session -- xvfb-run -n 400 -s "-screen 0 1280x800x24" /usr/bin/python3 Tests/orca/orca-journeys.py \
    "$release_bin/postcard" Tests/orca/journeys.txt --actual .build/orca-journeys.actual.txt &&
  rm -rf .build/review-orca &&
    bounded 900 dbus-run-session -- xvfb-run -n 420 -s "-screen 0 2560x1600x24" /usr/bin/python3 Tests/orca/review-under-orca.py \
      "$release_bin/postcard-review" .build/review-orca --journey Tests/orca/review-check.journey --expect Tests/orca/review-check.txt
}

# the side-by-side lanes -----------------------------------------------------------------------------
bundle=$release_bin/PostcardPackageTests.xctest
split_app_tests
toolkit_release=$(classes NavigationGtkTests | paste -sd, -)
[ -n "$toolkit_release" ] || { echo "make test: no toolkit test classes listed by $bundle"; exit 1; }
echo "testing side by side: app-1, app-2, toolkit, resources, example, install, then orca (logs in .build/lanes/)"
lane app-1 app_shard 1 310 "$app_1" & app_pids="$!"
lane app-2 app_shard 2 330 "$app_2" & app_pids="$app_pids $!"
lane toolkit toolkit & pids="$!"
lane resources bounded 1200 env SWIFT="$SWIFT" Tests/resources-test.sh & pids="$pids $!"
lane example bounded 1200 env SWIFT="$SWIFT" XVFB_SERVER_NUM=370 Tests/example-test.sh & pids="$pids $!"
lane install bounded 1200 bash -c './Tests/install-test.sh && ./Tests/deb-test.sh' & pids="$pids $!"
for pid in $pids; do wait "$pid"; done
# Orca once the lanes that compile have ended, beside the app's two lanes (about two busy cores, the load
# its journeys are checked under: docs/development.md); one Orca at a time.
echo "Orca's journeys, then the review tour under Orca: .build/lanes/orca.log"
lane orca orca & app_pids="$app_pids $!"
for pid in $app_pids; do wait "$pid"; done

# What each lane says (each test run's totals), then whether it passed.
report app-1 app-2 toolkit orca resources example install
# A skipped test fails the run (make test runs as CI does: with a display, as root, on GSettings' memory backend).
/usr/bin/python3 - "$lanes"/*.log <<'PY'
import re, sys
runs = passed = skipped = failed = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for top, line in zip(lines, lines[1:]):
        if re.match(r"Test Suite '(All tests|Selected tests)' (passed|failed)", top):
            m = re.search(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?", line)
            if m:
                runs += 1
                n, s, f = int(m.group(1)), int(m.group(2) or 0), int(m.group(3))
                passed += n - s - f; skipped += s; failed += f
print(f"tests: {passed} passed, {skipped} skipped, {failed} failed (in {runs} runs)")
sys.exit(1 if skipped else 0)
PY
[ $? = 0 ] || failed="$failed skipped-tests"
grep -E '^[a-z0-9-]+: (heard|DIFFERS|skipped)|^  |^orca journeys:|^review under Orca:' "$lanes/orca.log"
grep -hE '^(resources test|example test|idle-wake-ups|install test|deb test|make deb)' "$lanes/resources.log" "$lanes/example.log" "$lanes/install.log" || true
for name in $failed; do
  [ "$name" = skipped-tests ] && { echo "--- a test was skipped (make test runs every one): grep -n 'skipped' .build/lanes/*.log"; continue; }
  echo "--- $name FAILED (.build/lanes/$name.log):"
  grep -E ': error: |FAILED|DIFFERS|^  ' "$lanes/$name.log" | grep -v atspi_error | head -30
done
[ -z "$failed" ] || { summary; exit 1; }

summary
