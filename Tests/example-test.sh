#!/usr/bin/env bash
# `make test-example`: the toolkit used as another app uses it. Builds Examples/ (a separate package that
# depends on this checkout by path, as docs/toolkit.md says), checks the build prints no warning, runs its
# tests under Xvfb, starts the `swatches` program and reads its window over AT-SPI, and checks that every
# Swift code listing in the toolkit's DocC articles (Sources/*/*.docc) is that example's code, word for word.
# Prints "example test: passed" or what failed (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "example test: FAILED: $*" >&2; exit 1; }
swift=${SWIFT:-swift}
log=.build/example-build.log
mkdir -p .build

# From scratch each time, as an adopter builds it: an incremental build of a path dependency can keep
# client code compiled against an older layout of the toolkit's classes (it crashed once that way).
rm -rf Examples/.build
$swift build --package-path Examples --build-tests > "$log" 2>&1 || { tail -30 "$log"; fail "Examples did not build"; }
# SwiftPM's own note about pkg-config flags it drops (GTK's `-pthread -mfpmath=sse`) is not from this
# code and not yet avoidable (see the README); any other warning fails.
if grep -E "warning:" "$log" | grep -v "prohibited flag"; then fail "building Examples printed warnings (above)"; fi

server=(-a); [ -n "${XVFB_SERVER_NUM:-}" ] && server=(-n "$XVFB_SERVER_NUM")  # make test gives each lane its own display
xvfb=(dbus-run-session -- xvfb-run "${server[@]}" -s "-screen 0 1280x800x24")
# The desktop's settings in a keyfile of the test's own: a test changes them with `gsettings`, as Settings would.
settings_home=$(mktemp -d); trap 'rm -rf "$settings_home"' EXIT
GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$settings_home" \
G_DEBUG=fatal-warnings "${xvfb[@]}" $swift test --package-path Examples --skip-build > .build/example-test.log 2>&1 \
  || { grep -E "error:|failed|Executed" .build/example-test.log | head -20; fail "the example's tests"; }
grep -E "Executed [0-9]+ tests, with 0 failures" .build/example-test.log | tail -1

# The program itself, as a user starts it, in German: its window, read the way a screen reader reads it;
# then Details pressed over AT-SPI, and the toolkit's Back read in German from the toolkit's own catalogue
# (Swatches ships no translation; its own strings stay English).
bin=$($swift build --package-path Examples --show-bin-path)
# The toolkit is plain GTK: a program built on it does not load libadwaita (Postcard adds that itself).
if ldd "$bin/swatches" | grep -q libadwaita; then fail "swatches links libadwaita: the toolkit must stay plain GTK"; fi
names="/usr/bin/python3 Tests/GtkTesting/Scripts/atspi_names.py"
cat > .build/example-run.sh <<SCRIPT
LANGUAGE=de LANG=de_DE.UTF-8 "$bin/swatches" & app=\$!
for _ in \$(seq 1 100); do
  if $names \$app 2>/dev/null | grep -qx "push button|Pick a Color…"; then
    $names \$app; $names \$app --press Details || { kill \$app; exit 1; }
    for _ in \$(seq 1 50); do
      if $names \$app 2>/dev/null | grep -qx "push button|Zurück"; then $names \$app; kill \$app; exit 0; fi
      sleep 0.2
    done
    $names \$app; kill \$app; exit 1
  fi
  sleep 0.2
done
kill \$app; exit 1
SCRIPT
"${xvfb[@]}" bash .build/example-run.sh > .build/example-run.log 2>&1 || { cat .build/example-run.log; fail "swatches did not show its window"; }
grep -qx "frame|Swatches" .build/example-run.log || { cat .build/example-run.log; fail "the window is not named after its page"; }
grep -qx "push button|Zurück" .build/example-run.log || { cat .build/example-run.log; fail "the toolkit's Back is not in German"; }
# Each text button reads its name once ("Details", not "Details Details").
if grep -E "^push button\|(.+) \1$" .build/example-run.log; then fail "a button reads its name twice (above)"; fi

# Idle after its flow: the flow started with a plain `Task { }` (SwatchesApp.pickColor) is opened and
# cancelled twice over AT-SPI, then every thread of the process is read from /proc for 10 s (once the
# threads that retire once are gone): Swift's concurrency runs on GLib (GLibExecutors), so nothing
# wakes. libdispatch's pool, were it started, would wake the process once a second.
cat > .build/example-idle.sh <<SCRIPT
"$bin/swatches" & app=\$!
switches() { cat /proc/\$app/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += \$2 } END { print n }'; }
for _ in \$(seq 1 100); do $names \$app 2>/dev/null | grep -qx "push button|Pick a Color…" && break; sleep 0.2; done
for round in 1 2; do
  $names \$app --press "Pick a Color…" || { kill \$app; exit 1; }
  for _ in \$(seq 1 50); do $names \$app 2>/dev/null | grep -qx "push button|Cancel" && break; sleep 0.2; done
  $names \$app --press Cancel || { kill \$app; exit 1; }
  for _ in \$(seq 1 50); do $names \$app 2>/dev/null | grep -qx "push button|Cancel" || break; sleep 0.2; done
done
sleep 3  # the flow's last frames drawn, AT-SPI's questions answered
# Threads that retire once are gone first: GLib's shared pool ("pool-…", GTK's and GIO's asynchronous
# work) ends an idle thread 15 s after its last job.
for _ in \$(seq 1 40); do grep -qx "pool-.*" /proc/\$app/task/*/comm 2>/dev/null || break; sleep 0.5; done
# The AT-SPI reader above is another process: the window below has no client asking the app anything.
threads() { for t in /proc/\$app/task/*; do echo "\$(cat \$t/comm)=\$(awk '/ctxt_switches/ { n += \$2 } END { print n }' \$t/status)"; done; }
before=\$(switches); threads > .build/example-idle-before.txt
sleep 10
after=\$(switches); threads > .build/example-idle-after.txt
kill \$app
echo "idle-wake-ups \$((after - before))"
grep -E -- "-qos|qos.overcommit" .build/example-idle-after.txt && echo "libdispatch-pool started" || true
SCRIPT
"${xvfb[@]}" bash .build/example-idle.sh > .build/example-idle.log 2>&1 || { cat .build/example-idle.log; fail "swatches' flow could not be opened and cancelled"; }
grep -q "libdispatch-pool started" .build/example-idle.log && { cat .build/example-idle.log; fail "swatches started libdispatch's thread pool"; }
wakeups=$(sed -n 's/^idle-wake-ups //p' .build/example-idle.log)
[ "$wakeups" = 0 ] || { cat .build/example-idle.log; paste -d' ' .build/example-idle-before.txt .build/example-idle-after.txt; \
  fail "swatches woke $wakeups times in 10 s of idle after its flow (0 expected)"; }
echo "swatches after its flow twice: 0 wake-ups in 10 s idle"

/usr/bin/python3 - <<'PY' || fail "the code listings of the toolkit's articles differ from Examples/ (above)"
import pathlib, re, sys
section = "\n".join(p.read_text() for p in sorted(pathlib.Path("Sources").glob("*/*.docc/*.md")))
sources = "\n".join(p.read_text() for p in pathlib.Path("Examples").rglob("*.swift") if ".build" not in p.parts)
snippets = re.findall(r"```swift\n(.*?)```", section, re.S)
missing = [s for s in snippets if s.strip() not in sources]
for s in missing:
    print("not in Examples/:\n" + s, file=sys.stderr)
if not snippets or missing:
    sys.exit(1)
print(f"the toolkit's articles: {len(snippets)} code listings, each the example's own code")
PY
echo "example test: passed"
