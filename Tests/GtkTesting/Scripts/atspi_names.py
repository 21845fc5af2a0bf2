# Prints "role|name" for every table cell, image, list item, dialog, frame, alert, button, text field, combo
# box, link, menu item, check box and label, and every named panel that Orca says (a page, named by its
# title), that the
# application with process id argv[1] exposes on the accessibility bus, as a screen reader (Orca) sees it
# over AT-SPI. Used by the GTK tests. With `--press NAME`, instead presses the visible push button named NAME
# through its AT-SPI action, as a screen reader user does (exit 1 when there is none). With
# `--set-text NAME TEXT`, replaces the text of the visible text field named NAME through AT-SPI's
# EditableText, as a screen reader user types (exit 1 when there is none). With `--focused`, prints
# "role|name|description" of each visible object that has the keyboard focus: what Orca says of it. With
# `--describe ROLE NAME`, prints the description of the first visible object with that role and name. With
# `--focused-becoming LINE…`, waits until the focused objects read as those lines (on AT-SPI's focus and
# description events, at most 10 s), then prints them as `--focused` does (the last read, if they never do).
# With `--wait-gone ROLE NAME`, waits until no visible object with that role and name is left (a toast's
# button when the toast has gone), on AT-SPI's events, at most 10 s (exit 1 if it is still there).
#
# An application that is not on the accessibility bus yet (GTK puts it there a moment after it starts) is
# waited for on the registry's events, at most 10 s; then the script exits 1 saying so.
import sys
import pyatspi
from gi.repository import GLib

TIMEOUT_MS = 10_000  # an upper bound for failure: what is waited for comes on an event


def wait_for(check, events):
    """check() now and after each AT-SPI event of the kinds in `events`, until it returns something other
    than None (returned), for at most TIMEOUT_MS (then None)."""
    outcome = [None]
    running = [False]  # the registry's main loop runs: an event can also come while check() reads the tree

    def on_event(_event):
        if outcome[0] is None:
            outcome[0] = check()
            # Stopped only once it runs: stopping no loop is GLib's critical (fatal under G_DEBUG), and an
            # outcome found before start() means start() is never called.
            if outcome[0] is not None and running[0]:
                pyatspi.Registry.stop()

    def on_timeout():
        pyatspi.Registry.stop()
        return False

    outcome[0] = check()
    if outcome[0] is not None:
        return outcome[0]  # no listener: with one, AT-SPI would read the tree from its cache
    for kind in events:
        pyatspi.Registry.registerEventListener(on_event, kind)
    outcome[0] = check()  # again: a change between the first check and the listeners is not missed
    if outcome[0] is None:
        GLib.timeout_add(TIMEOUT_MS, on_timeout)
        running[0] = True
        pyatspi.Registry.start()
    for kind in events:
        pyatspi.Registry.deregisterEventListener(on_event, kind)
    return outcome[0]


ROLES = {"table cell", "image", "list item", "dialog", "frame", "alert", "push button", "toggle button", "label",
         "text", "combo box", "link", "menu item", "check box", "radio button", "window"}


def walk(node, depth=0):
    if depth > 60:
        return
    try:
        role = node.getRoleName()
        # What is not visible is not presented by Orca (GTK 4.8 sets "showing" on windows only).
        if role != "application" and not node.getState().contains(pyatspi.STATE_VISIBLE):
            return
        # A named panel is said by Orca 43 as context, unless it is named as its application or as its
        # only child (layout panels to Orca: a GtkStack's pages, a closed menu button around its button).
        if role in ROLES or (role == "panel" and node.name and node.name != node.getApplication().name
                             and not (node.childCount == 1 and node.getChildAtIndex(0).name == node.name)):
            print(f"{role}|{node.name}")
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            if child is not None:
                walk(child, depth + 1)
    except Exception as error:  # a node that went away while we read
        print(f"error|{error}", file=sys.stderr)


def find(node, role, name, depth=0):
    """The first visible node with `role` and `name` under `node`, as Orca would reach it, or None."""
    if depth > 60:
        return None
    try:
        if node.getRoleName() != "application" and not node.getState().contains(pyatspi.STATE_VISIBLE):
            return None
        if node.getRoleName() == role and node.name == name:
            return node
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            found = find(child, role, name, depth + 1) if child is not None else None
            if found is not None:
                return found
    except Exception as error:  # a node that went away while we read
        print(f"error|{error}", file=sys.stderr)
    return None


def press(node, name):
    button = find(node, "push button", name)
    if button is None:
        return False
    button.queryAction().doAction(0)
    return True


def focused(node, lines, depth=0):
    """Appends "role|name|description" of each visible focused object under `node` to `lines`."""
    if depth > 60:
        return lines
    try:
        state = node.getState()
        if node.getRoleName() != "application" and not state.contains(pyatspi.STATE_VISIBLE):
            return lines
        if state.contains(pyatspi.STATE_FOCUSED):
            lines.append(f"{node.getRoleName()}|{node.name}|{node.description}")
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            if child is not None:
                focused(child, lines, depth + 1)
    except Exception as error:  # a node that went away while we read
        print(f"error|{error}", file=sys.stderr)
    return lines


def set_text(node, name, text):
    field = find(node, "text", name)
    return field is not None and field.queryEditableText().setTextContents(text)


pid = int(sys.argv[1])
to_press = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--press" else None
to_set = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 and sys.argv[2] == "--set-text" else None
list_focused = len(sys.argv) > 2 and sys.argv[2] == "--focused"
becoming = sys.argv[3:] if len(sys.argv) > 2 and sys.argv[2] == "--focused-becoming" else None
to_describe = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 and sys.argv[2] == "--describe" else None
gone = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 and sys.argv[2] == "--wait-gone" else None


def application():
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        candidate = desktop.getChildAtIndex(index)
        try:
            if candidate is not None and candidate.get_process_id() == pid:
                return candidate
        except Exception:  # an application that went away while we asked
            continue
    return None


app = wait_for(application, ["object:children-changed"])
if app is None:
    print(f"no application with process id {pid} on the accessibility bus", file=sys.stderr)
    sys.exit(1)
if to_set is not None:
    if not set_text(app, *to_set):
        print(f"no visible text field named {to_set[0]}", file=sys.stderr)
        sys.exit(1)
elif list_focused:
    print("\n".join(focused(app, [])))
elif becoming is not None:
    last = [focused(app, [])]

    def read():
        last[0] = focused(app, [])
        return last[0] if last[0] == becoming else None

    wait_for(read, ["object:state-changed:focused", "focus:", "object:property-change:accessible-description"])
    if last[0]:
        print("\n".join(last[0]))
elif gone is not None:
    if wait_for(lambda: True if find(app, *gone) is None else None,
                ["object:children-changed", "object:state-changed:visible", "object:state-changed:showing"]) is None:
        print(f"a visible {gone[0]} named {gone[1]} is still there", file=sys.stderr)
        sys.exit(1)
elif to_describe is not None:
    node = find(app, *to_describe)
    if node is None:
        print(f"no visible {to_describe[0]} named {to_describe[1]}", file=sys.stderr)
        sys.exit(1)
    print(node.description)
elif to_press is None:
    walk(app)
elif not press(app, to_press):
    print(f"no visible push button named {to_press}", file=sys.stderr)
    sys.exit(1)
