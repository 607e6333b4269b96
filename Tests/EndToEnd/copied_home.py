#!/usr/bin/env python3
"""A home folder copied whole to a new computer, end to end: the built flourish binary, two real
Syncthing instances keeping one folder in step (Tests/Support/syncthing_pair.py), and three
computers, each a mount namespace of its own (`unshare -m`, as root) in which its own copy of the
sync folder is bind-mounted at one same path, and its own /etc/machine-id. The laptop's journal
is copied to a new computer with its place at the same path, so nothing there prompts a new
setup; both go on writing. The copy must sync as a computer of its own: a machine id of its own,
no file name written twice (no conflict copy), every entry everywhere. Passphrases go in on
standard input only; no keyring runs, so each command reads it.

    copied_home.py PATH/TO/flourish
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

flourish = os.path.abspath(sys.argv[1])
support = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support")
root = tempfile.mkdtemp(prefix="flourish-copied-home-")
passphrase = "a passphrase nobody guesses"
# The path every computer syncs through: each mounts its own copy of the folder there.
place = os.path.join(root, "Sync")
os.makedirs(place)
passed = 0


def check(description, condition):
    global passed
    if not condition:
        print(f"copied-home: FAILED: {description}", file=sys.stderr)
        print(f"copied-home: {passed} passed, 1 failed")
        sys.exit(1)
    passed += 1
    print(f"copied-home: ok: {description}", file=sys.stderr)


class Computer:
    """A computer: its home, its copy of the sync folder, its system machine id."""

    def __init__(self, name, folder):
        self.home = os.path.join(root, name)
        os.makedirs(self.home)
        self.journal = os.path.join(self.home, "journal.sqlite")
        self.folder = folder
        self.machine_id = os.path.join(self.home, "machine-id")
        with open(self.machine_id, "w") as file:
            file.write(os.urandom(16).hex() + "\n")

    def run(self, *arguments, stdin=passphrase + "\n"):
        """flourish in a mount namespace of this computer's: its folder at `place`, its machine id."""
        script = ('mount --bind "$1" "$2" && mount --bind "$3" /etc/machine-id && shift 3 && exec "$@"')
        environment = {"HOME": self.home, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8",
                       "XDG_DATA_HOME": os.path.join(self.home, "data"), "XDG_CONFIG_HOME": os.path.join(self.home, "config")}
        done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", self.folder, place,
                               self.machine_id, flourish, "--database", self.journal, *arguments],
                              input=stdin, capture_output=True, text=True, env=environment, timeout=120)
        return done.returncode, done.stdout.strip(), done.stderr.strip()

    def write(self, uuid, title):
        path = os.path.join(self.home, f"{uuid}.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-12-07T10:00:00.000Z", "tags": [],
                       "entries": [{"uuid": uuid, "title": title, "body": "", "mood": 3, "mood_title": "",
                                    "created_at": "2026-12-07T10:00:00.000Z", "tags": []}]}, file)
        return self.run("--import", path, stdin="")

    def titles(self):
        with sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True) as db:
            return sorted(row[0] for row in db.execute("SELECT title FROM entry"))

    def machine(self):
        with sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True) as db:
            return db.execute("SELECT value FROM sync_state WHERE key = 'machine'").fetchone()[0]


pair = subprocess.Popen(["/usr/bin/python3", os.path.join(support, "syncthing_pair.py"), os.path.join(root, "syncthing")],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
try:
    ready = pair.stdout.readline().split()
    check("two Syncthing instances are connected", ready[:1] == ["ready"])
    first, second = ready[1], ready[2]

    def tell(command):
        """A command to the pair (see syncthing_pair.py), and its answer."""
        pair.stdin.write(command + "\n")
        pair.stdin.flush()
        return pair.stdout.readline().rstrip("\n")

    def in_step():
        return tell("in-step 60") == "done"

    laptop, desktop = Computer("laptop", first), Computer("desktop", second)
    status, out, err = laptop.write("6f1d0c2e-0000-4000-8000-000000000001", "Written on the laptop")
    check("the laptop writes an entry", status == 0)
    status, out, err = laptop.run("--sync-setup", place, stdin=passphrase + "\n")
    check("the laptop starts a synced journal in its folder", status == 0)
    check("Syncthing carries it", in_step())

    # The laptop's home, copied whole to a new computer: its place there has the same path.
    new_laptop = Computer("new-laptop", second)
    shutil.copyfile(laptop.journal, new_laptop.journal)
    status, out, err = new_laptop.write("6f1d0c2e-0000-4000-8000-000000000002", "Written on the new laptop")
    check("the new laptop writes in the copied journal", status == 0)
    status, out, err = laptop.write("6f1d0c2e-0000-4000-8000-000000000003", "Written on the old laptop afterwards")
    check("the old laptop goes on writing", status == 0)
    status, out, err = new_laptop.run("--sync")
    check("the copy syncs, asking for nothing but the passphrase", status == 0)
    status, out, err = laptop.run("--sync")
    check("the old laptop syncs", status == 0)
    check("Syncthing carries both", in_step())
    check("the copy took a machine id of its own", new_laptop.machine() != laptop.machine())
    names = tell("names").split("\t")
    check("no file name was written twice: no conflict copy", not any("sync-conflict" in name for name in names))

    status, out, err = desktop.run("--sync-setup", place, stdin=passphrase + "\n")
    check("a third computer joins", status == 0)
    for computer in (laptop, new_laptop):
        status, out, err = computer.run("--sync")
        check("each syncs again", status == 0)
    check("Syncthing carries everything", in_step())
    everything = ["Written on the laptop", "Written on the new laptop", "Written on the old laptop afterwards"]
    for computer in (laptop, new_laptop, desktop):
        check(f"every entry is on {os.path.basename(computer.home)}", computer.titles() == everything)
finally:
    pair.stdin.close()
    pair.wait(timeout=30)
    shutil.rmtree(root, ignore_errors=True)
print(f"copied-home: {passed} passed, 0 failed")
