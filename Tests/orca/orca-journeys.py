#!/usr/bin/env python3
"""What a blind user hears: Postcard driven with real keys (XTEST, through xdotool) under Debian's Orca 43,
and Orca's exact words for each key press compared with `journeys.txt`.

Run inside a display and a D-Bus session (`make test-orca` does: dbus-run-session -- xvfb-run …):

    orca-journeys.py POSTCARD JOURNEYS [--only NAME] [--actual FILE]

Orca speaks through speech-dispatcher's `dummy` module (no sound card here; the default espeak module hangs),
with a private configuration and cache (an earlier run's speech-dispatcher socket is never reused), and key
echo off, under a window manager (metacity, GNOME's own), which gives new windows the focus and gives it back
when a dialog closes, as on a desktop. What it says is read from its debug log (`SPEECH OUTPUT: '…'` lines,
written before any synthesizer is asked), which Orca writes to a terminal the harness reads (line by line,
as said); the words for a key are those said after it is pressed and before the next. The next key is
pressed when Orca has done with this one, read from Orca's own log: the key's release processed, every
event Orca queued since taken from its queue and processed (its `Queueing`/`Dequeued` and `vvvvv PROCESS`/
`^^^^^ PROCESS` lines balance), and the words the journey expects for the key heard. No fixed wait: a
difference fails at once, the next key's words then show where the late ones went. Each journey starts a
new Postcard on an empty data folder.

Every journey is checked for what DESIGN.md and issue 44 ask of any screen, beside its own words: no GTK or
libadwaita type name is spoken, and no utterance is repeated within one key press.

Each journey is played once: one that differs fails.

Exits 0 when every journey was heard as written; 1 with what differed, or when Orca cannot start (a failure,
never a skip). `--actual FILE` writes what was heard in the journeys file's own format, to review and copy.
"""
import os
import pty
import re
import shutil
import signal
import select
import subprocess
import sys
import tempfile
import threading
import time
import tty

KEY_TIMEOUT = 60   # seconds: an upper bound for failure (a key whose words never come), never a wait
START = "(start)"
TYPE_NAME = re.compile(r"\b(Gtk|Adw|Gdk)[A-Z]\w*")


def parse(path):
    """The journeys: [(name, args, [(key, [expected utterance…])])]. The setup steps (`type`) have no words."""
    journeys, current = [], None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or (line.startswith("#") and not line.startswith("## ")):
            continue
        if line.startswith("## "):
            current = (line[3:].strip(), [], [])
            journeys.append(current)
        elif current is None:
            sys.exit(f"{path}:{number}: a step before the first “## journey”")
        elif line.startswith("args "):
            current[1].extend(line[5:].split())
        elif line.startswith("disk "):
            current[1].append(("disk", int(line[5:])))
        elif line.strip() in ("fill", "free") or line.startswith(("key ", "open ", "size ", "gone ")):
            current[2].append((line.strip() if not line.startswith("key ") else line[4:].strip(), []))
        elif line.startswith(("say ", "say? ")):
            if not current[2]:
                current[2].append((START, []))  # what Orca says as the window comes up
            optional = line.startswith("say? ")
            current[2][-1][1].append((line[5:] if optional else line[4:], optional))
        else:
            sys.exit(f"{path}:{number}: not a journey line: {line!r}")
    return journeys


class Orca:
    """Orca 43 running on the session's AT-SPI bus, speaking to speech-dispatcher's dummy module.

    Its debug log goes to a terminal (a pty the harness reads), not to a file: Orca opens the log with Python's
    `open()`, which buffers a file in 8 KB blocks but a terminal by line, so the words for a key are seen as
    soon as Orca says them (with a file, the last lines before a pause stayed in Orca's buffer until the next
    key, and were taken for that key's)."""

    def __init__(self, home):
        self.log = os.path.join(home, "orca.log")
        config, prefs = os.path.join(home, "config"), os.path.join(home, "prefs")
        os.makedirs(os.path.join(config, "speech-dispatcher"))
        os.makedirs(prefs)
        with open(os.path.join(config, "speech-dispatcher", "speechd.conf"), "w") as conf:
            conf.write('AddModule "dummy" "sd_dummy" ""\nDefaultModule dummy\n')
        with open(os.path.join(prefs, "user-settings.conf"), "w") as conf:
            conf.write('{"general": {"enableKeyEcho": false}, "profiles": {"default": {"profile": ["Default", "default"],'
                       ' "pronunciations": {}, "keybindings": {}}}, "pronunciations": {}, "keybindings": {}}\n')
        self.env = dict(os.environ, XDG_CONFIG_HOME=config, XDG_CACHE_HOME=os.path.join(home, "cache"))
        self.bus = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=self.env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.buffer, self.lock = bytearray(), threading.RLock()
        self.changed = threading.Condition(self.lock)  # notified for each line Orca writes
        self.partial = b""
        # Counts over the whole log, kept line by line as Orca writes (see ``done``).
        self.queued = self.dequeued = self.begun = self.ended = self.releases = 0
        self.focus = ""  # where Orca's focus is after the last event it processed: "[role | name]" or "None"
        master, terminal = pty.openpty()
        tty.setraw(terminal)  # no "\r\n" for "\n"
        self.process = subprocess.Popen(["orca", "--replace", "-u", prefs, "--debug-file=/dev/stdout"], env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.DEVNULL)
        os.close(terminal)
        self.reader = threading.Thread(target=self._read, args=(master,), daemon=True)
        self.reader.start()
        if not self.wait(lambda: "Screen reader on." in self.text() or self.process.poll() is not None, 40) \
                or self.process.poll() is not None:
            self.stop()
            raise RuntimeError("Orca did not start (no “Screen reader on.” in its log): is the `orca` package "
                               "installed, with speech-dispatcher?")

    def _read(self, master):
        with open(self.log, "wb") as log:
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: Orca has closed the terminal
                    chunk = b""
                with self.changed:
                    if chunk:
                        self.buffer.extend(chunk)
                        lines = (self.partial + chunk).split(b"\n")
                        self.partial = lines.pop()
                        for line in lines:
                            self._count(line)
                    self.closed = not chunk
                    self.changed.notify_all()
                if not chunk:
                    break
                log.write(chunk)
        os.close(master)

    def _count(self, line):
        if b"EVENT MANAGER: Queueing " in line:
            self.queued += 1
        elif b"EVENT MANAGER: Dequeued " in line:
            self.dequeued += 1
        elif line.startswith(b"vvvvv PROCESS "):
            self.begun += 1
        elif line.startswith(b"^^^^^ PROCESS "):
            self.ended += 1
            if b"ATSPI_KEY_RELEASED_EVENT" in line:
                self.releases += 1
        elif b"EVENT MANAGER: locusOfFocus: " in line:  # where the focus is, once an event is processed
            self.focus = line.split(b"locusOfFocus: ", 1)[1].split(b" activeScript:", 1)[0].decode("utf-8", errors="replace")

    def wait(self, condition, timeout):
        """Waits until `condition()` holds, checked each time Orca writes a line (or its log closes), for at
        most `timeout` seconds (an upper bound for failure); returns whether it holds."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0 or getattr(self, "closed", False):
                    return condition()
                self.changed.wait(left)
            return True

    def done(self):
        """Whether Orca has nothing in hand: every event it queued has been taken from its queue and
        processed (call with the lock held, as ``wait`` does)."""
        return self.queued == self.dequeued and self.begun == self.ended

    def text(self):
        return self.since(0)

    def size(self):
        with self.lock:
            return len(self.buffer)

    def since(self, offset):
        with self.lock:
            return bytes(self.buffer[offset:]).decode("utf-8", errors="replace")

    def stop(self):
        for process in (self.process, self.bus):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
        if getattr(self, "reader", None):
            self.reader.join(5)


def on_a_control(focus):
    """Whether Orca's locus of focus ("[role | name]", from its log) is on something a user acts on, not on
    the window or a container around it: where a window's first words end."""
    role = focus.strip("[]").split(" | ")[0]
    return bool(role) and role not in ("frame", "window", "application", "panel", "filler", "dialog", "invalid")


def spoken(log):
    """The utterances in a piece of Orca's log, in order (key echo is off)."""
    return [match.group(1) for match in re.finditer(r"SPEECH OUTPUT: '(.*?)'(?:\{| ?$)", log, re.M)]


def matches(words, expected):
    """Whether `words` are the expected utterances in order, an optional one (`say?`) heard or not."""
    index = 0
    for text, optional in expected:
        if index < len(words) and words[index] == text:
            index += 1
        elif not optional:
            return False
    return index == len(words)


def use_private_runtime_folder(home):
    """Gives this run's D-Bus session, and everything it starts, a runtime folder of its own
    ($XDG_RUNTIME_DIR): the accessibility bus's socket is made there (`at-spi/bus`). Without one, every
    session on the machine that has no XDG_RUNTIME_DIR made it at the same place (~/.cache/at-spi/bus), and
    when another session's bus ended it deleted the socket: Postcards started after that could not reach
    this session's bus, and Orca heard nothing of them ("HOST_APP: [DEAD]" in its log). The session bus
    is told too, for the services it starts itself (the accessibility bus, when metacity asks for it)."""
    runtime = os.path.join(home, "runtime")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = runtime
    subprocess.run(["dbus-update-activation-environment", f"XDG_RUNTIME_DIR={runtime}"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_desktop(home):
    """What a blind user's desktop has, for a run in `home`: a runtime folder of its own
    (``use_private_runtime_folder``), a window manager (metacity, GNOME's own: it gives a new window the
    focus and gives it back to the window under a closing dialog, which Orca then says) and Orca.
    Returns (the window manager's process, Orca); raises RuntimeError saying what did not start."""
    use_private_runtime_folder(home)
    manager_log = open(os.path.join(home, "metacity.log"), "w+")
    manager = subprocess.Popen(["metacity", "--replace", "--sm-disable", "--no-composite"],
                               env=dict(os.environ, GSETTINGS_BACKEND="memory"),
                               stdout=manager_log, stderr=subprocess.STDOUT)
    # Running once it has said so on the root window (EWMH's _NET_SUPPORTING_WM_CHECK): `xprop -spy` prints
    # the root window's properties now and each one that changes (a line each: stdbuf, as xprop writes to a
    # pipe; all of them, since xprop will not watch a property whose atom does not exist yet); at most 30 s
    # (an upper bound: beside the app's lanes it once had not said so within 10 s).
    spy = subprocess.Popen(["stdbuf", "-oL", "xprop", "-root", "-spy"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    deadline, running = time.monotonic() + 30, False
    try:
        while not running and manager.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([spy.stdout], [], [], max(0, deadline - time.monotonic()))
            line = spy.stdout.readline() if ready else ""
            running = line.startswith("_NET_SUPPORTING_WM_CHECK(WINDOW): window id")
            if ready and not line:
                break  # xprop ended
    finally:
        spy.terminate()
        spy.wait()
    if not running or manager.poll() is not None:
        status = manager.poll()
        manager.terminate()
        manager_log.seek(0)
        said = manager_log.read().strip()[-600:]
        why = f"it exited with status {status}" if status is not None else "it had not set _NET_SUPPORTING_WM_CHECK after 30 s"
        raise RuntimeError(f"the window manager (metacity) did not start: {why}" + (f"; it said: {said}" if said else ""))
    try:
        return manager, Orca(home)
    except RuntimeError:
        manager.terminate()
        raise


class Skipped(Exception):
    """A journey that cannot run here, and why (as FullDiskTests skips where no tmpfs can be mounted)."""


class Stalled(Exception):
    """Orca had not done with a key within KEY_TIMEOUT: the journey stops there (the keys after it would
    each wait as long), a failure that says where."""


def run(postcard, journey, orca, home):
    """Plays one journey; returns [(key, heard)], the first for START (what was said as the window came)."""
    name, options, steps = journey
    args = [a for a in options if isinstance(a, str)]
    disk = next((kb for option, kb in (o for o in options if isinstance(o, tuple)) if option == "disk"), None)
    # Its own data folder, as $XDG_DATA_HOME rather than --data-dir: a second `postcard LINK` (an `open`
    # step) then goes to this Postcard, as from a browser.
    data = os.path.join(home, "data-" + re.sub(r"\W", "-", name))
    filler = os.path.join(data, "filler")
    if disk is not None:  # a small file system of its own, to fill (`fill`) and free (`free`)
        os.makedirs(data)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={disk}k", "tmpfs", data],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            raise Skipped(f"a full disk is made with a tmpfs, which could not be mounted: {mounted.stderr.strip()}")
    env = dict(orca.env, GSETTINGS_BACKEND="memory", ADW_DISABLE_PORTAL="1", LANGUAGE="en", LANG="C.UTF-8",
               XDG_DATA_HOME=data)
    begin = orca.size()
    with orca.lock:
        orca.focus = ""  # where the last journey left it: this one's window has not taken the focus yet
    # Its output beside Orca's log (kept with POSTCARD_ORCA_KEEP=1): why it ended, if it ended early.
    with open(os.path.join(home, "postcard-" + re.sub(r"\W", "-", name) + ".log"), "wb") as output:
        app = subprocess.Popen([postcard] + args, env=env, stdout=output, stderr=subprocess.STDOUT)
    keys = [key for key, _ in steps if key != START]
    expectations = [expected for key, expected in steps if key != START]
    try:
        # The window is up, and has the keyboard focus (the window manager gives it; asked again, in case
        # it came before the window manager saw it); then Orca has said what it says about it: its focus
        # is on a control of the window and it has nothing more in hand.
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(app.pid)],
                               capture_output=True, text=True, timeout=30)
        window = found.stdout.split()[0] if found.stdout.split() else None
        if window is None:
            raise RuntimeError(f"{name}: Postcard showed no window")
        subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
        start = steps[0][1] if steps and steps[0][0] == START else None

        def ready():
            return orca.done() and on_a_control(orca.focus) and (start is None or matches(spoken(orca.since(begin)), start))

        # GTK 4.8 joins the accessibility bus asynchronously: on a busy machine the window came and took the
        # focus before the registry had the application, and Orca, which could not tell whose events those
        # were ("[DEAD] in [DEAD]" in its log), took up nothing, and heard no key after. Once Orca has seen
        # Postcard join (the desktop's children-changed:add) and has nothing in hand, a window it has not
        # taken up is given the focus again, as a user switching back to it would: Postcard says its focus
        # again when its window becomes active (NavigationWindow), now to an Orca that knows it.
        joined = re.compile(r"children-changed:add for \[desktop frame \| main\] in None \(\d+, 0, \[application \| postcard\]\)")
        orca.wait(lambda: ready() or (orca.done() and joined.search(orca.since(begin)) is not None), KEY_TIMEOUT)
        log = orca.since(begin)
        join = joined.search(log)
        # Only when the window's activation, and the focus Postcard says again after it (NavigationWindow's
        # sayFocusOnceActive, which Orca takes a window up from when it missed the activation), were both
        # among the events Orca could not tell whose they were: then nothing more would come.
        before = log[:join.start()] if join else ""
        activation = before.find("object:state-changed:active for [DEAD] in [DEAD] (1, 0, 0)")
        if not ready() and join and activation >= 0 and "focus: for [DEAD] in [DEAD]" in before[activation:]:
            root = re.search(r"Window id: (0x[0-9a-f]+)", subprocess.run(["xwininfo", "-root"], capture_output=True,
                                                                          text=True).stdout).group(1)
            print(f"{name}: Orca missed the window's activation and focus (they came before Postcard had joined the bus): its focus given again",
                  file=sys.stderr)
            subprocess.run(["xdotool", "windowfocus", "--sync", root], check=True)
            subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
        if not orca.wait(ready, KEY_TIMEOUT):
            with orca.lock:
                where, done = orca.focus or "nothing", orca.done()
            if start is None or not done or not on_a_control(where):  # words that differ are reported below
                raise Stalled(f"the window came, but after {KEY_TIMEOUT} s Orca's focus was on {where} "
                              f"({'every' if done else 'not every'} event it queued processed)")
        offsets = []
        for key, expected in zip(keys, expectations):
            offsets.append(orca.size())
            releases = orca.releases
            pressed = 0  # key releases Orca is to see
            if key.startswith("type "):
                text, _, times = key[5:].partition(" ×")  # "TEXT ×N": TEXT N times, typed quickly
                text = text * int(times) if times else text
                subprocess.run(["xdotool", "type", "--delay", "80" if len(text) < 40 else "4", text], check=True)
                pressed = len(text)
            elif key == "fill":  # the disk full, as dd leaves it ("No space left on device")
                subprocess.run(["dd", "if=/dev/zero", "of=" + filler, "bs=4k"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            elif key == "free":
                os.remove(filler)
            elif key.startswith("open "):  # a link from outside, handed to this Postcard
                subprocess.run([postcard, key[5:]], env=env, check=True, timeout=30,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            elif key.startswith("gone "):  # until a control has gone (a toast's button once the toast has)
                role, _, control = key[5:].partition("|")
                reader = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "GtkTesting", "Scripts", "atspi_names.py")
                waited = subprocess.run(["/usr/bin/python3", reader, str(app.pid), "--wait-gone", role, control],
                                        env=orca.env, capture_output=True, text=True, timeout=30)
                if waited.returncode != 0:
                    raise RuntimeError(f"{name}: {waited.stderr.strip()}")
            elif key.startswith("size "):  # the window resized, as by its user
                width, height = key[5:].split()
                subprocess.run(["xdotool", "windowsize", "--sync", window, width, height], check=True)
                # Laid out at the new size before the next key (a flow opens as a bottom sheet only in a
                # narrow window). Not event-driven: GTK lays out at its next frame, which neither X nor
                # AT-SPI (GTK 4.8 sends no bounds events) tells another process of; a second is many frames.
                time.sleep(1)
                subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
            else:
                subprocess.run(["xdotool", "key", key], check=True)
                pressed = len(key.split("+"))
            # Orca has done with this key: it has seen the key's releases, taken every event the key caused
            # from its queue and processed it, and said the words the journey expects (what comes later, a
            # code read from the camera a moment after its page shows, is waited for: a user hears it too).
            if not orca.wait(lambda: orca.releases - releases >= pressed and orca.done() and
                             (not expected or matches(spoken(orca.since(offsets[-1])), expected)), KEY_TIMEOUT):
                with orca.lock:
                    seen, done = orca.releases - releases, orca.done()
                if seen < pressed or not done:  # not words that differ (those are reported below): Orca stuck
                    raise Stalled(f"key {key}: Orca had not done with it after {KEY_TIMEOUT} s (it saw {seen} of "
                                  f"{pressed} key releases; {'every' if done else 'not every'} event it queued processed)")
        offsets.append(orca.size())
    finally:
        app.terminate()
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()
        if disk is not None:
            subprocess.run(["umount", "-l", data])
    with orca.lock:
        log = bytes(orca.buffer)
    def between(start, end):
        return spoken(log[start:end].decode("utf-8", errors="replace"))
    heard = [(START, between(begin, offsets[0]))]
    for index, key in enumerate(keys):
        heard.append((key, between(offsets[index], offsets[index + 1])))
    return heard


def check(journey, heard):
    """Compares what was `heard` with the journey: (its lines in the journeys file's format, the problems)."""
    name, args, steps = journey
    lines = [f"## {name}"]
    for option in args:
        lines.append(f"disk {option[1]}" if isinstance(option, tuple) else f"args {option}")
    problems = []
    # What Orca says as the window comes up is compared only when the journey lists it (before its
    # first key): without a window manager, which control it names first is not settled.
    checks_start = bool(steps) and steps[0][0] == START
    expected_steps = steps if checks_start else [(START, None)] + steps
    for (key, expected), (_, words) in zip(expected_steps, heard):
        if key == START and expected is None:
            expected = [(w, False) for w in words]
        if key != START:
            lines.append(key if key.startswith(("open ", "size ", "gone ")) or key in ("fill", "free") else f"key {key}")
        lines.extend(f"say {w}" for w in words)
        if not matches(words, expected) and not (key.startswith("type ") and not expected):
            wanted = [text + ("?" if optional else "") for text, optional in expected]
            problems.append(f"  {key}: expected {wanted}, heard {words}")
        for word in words:
            if TYPE_NAME.search(word):
                problems.append(f"  key {key}: a type name is spoken: {word!r}")
        repeated = sorted({w for w in words if words.count(w) > 1})
        if repeated:
            problems.append(f"  key {key}: said more than once: {repeated}")
    lines.append("")
    return lines, problems


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    postcard, path = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    actual = sys.argv[sys.argv.index("--actual") + 1] if "--actual" in sys.argv else None
    journeys = [j for j in parse(path) if only is None or j[0] == only]
    home = tempfile.mkdtemp(prefix="postcard-orca-")
    failures, written = [], []
    try:
        manager, orca = start_desktop(home)
    except RuntimeError as error:
        print(f"orca journeys: FAILED: {error}")
        return 1
    try:
        for journey in journeys:
            name, args, steps = journey
            try:
                lines, problems = check(journey, run(postcard, journey, orca, home))
            except Skipped as why:
                print(f"{name}: skipped: {why}")
                continue
            except Stalled as why:
                print(f"{name}: DIFFERS\n  {why}")
                failures.append(name)
                continue
            written.extend(lines)
            if not problems:
                print(f"{name}: heard as written")
            else:
                print(f"{name}: DIFFERS")
                for problem in problems:
                    print(problem)
                failures.append(name)
    finally:
        orca.stop()
        manager.terminate()
        if not os.environ.get("POSTCARD_ORCA_KEEP"):
            shutil.rmtree(home, ignore_errors=True)
        else:
            print(f"kept {home}")
    if actual:
        with open(actual, "w", encoding="utf-8") as out:
            out.write("\n".join(written) + "\n")
    if failures:
        print(f"orca journeys: FAILED: {len(failures)} of {len(journeys)} differ ({', '.join(failures)})")
        return 1
    print(f"orca journeys: {len(journeys)} heard as written")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    sys.exit(main())
