# A link storm, as a hostile or broken program sends one: COUNT postcard:// links to the running Postcard
# over D-Bus (GApplication's org.freedesktop.Application.Open, what `gio open` and launchers use), spread
# evenly over SECONDS, cycling through LINK..., the last one sent being FINAL. Meanwhile, every 20 ms, it
# asks the application for its actions (org.gtk.Actions.DescribeAll, answered on the application's main
# thread, in turn with the links) and times the answer: how long the main loop kept a user waiting.
#
#     link_storm.py BUS_NAME COUNT SECONDS FINAL LINK...
#
# BUS_NAME is the application's id (its object path is made from it, as GApplication does), or a connection's
# unique name followed by the object path (":1.42/io/github/postcard/Postcard": a non-unique instance).
# Prints `sent N`, `errors N`, `longest-answer-ms X` and `answers N` once every call has been answered.
# Used by the GTK tests (LinkStormTests) and by `make bench-hostile`.
import sys
import time

from gi.repository import Gio, GLib

name, count, seconds, final, links = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5:]
name, path = (name.split("/", 1)[0], "/" + name.split("/", 1)[1]) if "/" in name else (name, "/" + name.replace(".", "/"))
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
loop = GLib.MainLoop()
state = {"sent": 0, "answered": 0, "errors": 0, "longest": 0.0, "probes": 0, "probing": False}


def opened(connection, result, _):
    try:
        connection.call_finish(result)
    except GLib.Error as error:
        state["errors"] += 1
        print(f"error {error.message}", file=sys.stderr)
    state["answered"] += 1
    if state["answered"] == count:
        GLib.timeout_add(100, lambda: loop.quit() or False)


def send():
    due = min(count, int(count * (time.monotonic() - start) / seconds) + 1)
    while state["sent"] < due:
        index = state["sent"]
        link = final if index == count - 1 else links[index % len(links)]
        bus.call(name, path, "org.freedesktop.Application", "Open", GLib.Variant("(asa{sv})", ([link], {})),
                 None, Gio.DBusCallFlags.NO_AUTO_START, -1, None, opened, None)
        state["sent"] += 1
    return state["sent"] < count


def answered(connection, result, sent_at):
    try:
        connection.call_finish(result)
    except GLib.Error:
        pass
    state["longest"] = max(state["longest"], time.monotonic() - sent_at)
    state["probes"] += 1
    state["probing"] = False


def probe():
    if not state["probing"]:
        state["probing"] = True
        bus.call(name, path, "org.gtk.Actions", "DescribeAll", None, None, Gio.DBusCallFlags.NO_AUTO_START, -1, None,
                 answered, time.monotonic())
    return state["answered"] < count


start = time.monotonic()
GLib.timeout_add(2, send)
GLib.timeout_add(20, probe)
GLib.timeout_add_seconds(120, lambda: loop.quit() or False)
loop.run()
print(f"sent {state['sent']}")
print(f"errors {state['errors']}")
print(f"longest-answer-ms {state['longest'] * 1000:.1f}")
print(f"answers {state['probes']}")
