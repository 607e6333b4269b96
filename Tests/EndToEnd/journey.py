#!/usr/bin/python3
"""End-to-end journeys: the built `flourish` binary, launched on a temporary journal and driven
through the accessibility tree (AT-SPI) and the keyboard, as a person would.

Run by scripts/test under Xvfb and a session bus. Usage: journey.py PATH-TO-FLOURISH
Exits non-zero on the first failed check, after saving a screenshot next to the journal.
"""

import base64
import csv
import datetime
import hashlib
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

import pyatspi

from in_the_clear import files_under, in_the_clear

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flourish")
WORK = tempfile.mkdtemp(prefix="flourish-e2e-")
passed = 0
# Every process of the app a journey started: a failed journey ends these, and only these.
launched = []


# MARK: - Driving the app

class Failure(Exception):
    pass


def check(description, condition):
    global passed
    if not condition:
        raise Failure(description)
    passed += 1
    print(f"  ok  {description}", flush=True)


def wait_for(description, probe, timeout=10.0):
    """Polls `probe` until it returns something truthy; fails the journey after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = probe()
        except Exception:  # the tree changes under us while the app works
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out waiting for {description}")
        time.sleep(0.1)


def descendants(root):
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        yield node
        try:
            stack.extend(reversed([child for child in node]))
        except Exception:
            pass


def showing(node):
    # GTK 4.8 sets SHOWING only on windows; hidden widgets drop out of the tree or lose VISIBLE.
    return node.getState().contains(pyatspi.STATE_VISIBLE)


def selected(node):
    states = node.getState()
    # A tab is selected; a check box checked; GTK 4.8's toggle button (a "push button") pressed.
    return any(states.contains(state) for state in (pyatspi.STATE_SELECTED, pyatspi.STATE_CHECKED, pyatspi.STATE_PRESSED))


def find(root, role, name=None, text=None, visible=True):
    """The first node of `role` named `name` (a label's name is its text) whose editable text is `text`."""
    for node in descendants(root):
        try:
            if node.getRoleName() != role:
                continue
            if name is not None and node.name != name:
                continue
            if text is not None and text_of(node) != text:
                continue
            if visible and not showing(node):
                continue
            return node
        except Exception:
            continue
    return None


def rows_of(root):
    """The journal list's rows showing under `root`, in the list's order (cells of its grid view)."""
    def in_a_list(node):
        try:
            return node.parent.getRoleName() == "list"
        except Exception:
            return False
    # A flow box's children are table cells too (the tag chips): only a list's count.
    return [node for node in descendants(root) if node.getRoleName() == "table cell" and showing(node) and in_a_list(node)]


def text_of(node):
    try:
        text = node.queryText()
        # GTK 4.8's entry answers "" for end offset -1; ask for the exact length instead.
        return text.getText(0, text.characterCount)
    except Exception:
        return None


def press(node):
    action = node.queryAction()
    names = [action.getName(index) for index in range(action.nActions)]
    for wanted in ("click", "activate", "toggle", "press"):
        if wanted in names:
            action.doAction(names.index(wanted))
            return
    raise Failure(f"{node.getRoleName()} '{node.name}' has no click action (it has {names})")


def keys(*names):
    subprocess.run(["xdotool", "key", "--delay", "60", *names], check=True)
    time.sleep(0.3)


def type_text(text):
    keep_keys_for(text)
    subprocess.run(["xdotool", "type", "--delay", "25", text], check=True)
    time.sleep(0.3)


kept_keys = set()


def keep_keys_for(text):
    """Gives each character of `text` missing from the keyboard map a spare key of its own, for
    the rest of the session. Otherwise xdotool maps such a character ("é") to a spare key for
    one keystroke and maps it back: a GTK busy enough to look the key up after that reads
    another character, and the "é" is lost. A mapping made once is heard by GTK before any key
    typed after it: the X server sends both to it in order."""
    missing = sorted({character for character in text if ord(character) > 0x7E} - kept_keys)
    if not missing:
        return
    table = subprocess.run(["xmodmap", "-pke"], capture_output=True, text=True, check=True).stdout
    spare = [int(code) for code in re.findall(r"^keycode\s+(\d+) =\s*$", table, re.MULTILINE)]
    for character in missing:
        if not spare:
            raise Failure(f"no spare key left on the keyboard map for {character!r}")
        # The keysym as Xlib spells a Unicode character: U00E9 is é.
        subprocess.run(["xmodmap", "-e", f"keycode {spare.pop()} = U{ord(character):04X}"], check=True)
        kept_keys.add(character)


def focus_of(app):
    """Which node of the app has the keyboard, as its path of places from the app down, or None."""
    for node in descendants(app.app):
        try:
            if focused(node):
                return tuple(pyatspi.getPath(node))
        except Exception:  # the tree changes under us while the app works
            continue
    return None


def move_focus(app, key):
    """Presses `key` and waits until the keyboard is on another node: a check made at once could
    still see the node it left, and a next key pressed then would skip one."""
    before = focus_of(app)
    keys(key)
    wait_for(f"{key} to move the keyboard", lambda: (lambda now: now is not None and now != before)(focus_of(app)))


def focused(node):
    return node.getState().contains(pyatspi.STATE_FOCUSED)


def x_focus_on(title):
    """Whether the X server sends the keys to the shown window titled `title`. With no window
    manager here, GTK gives a window the X focus as it presents it; until then the keys go to the
    window behind it (or to the one under the pointer)."""
    shown = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$"],
                           capture_output=True, text=True).stdout.split()
    focus = subprocess.run(["xdotool", "getwindowfocus"], capture_output=True, text=True).stdout.strip()
    return focus in shown


def give_keyboard_to(title):
    """Gives the X focus to the shown window titled `title`, as a window manager does when a
    window above it closes. With no window manager here, the X server sends a closed window's
    keys to the root window, and from there to whatever window is under the pointer, if any:
    keys typed after a dialog closed would depend on where the pointer was left."""
    subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$", "windowfocus", "--sync"], check=False)
    wait_for(f"the X focus in '{title}'", lambda: x_focus_on(title) or None)


def keyboard_in(app, title, role=None, timeout=10.0):
    """The node of the app's window titled `title` that takes the next keys (of `role`, if given),
    once both hold: the X server sends that window the keys, and GTK has put its focus on the
    node. Keys typed before then reach another window, or a widget not yet focused."""
    def probe():
        if not x_focus_on(title):
            return None
        for window in app.app:
            if window is not None and window.name == title:
                node = next((node for node in descendants(window)
                             if focused(node) and (role is None or node.getRoleName() == role)), None)
                if node is not None:
                    return node
        return None
    return wait_for(f"the keyboard in '{title}'" + (f" on a {role}" if role else ""), probe, timeout)


def file_chooser(app, title):
    """Waits for GTK's file chooser titled `title` to be shown and to take the keyboard. GTK 4.8
    gives its window no dialog role: a "filler" named by its title."""
    app.wait("the file chooser", "filler", title)
    keyboard_in(app, title)


class Flourish:
    """One running instance of the real binary."""

    def __init__(self, journal, cwd=None, **environment_overrides):
        environment = dict(os.environ, GDK_BACKEND="x11", **environment_overrides)
        self.log = open(os.path.join(WORK, "app.log"), "a")
        self.log_start = self.log.tell()  # what this instance writes (with FLOURISH_TRACE, its marks) comes after
        self.process = subprocess.Popen([BINARY, "--database", journal], env=environment, cwd=cwd,
                                        stdout=self.log, stderr=self.log)
        launched.append(self.process)
        self.app = wait_for("Flourish on the accessibility bus", self._find_app, timeout=20)

    def _find_app(self):
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.get_process_id() == self.process.pid:
                return app
        return None

    def find(self, role, name=None, text=None, visible=True):
        return find(self.app, role, name, text, visible)

    def wait(self, description, role, name=None, text=None, timeout=10.0):
        return wait_for(description, lambda: self.find(role, name, text), timeout)

    def row(self, title):
        """The journal's row for the entry titled `title`. A screen reader hears a row as one
        sentence, "Sea air, feeling the best, <date>…", the name of its cell; the row's title and
        date labels are hidden from the tree, since they would be said twice."""
        return next((node for node in rows_of(self.app) if node.name.startswith(f"{title}, feeling ")), None)

    def wait_row(self, description, title, timeout=10.0):
        return wait_for(description, lambda: self.row(title), timeout)

    def dialog_button(self, title, name, timeout=10.0):
        """The button `name` of the dialog titled `title` (the window behind may have its own)."""
        def probe():
            for window in self.app:
                if find(window, "label", title) is not None:
                    return find(window, "push button", name)
            return None
        return wait_for(f"the {name} button of '{title}'", probe, timeout)

    def exit_code(self, timeout=10.0):
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def show_journal(app):
    """Presses the Journal page tab and waits until the page is the one showing."""
    journal_tab = app.wait("the Journal tab", "page tab", "Journal")
    press(journal_tab)
    wait_for("the Journal page", lambda: selected(journal_tab))


def screenshot(name):
    path = os.path.join(WORK, name)
    subprocess.run(["import", "-window", "root", path], check=False)
    return path


# MARK: - Journeys

def first_entry_with_the_mouse(journal):
    print("journey: log an entry with the mouse, find it in the journal", flush=True)
    app = Flourish(journal)
    frame = app.wait("the main window", "frame", "Flourish")
    check("the window is titled Flourish", frame.name == "Flourish")

    save = app.wait("the Save Entry button", "push button", "Save Entry")
    press(save)
    app.wait("the missing-mood message", "label", "Choose how you feel.")
    app.wait("the missing-text message", "label", "Write a title or a few lines.")
    check("an empty form says what is missing next to the fields", True)

    mood = app.find("push button", "Mood")
    check("the mood button is named Mood, reads select, and says what is missing",
          mood is not None and mood.description == "select. Choose how you feel.")
    press(mood)
    okay = app.wait("the mood popover", "push button", "okay")
    check("the popover lists the six moods by name",
          all(app.find("push button", title) for title in
              ["the best", "really good", "okay", "meh", "not so great", "the worst"]))
    press(okay)
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    check("choosing a mood sets the button's text", app.find("push button", "Mood").description == "okay")
    wait_for("the missing-mood message to go", lambda: app.find("label", "Choose how you feel.") is None)

    title = app.find("text", "Title")
    body = app.find("text", "Body")
    check("the form has fields named Title and Body", title is not None and body is not None)
    keys("alt+t")
    wait_for("focus in Title", lambda: focused(title))
    type_text("Sea air")
    keys("alt+b")
    wait_for("focus in Body", lambda: focused(body))
    type_text("A long walk on the beach.")
    check("what was typed is in the fields", text_of(title) == "Sea air" and text_of(body) == "A long walk on the beach.")

    # A click outside any text field takes the keyboard focus away (the seeds' tap outside).
    window = subprocess.run(["xdotool", "search", "--pid", str(app.process.pid), "--name", "^Flourish$"],
                            capture_output=True, text=True).stdout.split()
    subprocess.run(["xdotool", "mousemove", "--window", window[0], "60", "20", "click", "1"], check=True)
    wait_for("the body to lose focus", lambda: not focused(body))
    check("a click outside a text field drops its focus", not focused(body) and not focused(title))

    press(app.find("push button", "Save Entry"))
    app.wait("the saved dialog", "label", "Entry Saved")
    check("the dialog says the entry was saved", app.find("label", "Your entry has been saved!") is not None)
    press(app.wait("the OK button", "push button", "OK"))
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    check("the form is reset", text_of(app.find("text", "Title")) == "" and text_of(app.find("text", "Body")) == ""
          and app.find("push button", "Mood").description == "select")

    show_journal(app)
    app.wait_row("the new row", "Sea air")
    check("the journal shows the entry at once", app.find("label", "A long walk on the beach.") is not None)
    check("a screen reader meets the journal as a list", app.find("list") is not None)
    screenshot("journal-after-first-entry.png")

    keys("ctrl+q")
    check("Ctrl+Q quits cleanly", app.exit_code() == 0)


def second_entry_with_the_keyboard(journal):
    print("journey: log an entry with the keyboard only", flush=True)
    app = Flourish(journal)
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title at start", lambda: focused(title))
    type_text("Rain")
    keys("alt+f")  # "I'm _feeling": the mnemonic presses the mood button, opening the picker
    app.wait("the mood popover", "push button", "the worst")
    keys("Down", "Down", "Down", "Down", "Down", "Return")
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    check("arrow keys and Enter choose a mood", app.find("push button", "Mood").description == "the worst")
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    check("Ctrl+Enter saved and Enter dismissed the dialog", text_of(app.find("text", "Title")) == "")
    keys("alt+2")
    wait_for("the Journal page", lambda: selected(app.find("page tab", "Journal")))
    app.wait_row("the new row", "Rain")
    check("Alt+2 shows the journal with both entries", app.row("Sea air") is not None)
    keys("ctrl+question")
    app.wait("the shortcuts window", "label", "Save the entry")
    check("Ctrl+? lists the keyboard shortcuts", app.find("label", "Quit") is not None)
    keys("Escape")
    wait_for("the shortcuts window to close", lambda: app.find("label", "Save the entry") is None)
    close = app.find("push button", "Close")
    press(close)
    check("the window's close button quits cleanly", app.exit_code() == 0)


def journal_survives_a_restart(journal):
    print("journey: the journal is still there after a restart", flush=True)
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT title, body, mood FROM entry ORDER BY created_at").fetchall()
    check("the database file holds both entries",
          rows == [("Sea air", "A long walk on the beach.", 2), ("Rain", "", 5)])
    mode = os.stat(journal).st_mode & 0o777
    check("the journal file is private (0600)", mode == 0o600)

    app = Flourish(journal)
    show_journal(app)
    app.wait_row("the first entry", "Sea air")
    check("entries are listed after a restart", app.row("Rain") is not None)
    screenshot("journal-after-restart.png")

    # A second launch on the same journal reaches this one instead of opening the file twice.
    second = subprocess.Popen([BINARY, "--database", journal], env=dict(os.environ, GDK_BACKEND="x11"),
                              stdout=app.log, stderr=app.log)
    try:
        code = second.wait(15)
    except subprocess.TimeoutExpired:
        second.kill()
        code = None
    check("a second launch on the same journal hands over and ends", code == 0)
    windows = [window for window in app.app if window.getRoleName() == "frame"]
    check("the running Flourish still has one window", len(windows) == 1 and app.process.poll() is None)
    backups = os.path.join(os.path.dirname(journal), "backups")

    def todays_backup():
        names = os.listdir(backups) if os.path.isdir(backups) else []
        return next((os.path.join(backups, name) for name in names
                     if name.startswith("journal-") and name.endswith(".sqlite")), None)
    backup = wait_for("the day's backup, once the journal passed its check", todays_backup)
    check("the backup of the day is written beside the journal, private (0600, folder 0700)",
          stat.S_IMODE(os.stat(backup).st_mode) == 0o600 and stat.S_IMODE(os.stat(backups).st_mode) == 0o700)
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as db:
        # Written at the first start of the day with entries (the journey's second), once a day.
        check("it is a whole journal of the entries of its day",
              db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
              and db.execute("SELECT title FROM entry ORDER BY created_at").fetchall() == [("Sea air",)])
    db.close()

    # Quitting over unsaved words asks first; Cancel keeps them, Discard lets go.
    keys("alt+1")
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title", lambda: focused(title))
    type_text("Unfinished")
    keys("ctrl+q")
    app.wait("the discard question", "label", "Discard this entry?")
    press(app.dialog_button("Discard this entry?", "Cancel"))
    wait_for("the question to go", lambda: app.find("label", "Discard this entry?") is None)
    check("Cancel keeps the window and the words", app.process.poll() is None and text_of(title) == "Unfinished")
    keys("ctrl+q")
    press(app.dialog_button("Discard this entry?", "Discard"))
    check("Discard quits cleanly", app.exit_code() == 0)
    with sqlite3.connect(journal) as db:
        check("nothing unsaved was written", db.execute("SELECT count(*) FROM entry").fetchone()[0] == 2)

def entries_are_read_corrected_deleted_and_back_dated(journal):
    print("journey: open an entry, edit it, delete it with undo, log a past day", flush=True)
    with sqlite3.connect(journal) as db:
        before = {row[0]: row for row in db.execute("SELECT * FROM entry")}
        rain_id, rain_uuid = db.execute("SELECT id, uuid FROM entry WHERE title = 'Rain'").fetchone()
    check("the journal upgraded to the editable schema: each entry has a uuid",
          all(len(row[8]) == 36 for row in before.values()))

    app = Flourish(journal)
    keys("alt+2")
    wait_for("the Journal page", lambda: selected(app.find("page tab", "Journal")))
    app.wait_row("the top row", "Rain")
    keys("Return")  # the newest row has the focus as the page opens
    edit = app.wait("the entry view's Edit button", "push button", "Edit")
    check("Enter on a row opens the entry with Edit and Delete",
          app.find("push button", "Delete") is not None and app.find("push button", "Back") is not None)
    check("the entry view shows the mood in words", app.find("label", "Feeling the worst") is not None)

    keys("ctrl+e")
    title = app.wait("the edit form's Title", "text", "Title", text="Rain")
    wait_for("focus in the edit form's Title", lambda: focused(title))
    keys("ctrl+a")
    type_text("Rain, then sun")
    keys("alt+f")
    app.wait("the mood popover", "push button", "okay")
    keys("Up", "Up", "Up", "Return")  # from the worst (5) up to okay (2)
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    keys("ctrl+Return")
    app.wait("the entry view with the new mood", "label", "Feeling okay")
    check("Save shows the corrected entry", app.find("label", "Rain, then sun") is not None)
    with sqlite3.connect(journal) as db:
        row = db.execute("SELECT title, mood, uuid, updated_at FROM entry WHERE id = ?", (rain_id,)).fetchone()
    check("the file has the new title and mood, the same uuid, and an edit time",
          row[:3] == ("Rain, then sun", 2, rain_uuid) and row[3] is not None)

    keys("Escape")
    wait_for("the journal again", lambda: app.find("push button", "Back") is None)
    check("Escape returns to the journal, whose row shows the change", app.row("Rain, then sun") is not None)

    keys("Delete")  # the opened entry's row has the focus again
    app.wait("the notice", "label", "Entry deleted")
    wait_for("the row to go", lambda: app.row("Rain, then sun") is None)
    with sqlite3.connect(journal) as db:
        check("Delete on a row removes the entry from the file at once",
              db.execute("SELECT count(*) FROM entry WHERE id = ?", (rain_id,)).fetchone()[0] == 0)
    check("the notice offers Undo", app.find("push button", "Undo") is not None)
    keys("ctrl+z")  # the focus is on a row, which has no undo of its own
    app.wait_row("the row back", "Rain, then sun")
    with sqlite3.connect(journal) as db:
        row = db.execute("SELECT title, uuid FROM entry WHERE id = ?", (rain_id,)).fetchone()
    check("Ctrl+Z puts the same entry back (same id and uuid)", row == ("Rain, then sun", rain_uuid))

    keys("Home")
    keys("Delete")
    app.wait("the notice", "label", "Entry deleted")
    wait_for("the row to go", lambda: app.row("Rain, then sun") is None)
    keys("ctrl+q")
    check("quits cleanly after deleting again", app.exit_code() == 0)
    with sqlite3.connect(journal) as db:
        after = {row[0]: row for row in db.execute("SELECT * FROM entry")}
    check("after the restart the deleted entry is gone and every other is intact",
          rain_id not in after and after == {key: row for key, row in before.items() if key != rain_id})

    app = Flourish(journal)
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title", lambda: focused(title))
    date = app.find("push button", "Date")
    check("the Date control reads Now", date is not None and date.description == "Now")
    type_text("Looking back")
    keys("alt+f")
    app.wait("the mood popover", "push button", "meh")
    keys("Down", "Down", "Down", "Return")
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    keys("alt+d")
    app.wait("the date popover", "push button", "Now")
    keys("Left")  # the day before
    keys("Escape")
    check("the Date control names the chosen day",
          wait_for("the Date control to name the day", lambda: app.find("push button", "Date").description != "Now"))
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    keys("alt+2")
    app.wait_row("the back-dated row", "Looking back")
    titles = [node.name.split(", feeling ")[0] for node in rows_of(app.app)]
    check(f"the back-dated entry is listed below the newer one ({titles})", titles[:2] == ["Sea air", "Looking back"])
    with sqlite3.connect(journal) as db:
        order = [row[0] for row in db.execute("SELECT title FROM entry ORDER BY created_at DESC, id DESC")]
    check("and is dated before it in the file", order == ["Sea air", "Looking back"])
    screenshot("journal-after-editing.png")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def find_any(root, name, visible=True, focusable=False):
    """The first node named `name`, whatever its role; with `focusable`, one that takes the keyboard
    (GTK 4.8 names both a menu button and the button inside it)."""
    for node in descendants(root):
        try:
            if node.name == name and (not visible or showing(node)) and \
                    (not focusable or node.getState().contains(pyatspi.STATE_FOCUSABLE)):
                return node
        except Exception:
            continue
    return None


def entries_are_tagged_and_found(journal):
    print("journey: tag an entry, find it by a word and by its tag, rename the tag", flush=True)
    app = Flourish(journal)
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title", lambda: focused(title))
    type_text("Beach day")
    keys("alt+b")
    type_text("Swimming, then coffee at the Café.")
    keys("alt+f")
    app.wait("the mood popover", "push button", "the best")
    keys("Return")
    wait_for("the popover to close", lambda: app.find("push button", "really good") is None)
    group = wait_for("the Tags group", lambda: find_any(app.app, "Tags"))
    check("the form has a group named Tags", group.getRoleName() in ("grouping", "panel", "group"))
    outdoors = app.wait("the outdoors toggle", "push button", "outdoors")
    press(outdoors)
    wait_for("outdoors turned on", lambda: selected(app.find("push button", "outdoors")))
    keys("alt+g")  # "Tags": the mnemonic goes to the Add tag field
    add = app.wait("the Add tag field", "text", "Add tag")
    wait_for("focus in Add tag", lambda: focused(add))
    type_text(" ")
    keys("Return")
    app.wait("the empty-name message", "label", "Write a name for the tag.")
    check("an empty tag name is refused next to the field", True)
    type_text("Hiking")
    keys("Return")
    hiking = app.wait("the new Hiking toggle", "push button", "Hiking")
    wait_for("Hiking turned on", lambda: selected(app.find("push button", "Hiking")))
    check("Add tag makes the tag and turns it on", selected(hiking))
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    check("the form's toggles are off again after the save", not selected(app.find("push button", "Hiking")))
    with sqlite3.connect(journal) as db:
        tags = [row[0] for row in db.execute(
            "SELECT tag.name FROM tag JOIN entry_tag ON tag_id = tag.id JOIN entry ON entry.id = entry_id "
            "WHERE entry.title = 'Beach day' ORDER BY tag.key")]
    check("the file holds the entry's two tags", tags == ["Hiking", "outdoors"])

    keys("alt+2")
    app.wait_row("the tagged row", "Beach day")
    check("the row shows its tags", app.find("label", "Tags: Hiking, outdoors") is not None)

    keys("ctrl+f")
    search = wait_for("the Search field", lambda: find_any(app.app, "Search"))
    wait_for("focus in Search", lambda: focused(search))
    type_text("cafe")
    app.wait("the result count", "label", "1 entry")
    check("a word of the body finds the entry, accents aside", app.row("Beach day") is not None)
    check("and nothing else", app.row("Sea air") is None)
    screenshot("search.png")
    keys("Escape")
    app.wait_row("the whole journal again", "Sea air")
    check("Escape shows the whole journal again", app.row("Beach day") is not None)

    keys("ctrl+f")
    tag_filter = wait_for("the Tag filter", lambda: find_any(app.app, "Tag filter", focusable=True))
    press(tag_filter)
    hiking_filter = app.wait("Hiking in the tag filter", "check box", "Hiking")
    # GTK 4.8's check buttons offer no accessible action: the keyboard ticks it, as a person would.
    for _ in range(12):
        if focused(hiking_filter):
            break
        move_focus(app, "Tab")
    check("Tab goes through the tags to Hiking", focused(hiking_filter))
    keys("space")
    check("the Hiking box is ticked", wait_for("the Hiking box ticked", lambda: selected(hiking_filter)))
    app.wait("the result count", "label", "1 entry")
    check("the tag filter finds the tagged entry only",
          app.row("Beach day") is not None and app.row("Sea air") is None)
    keys("Escape")  # the filter's popover
    keys("Escape")  # the search
    app.wait_row("the whole journal again", "Sea air")

    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Tags item", "menu item", "Tags"))
    name = app.wait("the Hiking row's name", "text", "Name of “Hiking”")
    count = wait_for("its count", lambda: app.find("label", "1 entry"))
    check("the Tags window lists each tag with its number of entries", count is not None)
    name.queryEditableText().setTextContents("Walking")
    press(app.wait("the Rename button", "push button", "Rename “Hiking”"))
    app.wait("the renamed row", "text", "Name of “Walking”")
    check("Rename renames the tag", app.find("text", "Name of “Hiking”") is None)
    press(app.wait("the Delete button of music", "push button", "Delete “music”"))
    app.dialog_button("Delete the tag “music”?", "Cancel")
    press(app.dialog_button("Delete the tag “music”?", "Delete"))
    wait_for("music to go", lambda: app.find("text", "Name of “music”") is None)
    check("Delete asks first, then deletes the tag", True)
    keys("Escape")
    wait_for("the Tags window to close", lambda: app.find("text", "Name of “Walking”") is None)
    give_keyboard_to("Flourish")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)

    app = Flourish(journal)
    show_journal(app)
    app.wait_row("the tagged row", "Beach day")
    check("after a restart the entry carries the renamed tag",
          app.wait("the row's tags", "label", "Tags: outdoors, Walking") is not None)

    # Insights: the figures read through the accessibility tree are the file's.
    keys("alt+3")
    app.wait("the Insights page", "label", "Mood count")
    press(app.wait("the All period", "push button", "All"))
    with sqlite3.connect(journal) as db:
        moods = db.execute("SELECT mood, created_at FROM entry").fetchall()
    titles = ["the best", "really good", "okay", "meh", "not so great", "the worst"]
    for index, title in enumerate(titles):
        count = sum(1 for mood, _ in moods if mood == index)
        words = "1 entry" if count == 1 else f"{count} entries"
        app.wait(f"the {title} count", "label", f"{title}: {words}")
    check("the mood counts are the file's", True)
    # The weekday of the newest entry, from the file (local time is UTC here, as in the app).
    newest = max(created for _, created in moods)
    weekday = datetime.datetime.strptime(newest[:19], "%Y-%m-%d %H:%M:%S").replace(
        tzinfo=datetime.timezone.utc).astimezone().strftime("%A")
    on_day = [mood for mood, created in moods if datetime.datetime.strptime(created[:19], "%Y-%m-%d %H:%M:%S").replace(
        tzinfo=datetime.timezone.utc).astimezone().strftime("%A") == weekday]
    average = sum(5 - mood for mood in on_day) / len(on_day)
    label = wait_for("the weekday's figure", lambda: next(
        (node for node in descendants(app.app) if node.getRoleName() == "label" and node.name.startswith(weekday + ": ")), None))
    words = "1 entry" if len(on_day) == 1 else f"{len(on_day)} entries"
    check(f"{weekday}'s average is the file's ({label.name})",
          label.name.endswith(f"{average:.1f} on average, {words}") and titles[5 - int(average + 0.5)] in label.name)
    screenshot("insights.png")

    # Save as Image, through the file chooser: a PNG where it was asked for.
    image = os.path.join(os.path.dirname(os.path.abspath(journal)), "mood over time.png")
    press(app.wait("Save as Image beside the chart", "push button", "Save mood over time as an image"))
    # The chooser opens with the keyboard in its Name field: Ctrl+A, then the whole path.
    app.wait("the file chooser", "filler", "Save as Image")
    keyboard_in(app, "Save as Image", role="text")
    keys("ctrl+a")
    type_text(image)
    keys("Return")
    wait_for("the image", lambda: os.path.exists(image) or None)
    with open(image, "rb") as saved:
        check("Save as Image writes the chart as a PNG where it was asked", saved.read(8) == b"\x89PNG\r\n\x1a\n")

    # This year's charts, with the keyboard: Tab from the period to the chart's latest point,
    # Left to the day before it, then to the year in pixels, whose Enter opens today's entries.
    press(app.wait("the Year period", "push button", "Year"))
    this_year = datetime.datetime.now().year
    app.wait("this year's pixels", "label", f"Year in pixels: {this_year}")
    by_day = {}
    for mood, created in moods:
        day = datetime.datetime.strptime(created[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=datetime.timezone.utc).astimezone().date()
        if day.year == this_year:
            by_day.setdefault(day, []).append(5 - mood)

    def day_words(day):
        scores = by_day[day]
        average = sum(scores) / len(scores)
        count = "1 entry" if len(scores) == 1 else f"{len(scores)} entries"
        return f"{titles[5 - int(average + 0.5)]}, {average:.1f} on average, {count}"

    def focused_node():
        for node in descendants(app.app):
            try:
                if node.getRoleName() == "push button" and focused(node):
                    return node
            except Exception:
                continue
        return None

    def tab_to(description, accept, limit=12):
        for _ in range(limit):
            move_focus(app, "Tab")
            node = focused_node()
            if node is not None and accept(node.name):
                return node
        raise Failure(f"Tab never reached {description}")

    days = sorted(by_day)
    newest, before = days[-1], days[-2] if len(days) > 1 else None
    point = tab_to("the chart's latest point", lambda name: name.endswith(day_words(newest)) and str(newest.day) in name)
    check(f"Tab reaches the chart's latest point, named for a screen reader ({point.name})", True)
    if before is not None:
        keys("Left")
        previous = wait_for("the day before", lambda: (lambda node: node if node is not None and node.name != point.name else None)(focused_node()))
        check(f"Left goes to the day before with entries ({previous.name})",
              previous.name.endswith(day_words(before)) and str(before.day) in previous.name)
    today = datetime.date.today()
    cell = tab_to("today in the year in pixels", lambda name: str(today.day) in name and name.endswith(day_words(today)))
    check(f"Tab reaches today in the year in pixels ({cell.name})", True)
    keys("Left")
    yesterday = today - datetime.timedelta(days=1)
    if yesterday.year == this_year:
        moved = wait_for("yesterday's square", lambda: (lambda node: node if node is not None and node.name != cell.name else None)(focused_node()))
        check(f"Left goes to yesterday ({moved.name})", str(yesterday.day) in moved.name)
        keys("Right")
    keys("Return")
    count = len(by_day[today])
    app.wait("today's entries in the journal", "label", "1 entry" if count == 1 else f"{count} entries")
    results = app.wait("the results list", "list", "Search results")
    check("Enter on a day shows that day's entries in the journal's search", results is not None)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


class StandInGeoClue:
    """A private bus playing the system bus, with the stand-in GeoClue (Tests/Support) on it."""

    def __init__(self, mode):
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.bus.stdout.readline().strip()
        self.log = os.path.join(WORK, f"geoclue-{mode}.txt")
        open(self.log, "w").close()
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support", "geoclue_standin.py")
        self.service = subprocess.Popen(["/usr/bin/python3", script, "--mode", mode, "--log", self.log],
                                        env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address),
                                        stdout=subprocess.PIPE, text=True)
        if self.service.stdout.readline().strip() != "ready":
            raise Failure("the stand-in GeoClue did not start")

    def calls(self):
        with open(self.log) as file:
            return file.read().split("\n")

    def stop(self):
        for process in (self.service, self.bus):
            process.terminate()
            process.wait()


class MockNetworkManager:
    """A private bus playing the system bus, with python3-dbusmock's NetworkManager on it: GIO's
    network monitor in the app follows it, so a test can take the network away and bring it back."""

    def __init__(self):
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.bus.stdout.readline().strip()
        self.service = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", "networkmanager", "--system"],
                                        env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for("the mock NetworkManager on its bus", lambda: self._call("GetDevices", interface="org.freedesktop.NetworkManager"))
        # What the app needs to see it: the system bus, and GIO told to use NetworkManager.
        self.environment = {"DBUS_SYSTEM_BUS_ADDRESS": self.address, "GIO_USE_NETWORK_MONITOR": "networkmanager"}

    def _call(self, method, *arguments, interface="org.freedesktop.DBus.Mock"):
        return subprocess.run(["gdbus", "call", "--address", self.address, "--dest", "org.freedesktop.NetworkManager",
                               "--object-path", "/org/freedesktop/NetworkManager", "--method", f"{interface}.{method}",
                               *arguments], capture_output=True).returncode == 0

    def set_online(self, online):
        # NetworkManager's global state: 70 connected, 20 disconnected.
        if not self._call("SetGlobalConnectionState", "70" if online else "20"):
            raise Failure("the mock NetworkManager did not take the new state")

    def stop(self):
        for process in (self.service, self.bus):
            process.terminate()
            process.wait()


def location_is_attached_with_consent():
    print("journey: attach the location, with GeoClue answering on the system bus", flush=True)
    journal = os.path.join(WORK, "located.sqlite")
    config = os.path.join(WORK, "config")
    geoclue = StandInGeoClue("fix")
    try:
        environment = {"DBUS_SYSTEM_BUS_ADDRESS": geoclue.address, "XDG_CONFIG_HOME": config}
        app = Flourish(journal, **environment)
        switch = app.wait("the location switch", "check box", "Attach location")
        check("Attach location starts off, and nothing asked GeoClue",
              not selected(switch) and os.path.getsize(geoclue.log) == 0)
        switch.queryAction().doAction(0)
        app.wait("the fix", "label", "Location found, accurate to 50 m.")
        check("turning it on finds the location", selected(switch))

        press(app.find("push button", "Mood"))
        press(app.wait("the mood popover", "push button", "really good"))
        wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
        keys("alt+t")
        type_text("Berlin walk")
        keys("ctrl+Return")
        app.wait("the saved dialog", "label", "Entry Saved")
        keys("Return")
        wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)

        show_journal(app)
        app.wait("the row's place, in words", "label", "Location 52.52 degrees north, 13.40 degrees east, within 50 metres")
        check("the journal row shows where it was written", True)
        with sqlite3.connect(journal) as db:
            row = db.execute("SELECT latitude, longitude, accuracy FROM entry WHERE title = 'Berlin walk'").fetchone()
        check("the entry's location is in the file", row == (52.52, 13.405, 50.0))
        screenshot("journal-with-location.png")
        keys("ctrl+q")
        check("quits cleanly", app.exit_code() == 0)

        app = Flourish(journal, **environment)
        switch = app.wait("the location switch", "check box", "Attach location")
        app.wait("the fix as the form opens", "label", "Location found, accurate to 50 m.")
        check("the choice is remembered and locating starts as the form opens", selected(switch))
        keys("ctrl+q")
        app.exit_code()
    finally:
        geoclue.stop()


def damaged_journal_is_left_alone():
    print("journey: a damaged journal is reported and never overwritten", flush=True)
    damaged = os.path.join(WORK, "damaged.sqlite")
    garbage = bytes((index * 37 + 11) % 256 for index in range(16384))
    with open(damaged, "wb") as file:
        file.write(garbage)
    app = Flourish(damaged)
    app.wait("the error dialog", "label", "Error")
    message = wait_for("the explanation", lambda: next(
        (node.name for node in descendants(app.app)
         if node.getRoleName() == "label" and "damaged" in node.name), None))
    check("the dialog says the journal is damaged and untouched", "left it untouched" in message)
    press(app.wait("the OK button", "push button", "OK"))
    check("the app then quits with a failure status", app.exit_code() == 1)
    with open(damaged, "rb") as file:
        check("the damaged file is byte-for-byte unchanged", file.read() == garbage)


def damaged_flourish_journal_is_read_not_written(journal):
    print("journey: a damaged Flourish journal shows what it can, recovers, and is never written", flush=True)
    damaged = os.path.join(WORK, "damaged-journal.sqlite")
    shutil.copyfile(journal, damaged)
    with sqlite3.connect(damaged) as db:
        for index in range(300):
            db.execute("INSERT INTO entry (title, body, mood, created_at, uuid) VALUES (?, ?, ?, ?, ?)",
                       (f"Old day {index}", "words " * 40, index % 6, f"2020-01-01 10:{index % 60:02d}:00.000",
                        f"00000000-0000-4000-8000-{index:012d}"))
        leaves = [row[0] for row in db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno")]
    db.close()
    with open(damaged, "r+b") as file:  # a failing disk zeroes one page of entries
        file.seek((leaves[len(leaves) // 2] - 1) * 4096)
        file.write(bytes(4096))
    with open(damaged, "rb") as file:
        before = hashlib.sha256(file.read()).hexdigest()
    os.chmod(damaged, 0o644)

    app = Flourish(damaged)
    recover = app.wait("the Recover… button of the damage bar", "push button", "Recover…")
    check("the bar says the journal is damaged and names it", wait_for("the bar's words", lambda: next(
        (node.name for node in descendants(app.app)
         if node.getRoleName() == "label" and node.name.startswith(f"The journal at {damaged} is damaged")), None)))
    check("the bar offers Quit", app.find("push button", "Quit") is not None)
    show_journal(app)
    wait_for("the readable entries listed", lambda: next(
        (node for node in rows_of(app.app) if ", feeling " in node.name), None))
    press(recover)
    app.wait("the recovery's dialog", "label", "Entries Recovered")
    recovered = [name for name in os.listdir(WORK) if name.startswith("damaged-journal-recovered-")]
    check("a recovered journal is written beside it", len(recovered) == 1)
    with sqlite3.connect(os.path.join(WORK, recovered[0])) as db:
        count = db.execute("SELECT count(*) FROM entry").fetchone()[0]
        check("the recovered journal is healthy", db.execute("PRAGMA quick_check").fetchone()[0] == "ok")
    db.close()
    check(f"it holds the readable entries ({count})", 200 < count < 300 + 10)
    press(app.dialog_button("Entries Recovered", "OK"))
    press(app.wait("the Quit button", "push button", "Quit"))
    check("Quit quits", app.exit_code() == 0)
    with open(damaged, "rb") as file:
        check("the damaged journal is byte for byte as it was", hashlib.sha256(file.read()).hexdigest() == before)
    check("and keeps its mode", stat.S_IMODE(os.stat(damaged).st_mode) == 0o644)
    check("and has no side files", not any(os.path.exists(damaged + suffix) for suffix in ("-wal", "-shm")))


def import_through_the_chooser(app, path):
    """Main menu, Import…, then `path` typed into the file chooser (a path typed into GTK's
    chooser opens its location field) and Return: the Import window reads it."""
    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Import item", "menu item", "Import…"))
    file_chooser(app, "Import")
    type_text(path)
    keys("Return")


def import_then_quit(app, notice):
    """Import in the Import window, its notice seen, then Ctrl+Q: the file is then whole to read."""
    press(app.wait("the Import button", "push button", "Import"))
    app.wait("the import's notice", "label", notice)
    give_keyboard_to("Flourish")  # the Import window closed
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def file_rows(journal, sql):
    """The rows `sql` reads from the journal file."""
    with sqlite3.connect(journal) as db:
        rows = db.execute(sql).fetchall()
    db.close()
    return rows


def daylio_history_arrives_and_leaves():
    print("journey: a Daylio history is imported, a custom mood mapped; the journal is exported", flush=True)
    journal = os.path.join(WORK, "daylio-journal.sqlite")
    export = os.path.join(WORK, "daylio-export.csv")
    with open(export, "w", encoding="utf-8", newline="") as file:
        file.write("full_date,date,weekday,time,mood,activities,note_title,note\r\n"
                   "2024-03-02,March 2,Saturday,9:30 am,sleepy,\"stargazing | friends\",Late night,\"Cold, clear<br>sky\"\r\n"
                   "2024-03-01,March 1,Friday,21:00,rad,stargazing,Comet,\"We saw it\"\r\n")
    app = Flourish(journal)
    import_through_the_chooser(app, export)
    app.wait("what the import will do", "label", "daylio-export.csv: 2 entries, 2 tags, 0 already in your journal.")
    check("the import says what it will do before writing anything", True)
    rad = app.wait("rad's line", "label", "“rad” (1 entry)")
    sleepy = app.wait("sleepy's line", "label", "“sleepy” (1 entry)")
    check("each Daylio mood is listed with how many entries carry it", rad is not None and sleepy is not None)
    choice = wait_for("sleepy's choice", lambda: find_any(app.app, "Flourish mood for “sleepy”"))

    def shows(title):
        return any(node.name == title for node in descendants(choice) if node.getRoleName() == "label")
    check("the custom mood is proposed as okay", wait_for("okay shown", lambda: shows("okay") or None))
    # The keyboard starts on the first mood's choice (sleepy's): open it, two down, choose. (With
    # no window manager here, the window the keys go to is given the X focus first.)
    subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Import$", "windowfocus", "--sync"], check=False)
    wait_for("the keyboard on sleepy's choice", lambda: x_focus_on("Import") and next(
        (node for node in descendants(choice) if focused(node)), None))
    keys("space")
    # Its list opens in a popover, the keyboard on the first mood: Down before that is lost.
    wait_for("sleepy's list of moods, holding the keyboard", lambda: next(
        (node for node in descendants(choice) if node.getRoleName() == "list item" and focused(node)), None))
    keys("Down", "Down", "Down", "Return")
    titles = ["the best", "really good", "okay", "meh", "not so great", "the worst"]
    chosen = wait_for("another mood shown", lambda: next((title for title in titles if title != "okay" and shows(title)), None))
    check(f"the keyboard chooses another mood for it ({chosen})", True)
    press(app.wait("the Import button", "push button", "Import"))
    app.wait("the import's notice", "label", "2 entries imported")
    check("the notice offers Undo", app.find("push button", "Undo") is not None)
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT title, mood, body FROM entry ORDER BY created_at").fetchall()
        tags = {row[0] for row in db.execute("SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id")}
    db.close()
    check(f"the entries are in the file with their moods mapped ({rows})",
          rows == [("Comet", 0, "We saw it"), ("Late night", titles.index(chosen), "Cold, clear\nsky")])
    check("their activities are tags", tags == {"stargazing", "friends"})
    show_journal(app)
    app.wait_row("the imported row", "Late night")
    check("the journal lists them with their tags", app.wait("the row's tags", "label", "Tags: friends, stargazing") is not None)

    # And out again, from the command line, as CSV that Python reads back.
    give_keyboard_to("Flourish")  # the Import window closed
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    out = os.path.join(WORK, "out.csv")
    result = subprocess.run([BINARY, "--database", journal, "--export", "csv", out], capture_output=True, text=True)
    check(f"flourish --export csv says what it wrote ({result.stdout.strip()})", result.returncode == 0 and "Exported 2 entries" in result.stdout)
    with open(out, newline="", encoding="utf-8") as file:
        table = list(csv.reader(file))
    check("the CSV reads back with its header and both entries", table[0][:4] == ["date", "time", "weekday", "mood"] and
          [row[6] for row in table[1:]] == ["Comet", "Late night"] and table[2][7] == "Cold, clear\nsky")
    again = subprocess.run([BINARY, "--database", journal, "--import", export], capture_output=True, text=True)
    check(f"importing the same file again adds nothing ({again.stdout.strip().splitlines()[-1]})",
          again.returncode == 0 and "Imported 0 entries (2 already in your journal)" in again.stdout)


def daylio_backup_arrives():
    print("journey: Daylio's own backup is imported through the file chooser, with its photo", flush=True)
    journal = os.path.join(WORK, "daylio-backup-journal.sqlite")
    backup = os.path.join(WORK, "phone.daylio")
    hour = 3600000
    document = {
        "customMoods": [{"id": 1, "custom_name": "", "mood_group_id": 1, "predefined_name_id": 1},
                        {"id": 7, "custom_name": "Sleepy", "mood_group_id": 4, "predefined_name_id": -1}],
        "tags": [{"id": 3, "name": "stargazing"}],
        "assets": [{"id": 10, "checksum": "abc", "type": 1}],
        "dayEntries": [
            {"datetime": 1709407800000, "timeZoneOffset": hour, "year": 2024, "month": 2, "day": 2, "hour": 20, "minute": 30,
             "mood": 7, "note_title": "Late night", "note": "<div>Cold, clear</div><div><b>sky</b></div>", "tags": [3], "assets": [10]},
            {"datetime": 1709323200000, "timeZoneOffset": hour, "year": 2024, "month": 2, "day": 1, "hour": 21, "minute": 0,
             "mood": 1, "note_title": "Comet", "note": "We saw it", "tags": [3], "assets": []},
        ],
    }
    # The photo's folder counts months from 1 (March), the entries from 0 (2).
    photo = os.path.join(WORK, "daylio-photo.jpg")
    subprocess.run(["convert", "-size", "64x48", "gradient:orange-navy", photo], check=True)
    with open(photo, "rb") as file:
        photo_bytes = file.read()
    with zipfile.ZipFile(backup, "w") as archive:
        archive.writestr("backup.daylio", base64.encodebytes(json.dumps(document).encode("utf-8")))
        archive.writestr("assets/photos/2024/3/abc", photo_bytes)
    app = Flourish(journal)
    import_through_the_chooser(app, backup)
    preview = app.wait("what the import will do", "label", "phone.daylio: 2 entries, 1 tag, 1 photo, 0 already in your journal.")
    check("the preview counts the photo that comes with the entries", preview is not None)
    screenshot("import-daylio-backup.png")
    choice = wait_for("sleepy's choice", lambda: find_any(app.app, "Flourish mood for “sleepy”"))
    check("a custom mood is proposed on its own step (not so great)",
          wait_for("not so great shown", lambda: any(node.name == "not so great" for node in descendants(choice)
                                                     if node.getRoleName() == "label") or None))
    import_then_quit(app, "2 entries imported")
    rows = file_rows(journal, "SELECT title, mood, body, created_at FROM entry ORDER BY created_at")
    check(f"the entries are in the file at their exact moments, the note as plain text ({rows})",
          rows == [("Comet", 0, "We saw it", "2024-03-01 20:00:00.000"), ("Late night", 4, "Cold, clear\nsky", "2024-03-02 19:30:00.000")])
    with sqlite3.connect(journal) as db:
        photos = db.execute("SELECT entry.title, file_name FROM entry_photo JOIN entry ON entry.id = entry_id").fetchall()
    db.close()
    check(f"the photo is on its entry, named by its day ({photos})", photos == [("Late night", "Daylio 2024-03-02.jpg")])
    out = os.path.join(WORK, "daylio-out.zip")
    subprocess.run([BINARY, "--database", journal, "--export", "zip", out], check=True, capture_output=True)
    with zipfile.ZipFile(out) as archive:
        check("and goes out again byte for byte in the ZIP export", archive.read("photos/Daylio 2024-03-02.jpg") == photo_bytes)


def day_one_journal_moves_in():
    print("journey: a Day One export moves in through the Import window, its preview first, then Undo", flush=True)
    journal = os.path.join(WORK, "day-one-journal.sqlite")
    export = os.path.join(WORK, "Day One.zip")
    photo = os.path.join(WORK, "day-one-photo.jpg")
    subprocess.run(["convert", "-size", "64x48", "gradient:teal-white", photo], check=True)
    with open(photo, "rb") as file:
        photo_bytes = file.read()
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": [
            {"uuid": "0A1B2C3D4E5F60718293A4B5C6D7E8F9", "creationDate": "2020-05-01T07:00:00Z", "tags": ["garden"],
             "text": "First tomatoes\n\nSix of them!\n\n![](dayone-moment://TOMATO)", "weather": {"conditionsDescription": "Sunny"},
             "photos": [{"identifier": "TOMATO", "md5": "c0ffee", "type": "jpeg"}]},
            {"uuid": "1A1B2C3D4E5F60718293A4B5C6D7E8F9", "creationDate": "2020-05-09T19:30:00Z", "text": "Rain\nAll day.",
             "videos": [{"identifier": "V", "md5": "v", "type": "mov"}]},
        ]}))
        archive.writestr("photos/c0ffee.jpeg", photo_bytes)
    app = Flourish(journal)
    import_through_the_chooser(app, export)
    preview = wait_for("what the import will do", lambda: named_containing(app, "A journal from Day One."))
    words = preview.name
    check(f"the preview says where it comes from and counts it ({words})",
          "Day One.zip: 2 entries, 1 tag, 1 photo, 0 already in your journal." in words)
    check("it says the days they span", "From 1 May 2020 to 9 May 2020." in words)
    check("it says they have no mood, and are kept without one", "2 of them have no mood, and are kept without one." in words)
    check("it names what Flourish has no place for", "Not imported: weather of 1 entry, 1 video." in words)
    screenshot("import-day-one.png")
    press(app.wait("the Import button", "push button", "Import"))
    app.wait("the import's notice", "label", "2 entries imported")
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT title, body, mood FROM entry ORDER BY created_at").fetchall()
        photos = db.execute("SELECT entry.title, file_name FROM entry_photo JOIN entry ON entry.id = entry_id").fetchall()
    db.close()
    check(f"the entries are in the file without a mood ({rows})", rows == [("First tomatoes", "Six of them!", None), ("Rain", "All day.", None)])
    check(f"the photo is on its entry ({photos})", photos == [("First tomatoes", "c0ffee.jpeg")])
    show_journal(app)
    row = wait_for("the imported row, named without a mood", lambda: next(
        (node for node in rows_of(app.app) if node.name.startswith("First tomatoes, no mood, ")), None))
    check(f"a screen reader hears it has no mood ({row.name})", "feeling" not in row.name)
    press(app.wait("the notice's Undo", "push button", "Undo"))
    check("the journal shows none of it", wait_for("the list emptied", lambda: not any(
        node.name.startswith("First tomatoes") for node in rows_of(app.app)) or None))
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    with sqlite3.connect(journal) as db:
        left = db.execute("SELECT count(*) FROM entry").fetchone()[0]
    db.close()
    check(f"Undo took the whole import back ({left} left)", left == 0)


def rednotebook_journal_is_offered():
    print("journey: a computer keeping a RedNotebook journal is offered its import in the main menu", flush=True)
    home = os.path.join(WORK, "rednotebook-home")
    data = os.path.join(home, ".rednotebook", "data")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "2012-06.txt"), "w", encoding="utf-8") as file:
        file.write("5:\n  Holiday:\n    Lake: null\n  text: 'Swam in the **lake**\n\n    Cold, then sun.'\n6: {text: Rain all day}\n")
    journal = os.path.join(WORK, "rednotebook-journal.sqlite")
    app = Flourish(journal, HOME=home)
    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the RedNotebook item, there because this computer has its journal", "menu item", "Import from RedNotebook"))
    preview = wait_for("what the import will do", lambda: named_containing(app, "A journal from RedNotebook."))
    check(f"the preview comes at once, from RedNotebook's own folder ({preview.name})",
          "data: 2 entries, 1 tag, 0 already in your journal." in preview.name and "From 5 June 2012 to 6 June 2012." in preview.name)
    import_then_quit(app, "2 entries imported")
    rows = file_rows(journal, "SELECT title, body, mood FROM entry ORDER BY created_at")
    check(f"its days are entries, without a mood ({rows})",
          rows == [("Swam in the lake", "Cold, then sun.\n\nHoliday: Lake", None), ("Rain all day", "", None)])


def named_containing(app, words):
    """The first showing node whose name holds `words`."""
    for node in descendants(app.app):
        try:
            if words in (node.name or "") and showing(node):
                return node
        except Exception:
            continue
    return None


def drag_photo(path, onto):
    """Drags the file at `path` from a small window of its own (drag_source.py, standing in
    for a file manager) to the screen point `onto`, with the real pointer. Each step waits for
    the source to say the one before it took (see drag_source.py): the X drag protocol is a
    conversation between two processes, and a release before the target answered drops nothing.
    Returns once the target has read the files; only then does the source go."""
    source = subprocess.Popen(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "drag_source.py"), "Photo source", path],
                              stdout=subprocess.PIPE, text=True)
    launched.append(source)
    said = []
    threading.Thread(target=lambda: said.extend(line.strip() for line in source.stdout), daemon=True).start()

    def heard(words, description, meanwhile=lambda: None):
        """Waits until the source said `words` (or that the drag was cancelled)."""
        def probe():
            if words in said or any(line.startswith("cancelled") for line in said):
                return True
            meanwhile()
            return False
        wait_for(description, probe)
        if words not in said:
            raise Failure(f"the drag did not reach '{words}' (the drag source said {said})")

    heard("shown", "the drag source's window, painted")
    window = wait_for("the drag source's window", lambda: subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", "^Photo source$"], capture_output=True, text=True).stdout.split() or None)[0]
    subprocess.run(["xdotool", "windowmove", "--sync", window, "850", "100"], check=True)
    subprocess.run(["xdotool", "mousemove", "1000", "200", "mousedown", "1"], check=True)
    # A drag starts once the pointer has moved a little, pressed: moved clear of Flourish's window
    # (720 wide), so that the first window to answer the drag is the one at `onto`.
    for step in range(1, 11):
        subprocess.run(["xdotool", "mousemove", str(1000 - step * 20), str(200 + step * 10)], check=True)
    heard("begun", "the drag to begin")
    # GTK's target refuses the first position it hears of a drag that just entered, and the
    # source sends the next one only once that answer came (motions meanwhile are dropped); a
    # refusal changes nothing the source can report. So the pointer stays moving inside the
    # target, a pixel to and fro as a hand does, until the source says the target takes it.
    jiggle = [0]

    def hover():
        jiggle[0] ^= 1
        subprocess.run(["xdotool", "mousemove", str(onto[0] + 10 + jiggle[0]), str(onto[1] + 10)], check=True)
    subprocess.run(["xdotool", "mousemove", str(onto[0]), str(onto[1])], check=True)
    heard("accepted", "the window under the pointer to take the drag", meanwhile=hover)
    subprocess.run(["xdotool", "mouseup", "1"], check=True)
    heard("finished", "the drop to be read")
    source.kill()
    source.wait()


def copy_to_clipboard(mime_type, data):
    """Copies `data` as another program would (xclip, kept in the foreground to be stopped after)
    and returns once the X server names it the clipboard's owner: once it answers a third
    program asking what it holds. Before that, a paste could still reach the previous owner."""
    holder = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-t", mime_type, "-i"],
                              stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    holder.stdin.write(data)
    holder.stdin.close()

    def offers():
        asked = subprocess.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"],
                               capture_output=True, timeout=5)
        return mime_type in asked.stdout.decode(errors="replace").split()
    wait_for(f"the clipboard to hold {mime_type}", offers)
    return holder


def underlined(node, offset):
    """Whether the character at `offset` of a text node carries the error underline, as a
    screen reader reads it (AT-SPI's text attributes: GTK 4.8 gives the buffer's tags there)."""
    attributes, _, _ = node.queryText().getAttributeRun(offset, False)
    return "underline:error" in attributes


def choose_a_mood_and_save(app):
    """Alt+F, Enter on the mood the picker opens on, then Ctrl+Enter and OK on "Entry Saved"."""
    keys("alt+f")
    app.wait("the mood popover", "push button", "the worst")
    keys("Return")
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)


def markdown_is_written_and_read_as_text():
    print("journey: the body's Markdown is written with its keys, kept as written, and read without its marks", flush=True)
    journal = os.path.join(WORK, "markdown-journal.sqlite")
    app = Flourish(journal)
    body = app.wait("the Body field", "text", "Body")
    keys("alt+b")
    wait_for("focus in the Body", lambda: focused(body))
    type_text("# Harbour day")
    keys("Return", "Return")
    type_text("We walked")
    keys("shift+ctrl+Left", "ctrl+b", "End", "Return", "Return")
    subprocess.run(["xdotool", "type", "--delay", "25", "--", "- bread"], check=True)
    keys("Return")
    type_text("milk")
    check("Ctrl+B wrapped the word, Enter began the next item",
          wait_for("the text typed", lambda: text_of(body) == "# Harbour day\n\nWe **walked**\n\n- bread\n- milk" or None))
    choose_a_mood_and_save(app)
    with sqlite3.connect(journal) as db:
        kept = db.execute("SELECT body FROM entry").fetchall()
    db.close()
    check(f"the body is kept as written, marks and all ({kept})", kept == [("# Harbour day\n\nWe **walked**\n\n- bread\n- milk",)])
    keys("alt+2")
    row = wait_for("the row, its words without marks", lambda: next(
        (node for node in rows_of(app.app) if node.name.startswith("Harbour day, feeling ")), None))
    check(f"a screen reader hears the row without marks ({row.name})", "#" not in row.name)
    keys("Return")
    heading = app.wait("the entry page's heading", "heading", "Harbour day")
    check("the heading is heard as a heading", heading is not None)
    check("the words are shown without marks", app.find("label", "We walked") is not None)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def a_template_starts_the_entry():
    print("journey: New Entry's Template menu (Alt+M) fills an empty form, then goes in at the cursor of a written one", flush=True)
    journal = os.path.join(WORK, "templates-journal.sqlite")
    app = Flourish(journal)
    title = app.wait("the Title field", "text", "Title")
    body = app.wait("the Body field", "text", "Body")
    keys("alt+m")
    app.wait("the Template menu's items", "push button", "Evening review")
    check("the menu offers Edit Templates…", app.find("push button", "Edit Templates…") is not None)
    keys("Down", "Return")
    wait_for("the title filled, its date in words",
             lambda: text_of(title).startswith("Evening review, ") and text_of(title)[-4:].isdigit() or None)
    check("the body filled with the template's headings", text_of(body).startswith("## What happened today\n\n\n## What I am grateful for"))
    check("the keyboard is in the body, where writing starts", wait_for("focus in the Body", lambda: focused(body)))
    type_text("A long walk.")
    keys("alt+m")
    app.wait("the Template menu's items", "push button", "Three good things")
    keys("Return")
    wait_for("the second template at the cursor", lambda: "\n1. \n2. \n3. \n" in text_of(body) or None)
    written = text_of(body)
    check(f"every word kept, the template on lines of its own ({written!r})",
          written.startswith("## What happened today\nA long walk.\n") and written.endswith("## What I would do differently\n\n"))
    check("the title stays", text_of(title).startswith("Evening review, "))
    choose_a_mood_and_save(app)
    with sqlite3.connect(journal) as db:
        kept = db.execute("SELECT title, body FROM entry").fetchall()
    db.close()
    check(f"the entry is kept as the form held it, its ends trimmed as every save trims them ({kept})",
          len(kept) == 1 and kept[0][1] == written.strip())
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def unlocked_at_the_body(locked):
    """The locked journal opened, unlocked, and the New Entry form's Body focused (Alt+B)."""
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    body = app.wait("the Body field", "text", "Body")
    keys("alt+b")
    wait_for("focus in the Body", lambda: focused(body))
    return app, body


def spelling_is_checked_and_words_kept_sealed():
    print("journey: spelling is checked as you type, mended from the context menu, and a word added stays sealed in a locked journal", flush=True)
    locked = LockedJournal("spelling")
    app, body = unlocked_at_the_body(locked)
    type_text("Todey we wakled past Gretchenberg")
    wait_for("the misspelled words underlined, as a screen reader hears them",
             lambda: underlined(body, 1) and underlined(body, 10) and underlined(body, 25) or None)
    check("words spelled right are not underlined", not underlined(body, 6) and not underlined(body, 18))
    screenshot("spelling-underlined.png")

    # The cursor into "wakled" (Home, then nine to the right), and the menu from the keyboard.
    keys("Home", *["Right"] * 11, "shift+F10")
    press(app.wait("the suggestion “walked”", "menu item", "walked"))
    wait_for("the word replaced", lambda: text_of(body) == "Todey we walked past Gretchenberg" or None)
    check("the suggestion took the word's place, no longer underlined", not underlined(body, 10))
    # The menu gone and the keyboard back in the body before the next keys: typed while the
    # menu was still closing, they would move about in it instead.
    wait_for("the menu to close", lambda: app.find("menu item", "walked") is None)
    wait_for("focus back in the Body", lambda: focused(body))

    keys("End", "Left", "Left", "shift+F10")
    check("the menu offers the dictionaries installed under Language", app.wait("the Language item", "menu item", "Language") is not None)
    press(app.wait("Add to Dictionary", "menu item", "Add “Gretchenberg” to Dictionary"))
    wait_for("the word no longer underlined", lambda: not underlined(body, 25) or None)
    check("a word added is no longer underlined", text_of(body).endswith("Gretchenberg"))
    keys("ctrl+a", "Delete")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    locked.check_nothing_in_the_clear("after a word was added", [*LOCKED_WORDS, "Gretchenberg", "wakled"])

    # Opened again: the word is kept, inside the journal.
    app, body = unlocked_at_the_body(locked)
    type_text("Gretchenberg and Todey")
    wait_for("the body checked", lambda: underlined(body, 19) or None)
    check("the word added is still right, kept in the journal", not underlined(body, 3))
    keys("ctrl+a", "Delete")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def photos_are_added_seen_and_kept_sealed():
    print("journey: photos are added through the chooser and by pasting, seen in the viewer from the keyboard", flush=True)
    pictures = os.path.join(WORK, "pictures")
    os.makedirs(pictures, exist_ok=True)
    subprocess.run(["bash", os.path.join(os.path.dirname(__file__), "..", "Support", "make_photos.sh"), pictures],
                   check=True, stdout=subprocess.DEVNULL)
    journal = os.path.join(WORK, "photos-journal.sqlite")
    app = Flourish(journal)
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title at start", lambda: focused(title))
    type_text("Beach day")
    keys("alt+f")
    app.wait("the mood popover", "push button", "the worst")
    keys("Return")
    wait_for("the popover to close", lambda: app.find("push button", "the worst") is None)

    keys("alt+p")  # Add _Photo…
    file_chooser(app, "Add Photos")
    type_text(os.path.join(pictures, "rotated.jpg"))
    keys("Return")
    first = app.wait("the first photo's thumbnail", "push button", "Photo 1 of 1, rotated.jpg", timeout=20)
    check("Add Photo… takes a photo from the file chooser, its thumbnail named for what it is", first is not None)

    # Pasted: a picture copied from another program (xclip holds the clipboard), then files
    # copied in a file manager. Ctrl+V while the keyboard is on a button, not in a text field.
    keys("alt+f")  # the mood button holds the keyboard once its popover closes again
    app.wait("the mood popover", "push button", "the worst")
    keys("Escape")
    wait_for("the keyboard on the mood button", lambda: focused(app.find("push button", "Mood")) or None)
    with open(os.path.join(pictures, "alpha.png"), "rb") as picture:
        holder = copy_to_clipboard("image/png", picture.read())
    keys("ctrl+v")
    app.wait("the pasted picture", "push button", "Photo 2 of 2, Pasted photo.png", timeout=20)
    holder.kill()
    holder.wait()
    uri = "file://" + os.path.join(pictures, "photo.webp")
    holder = copy_to_clipboard("text/uri-list", (uri + "\r\n").encode())
    keys("ctrl+v")
    app.wait("the pasted file", "push button", "Photo 3 of 3, photo.webp", timeout=20)
    holder.kill()
    holder.wait()
    check("Ctrl+V outside a text field pastes a copied picture and copied picture files", True)

    # Dragged from another program's window (as from a file manager) and dropped on the body:
    # photos, not their paths as words.
    drag_photo(os.path.join(pictures, "plain.jpg"), onto=(300, 400))
    app.wait("the dropped photo", "push button", "Photo 4 of 4, plain.jpg", timeout=20)
    check("a picture file dragged from elsewhere and dropped on the form is added", True)
    check("the body did not take the dropped file's path as text", text_of(app.find("text", "Body")) == "")

    keys("alt+p")
    file_chooser(app, "Add Photos")
    type_text(os.path.join(pictures, "not-a-picture.jpg"))
    keys("Return")
    refused = app.wait("the refusal", "label", "Photo Not Added")
    check("a file that is not a picture is refused by its name",
          refused is not None and named_containing(app, "“not-a-picture.jpg” is not a picture Flourish can keep") is not None)
    keys("Return")
    wait_for("the refusal to close", lambda: app.find("label", "Photo Not Added") is None)
    check("the words stay in the form", text_of(app.find("text", "Title")) == "Beach day")

    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    keys("alt+2")
    row = app.wait_row("the new row", "Beach day")
    check("the row says how many photos the entry has", named_containing(app, "4 photos") is not None)
    keys("Return")
    strip = app.wait("the entry's photos", "push button", "Photo 1 of 4, rotated.jpg", timeout=20)
    press(strip)
    viewed = wait_for("the viewer on the first photo",
                      lambda: next((node for node in descendants(app.app) if focused(node) and node.name == "Photo 1 of 4, rotated.jpg"), None))
    check("activating a thumbnail opens the viewer, its photo named and holding the keyboard", viewed is not None)
    screenshot("photo-viewer.png")
    keys("Right")
    check("Right shows the next photo", wait_for("the second photo",
          lambda: next((node for node in descendants(app.app) if focused(node) and node.name == "Photo 2 of 4, Pasted photo.png"), None)) is not None)
    keys("Escape")
    back = wait_for("the thumbnail again", lambda: focused(app.find("push button", "Photo 1 of 4, rotated.jpg")) or None)
    check("Escape goes back to the thumbnail it was opened from", back is not None)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)

    folder = os.path.join(WORK, "photos-journal-photos")
    written = {name: open(os.path.join(folder, name), "rb").read() for name in os.listdir(folder)}
    with sqlite3.connect(journal) as db:
        names = [row[0] for row in db.execute("SELECT photo FROM entry_photo ORDER BY position")]
    db.close()
    check(f"four photos, each kept once, with its thumbnail ({sorted(written)})",
          len(names) == 4 and all(name in written and name + ".thumb" in written for name in names))
    check("nothing of the photos shows on disk: no JPEG or PNG header, no EXIF text",
          all(not data.startswith(b"\xff\xd8\xff") and b"\x89PNG" not in data[:16] and b"FLOURISH-EXIF-MARKER" not in data
              for data in written.values()))


def sync_settled(app, timeout=30):
    """Waits until the app (started with FLOURISH_TRACE=sync) has no sync waiting or under way: it
    said "sync idle" after the last change that asked for one ("sync pending"). A change syncs a
    few seconds after it: a fixed wait for that could end before it on a busy machine."""
    def settled():
        with open(app.log.name, encoding="utf-8", errors="replace") as log:
            log.seek(app.log_start)
            marks = [line.split(" ", 2)[2].strip() for line in log if line.startswith("flourish-trace: ")
                     and line.count(" ") >= 2]

        def last(mark):
            return max((index for index, said in enumerate(marks) if said == mark), default=-1)
        return last("sync idle") > last("sync pending")
    wait_for("no sync waiting or under way", settled, timeout)


def wait_until_synced(app):
    """The header bar's sync button, once it says the journal synced."""
    def synced():
        for node in descendants(app.app):
            try:
                if node.getRoleName() == "push button" and node.name.startswith("Sync: Synced at"):
                    return node
            except Exception:
                continue
        return None
    return wait_for("the header bar saying it synced", synced, timeout=20)


def journal_syncs_through_a_folder():
    print("journey: sync is set up in the window on one journal and joined from another, through a folder", flush=True)
    place = os.path.join(WORK, "Sync", "Flourish")
    os.makedirs(os.path.dirname(place))
    passphrase = "a passphrase for the journey"
    first, second = os.path.join(WORK, "sync-first.sqlite"), os.path.join(WORK, "sync-second.sqlite")
    words = os.path.join(WORK, "sync-words.json")
    with open(words, "w", encoding="utf-8") as file:
        json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
                   "entries": [{"uuid": "77777777-7777-4777-8777-777777777777", "title": "Zanzibar by the sea", "body": "Warm wind",
                                "mood": 1, "mood_title": "really good", "created_at": "2026-11-20T09:00:00.000Z", "tags": []}]}, file)
    subprocess.run([BINARY, "--database", first, "--import", words], check=True, capture_output=True)

    def set_up(journal, again, **environment):
        app = Flourish(journal, **environment)
        press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
        press(app.wait("the Sync item", "menu item", "Sync…"))
        app.wait("the warning about a forgotten passphrase", "label",
                 "A forgotten passphrase cannot be recovered: nothing else can open the journal at the sync place. Keep it somewhere safe.")
        app.wait("the folder field", "text", "Folder").queryEditableText().setTextContents(place)
        field = wait_for("the passphrase field", lambda: find_any(app.app, "Sync passphrase"))
        field.queryEditableText().setTextContents(passphrase)
        # A screen reader speaks a password field's characters as bullets, never as typed.
        check(f"the passphrase field is a password field to a screen reader ({field.getRoleName()})",
              field.getRoleName() == "password text")
        if again:
            wait_for("the second passphrase field", lambda: find_any(app.app, "The same passphrase again, for a new synced journal")) \
                .queryEditableText().setTextContents(passphrase)
        press(app.wait("the Set Up button", "push button", "Set Up"))
        return app, wait_until_synced(app)

    app, status = set_up(first, again=True)
    check(f"Sync… starts a synced journal in the folder, and the header bar says so ({status.name})", status is not None)
    files = sorted(os.listdir(place))
    check(f"the folder holds the key file and a batch ({files})", "flourish-sync.json" in files and any(f.endswith(".batch") for f in files))
    for name in files:
        with open(os.path.join(place, name), "rb") as file:
            data = file.read()
        check(f"nothing of the journal or the passphrase is in the clear in {name}",
              b"Zanzibar" not in data and b"Warm wind" not in data and passphrase.encode() not in data)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)

    network = MockNetworkManager()
    try:
        app, status = set_up(second, again=False, FLOURISH_TRACE="sync", **network.environment)
        check("another journal joins it with the passphrase", status is not None)
        show_journal(app)
        check("the first journal's entry arrives in the second's list",
              app.wait_row("the synced entry's row", "Zanzibar by the sea", timeout=15) is not None)

        # The network goes; meanwhile the first journal syncs an entry from a terminal. When the
        # network comes back, the window syncs at once: its next timer is minutes away. (What
        # arrived counts as a change, which syncs once more 5 s later: that one passes first.)
        sync_settled(app)
        network.set_online(False)
        with open(words, "w", encoding="utf-8") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-21T10:00:00.000Z", "tags": [],
                       "entries": [{"uuid": "88888888-8888-4888-8888-888888888888", "title": "Back online", "body": "",
                                    "mood": 2, "mood_title": "good", "created_at": "2026-11-21T09:00:00.000Z", "tags": []}]}, file)
        subprocess.run([BINARY, "--database", first, "--import", words], check=True, capture_output=True)
        synced = subprocess.run([BINARY, "--database", first, "--sync"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        check(f"the first journal sends it from a terminal, its key from the keyring ({synced.stdout.strip()})",
              synced.returncode == 0 and "sent 1" in synced.stdout)
        time.sleep(1)
        check("nothing arrives while the network is away", app.row("Back online") is None)
        network.set_online(True)
        check("the entry arrives as soon as the network is back",
              app.wait_row("the entry synced on the network's return", "Back online", timeout=10) is not None)
        keys("ctrl+q")
        check("quits cleanly", app.exit_code() == 0)
    finally:
        network.stop()
    with sqlite3.connect(second) as db:
        rows = db.execute("SELECT uuid, title, body FROM entry ORDER BY uuid").fetchall()
    db.close()
    check("the entries are in the second journal's file", rows == [("77777777-7777-4777-8777-777777777777", "Zanzibar by the sea", "Warm wind"),
                                                                   ("88888888-8888-4888-8888-888888888888", "Back online", "")])


def passphrase_is_changed_in_the_window():
    print("journey: the sync passphrase is changed in the Sync window, as a screen reader user would", flush=True)
    place = os.path.join(WORK, "Sync", "Flourish")
    first = os.path.join(WORK, "sync-first.sqlite")
    old, new = "a passphrase for the journey", "the journey's second passphrase"
    key_file = os.path.join(place, "flourish-sync.json")
    with open(key_file, "rb") as file:
        before = file.read()
    app = Flourish(first)
    wait_until_synced(app)
    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Sync item", "menu item", "Sync…"))
    press(app.wait("the Change Passphrase button", "push button", "Change Passphrase…"))
    for name, text in [("Current sync passphrase", old), ("New sync passphrase", new), ("The new passphrase again", new)]:
        field = wait_for(f"the field {name}", lambda: find_any(app.app, name))
        check(f"{name} is a password field to a screen reader ({field.getRoleName()})", field.getRoleName() == "password text")
        field.queryEditableText().setTextContents(text)
    press(app.wait("the Change Passphrase button of its window", "push button", "Change Passphrase"))
    changed = wait_for("the key file to change", lambda: open(key_file, "rb").read() != before or None, timeout=20)
    check("the key file at the place is written anew", changed is not None)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    with open(key_file, "rb") as file:
        data = file.read()
    check("neither passphrase is in the key file", old.encode() not in data and new.encode() not in data)
    joiner = os.path.join(WORK, "sync-third.sqlite")
    refused = subprocess.run([BINARY, "--database", joiner, "--sync-setup", place], input=old + "\n", capture_output=True, text=True)
    check("the old passphrase opens nothing", refused.returncode == 1 and "not the passphrase" in refused.stderr)
    joined = subprocess.run([BINARY, "--database", joiner, "--sync-setup", place], input=new + "\n", capture_output=True, text=True)
    check(f"the new one joins the journal ({joined.stdout.strip()})", joined.returncode == 0 and "Joined" in joined.stdout)


# MARK: - The lock

LOCK_PASSPHRASE = "gentle otters keep the ledger"
LOCKED_ENTRIES = [
    ("Quokka parade", "Marzipan lanterns over the fjord", ["zephyrology"], "2026-11-01T09:15:00.000Z"),
    ("Brisket Tuesday", "Velvet thunder at noon", ["kumquats"], "2026-11-02T20:00:00.000Z"),
    ("Gondola minutes", "Saffron snow on the quay", ["zephyrology", "kumquats"], "2026-11-03T08:00:00.000Z"),
]
# What a locked journal must never show nor leave in the clear: every title, body and tag name.
LOCKED_WORDS = [word for title, body, tags, _ in LOCKED_ENTRIES for word in [title, body, *tags]]


class LockedJournal:
    """A journal of LOCKED_ENTRIES in a folder of its own, locked with `flourish --encrypt` (the
    passphrase on standard input), and a home of its own for the app: its XDG data, cache, state
    and config folders, which the journey reads byte for byte with the journal's folder."""

    def __init__(self, name, fixture=None):
        """`fixture`: a locked journal's folder under Tests/Fixtures, copied as it is instead."""
        self.root = os.path.join(WORK, name)
        self.folder = os.path.join(self.root, "journal")
        self.home = os.path.join(self.root, "home")
        self.journal = os.path.join(self.folder, "journal.sqlite")
        config = os.path.join(self.home, "config")
        os.makedirs(os.path.join(config, "gtk-4.0"))
        if fixture:
            shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", fixture), self.folder)
        else:
            os.makedirs(self.folder)
        with open(os.path.join(config, "gtk-4.0", "settings.ini"), "w") as file:
            file.write("[Settings]\ngtk-enable-animations=0\n")
        self.environment = {"HOME": self.home, "XDG_CONFIG_HOME": config,
                            "XDG_DATA_HOME": os.path.join(self.home, "data"),
                            "XDG_CACHE_HOME": os.path.join(self.home, "cache"),
                            "XDG_STATE_HOME": os.path.join(self.home, "state")}
        words = os.path.join(self.root, "entries.json")
        with open(words, "w", encoding="utf-8") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z",
                       "tags": sorted({tag for _, _, tags, _ in LOCKED_ENTRIES for tag in tags}),
                       "entries": [{"uuid": f"99999999-9999-4999-8999-99999999999{index}", "title": title, "body": body,
                                    "mood": 1, "mood_title": "really good", "created_at": created, "tags": tags}
                                   for index, (title, body, tags, created) in enumerate(LOCKED_ENTRIES)]}, file)
        if fixture:
            os.remove(words)
            return
        imported = self.run("--import", words)
        os.remove(words)
        check(f"a journal of {len(LOCKED_ENTRIES)} entries is made ({imported.stdout.strip()})", imported.returncode == 0)
        locked = self.run("--encrypt", stdin=LOCK_PASSPHRASE + "\n")
        check(f"flourish --encrypt locks it, the passphrase on standard input ({locked.stdout.splitlines()[0]})",
              locked.returncode == 0 and re.search(r"Recovery key .*: ([A-Z2-7]{4}-){7}[A-Z2-7]{4}$", locked.stdout, re.M))

    def run(self, *arguments, stdin=""):
        return subprocess.run([BINARY, "--database", self.journal, *arguments], input=stdin, capture_output=True,
                              text=True, env=dict(os.environ, **self.environment), timeout=120)

    def open(self, **environment):
        return Flourish(self.journal, **self.environment, **environment)

    def files(self):
        """Every file in the journal's folder and the app's home, with what it holds (and, for a
        compressed one, what it holds once uncompressed)."""
        return files_under(self.folder, self.home)

    def check_nothing_in_the_clear(self, moment, words):
        files = self.files()
        check(f"{moment}: the journal's folder and the app's folders hold files ({len(files)})",
              self.journal in files and len(files) > 1)
        for path, word in in_the_clear(files, words)[:1]:
            raise Failure(f"{moment}: {word!r} is in the clear in {path}")
        check(f"{moment}: no file holds a title, body, tag or 'SQLite format 3' in the clear "
              f"({', '.join(sorted(os.path.relpath(path, self.root) for path in files))})", True)


def everything_said(app):
    """Every name, description and text of every node of the app's accessibility tree, shown or
    not, and the title of each of its X windows."""
    said = []
    nodes = 0
    for node in descendants(app.app):
        nodes += 1
        for read in (lambda: node.name, lambda: node.description, lambda: text_of(node)):
            try:
                value = read()
            except Exception:
                continue
            if value:
                said.append(value)
    windows = subprocess.run(["xdotool", "search", "--all", "--pid", str(app.process.pid), "--name", ""],
                             capture_output=True, text=True).stdout.split()
    titles = [subprocess.run(["xdotool", "getwindowname", window], capture_output=True, text=True).stdout.strip()
              for window in windows]
    return said + titles, nodes, titles


def check_nothing_said(app, moment, words, count=None):
    said, nodes, titles = everything_said(app)
    # What the unlock page does say is read too: the walk reached its labels, field and window.
    check(f"{moment}: the tree and the window titles were read ({nodes} nodes, windows {titles})",
          "Flourish" in titles and any(text.startswith("Your journal is locked.") for text in said)
          and "Passphrase" in said and "Unlock" in said)
    for word in words:
        hits = [text for text in said if word.lower() in text.lower()]
        if hits:
            raise Failure(f"{moment}: {word!r} is said by the app: {hits[:3]}")
    if count is not None:
        hits = [text for text in said if re.search(rf"(?<![\d.:]){count}(?![\d.:])", text)]
        if hits:
            raise Failure(f"{moment}: the number of entries ({count}) is said: {hits[:3]}")
    check(f"{moment}: nothing of the journal is said by any node or window title", True)


def unlock_page(app):
    field = app.wait("the unlock page's passphrase field", "password text", "Passphrase", timeout=20)
    button = app.wait("the Unlock button", "push button", "Unlock")
    return field, button


def unlock(app, field, passphrase=LOCK_PASSPHRASE):
    wait_for("focus in the passphrase field", lambda: focused(field))
    type_text(passphrase)
    keys("Return")
    # Argon2id takes about a second; then the window of the journal takes the page's place.
    app.wait("the window of the unlocked journal", "page tab", "Journal", timeout=30)
    wait_for("the unlock page to go", lambda: app.find("push button", "Unlock", visible=False) is None)


def show_every_locked_entry(app):
    """The Journal page, with a row for each of LOCKED_ENTRIES."""
    show_journal(app)
    for title, _, _, _ in LOCKED_ENTRIES:
        app.wait_row(f"the row of {title}", title)


def locked_journal_opens_on_its_unlock_page():
    print("journey: a locked journal opens on its unlock page, which shows nothing of the journal", flush=True)
    locked = LockedJournal("locked-start")
    app = locked.open()
    field, button = unlock_page(app)
    check(f"the page has a password field named Passphrase ({field.getRoleName()}) and an Unlock button",
          field.getRoleName() == "password text" and button is not None)
    check("the passphrase field has the keyboard", wait_for("focus in the field", lambda: focused(field)))
    check("the journal's main window is not there", app.find("page tab", "Journal", visible=False) is None
          and app.find("text", "Title", visible=False) is None)
    check_nothing_said(app, "the unlock page", LOCKED_WORDS, count=len(LOCKED_ENTRIES))
    screenshot("unlock-page.png")

    type_text("not the passphrase at all")
    keys("Return")
    wrong = "That passphrase does not open this journal. Check it and try again, or use the recovery key."
    app.wait("the wrong passphrase's line", "label", wrong, timeout=20)
    check("a wrong passphrase is said in a line on the page", True)
    check("the field is emptied and has the keyboard again",
          wait_for("the field empty and focused", lambda: text_of(field) == "" and focused(field)))
    check("a screen reader hears the line with the field", field.description == wrong)
    check_nothing_said(app, "after a wrong passphrase", LOCKED_WORDS, count=len(LOCKED_ENTRIES))

    unlock(app, field)
    show_every_locked_entry(app)
    check("the right passphrase opens the window with every entry", app.find("label", "Marzipan lanterns over the fjord") is not None)
    check("and the unlock page is gone", app.find("password text", "Passphrase", visible=False) is None)
    keyboard_in(app, "Flourish")
    keys("ctrl+p")
    keyboard_in(app, "Print Journal", "radio button")
    check("its Print window says first that a PDF or paper is not locked", app.find(
        "label", "This journal is locked, but a PDF is not: anyone who has the file can read every entry in it.") is not None)
    screenshot("print-window-locked.png")
    keys("Escape")
    wait_for("the Print window to close", lambda: app.find("radio button", "The whole journal") is None)
    give_keyboard_to("Flourish")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def a_file_planted_beside_a_locked_journal_is_set_aside_and_said():
    print("journey: a rollback journal someone planted beside a locked journal is set aside unread, and the window says so", flush=True)
    locked = LockedJournal("planted")
    planted = locked.journal + "-journal"
    # Any file there is someone else's: a locked journal never has a rollback journal. (What one
    # holding real pages would do is shown by PlantedFilesTests and lock_cli.py.)
    with open(planted, "wb") as file:
        file.write(bytes.fromhex("d9d505f920a163d7") + b"pages of someone else's making" + bytes(4000))
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    kept = [name for name in os.listdir(locked.folder) if name.startswith("journal.sqlite-journal.set-aside-")]
    check(f"opening sets the planted file aside, kept ({kept})", not os.path.exists(planted) and len(kept) == 1)
    message = wait_for("the message about it",
                       lambda: named_containing(app, "A file Flourish did not write was found beside the locked journal"))
    check(f"a message says so, naming where it is kept ({message.name[:80]}…)", os.path.join(locked.folder, kept[0]) in message.name)
    check("titled Files Set Aside", app.find("label", "Files Set Aside") is not None)
    screenshot("files-set-aside.png")
    press(app.dialog_button("Files Set Aside", "OK"))
    wait_for("the message to close", lambda: app.find("label", "Files Set Aside") is None)
    show_every_locked_entry(app)
    check("the journal is there, whole", True)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def page_identities(path):
    """The first 8 bytes of each page's nonce (the 24 bytes after each page's first 4056): one
    for every page of a file in today's format, its identity; one per page in the first format."""
    with open(path, "rb") as file:
        data = file.read()
    return {data[start + 4056:start + 4064] for start in range(0, len(data), 4096)}


def a_journal_locked_by_an_earlier_flourish_opens_whole():
    print("journey: a journal locked by an earlier Flourish opens with its passphrase, whole, and is rewritten in today's format", flush=True)
    earlier = LockedJournal("locked-format-1", fixture="locked-format-1")
    backup = os.path.join(earlier.folder, "backups", "journal-2023-12-25.sqlite")
    check("its pages are in the first format (a random nonce each)",
          len(page_identities(earlier.journal)) > 40 and len(page_identities(backup)) > 40)
    app = earlier.open()
    field, _ = unlock_page(app)
    unlock(app, field, passphrase="locked fixture passphrase")
    show_journal(app)
    app.wait_row("the row of its newest entry", "Day 39 of the locked fixture")
    check("it opens with its entries", True)
    check("the journal is rewritten in today's format as it opens (one identity on every page)",
          len(page_identities(earlier.journal)) == 1)
    wait_for("its backup rewritten by the start-up upkeep", lambda: len(page_identities(backup)) == 1, timeout=20)
    check("and its backup, with an identity of its own", page_identities(backup) != page_identities(earlier.journal))
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    exported = os.path.join(earlier.root, "entries.json")
    result = earlier.run("--export", "json", exported, stdin="locked fixture passphrase\n")
    with open(exported, encoding="utf-8") as file:
        titles = [entry["title"] for entry in json.load(file)["entries"]]
    os.remove(exported)
    check(f"every entry came through, the change its log held after a crash too ({result.stdout.strip()})",
          len(titles) == 40 and "Day 0, changed in the log" in titles)


def lock_keeps_the_half_written_words_inside():
    print("journey: Lock (Ctrl+L) hides everything at once and keeps the half-written words inside the journal", flush=True)
    locked = LockedJournal("locked-draft")
    draft_title, draft_body = "Half-written wombat", "Unsent words about the pelican"
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    type_a_draft(app, draft_title, draft_body)
    show_journal(app)
    app.wait_row("a row of the journal", "Quokka parade")
    # And an edit not saved yet: the newest entry's title changed in its editor.
    keys("Return")  # the newest row has the focus as the page opens
    app.wait("the entry view's Edit button", "push button", "Edit")
    keys("ctrl+e")
    edit_title = app.wait("the edit form's Title", "text", "Title", text="Gondola minutes")
    wait_for("focus in the edit form's Title", lambda: focused(edit_title))
    keys("ctrl+a")
    edited = "Gondola hours and a half"
    type_text(edited)
    check("the edit is in its form", text_of(edit_title) == edited)
    unsaved = [*LOCKED_WORDS, draft_title, draft_body, edited]

    keys("ctrl+l")
    field, _ = unlock_page(app)
    wait_for("the journal's window to go", lambda: app.find("page tab", "Journal", visible=False) is None)
    check("Ctrl+L closes the window and shows the unlock page", app.process.poll() is None)
    check_nothing_said(app, "after Ctrl+L", unsaved, count=len(LOCKED_ENTRIES))
    locked.check_nothing_in_the_clear("right after Ctrl+L", unsaved)
    # Once the journal is closed (its last connection folds the log in and removes it), again.
    wait_for("the journal to be closed", lambda: not os.path.exists(locked.journal + "-wal"), timeout=15)
    locked.check_nothing_in_the_clear("once the journal is closed", unsaved)

    unlock(app, field)
    edit_title = app.wait("the edit form's Title, open again", "text", "Title", text=edited)
    check("unlocking opens the unsaved edit again, as it was", edit_title is not None and app.find("push button", "Save") is not None)
    keys("alt+1")
    title = app.wait("the Title field", "text", "Title", text=draft_title)
    body = app.wait("the Body field", "text", "Body")
    check("unlocking puts the half-written words back in the form",
          wait_for("the words back", lambda: text_of(title) == draft_title and text_of(body) == draft_body))
    keys("ctrl+q")
    press(app.dialog_button("Discard changes?", "Discard"))
    press(app.dialog_button("Discard this entry?", "Discard"))
    check("quits cleanly", app.exit_code() == 0)


def saves_of_a_locked_journal_stay_sealed():
    print("journey: an entry saved in the window of a locked journal reaches the disk sealed", flush=True)
    locked = LockedJournal("locked-save")
    title, body, tag = "Narwhal lullaby", "Cardamom under the lighthouse", "pelagiculture"
    words = [*LOCKED_WORDS, title, body, tag]
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    title_field = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title", lambda: focused(title_field))
    type_text(title)
    keys("alt+b")
    type_text(body)
    press(app.find("push button", "Mood"))
    press(app.wait("the mood popover", "push button", "really good"))
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    keys("alt+g")
    add = app.wait("the Add tag field", "text", "Add tag")
    wait_for("focus in Add tag", lambda: focused(add))
    type_text(tag)
    keys("Return")
    wait_for(f"{tag} turned on", lambda: selected(app.find("push button", tag)))
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    show_journal(app)
    app.wait_row("the saved row", title)
    check("the entry is saved and listed with its tag", app.wait("the row's tags", "label", f"Tags: {tag}") is not None)
    backups = os.path.join(locked.folder, "backups")
    wait_for("the day's backup", lambda: any(name.startswith("journal-") and name.endswith(".sqlite")
                                            for name in (os.listdir(backups) if os.path.isdir(backups) else [])), timeout=20)
    check("the day's backup is written beside the journal, with the key file's copy",
          os.path.exists(os.path.join(backups, "journal.sqlite.key")))
    locked.check_nothing_in_the_clear("with the app running", words)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)
    locked.check_nothing_in_the_clear("after quitting", words)

    # The words are in the journal all the same: its passphrase reads them back.
    out = os.path.join(locked.root, "export.json")
    exported = locked.run("--export", "json", out, stdin=LOCK_PASSPHRASE + "\n")
    with open(out, encoding="utf-8") as file:
        document = json.load(file)
    os.remove(out)
    saved = [entry for entry in document["entries"] if entry["title"] == title]
    check(f"the passphrase reads the entry back ({exported.stdout.strip()})",
          exported.returncode == 0 and len(saved) == 1 and saved[0]["body"] == body and saved[0]["tags"] == [tag]
          and len(document["entries"]) == len(LOCKED_ENTRIES) + 1)


def a_leaked_passphrase_is_replaced_with_a_new_key():
    print("journey: New Key… in Preferences seals a locked journal anew under a new passphrase, as a screen reader user would", flush=True)
    locked = LockedJournal("new-key")
    new = "a passphrase after the leak"
    with open(locked.journal + ".key", "rb") as file:
        before = file.read()
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Preferences item", "menu item", "Preferences"))
    press(wait_for("the New Key button", lambda: next((node for window in app.app
                                                       for node in [find_any(window, "New Key…", focusable=True)] if node), None)))
    for name, text in [("Passphrase", LOCK_PASSPHRASE), ("New passphrase", new), ("The new passphrase again", new)]:
        entry = wait_for(f"the field {name}", lambda: find(app.app, "password text", name))
        check(f"{name} is a password field to a screen reader", entry is not None)
        entry.queryEditableText().setTextContents(text)
    screenshot("new-key.png")
    press(app.wait("the Make New Key button", "push button", "Make New Key"))
    # The journal closes, is sealed anew, and opens again with the new recovery key over it.
    shown = wait_for("the new recovery key", lambda: next((node for node in descendants(app.app)
                                                          if node.name.startswith("Recovery key: ")), None), timeout=60)
    recovery_key = shown.name[len("Recovery key: "):]
    check(f"the new recovery key is shown once, over the journal opened again ({len(recovery_key)} characters)",
          re.fullmatch(r"([A-Z2-7]{4}-){7}[A-Z2-7]{4}", recovery_key) is not None
          and app.find("label", "Your journal has a new key: its old passphrase and recovery key no longer open it. Keep this new recovery key "
                       "somewhere safe, away from this computer: it opens the journal if the passphrase is forgotten. It is shown only now.")
          is not None)
    screenshot("new-key-recovery.png")
    press(app.wait("the Done button", "push button", "Done"))
    show_every_locked_entry(app)
    check("every entry is in the window again", True)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)

    with open(locked.journal + ".key", "rb") as file:
        after = file.read()
    check("the key file is written anew, its old keys let go", after != before and b"pending" not in after)
    old = locked.run("--check", stdin=LOCK_PASSPHRASE + "\n")
    check(f"the old passphrase opens nothing ({old.stderr.strip()})", old.returncode == 1 and "does not open" in old.stderr)
    for secret in [new, recovery_key]:
        opened = locked.run("--check", stdin=secret + "\n")
        check(f"the new passphrase and the new recovery key each open it ({opened.stdout.strip()})",
              opened.returncode == 0 and f"({len(LOCKED_ENTRIES)} entries)" in opened.stdout)
    locked.check_nothing_in_the_clear("after New Key…", [*LOCKED_WORDS, new, LOCK_PASSPHRASE, recovery_key])


def session_bus_subscribed(pid, *words):
    """Whether a connection of process `pid` to the session bus has a match rule holding each of
    `words`: once the bus has it, a signal it matches reaches that process (dbus-daemon's
    Debug.Stats interface lists each connection's rules)."""
    def call(method, *arguments):
        return subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                               "/org/freedesktop/DBus", "--method", method, *arguments],
                              capture_output=True, text=True).stdout
    # "({':1.4': ['type=\'signal\',sender=…', …], …},)": one entry a connection.
    for name, rules in re.findall(r"'(:[0-9.]+)': (?:@as )?\[(.*?)\]", call("org.freedesktop.DBus.Debug.Stats.GetAllMatchRules")):
        if all(word in rules for word in words) and \
                call("org.freedesktop.DBus.GetConnectionUnixProcessID", name).strip() == f"(uint32 {pid},)":
            return True
    return False


def session_bus_has(name):
    answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                             "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                            capture_output=True, text=True)
    return answer.stdout.strip() == "(true,)"


def type_a_draft(app, title_words, body_words):
    title = app.wait("the Title field", "text", "Title")
    wait_for("focus in Title", lambda: focused(title))
    type_text(title_words)
    keys("alt+b")
    body = app.wait("the Body field", "text", "Body")
    wait_for("focus in Body", lambda: focused(body))
    type_text(body_words)
    check("the words are in the form", text_of(title) == title_words and text_of(body) == body_words)


def words_come_back(app, title_words, body_words):
    title = app.wait("the Title field", "text", "Title")
    body = app.wait("the Body field", "text", "Body")
    check("unlocking puts the half-written words back in the form",
          wait_for("the words back", lambda: text_of(title) == title_words and text_of(body) == body_words))


def screen_lock_locks_the_journal():
    print("journey: the desktop locking its screen locks the journal, the words kept", flush=True)
    # GNOME Shell's screen saver, played by python3-dbusmock on the test's own session bus.
    mock = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--session", "org.gnome.ScreenSaver",
                             "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for("the stand-in screen saver on the session bus", lambda: session_bus_has("org.gnome.ScreenSaver"))
        locked = LockedJournal("screen-lock")
        app = locked.open()
        field, _ = unlock_page(app)
        unlock(app, field)
        draft = ("Moonlit heron", "Words typed before the screen locked")
        type_a_draft(app, *draft)
        # The app hears the screen saver once the bus has its subscription, moments after it starts.
        wait_for("the app's subscription to the screen saver", lambda: session_bus_subscribed(
            app.process.pid, "org.gnome.ScreenSaver", "ActiveChanged"))

        def screen_saver(active):
            subprocess.run(["gdbus", "call", "--session", "--dest", "org.gnome.ScreenSaver", "--object-path",
                            "/org/gnome/ScreenSaver", "--method", "org.freedesktop.DBus.Mock.EmitSignal",
                            "org.gnome.ScreenSaver", "ActiveChanged", "b", f"[<{'true' if active else 'false'}>]"],
                           check=True, capture_output=True)

        screen_saver(False)
        time.sleep(1)
        check("the screen saver going off locks nothing", app.find("password text", "Passphrase") is None
              and app.find("page tab", "Journal") is not None)
        screen_saver(True)
        field, _ = unlock_page(app)
        wait_for("the journal's window to go", lambda: app.find("page tab", "Journal", visible=False) is None)
        check_nothing_said(app, "after the screen locked", [*LOCKED_WORDS, *draft], count=len(LOCKED_ENTRIES))
        wait_for("the journal to be closed", lambda: not os.path.exists(locked.journal + "-wal"), timeout=15)
        locked.check_nothing_in_the_clear("once the screen locked", [*LOCKED_WORDS, *draft])
        unlock(app, field)
        words_come_back(app, *draft)
        keys("ctrl+q")
        press(app.dialog_button("Discard this entry?", "Discard"))
        check("quits cleanly", app.exit_code() == 0)
    finally:
        mock.terminate()
        mock.wait(timeout=10)


def idle_journal_locks_itself():
    print("journey: a locked journal left alone for its idle limit (one minute) locks itself", flush=True)
    locked = LockedJournal("idle-lock")
    # The shortest limit Preferences offers, chosen before the app starts (either build's folder).
    for folder in ("flourish", "flourish-devel"):
        config = os.path.join(locked.environment["XDG_CONFIG_HOME"], folder)
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "preferences"), "w") as file:
            file.write("lock-after-idle-minutes=1\n")
    app = locked.open()
    field, _ = unlock_page(app)
    unlock(app, field)
    draft = ("Idle otter", "Left here a minute ago")
    type_a_draft(app, *draft)
    last_input = time.monotonic()
    field, _ = unlock_page_within(app, 100)
    waited = time.monotonic() - last_input
    check(f"it locked a minute after the last key, not before ({waited:.0f} s)", 59 <= waited <= 100)
    check_nothing_said(app, "after the idle lock", [*LOCKED_WORDS, *draft], count=len(LOCKED_ENTRIES))
    unlock(app, field)
    words_come_back(app, *draft)
    keys("ctrl+q")
    press(app.dialog_button("Discard this entry?", "Discard"))
    check("quits cleanly", app.exit_code() == 0)


def lock_without_a_passphrase_offers_one():
    print("journey: Ctrl+L on a journal without a passphrase opens Preferences at the lock's switch", flush=True)
    journal = os.path.join(WORK, "no-passphrase", "journal.sqlite")
    os.makedirs(os.path.dirname(journal), exist_ok=True)
    app = Flourish(journal)
    app.wait("the Title field", "text", "Title")
    keys("ctrl+l")
    switch = wait_for("the lock's switch in Preferences",
                      lambda: next((node for window in app.app for node in [find_any(window, "Lock journal with a passphrase",
                                                                                      focusable=True)] if node), None))
    check("Preferences shows the switch that gives the journal a passphrase", showing(switch))
    check("the journal is open still, not locked", app.find("password text", "Passphrase") is None)
    keys("Escape")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def save_quickly(app, title):
    """Saves an entry of `title` (mood: really good) from the form, from the keyboard."""
    keys("alt+1")
    title_field = app.wait("the Title field", "text", "Title")
    keys("alt+t")
    wait_for("focus in Title", lambda: focused(title_field))
    type_text(title)
    press(app.find("push button", "Mood"))
    press(app.wait("the mood popover", "push button", "really good"))
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)


def locked_journal_syncs_while_locked_with_its_key_kept():
    print("journey: a locked journal syncs behind its unlock page once the keyring keeps its key, and only then", flush=True)
    locked = LockedJournal("locked-sync")
    place = os.path.join(locked.root, "Sync", "Flourish")
    sync_passphrase = "a sync passphrase for the locked journal"
    os.makedirs(os.path.dirname(place))
    set_up = locked.run("--sync-setup", place, stdin=f"{LOCK_PASSPHRASE}\n{sync_passphrase}\n")
    check(f"the locked journal is set up to sync through a folder from a terminal ({set_up.stdout.strip()})",
          set_up.returncode == 0)

    def batches():
        return len([name for name in os.listdir(place) if name.endswith(".batch")])

    app = locked.open(FLOURISH_TRACE="sync")
    field, _ = unlock_page(app)
    unlock(app, field)
    wait_until_synced(app)
    sync_settled(app)  # the window opening counts as a change, synced 5 s later: that one passes first
    sent = batches()

    # No key kept: an entry saved just before Ctrl+L waits behind the unlock page...
    save_quickly(app, "Albatross ledger")
    keys("ctrl+l")
    field, _ = unlock_page(app)
    time.sleep(8)  # past the 5 s after which the window would have sent it
    check(f"without a kept key nothing is sent while locked ({batches()} batches, {sent} before)", batches() == sent)
    # ...and is sent once the passphrase opens the window again.
    unlock(app, field)
    wait_for("the entry sent after unlocking", lambda: batches() == sent + 1, timeout=20)
    check("unlocking catches up: the entry is sent", True)

    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Preferences item", "menu item", "Preferences"))
    login = wait_for("the Unlock when I log in switch",
                     lambda: next((node for window in app.app for node in [find_any(window, "Unlock when I log in", focusable=True)]
                                   if node), None))
    press(login)
    wait_for("the switch on", lambda: selected(login), timeout=20)
    keys("Escape")
    sync_settled(app)
    sent = batches()

    # The key kept: an entry saved just before Ctrl+L is sent with the unlock page up.
    save_quickly(app, "Cormorant almanac")
    locked_at = time.monotonic()
    keys("ctrl+l")
    field, _ = unlock_page(app)
    wait_for("the entry sent while locked", lambda: batches() == sent + 1, timeout=20)
    check(f"with the key kept it syncs while locked ({time.monotonic() - locked_at:.1f} s after Ctrl+L)",
          app.find("password text", "Passphrase") is not None and app.find("page tab", "Journal", visible=False) is None)
    saved = [*LOCKED_WORDS, "Albatross ledger", "Cormorant almanac"]
    check_nothing_said(app, "syncing while locked", saved)
    locked.check_nothing_in_the_clear("after syncing while locked", saved)
    for name in os.listdir(place):
        with open(os.path.join(place, name), "rb") as file:
            data = file.read()
        check(f"nothing of the journal is in the clear at the place, in {name}",
              not any(word.encode() in data for word in saved) and sync_passphrase.encode() not in data)

    # Another computer joins and finds both entries.
    other = os.path.join(locked.root, "other.sqlite")
    joined = subprocess.run([BINARY, "--database", other, "--sync-setup", place], input=sync_passphrase + "\n",
                            capture_output=True, text=True, env=dict(os.environ, **locked.environment))
    with sqlite3.connect(other) as db:
        titles = {title for (title,) in db.execute("SELECT title FROM entry")}
    db.close()
    check(f"another computer receives what was sent while locked ({joined.stdout.strip()})",
          joined.returncode == 0 and {"Albatross ledger", "Cormorant almanac"} <= titles)
    unlock(app, field)
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def memories_come_back_on_their_day():
    print("journey: entries of this day in earlier years come back above the journal", flush=True)
    today = datetime.date.today()
    # Three earlier years that have today's date (a 29 February reaches back to leap years).
    years = [4, 8, 12] if (today.month, today.day) == (2, 29) else [1, 3, 7]
    entries, lines = [], []
    for ago, title, mood, word in zip(years, ["First snow", "Lunch by the river", "Ten years on"], [1, 0, 4],
                                      ["really good", "the best", "not so great"]):
        when = datetime.datetime(today.year - ago, today.month, today.day, 12, 30).astimezone(datetime.timezone.utc)
        entries.append({"uuid": f"00000000-0000-4000-8000-{ago:012d}", "title": title, "body": f"Words of {title}.",
                        "mood": mood, "mood_title": word, "created_at": when.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "tags": []})
        lines.append(f"{ago} year{'s' if ago > 1 else ''} ago · feeling {word} · {title}")
    other = datetime.datetime.combine(today - datetime.timedelta(days=40), datetime.time(9)).astimezone(datetime.timezone.utc)
    entries.append({"uuid": "00000000-0000-4000-8000-100000000000", "title": "Another day", "body": "", "mood": 2,
                    "mood_title": "okay", "created_at": other.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "tags": []})
    words = os.path.join(WORK, "memories.json")
    with open(words, "w", encoding="utf-8") as file:
        json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
                   "entries": entries}, file)
    journal = os.path.join(WORK, "memories.sqlite")
    subprocess.run([BINARY, "--database", journal, "--import", words], check=True, capture_output=True)
    config = os.path.join(WORK, "memories-config")

    app = Flourish(journal, XDG_CONFIG_HOME=config)
    show_journal(app)
    card = app.wait("the On this day card", "panel", "On this day")
    shown = wait_for("the three memories", lambda: (lambda found: found if len(found) == 3 else None)(
        [node.name for node in descendants(card) if node.getRoleName() == "push button" and " ago · " in node.name]))
    check("one line a year, the most recent first, each a button named by what it says", shown == lines)
    check("Another day is no memory", not any("Another day" in name for name in shown))
    screenshot("memories.png")
    press(app.wait("the second memory", "push button", lines[1]))
    app.wait("the memory's entry, opened", "push button", "Edit")
    check("the entry opened is the memory's", app.find("label", "Feeling the best") is not None)
    press(app.wait("the entry view's Back button", "push button", "Back"))
    close = app.wait("the card's close button", "push button", "Close today's memories")
    press(close)
    wait_for("the card to go", lambda: app.find("push button", lines[0]) is None)
    app.kill()

    app = Flourish(journal, XDG_CONFIG_HOME=config)
    show_journal(app)
    app.wait_row("the journal's rows", "Lunch by the river")
    time.sleep(1.5)  # the look-up comes after the first frame
    check("closed, the card stays closed for the rest of the day", app.find("push button", lines[0]) is None)
    app.kill()


def measures_are_kept_searched_and_charted():
    print("journey: a measure is added in Preferences, recorded in the form, found and charted", flush=True)
    # A scale comes with an export (as a journal moved from another machine brings its own).
    brought = os.path.join(WORK, "measures.json")
    earlier = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    with open(brought, "w", encoding="utf-8") as file:
        json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
                   "measures": [{"uuid": "5ca1e000-0000-4000-8000-000000000001", "name": "Energy", "kind": "scale"}],
                   "entries": [{"uuid": "00000000-0000-4000-8000-0000000000e1", "title": "Slow Sunday", "body": "",
                                "mood": 3, "mood_title": "meh", "created_at": earlier, "tags": [], "measures": {"Energy": 2}}]}, file)
    journal = os.path.join(WORK, "measures.sqlite")
    subprocess.run([BINARY, "--database", journal, "--import", brought], check=True, capture_output=True)
    app = Flourish(journal, XDG_CONFIG_HOME=os.path.join(WORK, "measures-config"))
    app.wait("the Title field", "text", "Title")

    keys("ctrl+comma")
    press(app.wait("Preferences' Measures button", "push button", "Measures…"))
    app.wait("the Energy row", "text", "Name of “Energy”")
    name = app.wait("the new measure's name", "text", "Name of the new measure")
    name.queryEditableText().setTextContents("Sleep")
    app.find("text", "Unit of the new measure").queryEditableText().setTextContents("hours")
    app.find("text", "Lowest value of the new measure").queryEditableText().setTextContents("0")
    app.find("text", "Highest value of the new measure").queryEditableText().setTextContents("24")
    press(app.wait("Add Measure", "push button", "Add Measure"))
    app.wait("the Sleep row", "text", "Name of “Sleep”")
    check("Preferences → Measures adds a number with its unit and range", app.find("text", "Unit of “Sleep”") is not None)
    press(app.wait("Move Sleep up", "push button", "Move “Sleep” up"))
    wait_for("Sleep first", lambda: app.find("push button", "Move “Sleep” up") and not app.find("push button", "Move “Sleep” up").getState().contains(pyatspi.STATE_SENSITIVE))
    check("Move up puts it first", True)
    keys("ctrl+z")
    wait_for("the move undone", lambda: not app.find("push button", "Move “Energy” up").getState().contains(pyatspi.STATE_SENSITIVE))
    check("Ctrl+Z takes the move back", True)
    screenshot("measures-window.png")
    keys("Escape")
    wait_for("the Measures window to close", lambda: app.find("text", "Name of “Sleep”") is None)
    keys("Escape")

    # The form: its fields, empty; a value and a step; saved.
    title = app.wait("the Title field", "text", "Title")
    sleep = app.wait("the form's Sleep field", "text", "Sleep")
    check("the form offers the measures, empty", text_of(sleep) == "")
    title.queryEditableText().setTextContents("Short night")
    keys("alt+f")
    app.wait("the mood popover", "push button", "the worst")
    keys("Down", "Down", "Down", "Down", "Return")
    wait_for("the popover to close", lambda: app.find("push button", "the best") is None)
    sleep.queryEditableText().setTextContents("5.5")
    step = app.wait("Energy's fourth step", "push button", "Energy, 4 of 5")
    press(step)
    wait_for("the step to be pressed", lambda: selected(step))
    keys("ctrl+Return")
    app.wait("the saved dialog", "label", "Entry Saved")
    keys("Return")
    wait_for("the dialog to close", lambda: app.find("label", "Entry Saved") is None)
    with sqlite3.connect(journal) as db:
        stored = db.execute("""SELECT measure.name, entry_measure.value FROM entry_measure JOIN measure ON measure.id = measure_id
                               JOIN entry ON entry.id = entry_id WHERE entry.title = 'Short night' ORDER BY measure.name""").fetchall()
    check("the values are in the journal file", stored == [("Energy", 4.0), ("Sleep", 5.5)])
    check("the form starts again empty", text_of(app.find("text", "Sleep")) == "")

    # Found by value in the search bar, and shown on the entry.
    keys("alt+2")
    app.wait_row("the new row", "Short night")
    keys("ctrl+f")
    search = wait_for("the Search field", lambda: find_any(app.app, "Search"))
    wait_for("focus in Search", lambda: focused(search))
    type_text("energy < 3")
    app.wait("one entry found", "label", "1 entry")
    check("“energy < 3” finds the entry with a 2, not the one with a 4",
          wait_for("Slow Sunday alone", lambda: app.row("Slow Sunday") and not app.row("Short night")))
    keys("ctrl+a")
    type_text("sleep < 6")
    wait_for("Short night alone", lambda: app.row("Short night") and not app.row("Slow Sunday"))
    check("“sleep < 6” finds the short night", True)
    keys("Escape")

    # Insights: the figures in words, as a screen reader reads them.
    keys("alt+3")
    app.wait("the Insights page", "label", "Mood count")
    app.wait("mood by Energy", "label", "Mood by Energy")
    with sqlite3.connect(journal) as db:
        (mood,) = db.execute("SELECT mood FROM entry WHERE title = 'Short night'").fetchone()
    said = f"4 of 5: {['the best', 'really good', 'okay', 'meh', 'not so great', 'the worst'][mood]}, {5 - mood:.1f} on average, 1 entry"
    check("Insights say the mood at each step, from the file's entries", app.wait("step 4", "label", said) is not None)
    check("a step without entries says so", app.find("label", "3 of 5: no entries") is not None)
    check("and each measure's values in words", app.wait("Sleep's summary", "label", "5.5 hours on average, from 5.5 hours to 5.5 hours, on 1 entry") is not None)
    screenshot("measures-insights.png")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def locked_keyring_is_never_asked_to_unlock():
    """Locks the session's login keyring, and leaves it locked: the last journey for that reason."""
    print("journey: with the desktop's keyring locked, the journal locked behind its page asks for no keyring password", flush=True)
    locked = LockedJournal("locked-keyring")
    place = os.path.join(locked.root, "Sync", "Flourish")
    os.makedirs(os.path.dirname(place))
    sync_passphrase = "a sync passphrase for the locked keyring"
    set_up = locked.run("--sync-setup", place, stdin=f"{LOCK_PASSPHRASE}\n{sync_passphrase}\n")
    kept = locked.run("--unlock-at-login", "on", stdin=LOCK_PASSPHRASE + "\n")
    check(f"the locked journal syncs through a folder and its key is kept ({kept.stdout.strip()})",
          set_up.returncode == 0 and kept.returncode == 0)

    def batches():
        return len([name for name in os.listdir(place) if name.endswith(".batch")])

    def prompters():
        """The keyring's password prompts started for this session's bus (not another test's)."""
        bus = os.environ["DBUS_SESSION_BUS_ADDRESS"].encode()
        found = []
        for pid in subprocess.run(["pgrep", "-f", "gcr-prompter"], capture_output=True, text=True).stdout.split():
            try:
                with open(f"/proc/{pid}/environ", "rb") as file:
                    if bus in file.read():
                        found.append(pid)
            except OSError:
                pass
        return found

    app = locked.open(FLOURISH_TRACE="sync")
    app.wait("the journal's window, opened from the keyring", "page tab", "Journal", timeout=30)
    wait_until_synced(app)
    sync_settled(app)  # the change the window's opening counts, synced 5 s later
    sent = batches()
    save_quickly(app, "Heron tally")
    # The screen locker, or the person, locks the keyring: a lookup now asks for its password.
    subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path",
                    "/org/freedesktop/secrets", "--method", "org.freedesktop.Secret.Service.Lock",
                    "['/org/freedesktop/secrets/collection/login']"], check=True, capture_output=True)
    keys("ctrl+l")
    unlock_page(app)
    time.sleep(8)
    check(f"no keyring password prompt comes up behind the unlock page ({prompters()})", prompters() == [])
    check(f"and nothing is sent: the key is out of reach ({batches()} batches, {sent} before)", batches() == sent)
    keys("ctrl+q")
    check("it quits at once: nothing waits on a prompt", app.exit_code() == 0)


def rows_are_named_for_a_screen_reader():
    print("journey: each journal row is one sentence to a screen reader, as it scrolls and in a search", flush=True)
    now = datetime.datetime.now().astimezone(datetime.timezone.utc)
    moods = [(1, "really good"), (0, "the best"), (2, "okay"), (3, "meh")]
    entries = []
    for day in range(120):
        mood, word = moods[day % len(moods)]
        title = "First snow" if day == 0 else f"Day {day:03d}"
        when = (now - datetime.timedelta(days=day, hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        entries.append({"uuid": f"00000000-0000-4000-9000-{day:012d}", "title": title, "body": f"Words of {title}.",
                        "mood": mood, "mood_title": word, "created_at": when,
                        "tags": ["walk", "friends"] if day == 0 else (["walk"] if day == 119 else [])})
    words = os.path.join(WORK, "rows.json")
    with open(words, "w", encoding="utf-8") as file:
        json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z",
                   "tags": [], "entries": entries}, file)
    journal = os.path.join(WORK, "rows.sqlite")
    subprocess.run([BINARY, "--database", journal, "--import", words], check=True, capture_output=True)

    def cells():
        return rows_of(app.app)

    def focused_cell():
        return next((node for node in cells() if focused(node)), None)

    app = Flourish(journal)
    keys("alt+2")
    first = wait_for("the first row, named", lambda: next((cell for cell in cells() if cell.name.startswith("First snow")), None))
    check("a row is named by one sentence: title, mood, date, then its tags",
          first.name.startswith("First snow, feeling really good, ") and first.name.endswith(", 2 tags"))
    check("no row is named by its widget's type", not any(cell.name == "GtkListItemWidget" for cell in cells()))
    inside = [node.name for node in descendants(first) if node is not first and node.getRoleName() == "label"]
    check(f"inside the row nothing of its sentence is said again; the body and tags are there to read ({inside})",
          "First snow" not in inside and not any(" · feeling " in name for name in inside)
          and "Words of First snow." in inside and "Tags: friends, walk" in inside)
    second = next((cell for cell in cells() if cell.name.startswith("Day 001, feeling the best, ")), None)
    check("the next row is named for its own entry", second is not None)

    keys("Tab")
    wait_for("the keyboard on a row", focused_cell)
    for _ in range(20):  # from the row Tab reached, up to the first
        if focused_cell().name.startswith("First snow"):
            break
        move_focus(app, "Up")
    check("Up reaches the first row", focused_cell().name.startswith("First snow"))
    keys("Down")
    check("Down moves to the next row", wait_for("the next row focused",
          lambda: (focused_cell() or first).name.startswith("Day 001")))
    keys("Right")
    check("Right does not move between rows", focused_cell().name.startswith("Day 001"))
    keys("Left")
    check("Left does not move between rows", focused_cell().name.startswith("Day 001"))
    keys("Up")
    check("Up moves back", wait_for("the first row focused", lambda: (focused_cell() or second).name.startswith("First snow")))

    keys("End")
    last = wait_for("the last row, named after the scroll",
                    lambda: next((cell for cell in cells() if cell.name.startswith("Day 119")), None))
    check("after a scroll the new rows are named too", last.name.startswith("Day 119, feeling meh, ") and last.name.endswith(", 1 tag"))

    keys("ctrl+f")
    type_text("Day 042")
    result = wait_for("the search's row, named",
                      lambda: next((cell for cell in cells() if cell.name.startswith("Day 042, ")), None))
    check("a search result row is named the same way", result.name.startswith("Day 042, feeling okay, "))
    app.kill()


def tree_read_while_dialogs_close_never_crashes():
    print("journey: a screen reader reads the whole tree while dialogs open and close; the app lives on", flush=True)
    app = Flourish(os.path.join(WORK, "tree-read.sqlite"))
    app.wait("the Save Entry button", "push button", "Save Entry")
    menu = wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True))
    # A second process, as a screen reader is: it reads every node and, between nodes, the app's
    # windows by index, so its questions land as windows close.
    walker = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "walk_tree.py"),
                               str(app.process.pid), "60"], stdout=subprocess.PIPE, text=True)
    cycles = 0

    def until(description, probe, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            code = app.process.poll()
            if code is not None:
                raise Failure(f"the app died ({'SIGSEGV' if code == -11 else f'exit {code}'}) while its tree was read "
                              f"as dialogs closed, after {cycles} of them")
            try:
                value = probe()
            except Exception:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise Failure(f"timed out waiting for {description}")
            time.sleep(0.05)

    def window(title):
        """The app's window of that title, if a screen reader is shown it (hidden ones are not)."""
        return next((node for node in app.app if node is not None and node.name == title), None)

    def import_chooser():
        press(menu)
        press(until("the Import item", lambda: app.find("menu item", "Import…")))
        until("the file chooser", lambda: window("Import"))
        keys("Escape")
        until("the file chooser to close", lambda: window("Import") is None)

    def preferences():
        keys("ctrl+comma")
        until("the Preferences window", lambda: window("Preferences"))
        keys("Escape")
        until("the Preferences window to close", lambda: window("Preferences") is None)

    def shortcuts_window():
        # GTK 4.8 names it by its type: found by what it lists.
        return next((node for node in app.app if node is not None and find(node, "label", "Save the entry")), None)

    def shortcuts():
        keys("ctrl+question")
        until("the shortcuts window", shortcuts_window)
        keys("Escape")
        until("the shortcuts window to close", lambda: shortcuts_window() is None)

    try:
        # The file chooser first: the Import window is made (hidden) before it and outlives it.
        dialogs = [import_chooser, preferences, shortcuts]
        deadline = time.monotonic() + 35
        while cycles < 12 and time.monotonic() < deadline:
            dialogs[cycles % len(dialogs)]()
            cycles += 1
        time.sleep(1.0)
        until("the app, after the last dialog", lambda: app.process.poll() is None)
    finally:
        if walker.poll() is None:
            walker.terminate()
        try:
            tally = walker.communicate(timeout=10)[0].split("\n")
        except subprocess.TimeoutExpired:
            walker.kill()
            tally = walker.communicate()[0].split("\n")
    read = next((line for line in reversed(tally) if line.startswith("walks ")), "walks 0 nodes 0").split()
    check(f"the app lived through {cycles} dialogs closing while another process read its tree "
          f"({read[1]} whole walks, {read[3]} nodes)", app.process.poll() is None and int(read[3]) > 0)
    check("it still answers: its form is there", app.find("push button", "Save Entry") is not None)
    keys("ctrl+q")
    check("and it quits cleanly", app.exit_code() == 0)


def unlock_page_within(app, seconds):
    field = app.wait("the unlock page's passphrase field", "password text", "Passphrase", timeout=seconds)
    return field, app.wait("the Unlock button", "push button", "Unlock")


def journal_is_printed_and_kept_as_a_pdf():
    print("journey: Ctrl+P prints the journal through GTK's print dialog; Export as PDF keeps a year", flush=True)
    folder = os.path.join(WORK, "book")
    os.makedirs(folder)
    journal = os.path.join(folder, "journal.sqlite")
    source = os.path.join(folder, "entries.json")
    entries = [("2024-03-02T09:00:00.000Z", "Kite day", 0), ("2024-11-20T18:00:00.000Z", "First frost", 3),
               ("2025-02-01T08:00:00.000Z", "Snow walk", 1)]
    with open(source, "w", encoding="utf-8") as file:
        json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-01-01T00:00:00.000Z", "tags": [],
                   "entries": [{"uuid": f"00000000-0000-4000-8000-{index:012d}", "created_at": created, "title": title,
                                "body": f"{title}, written down.", "mood": mood, "tags": []}
                               for index, (created, title, mood) in enumerate(entries)]}, file)
    subprocess.run([BINARY, "--database", journal, "--import", source], check=True, capture_output=True)
    # GTK's Print to File writes output.pdf in the folder the app runs in.
    app = Flourish(journal, cwd=folder)
    app.wait("the form", "text", "Title")
    keyboard_in(app, "Flourish")
    keys("ctrl+p")
    whole = keyboard_in(app, "Print Journal", "radio button")
    check(f"Ctrl+P opens Print Journal, the keyboard on the whole journal ({whole.name})", whole.name == "The whole journal")
    check("it offers a year, a run of days and the search's entries, each named",
          all(app.find("radio button", name) is not None for name in ("One year:", "These days:", "The entries the search shows")))
    check("the search's entries are not offered with no search", not app.find("radio button", "The entries the search shows")
          .getState().contains(pyatspi.STATE_SENSITIVE))
    check("a journal that is not locked is not warned about", app.find("label", "This journal is locked, but a PDF is not: "
                                                                          "anyone who has the file can read every entry in it.") is None)
    press(app.wait("the Print… button", "push button", "Print…"))
    # GTK's own print dialog: its printer list takes the keyboard; Print to File is the printer here.
    keyboard_in(app, "Print")
    check("GTK's print dialog opens, with Print to File", app.wait("Print to File", "label", "Print to File") is not None)
    keys("Down", "space")
    printed = os.path.join(folder, "output.pdf")
    dialog = next(window for window in app.app if window is not None and window.getRoleName() == "dialog" and window.name == "Print")
    # GTK 4.8 names its dialog's buttons by their mnemonic and their label ("_Print Print").
    press(wait_for("the dialog's Print button, ready once a printer is chosen", lambda: next(
        (node for node in descendants(dialog) if node.getRoleName() == "push button" and node.name.split()[-1:] == ["Print"]
         and node.getState().contains(pyatspi.STATE_SENSITIVE)), None)))
    wait_for("the printed PDF", lambda: os.path.exists(printed) and subprocess.run(
        ["pdfinfo", printed], capture_output=True).returncode == 0 or None, timeout=30)
    wait_for("the Print Journal window to close", lambda: app.find("radio button", "The whole journal") is None)
    exported = os.path.join(folder, "exported.pdf")
    subprocess.run([BINARY, "--database", journal, "--export", "pdf", exported], check=True, capture_output=True)

    def text(path):
        return subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True, text=True, check=True).stdout
    check("Print to File writes the same pages as --export pdf", text(printed) == text(exported) and "Snow walk" in text(printed))
    outline = json.loads(subprocess.run(["qpdf", "--json", printed], capture_output=True, text=True).stdout).get("outlines", [])
    check(f"with the outline of its years ({[item['title'] for item in outline]})", [item["title"] for item in outline] == ["2024", "2025"])

    # Export as PDF…, from the main menu: the newest year only, through the file chooser.
    give_keyboard_to("Flourish")
    press(wait_for("the main menu", lambda: find_any(app.app, "Main Menu", focusable=True)))
    press(app.wait("the Export as PDF item", "menu item", "Export as PDF…"))
    keyboard_in(app, "Export as PDF", "radio button")
    year = app.wait("the year's choice", "radio button", "One year:")
    keys("Down")
    check("the arrow keys choose One year", wait_for("One year chosen", lambda: selected(year) or None))
    check("a year is offered, the newest first", app.find("label", "2025") is not None)
    press(app.wait("the Export… button", "push button", "Export…"))
    file_chooser(app, "Export as PDF")
    year_pdf = os.path.join(folder, "2025.pdf")
    keys("ctrl+a")  # the suggested name, whole (GTK selects it without its ".pdf")
    type_text(year_pdf)
    keys("Return")
    app.wait("the export's message", "label", f"The PDF is at {year_pdf}.", timeout=30)
    check("Export as PDF… says where the PDF is", True)
    check("the PDF holds the year's entries and no other", "Snow walk" in text(year_pdf) and "Kite day" not in text(year_pdf))
    check("it was written beside its name and renamed, readable by its owner only",
          os.stat(year_pdf).st_mode & 0o777 == 0o600 and not [name for name in os.listdir(folder) if name.endswith(".part")])
    press(app.dialog_button(f"The PDF is at {year_pdf}.", "OK"))
    wait_for("the message to go", lambda: app.find("label", f"The PDF is at {year_pdf}.") is None)
    give_keyboard_to("Flourish")
    keys("ctrl+q")
    check("quits cleanly", app.exit_code() == 0)


def main():
    journal = os.path.join(WORK, "journal.sqlite")
    journeys = [lambda: first_entry_with_the_mouse(journal), lambda: second_entry_with_the_keyboard(journal),
                lambda: journal_survives_a_restart(journal), lambda: entries_are_read_corrected_deleted_and_back_dated(journal),
                lambda: entries_are_tagged_and_found(journal), location_is_attached_with_consent, damaged_journal_is_left_alone,
                lambda: damaged_flourish_journal_is_read_not_written(journal), daylio_history_arrives_and_leaves,
                daylio_backup_arrives, day_one_journal_moves_in, rednotebook_journal_is_offered, journal_syncs_through_a_folder, passphrase_is_changed_in_the_window,
                locked_journal_opens_on_its_unlock_page, a_file_planted_beside_a_locked_journal_is_set_aside_and_said,
                a_journal_locked_by_an_earlier_flourish_opens_whole,
                lock_keeps_the_half_written_words_inside,
                saves_of_a_locked_journal_stay_sealed, a_leaked_passphrase_is_replaced_with_a_new_key,
                screen_lock_locks_the_journal, idle_journal_locks_itself,
                lock_without_a_passphrase_offers_one, locked_journal_syncs_while_locked_with_its_key_kept,
                photos_are_added_seen_and_kept_sealed, memories_come_back_on_their_day,
                spelling_is_checked_and_words_kept_sealed, markdown_is_written_and_read_as_text, a_template_starts_the_entry,
                measures_are_kept_searched_and_charted, journal_is_printed_and_kept_as_a_pdf,
                rows_are_named_for_a_screen_reader, tree_read_while_dialogs_close_never_crashes,
                # Last: it leaves the session's keyring locked.
                locked_keyring_is_never_asked_to_unlock]
    return run_journeys(journeys, "e2e", f"app log: {os.path.join(WORK, 'app.log')}",
                        after_failure=end_launched)


def end_launched():
    """Ends what the journeys launched and left running (a failed journey stops half-way)."""
    for process in launched:
        if process.poll() is None:
            process.kill()
            process.wait()


def run_journeys(journeys, label, where, after_failure=lambda: None):
    """Runs the journeys in order and prints the tally; returns the exit status. JOURNEY=N runs
    only the N-th (from 1), for working on one; the test command runs them all."""
    only = int(os.environ.get("JOURNEY", "0"))
    try:
        for number, journey in enumerate(journeys, start=1):
            if only in (0, number):
                journey()
    except Exception as failure:  # a Failure, or the journey itself broke: either way, red
        shot = screenshot(f"{label}-failure.png")
        print(f"  FAIL {failure}\n  (screenshot: {shot}; {where})", flush=True)
        after_failure()
        print(f"{label}: {passed} passed, 1 failed")
        return 1
    print(f"{label}: {passed} passed, 0 failed")
    return 0

if __name__ == "__main__":
    sys.exit(main())
