#!/usr/bin/env python3
"""The window of an installed Flourish on a bare system: started under its own Xvfb, read through
AT-SPI for the New Entry form's accessible names (what a screen reader speaks), then a screenshot
of the screen as xwd. Run inside a session bus (dbus-run-session), which brings the accessibility
bus up on demand.

    check_window.py BINARY SCREENSHOT.xwd

Exits 0 when every name is there; prints each one it looked for, found or not.
"""
import os
import subprocess
import sys
import tempfile
import time

# The New Entry form as a screen reader meets it: the window, the two pages, the form's controls.
EXPECTED = [
    ("frame", "Flourish"),
    ("page tab", "New Entry"),
    ("page tab", "Journal"),
    ("page tab", "Insights"),
    (None, "Title"),
    (None, "Mood"),
    (None, "Date"),
    (None, "Body"),
    (None, "Add Photo…"),
    (None, "Attach location"),
    (None, "Save Entry"),
]


def start_display():
    """An Xvfb of its own; -displayfd answers once the server accepts connections."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        sys.exit("Xvfb did not start")
    return server, ":" + number


def nodes_of(process_id):
    import pyatspi
    found = []
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is None or app.get_process_id() != process_id:
                continue
        except Exception:
            continue
        stack = [app]
        while stack:
            node = stack.pop()
            try:
                # GTK 4.8 sets SHOWING only on windows; a hidden widget loses VISIBLE.
                showing = node.getState().contains(pyatspi.STATE_VISIBLE)
                found.append((node.getRoleName(), node.name, showing))
                stack.extend(child for child in node if child is not None)
            except Exception:
                continue
    return found


def main():
    binary, screenshot = sys.argv[1], sys.argv[2]
    server, display = start_display()
    os.environ.update(DISPLAY=display, GDK_BACKEND="x11", GSK_RENDERER="cairo", NO_AT_BRIDGE="0")
    app = subprocess.Popen([binary])
    missing = list(EXPECTED)
    nodes = []
    try:
        deadline = time.monotonic() + 60
        while missing and time.monotonic() < deadline and app.poll() is None:
            time.sleep(0.5)
            nodes = nodes_of(app.pid)
            missing = [(role, name) for role, name in EXPECTED
                       if not any(n == name and shown and (role is None or r == role) for r, n, shown in nodes)]
        time.sleep(1)  # the first frame painted, for the screenshot
        subprocess.run(["xwd", "-root", "-display", display, "-silent", "-out", screenshot], check=False)
    finally:
        app.terminate()
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()
        server.terminate()
        server.wait()
    for role, name in EXPECTED:
        state = "missing" if (role, name) in missing else "named"
        print(f"  ..  {role or 'a control'} “{name}”: {state}")
    if missing:
        print("what the tree held:")
        for role, name, shown in nodes:
            print(f"    {role}: {name!r}{'' if shown else ' (not showing)'}")
        if app.returncode not in (None, 0, -15):
            print(f"flourish exited with {app.returncode}")
        sys.exit(1)


main()
