#!/usr/bin/python3
"""Reads the whole accessibility tree of one running app, again and again, as fast as it can, the
way a screen reader does as windows come and go: every node's name, role, state, parent, index in
its parent and children, and between two nodes the app's own list of windows once more. Nothing is
cached on this side: each read is a question to the app.

Usage: walk_tree.py PID SECONDS. Runs until that process is gone or SECONDS have passed; prints
"walks N nodes M" after each whole walk (the last line is the tally).
"""

import os
import sys
import time

import pyatspi
from gi.repository import Atspi


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def application(pid, deadline):
    while time.monotonic() < deadline and alive(pid):
        for app in pyatspi.Registry.getDesktop(0):
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:
                continue
        time.sleep(0.1)
    return None


def read_windows(app):
    """The app's windows by index, as a screen reader reads them after a window came or went: the
    count, then each index (by then a window may have closed)."""
    for index in range(app.childCount):
        window = app.getChildAtIndex(index)
        if window is not None:
            window.name
            window.getState()


def main():
    pid, seconds = int(sys.argv[1]), float(sys.argv[2])
    deadline = time.monotonic() + seconds
    app = application(pid, deadline)
    if app is None:
        print("walks 0 nodes 0", flush=True)
        return
    app.set_cache_mask(Atspi.Cache.NONE)
    walks = nodes = 0
    while time.monotonic() < deadline and alive(pid):
        stack = [app]
        while stack and alive(pid):
            node = stack.pop()
            try:
                read_windows(app)
                node.name
                node.getRoleName()
                node.getState()
                node.parent
                node.getIndexInParent()
                for index in range(node.childCount):
                    child = node.getChildAtIndex(index)
                    if child is not None:
                        stack.append(child)
                nodes += 1
            except Exception:  # the node went away under us, as nodes do while windows close
                continue
        walks += 1
        print(f"walks {walks} nodes {nodes}", flush=True)


if __name__ == "__main__":
    main()
