#!/usr/bin/env python3
"""The review gallery's tour heard by a screen reader: the tour run once under Debian's Orca 43, and what Orca
said as each screen appeared saved beside that screen's pictures, for the gallery's index to show under it
(`make review` runs this before the gallery's own parts).

Run inside a display and a D-Bus session (`make review` does: dbus-run-session -- xvfb-run …):

    review-under-orca.py POSTCARD_REVIEW GALLERY [--journey FILE [--expect FILE]]

Orca and the window manager start as for the spoken journeys (`orca-journeys.py`, whose Orca class this
uses). Each of Orca's utterances is appended to GALLERY/.spoken as Orca says it, and the tour runs once, at
1280 px, left to right, with POSTCARD_REVIEW_SPEECH naming that file: at each screen the tour waits until
Orca has been quiet for a moment and saves what it said since the last screen as GALLERY/<screen>/spoken.txt,
in place of pictures (`SpokenWords` in PostcardReview). `--journey FILE` hears a recorded journey instead of
the tour, a screen per step (or per `review snapshot` step), as `postcard-review --journey` pictures it.

`--expect FILE` is `make test`'s check of all this: FILE has lines `SCREEN: UTTERANCE`, each of which must be
among what Orca said at that screen; then the gallery's own part at 1280 px is made in GALLERY from the same
journey, and its index.html must show each screen's words under that screen.

The tour drives the app through its widgets, as the gallery's parts do, not through keys: what Orca says is
what it says about the focus and the screens that come, the same words a user hears when a screen appears.

Exits 0 when the tour ran and no screen's words name a GTK or libadwaita type; 1 otherwise (a failure, never
a skip, also when Orca cannot start), naming the screens.
"""
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("orca_journeys", os.path.join(HERE, "orca-journeys.py"))
journeys = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(journeys)

TOUR_TIMEOUT = 20 * 60  # seconds the whole tour may take under Orca


def copy_speech(orca, path, stop):
    """Appends each utterance Orca says to `path`, one per line, as it is said, until `stop` is set: only
    whole lines of Orca's log are read, each once."""
    offset = orca.size()
    with open(path, "a", encoding="utf-8") as out:
        while True:
            finished = stop.is_set()
            text = orca.since(offset)
            end = text.rfind("\n") + 1
            if end:
                for utterance in journeys.spoken(text[:end]):
                    out.write(utterance.replace("\n", " ") + "\n")
                out.flush()
                offset += len(text[:end].encode("utf-8", errors="replace"))
            if finished:
                return
            seen = orca.size()
            orca.wait(lambda: stop.is_set() or orca.size() != seen, TOUR_TIMEOUT)  # Orca wrote, or the tour ended


def check_expected(expect, gallery, review, journey, env):
    """The problems with what `expect` (lines `SCREEN: UTTERANCE`) says each screen's words hold, and with the
    gallery index made from them."""
    problems, expected = [], []
    for line in open(expect, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            screen, _, utterance = line.rstrip("\n").partition(": ")
            expected.append((screen, utterance))
    for screen, utterance in expected:
        path = os.path.join(gallery, screen, "spoken.txt")
        words = open(path, encoding="utf-8").read().splitlines() if os.path.isfile(path) else None
        if words is None:
            problems.append(f"{screen}: no words saved")
        elif utterance not in words:
            problems.append(f"{screen}: expected {utterance!r} among {words}")
    gallery_env = {k: v for k, v in env.items() if k not in ("POSTCARD_REVIEW_SPEECH", "POSTCARD_REVIEW_PART")}
    made = subprocess.run([review, "--review-tour", gallery, "--camera", "test", "--journey", journey],
                          env=dict(gallery_env, POSTCARD_REVIEW_PARTS="1280"), capture_output=True, text=True,
                          timeout=TOUR_TIMEOUT)
    if made.returncode != 0:
        return problems + [f"the gallery from the same journey failed: {made.stderr[-2000:]}"]
    index = open(os.path.join(gallery, "index.html"), encoding="utf-8").read()
    for screen, utterance in expected:
        row = index.split(f'<tr id="{screen}">', 1)[-1].split("</tr>", 1)[0] if f'<tr id="{screen}">' in index else ""
        shown = [html.unescape(q) for q in re.findall(r"<q>(.*?)</q>", row.split("Orca said: ", 1)[-1])]
        if "Orca said: " not in row or utterance not in shown:
            problems.append(f"index.html: the row of {screen} does not show {utterance!r} under “Orca said”")
    return problems


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    review, gallery = sys.argv[1], os.path.abspath(sys.argv[2])
    journey = sys.argv[sys.argv.index("--journey") + 1] if "--journey" in sys.argv else None
    expect = sys.argv[sys.argv.index("--expect") + 1] if "--expect" in sys.argv else None
    if expect and not journey:
        sys.exit("--expect needs --journey")
    os.makedirs(gallery, exist_ok=True)
    speech = os.path.join(gallery, ".spoken")
    open(speech, "w").close()
    home = tempfile.mkdtemp(prefix="postcard-review-orca-")
    try:
        manager, orca = journeys.start_desktop(home)
    except RuntimeError as error:
        print(f"review under Orca: FAILED: {error}")
        return 1
    stop = threading.Event()
    copier = threading.Thread(target=copy_speech, args=(orca, speech, stop), daemon=True)
    copier.start()
    env = dict(orca.env, GSETTINGS_BACKEND="memory", ADW_DISABLE_PORTAL="1", LANGUAGE="en", LANG="C.UTF-8",
               POSTCARD_REVIEW_PART="1280", GDK_SCALE="1", POSTCARD_REVIEW_SPEECH=speech,
               WEBKIT_DISABLE_COMPOSITING_MODE="1")
    command = [review, "--review-tour", gallery, "--camera", "test"] + (["--journey", journey] if journey else [])
    print("Review tour under Orca (1280 px)…", flush=True)
    try:
        status = subprocess.run(command, env=env, timeout=TOUR_TIMEOUT).returncode
    except subprocess.TimeoutExpired:
        status = "timed out"
    finally:
        stop.set()
        with orca.changed:
            orca.changed.notify_all()
        copier.join(10)
        orca.stop()
        manager.terminate()
        if not os.environ.get("POSTCARD_ORCA_KEEP"):
            shutil.rmtree(home, ignore_errors=True)
        else:
            print(f"kept {home}")
    problems = [] if status == 0 else [f"the tour under Orca failed ({status})"]
    heard = 0
    for screen in sorted(os.listdir(gallery)):
        path = os.path.join(gallery, screen, "spoken.txt")
        if not os.path.isfile(path):
            continue
        heard += 1
        words = open(path, encoding="utf-8").read().splitlines()
        named = [w for w in words if journeys.TYPE_NAME.search(w)]
        if named:
            problems.append(f"{screen}: a type name is spoken: {named}")
    if heard == 0:
        problems.append("no screen's words were saved")
    if expect and status == 0:
        problems += check_expected(expect, gallery, review, journey, env)
    for problem in problems:
        print(f"review under Orca: {problem}")
    print(f"review under Orca: {'FAILED' if problems else 'the words of'} {heard} screens"
          + (" saved beside their pictures" if not problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
