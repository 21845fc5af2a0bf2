# Prints "role|name" for every table cell, image, list item, dialog, frame, alert, button, text field, combo
# box, link, menu item, check box and label that the
# application with process id argv[1] exposes on the accessibility bus, as a screen reader (Orca) sees it
# over AT-SPI. Used by the GTK tests.
import sys
import pyatspi

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
        if role in ROLES:
            print(f"{role}|{node.name}")
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            if child is not None:
                walk(child, depth + 1)
    except Exception as error:  # a node that went away while we read
        print(f"error|{error}", file=sys.stderr)


pid = int(sys.argv[1])
desktop = pyatspi.Registry.getDesktop(0)
found = False
for index in range(desktop.childCount):
    app = desktop.getChildAtIndex(index)
    if app is not None and app.get_process_id() == pid:
        found = True
        walk(app)
if not found:
    print(f"no application with process id {pid} on the accessibility bus", file=sys.stderr)
    sys.exit(1)
