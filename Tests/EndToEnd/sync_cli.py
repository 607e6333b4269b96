#!/usr/bin/env python3
"""Sync from a terminal, end to end: the built flourish binary, two machines (two journals,
each with its own HOME), a real folder between them, then a real WebDAV server (Apache httpd,
Tests/Support/webdav_server.py), no display. Passphrases go in on standard
input, never on the command line. Checks what each command prints and exits with, what each
journal file holds, and what the folder holds, byte for byte.

    sync_cli.py PATH/TO/flourish
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

flourish = os.path.abspath(sys.argv[1])
root = tempfile.mkdtemp(prefix="flourish-sync-cli-")
# The WebDAV server's workers (a user of their own when the tests run as root) go through it.
os.chmod(root, 0o711)
place = os.path.join(root, "Sync", "Flourish")
os.makedirs(os.path.dirname(place))
passphrase = "a passphrase nobody guesses"
passed = 0


def check(description, condition):
    global passed
    if not condition:
        print(f"sync-cli: FAILED: {description}", file=sys.stderr)
        print(f"sync-cli: {passed} passed, 1 failed")
        sys.exit(1)
    passed += 1
    print(f"sync-cli: ok: {description}", file=sys.stderr)


class Machine:
    def __init__(self, name, keyring=None):
        self.home = os.path.join(root, name)
        os.makedirs(self.home)
        self.journal = os.path.join(self.home, "journal.sqlite")
        self.keyring = keyring

    def environment(self):
        environment = {"HOME": self.home, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8",
                       "XDG_DATA_HOME": os.path.join(self.home, "data"), "XDG_CONFIG_HOME": os.path.join(self.home, "config")}
        if self.keyring:
            environment.update(self.keyring)
        return environment

    def run(self, *arguments, stdin=""):
        environment = self.environment()
        done = subprocess.run([flourish, "--database", self.journal, *arguments], input=stdin, capture_output=True,
                              text=True, env=environment, timeout=120)
        return done.returncode, done.stdout.strip(), done.stderr.strip()

    def entries(self):
        with sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True) as db:
            rows = db.execute("""
                SELECT uuid, quote(title), quote(body), mood, quote(created_at), quote(updated_at),
                       (SELECT group_concat(name, '|') FROM (SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id
                        WHERE entry_id = entry.id ORDER BY tag.key))
                FROM entry""").fetchall()
        return {row[0]: row[1:] for row in rows}

    def import_entries(self, entries, tags):
        path = os.path.join(self.home, "import.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z",
                       "tags": tags, "entries": entries}, file, ensure_ascii=False)
        return self.run("--import", path)


def entry(uuid, title, body, mood, created, tags=()):
    return {"uuid": uuid, "title": title, "body": body, "mood": mood, "mood_title": "", "created_at": created, "tags": list(tags)}


def place_files():
    files = {}
    for name in sorted(os.listdir(place)):
        with open(os.path.join(place, name), "rb") as file:
            files[name] = file.read()
    return files


laptop, desktop = Machine("laptop"), Machine("desktop")
status, out, err = laptop.import_entries([
    entry("11111111-1111-4111-8111-111111111111", "Sea air Zanzibar", "A long walk, then tea.", 0, "2026-11-01T09:15:00.000Z", ["friends"]),
    entry("22222222-2222-4222-8222-222222222222", "Rain", "Stayed in with a book\nall day", 3, "2026-11-02T20:00:00.125Z", ["reading"]),
    entry("12121212-1212-4121-8121-121212121212", "An old diary's page", "No mood kept then", None, "2019-03-02T08:15:00.000Z"),
], ["friends", "reading", "Quetzal"])
check("the laptop's journal has its entries", status == 0)
check("the import says which came without a mood", "1 of them has no mood, and is kept without one." in out)
check("and keeps it without one", laptop.entries()["12121212-1212-4121-8121-121212121212"][2] is None)
status, out, err = desktop.import_entries([
    entry("33333333-3333-4333-8333-333333333333", "Desk day", "Written on the desktop 🖥", 2, "2026-11-03T08:00:00.000Z", ["work"]),
], ["work"])
check("the desktop's journal has its own entry", status == 0)

status, out, err = laptop.run("--sync-setup", place, stdin="short\n")
check("a new passphrase shorter than eight characters is refused", status == 1 and "at least 8 characters" in err)
check("and nothing is made at the place", not os.path.exists(place))

status, out, err = laptop.run("--sync-setup", place, stdin=passphrase + "\n")
check("--sync-setup starts a new synced journal in a folder it creates", status == 0 and out.startswith(f"Started a new synced journal at {place}."))
check("it syncs once and says what moved", "Synced: sent " in out)
check("it says a forgotten passphrase cannot be recovered", "cannot be recovered" in err)

before_place, before_journal = place_files(), desktop.entries()
status, out, err = desktop.run("--sync-setup", place, stdin="not the passphrase\n")
check("joining with a wrong passphrase fails with one line", status == 1 and err.count("\n") == 0 and "not the passphrase" in err)
check("and changes nothing at the place", place_files() == before_place)
check("nor in the journal", desktop.entries() == before_journal)

status, out, err = desktop.run("--sync-setup", place, stdin=passphrase + "\n")
check("--sync-setup joins the journal at the place", status == 0 and out.startswith(f"Joined the synced journal at {place}."))
status, out, err = laptop.run("--sync", stdin=passphrase + "\n")
check("--sync prints one line of what moved", status == 0 and out == "Synced: sent 0, received 1.")
check("both machines hold every entry of both, byte for byte", laptop.entries() == desktop.entries() and len(laptop.entries()) == 4)
check("the entry without a mood arrived without one", desktop.entries()["12121212-1212-4121-8121-121212121212"][2] is None)
exported = os.path.join(desktop.home, "export.json")
status, out, err = desktop.run("--export", "json", exported)
with open(exported, encoding="utf-8") as file:
    moods = {item["uuid"]: (item["mood"], item["mood_title"]) for item in json.load(file)["entries"]}
check("exported, its mood is null, written", status == 0 and moods["12121212-1212-4121-8121-121212121212"] == (None, None))

for name, data in place_files().items():
    for secret in ["Zanzibar", "Desk day", "Quetzal", "reading", "2026-11-01", passphrase]:
        check(f"{secret!r} is not in the clear in {name}", secret.encode() not in data)

batch = sorted(name for name in place_files() if name.endswith(".batch"))[0]
with open(os.path.join(place, batch), "r+b") as file:
    data = bytearray(file.read())
    data[-3] ^= 0x40
    file.seek(0)
    file.write(data)
fresh = Machine("tablet")
status, out, err = fresh.run("--sync-setup", place, stdin=passphrase + "\n")
check("a tampered file is refused, named in the one line", status == 1 and batch in err and err.count("\n") == 0)

status, out, err = laptop.run("--sync-setup", os.path.join(root, "no", "such", "folder"), stdin=passphrase + "\n")
check("a folder whose parent is missing is refused", status == 1 and "does not exist" in err)
photos = os.path.join(root, "Photos")
os.makedirs(photos)
with open(os.path.join(photos, "holiday.jpg"), "wb") as file:
    file.write(b"jpeg")
status, out, err = Machine("other").run("--sync-setup", photos, stdin=passphrase + "\n")
check("a folder holding something else is not made a journal", status == 1 and "not a Flourish journal" in err)
check("and is left as it was", os.listdir(photos) == ["holiday.jpg"])

status, out, err = desktop.run("--sync-off")
check("--sync-off turns sync off and keeps the journal", status == 0 and "Sync is off" in out and len(desktop.entries()) == 4)
status, out, err = desktop.run("--sync", stdin=passphrase + "\n")
check("--sync then says sync is not set up", status == 1 and "not set up" in err)

# A place that withholds a file; then the passphrase changed, then the key, from a terminal.
place2 = os.path.join(root, "Sync2", "Flourish")
os.makedirs(os.path.dirname(place2))
west, westside = Machine("west"), Machine("westside")


def machine_id(machine):
    with sqlite3.connect(f"file:{machine.journal}?mode=ro", uri=True) as db:
        return db.execute("SELECT value FROM sync_state WHERE key = 'machine'").fetchone()[0]


def key_file():
    with open(os.path.join(place2, "flourish-sync.json"), "rb") as file:
        return file.read()


west.import_entries([entry("66666666-6666-4666-8666-666666666661", "West one", "First", 2, "2026-11-06T08:00:00.000Z")], [])
status, out, err = west.run("--sync-setup", place2, stdin=passphrase + "\n")
check("a second journal starts syncing", status == 0)
status, out, err = westside.run("--sync-setup", place2, stdin=passphrase + "\n")
check("and another machine joins it", status == 0)
for index in (2, 3):
    west.import_entries([entry(f"66666666-6666-4666-8666-66666666666{index}", f"West {index}", "", 2, f"2026-11-0{index + 5}T08:00:00.000Z")], [])
    west.run("--sync", stdin=passphrase + "\n")
own = sorted(name for name in os.listdir(place2) if name.startswith(machine_id(west)))
withheld = own[-2]
os.rename(os.path.join(place2, withheld), os.path.join(root, "withheld"))
status, out, err = westside.run("--sync", stdin=passphrase + "\n")
check("a withheld file is told: --sync exits 1 saying whose changes are missing",
      status == 1 and out.startswith("Synced:") and "are missing at the sync place" in err)
check("what follows the gap waits for it", len(westside.entries()) == 1)
os.rename(os.path.join(root, "withheld"), os.path.join(place2, withheld))
status, out, err = westside.run("--sync", stdin=passphrase + "\n")
check("once it is back, --sync applies it and exits 0", status == 0 and westside.entries() == west.entries())

new_passphrase, newest_passphrase = "the second passphrase", "the third passphrase, after the key"
before = key_file()
status, out, err = west.run("--sync-passphrase", stdin="not it at all\n" + new_passphrase + "\n")
check("--sync-passphrase with a wrong current passphrase changes nothing", status == 1 and key_file() == before)
status, out, err = west.run("--sync-passphrase", stdin=passphrase + "\n" + new_passphrase + "\n")
check("--sync-passphrase changes the passphrase", status == 0 and "passphrase is changed" in out)
check("the new passphrase is not in the key file", new_passphrase.encode() not in key_file() and key_file() != before)
status, out, err = westside.run("--sync", stdin=passphrase + "\n")
check("the old passphrase opens nothing any more", status == 1 and "not the passphrase" in err)
status, out, err = westside.run("--sync", stdin=new_passphrase + "\n")
check("the new one does", status == 0)

westside.import_entries([entry("77777777-7777-4777-8777-777777777777", "Not sent yet", "", 1, "2026-11-10T08:00:00.000Z")], [])
status, out, err = west.run("--sync-new-key", stdin=new_passphrase + "\n" + newest_passphrase + "\n")
check("--sync-new-key gives the journal a new key and passphrase", status == 0 and "new key and passphrase" in out)
left = sorted(name for name in os.listdir(place2) if name != "flourish-sync.json")
check("the place holds the journal sealed anew as one snapshot", len(left) == 1 and left[0].endswith(".snapshot"))
status, out, err = westside.run("--sync", stdin=new_passphrase + "\n")
check("the other machine is shut out with the passphrase it had", status == 1 and "not the passphrase" in err)
status, out, err = westside.run("--sync", stdin=newest_passphrase + "\n")
check("with the new passphrase it syncs again", status == 0)
west.run("--sync", stdin=newest_passphrase + "\n")
check("and what it had not sent reached the first machine", west.entries() == westside.entries() and len(west.entries()) == 4)

# The same through a WebDAV server: the password, then the passphrase, one line each.
server_folder = os.path.join(root, "server")
server = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "..", "Support", "webdav_server.py"), server_folder],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
try:
    ready = server.stdout.readline().split()
    check("the WebDAV server started", ready[:1] == ["ready"])
    address = ready[1].replace("http://", "http://anna@") + "/dav/Flourish/"
    secrets = "anna app password\n" + passphrase + "\n"
    north, south = Machine("north"), Machine("south")
    north.import_entries([entry("44444444-4444-4444-8444-444444444444", "Over WebDAV Zanzibar", "Through the server", 1,
                                "2026-11-04T08:00:00.000Z", ["friends"])], ["friends"])
    south.import_entries([entry("55555555-5555-4555-8555-555555555555", "South side", "Second machine", 4,
                                "2026-11-05T08:00:00.000Z")], [])
    status, out, err = north.run("--sync-setup", address, stdin="wrong password\n" + passphrase + "\n")
    check("a wrong WebDAV password is refused in words", status == 1 and "refused the user name or password" in err)
    check("and nothing is made on the server", os.listdir(os.path.join(server_folder, "dav")) == [])
    check("the password never reaches the output", "wrong password" not in out + err)
    status, out, err = north.run("--sync-setup", address, stdin=secrets)
    check("--sync-setup starts a journal on the server, its collection made with MKCOL",
          status == 0 and out.startswith(f"Started a new synced journal at {address}.") and os.path.isdir(os.path.join(server_folder, "dav", "Flourish")))
    status, out, err = south.run("--sync-setup", address, stdin=secrets)
    check("another machine joins it over WebDAV", status == 0 and "Joined" in out)
    status, out, err = north.run("--sync", stdin=secrets)
    check("--sync over WebDAV brings the other machine's entry", status == 0 and out == "Synced: sent 0, received 1.")
    check("both journals hold the same entries", north.entries() == south.entries() and len(north.entries()) == 2)
    stored = os.path.join(server_folder, "dav", "Flourish")
    for name in os.listdir(stored):
        with open(os.path.join(stored, name), "rb") as file:
            data = file.read()
        for secret in ["Zanzibar", "South side", "friends", passphrase, "anna app password"]:
            check(f"{secret!r} is not in the clear on the server in {name}", secret.encode() not in data)
    # With a Secret Service (GNOME Keyring in a D-Bus session of this test's own): the key and the
    # password are asked once, then kept there, in no plain file.
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    try:
        runtime = os.path.join(root, "runtime")
        os.makedirs(runtime, mode=0o700)
        east = Machine("east", keyring={"DBUS_SESSION_BUS_ADDRESS": bus.stdout.readline().strip(), "XDG_RUNTIME_DIR": runtime})
        keyring = east.environment()
        subprocess.run(["gnome-keyring-daemon", "--daemonize", "--login"], input="the test keyring's password", text=True,
                       env=keyring, capture_output=True, check=True, timeout=30)
        subprocess.run(["gnome-keyring-daemon", "--start", "--components=secrets"], env=keyring, capture_output=True, check=True, timeout=30)
        status, out, err = east.run("--sync-setup", address, stdin=secrets)
        check("with a keyring, --sync-setup says the key is kept there", status == 0 and "kept in your keyring" in err)
        status, out, err = east.run("--sync", stdin="")
        check("--sync then asks for neither password nor passphrase", status == 0 and out == "Synced: sent 0, received 0.")
        found = subprocess.run(["secret-tool", "search", "--all", "journal", east.journal], env=keyring, capture_output=True, text=True, timeout=30)
        check("the key and the password are in the keyring", "attribute.kind = key" in found.stdout + found.stderr
              and "attribute.kind = password" in found.stdout + found.stderr)
        for folder, _, names in os.walk(east.home):
            for name in names:
                with open(os.path.join(folder, name), "rb") as file:
                    data = file.read()
                for secret in [passphrase, "anna app password"]:
                    check(f"{secret!r} is in no file of the machine ({name})", secret.encode() not in data)
        status, out, err = east.run("--sync-off")
        found = subprocess.run(["secret-tool", "search", "--all", "journal", east.journal], env=keyring, capture_output=True, text=True, timeout=30)
        check("--sync-off forgets the key and the password", status == 0 and "attribute.kind" not in found.stdout + found.stderr)
    finally:
        # GNOME Keyring leaves with its session bus.
        bus.terminate()

    status, out, err = north.run("--sync-setup", ready[1].replace("http://", "http://anna@") + "/broken/", stdin=secrets)
    check("a server answering 503 is waited for as it asks, each wait said, then said to be busy",
          status == 1 and err.count("The server is busy; trying again in 1 s.") == 3 and "is busy. Your journal is kept here" in err)
    status, out, err = north.run("--sync-setup", ready[1].replace("http://", "http://anna@") + "/readonly/Flourish/", stdin=secrets)
    check("a place the user may not write to is refused", status == 1 and "may not write" in err)
finally:
    server.stdin.close()
    server.wait(timeout=30)
status, out, err = north.run("--sync", stdin=secrets)
check("a server gone away is a failure of one line, the journal kept", status == 1 and "cannot be reached" in err and len(north.entries()) == 2)

shutil.rmtree(root)
print(f"sync-cli: {passed} passed, 0 failed")
