#!/usr/bin/env python3
"""The journal lock from a terminal, end to end: the built flourish binary locks a journal with
--encrypt, every other command opens it with its passphrase (or recovery key) as the first line of
standard input, --decrypt makes it plain again. No display. The passphrase goes in on standard
input, never on a command line. Checks what each command prints and exits with, and every file
of the journal's folder and of the app's home, byte for byte. Photos too: a second locked journal
imports a Flourish ZIP export with photos, exports it again as ZIP (every photo byte for byte),
imports it again (nothing new) and into a fresh journal (the same entries and photos), and no
photo is ever in the clear but in the exports.

    lock_cli.py PATH/TO/flourish
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile

from in_the_clear import files_under, in_the_clear
import pictures as picture_files

flourish = os.path.abspath(sys.argv[1])
root = tempfile.mkdtemp(prefix="flourish-lock-cli-")
home = os.path.join(root, "home")
folder = os.path.join(root, "journal")
journal = os.path.join(folder, "journal.sqlite")
backups = os.path.join(folder, "backups")
outside = os.path.join(root, "outside")  # what the test itself writes: exports, the reference copy
for made in (home, backups, outside):
    os.makedirs(made)
passphrase = "a lock passphrase nobody guesses"
passed = 0

entries = [
    ("11111111-1111-4111-8111-111111111111", "Quokka parade", "Marzipan lanterns over the fjord", 0, "2026-11-01T09:15:00.000Z", ["zephyrology"]),
    ("22222222-2222-4222-8222-222222222222", "Brisket Tuesday", "Velvet thunder at noon\nand after", 3, "2026-11-02T20:00:00.125Z", ["kumquats"]),
    ("33333333-3333-4333-8333-333333333333", "Gondola minutes", "Saffron snow on the quay 🌨", 2, "2026-11-03T08:00:00.000Z", ["zephyrology", "kumquats"]),
]
tag_names = ["zephyrology", "kumquats", "Obsidianwork"]  # the last one on no entry
secrets = [word for _, title, body, _, _, tags in entries for word in [title, body.split("\n")[0]]] + tag_names


def check(description, condition):
    global passed
    if not condition:
        print(f"lock-cli: FAILED: {description}", file=sys.stderr)
        print(f"lock-cli: {passed} passed, 1 failed (files left in {root})")
        sys.exit(1)
    passed += 1
    print(f"lock-cli: ok: {description}", file=sys.stderr)


environment = {"HOME": home, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8",
               "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_CONFIG_HOME": os.path.join(home, "config"),
               "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_STATE_HOME": os.path.join(home, "state")}
said = []  # every stdout and stderr of every command


def run(*arguments, stdin="", database=None):
    """Runs flourish on the journal (or `database`), standard input a pipe; checks the passphrase
    is not on its command line (nor in its environment) while it runs."""
    there_before = [suffix for suffix in ("-wal", "-shm") if os.path.exists((database or journal) + suffix)]
    process = subprocess.Popen([flourish, "--database", database or journal, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment)
    # It waits for standard input. (Just after exec, the kernel may not have set the new command
    # line up yet: it reads empty for a moment.)
    # A command that reads nothing may be over before its command line is read.
    command_line = command_environment = b""
    deadline = time.monotonic() + 5
    while b"--database" not in command_line and time.monotonic() < deadline and process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/cmdline", "rb") as file:
                command_line = file.read()
            with open(f"/proc/{process.pid}/environ", "rb") as file:
                command_environment = file.read()
        except (FileNotFoundError, ProcessLookupError):
            break
    if b"--database" not in command_line and process.poll() is None:
        check(f"the command line of {arguments} was read while it waited for standard input", False)
    for secret in (passphrase, recovery_key):
        if secret and (secret.encode() in command_line or secret.encode() in command_environment):
            check(f"the passphrase or recovery key is on the command line of {arguments}", False)
    out, err = process.communicate(stdin, timeout=120)
    said.extend([out, err])
    # Every command closes the journal before it ends, whatever the outcome: its log merged back,
    # nothing of it left beside it (a locked journal's log holds frame headers in the clear).
    # (The test's own read-only reads may leave them: only those the command made count.)
    left = [suffix for suffix in ("-wal", "-shm") if os.path.exists((database or journal) + suffix) and suffix not in there_before]
    if left:
        check(f"{' '.join(arguments)} left {' and '.join(left)} beside the journal (exit status {process.returncode})", False)
    return process.returncode, out.strip(), err.strip()


recovery_key = None


def files():
    """Every file of the journal's folder and the app's home, byte for byte."""
    return {path: contents[0] for path, contents in files_under(folder, home).items()}


def check_sealed(moment):
    found = files_under(folder, home)
    for path, word in in_the_clear(found, [*secrets, passphrase]):
        check(f"{moment}: {word!r} is in the clear in {os.path.relpath(path, root)}", False)
    check(f"{moment}: no file holds a title, body, tag, the passphrase or 'SQLite format 3' in the clear "
          f"({', '.join(sorted(os.path.relpath(path, root) for path in found))})", True)


def rows(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        found = db.execute("""
            SELECT uuid, title, body, mood, created_at,
                   (SELECT group_concat(name, '|') FROM (SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id
                    WHERE entry_id = entry.id ORDER BY tag.key))
            FROM entry ORDER BY uuid""").fetchall()
    db.close()
    return found


def dump(path):
    return subprocess.run(["sqlite3", f"file:{path}?mode=ro", ".dump"], capture_output=True, text=True, check=True).stdout


# A plain journal, and two backups beside it: a healthy one, and one that cannot be read.
words = os.path.join(outside, "entries.json")
with open(words, "w", encoding="utf-8") as file:
    json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": tag_names,
               "entries": [{"uuid": uuid, "title": title, "body": body, "mood": mood, "mood_title": "", "created_at": created,
                            "tags": tags} for uuid, title, body, mood, created, tags in entries]}, file, ensure_ascii=False)
status, out, err = run("--import", words)
check(f"a plain journal of three entries ({out})", status == 0 and len(rows(journal)) == 3)
os.chmod(backups, 0o700)
with sqlite3.connect(journal) as source, sqlite3.connect(os.path.join(backups, "journal-2026-11-19.sqlite")) as copy:
    source.backup(copy)
source.close()
copy.close()
with open(os.path.join(backups, "journal-2026-11-18.sqlite"), "wb") as file:
    file.write(b"SQLite format 3\x00" + b"Quokka parade, half a page torn" + bytes(4000))
reference = os.path.join(outside, "before.sqlite")
with sqlite3.connect(journal) as db:
    db.execute("VACUUM INTO ?", (reference,))
    user_version = db.execute("PRAGMA user_version").fetchone()[0]
db.close()
original_rows = rows(journal)

# --encrypt: one line from standard input (not a terminal), the recovery key printed once.
status, out, err = run("--encrypt", stdin="short\n")
check("a passphrase shorter than eight characters is refused", status == 1 and "at least 8 characters" in err)
check("and the journal stays plain", open(journal, "rb").read(16) == b"SQLite format 3\x00" and not os.path.exists(journal + ".key"))
started = time.monotonic()
status, out, err = run("--encrypt", stdin=passphrase + "\n")
lines = out.splitlines()
check(f"--encrypt locks the journal ({time.monotonic() - started:.1f} s): {lines[:1]}",
      status == 0 and lines[0] == f"Locked the journal at {journal}.")
found = re.search(r"^Recovery key \(.*\): ((?:[A-Z2-7]{4}-){7}[A-Z2-7]{4})$", out, re.M)
check(f"it prints the recovery key, 8 groups of 4 base32 characters ({found.group(1) if found else out})", found is not None)
recovery_key = found.group(1)
check("it says the backup was locked with it", "Backups locked with it: 1." in lines)
check("and the unreadable one removed", any(line.startswith(f"Removed the backup {os.path.join(backups, 'journal-2026-11-18.sqlite')}")
                                            for line in lines))
check("it warns that a forgotten passphrase cannot be recovered", "cannot be recovered" in err)
check("the key file is beside the journal, and its copy in backups",
      os.path.exists(journal + ".key") and os.path.exists(os.path.join(backups, "journal.sqlite.key")))
check("the unreadable backup is gone", sorted(os.listdir(backups)) == ["journal-2026-11-19.sqlite", "journal.sqlite.key"])
with open(journal + ".key", encoding="utf-8") as file:
    check("the key file is JSON", isinstance(json.load(file), dict))
check("the journal and its key file are private (0600)",
      all(os.stat(path).st_mode & 0o777 == 0o600 for path in (journal, journal + ".key", os.path.join(backups, "journal.sqlite.key"))))
check_sealed("after --encrypt")
status, out, err = run("--encrypt", stdin=passphrase + "\n")
check("--encrypt on a locked journal is refused", status == 1 and "already locked" in err)

# "Unlock when I log in" needs a Secret Service, and there is none here (no session bus): on and
# off say so in one line and change nothing. (unlock_at_login_cli.py runs them under a real one.)
before = files()
for command, stdin in [(("--unlock-at-login", "on"), passphrase + "\n"), (("--unlock-at-login", "off"), "")]:
    status, out, err = run(*command, stdin=stdin)
    check(f"{' '.join(command)} with no keyring exits 1 with one line on stderr ({err})",
          status == 1 and err.count("\n") == 0 and err.startswith("flourish: no keyring (Secret Service)") and out == "")
check("every file is byte for byte as it was", files() == before)
for command, refusal in [(("--unlock-at-login",), "--unlock-at-login needs on or off"),
                         (("--unlock-at-login", "yes"), "--unlock-at-login needs on or off; “yes” is neither")]:
    status, out, err = run(*command)
    check(f"{' '.join(command)} is refused as a mistyped command ({err.splitlines()[:1]})",
          status == 2 and err.startswith(f"flourish: {refusal}\n"))

# Every other command asks for the passphrase first: here as standard input's first line.
export = os.path.join(outside, "export.json")
status, out, err = run("--export", "json", export, stdin=passphrase + "\n")
with open(export, encoding="utf-8") as file:
    document = json.load(file)
check(f"--export json with the passphrase as the first line gives every entry ({out})",
      status == 0 and sorted((entry["uuid"], entry["title"], entry["body"], entry["tags"]) for entry in document["entries"])
      == [(uuid, title, body, sorted(tags, key=str.lower)) for uuid, title, body, _, _, tags in entries])
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"--check with the passphrase finds it healthy ({out})", status == 0)

before = files()
for attempt, stdin in [("a wrong passphrase", "not the passphrase at all\n"), ("an empty line", "\n"),
                       ("a wrong recovery key", "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH\n")]:
    for command in [("--export", "json", os.path.join(outside, "wrong.json")), ("--check",), ("--decrypt",),
                    ("--import", words)]:
        status, out, err = run(*command, stdin=stdin)
        check(f"{command[0]} with {attempt} exits 1 with one line on stderr ({err})",
              status == 1 and err.count("\n") == 0 and err.startswith("flourish: ") and out == "")
check("no export was written", not os.path.exists(os.path.join(outside, "wrong.json")))
check("every file (journal, key file, backups) is byte for byte as it was", files() == before)

status, out, err = run("--export", "json", export, stdin=recovery_key + "\n")
with open(export, encoding="utf-8") as file:
    check(f"the recovery key as the first line opens it too ({out})", status == 0 and len(json.load(file)["entries"]) == 3)
check_sealed("after the exports")

# Someone who can write to the journal's folder plants a hot rollback journal: every page of a
# Flourish journal of their own, with the same page size and the same 40 reserved bytes. SQLite
# would play it back into the locked journal, sealed under the real key; it is set aside unread.
theirs = os.path.join(outside, "theirs.sqlite")
planted_words = os.path.join(outside, "planted.json")
with open(planted_words, "w", encoding="utf-8") as file:
    json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
               "entries": [{"uuid": "66666666-6666-4666-8666-666666666666", "title": "Planted page", "body": "", "mood": 1,
                            "mood_title": "", "created_at": "2026-11-04T10:00:00.000Z", "tags": []}]}, file)
status, out, err = run("--import", planted_words, database=theirs)
subprocess.run(["sqlite3", theirs, ".filectrl reserve_bytes 40", "PRAGMA journal_mode=DELETE", "VACUUM"], check=True, capture_output=True)
with open(theirs, "rb") as file:
    pages = file.read()
check(f"their journal has its entry, 4096-byte pages and 40 reserved bytes ({out})",
      status == 0 and pages[16:18] == b"\x10\x00" and pages[20] == 40)


def rollback_journal(pages, size=4096, start=0x5eed):
    """A hot rollback journal as SQLite writes one, holding every page of `pages`."""
    count = len(pages) // size
    journal = bytes.fromhex("d9d505f920a163d7") + b"".join(n.to_bytes(4, "big") for n in (count, start, count, 512, size))
    journal += bytes(512 - len(journal))
    for number in range(count):
        page = pages[number * size:(number + 1) * size]
        # SQLite's record checksum: the start value plus every 200th byte from the end.
        checksum = (start + sum(page[index] for index in range(size - 200, 0, -200))) & 0xffffffff
        journal += (number + 1).to_bytes(4, "big") + page + checksum.to_bytes(4, "big")
    return journal


planted = journal + "-journal"
with open(planted, "wb") as file:
    file.write(rollback_journal(pages))
before = files()
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"--check says a file Flourish did not write is beside the journal, never read ({out.splitlines()[-1:]})",
      status == 1 and "(journal.sqlite-journal). It is never read" in out)
check("and changes nothing", files() == before)
status, out, err = run("--import", words, stdin=passphrase + "\n")
kept = [name for name in os.listdir(folder) if name.startswith("journal.sqlite-journal.set-aside-")]
check(f"--import sets it aside, kept whole, and says so on stderr ({err})",
      status == 0 and not os.path.exists(planted) and len(kept) == 1
      and files().get(os.path.join(folder, kept[0])) == before[planted]
      and "A file Flourish did not write was found beside the locked journal (journal.sqlite-journal)" in err
      and os.path.join(folder, kept[0]) in err)
status, out, err = run("--export", "json", export, stdin=passphrase + "\n")
with open(export, encoding="utf-8") as file:
    titles = sorted(entry["title"] for entry in json.load(file)["entries"])
check(f"the journal holds its own entries and none of theirs ({titles})",
      status == 0 and titles == sorted(title for _, title, _, _, _, _ in entries))
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"--check says what is kept until it is deleted ({out.splitlines()[:1]})",
      status == 1 and f"it is kept as {os.path.join(folder, kept[0])}" in out)
os.remove(os.path.join(folder, kept[0]))
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"deleted, --check finds the journal healthy ({out})", status == 0 and out.startswith("healthy:"))
check_sealed("after a planted rollback journal")

# A write-ahead log planted beside it: their own journal's, whole and valid for theirs. SQLite would
# only ignore it (its header's checksum does not unmask with the journal's key), and the journal's
# next write would overwrite it unsaid: it is set aside and said, as a rollback journal is.
their_log = os.path.join(outside, "their-log.sqlite")
theirs_db = sqlite3.connect(their_log, isolation_level=None)
for statement in ("PRAGMA page_size=4096", "PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0",
                  "CREATE TABLE entry (title TEXT)", "INSERT INTO entry VALUES ('Planted in the log')"):
    theirs_db.execute(statement)
shutil.copyfile(their_log + "-wal", journal + "-wal")
theirs_db.close()
planted_log = journal + "-wal"
before = files()
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"--check says a log Flourish did not write is beside the journal, never read ({out.splitlines()[-1:]})",
      status == 1 and "(journal.sqlite-wal). It is never read" in out)
check("and changes nothing", files() == before)
status, out, err = run("--import", words, stdin=passphrase + "\n")
kept = [name for name in os.listdir(folder) if name.startswith("journal.sqlite-wal.set-aside-")]
check(f"--import sets it aside, kept whole, and says so on stderr ({err[:120]}…)",
      status == 0 and len(kept) == 1 and files().get(os.path.join(folder, kept[0])) == before[planted_log]
      and "A file Flourish did not write was found beside the locked journal (journal.sqlite-wal)" in err)
os.remove(os.path.join(folder, kept[0]))
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"deleted, --check finds the journal healthy ({out})", status == 0 and out.startswith("healthy:"))

# A plain file put in place of the locked journal, its key file left beside it: nothing opens it
# in the clear, and nothing is written, until the person says which it is.
sealed_journal = os.path.join(outside, "sealed-journal.sqlite")
shutil.copyfile(journal, sealed_journal)
shutil.copyfile(reference, journal)
before = files()
half_locked = f"The journal at {journal} is not locked, but its key file (journal.sqlite.key) is beside it"
for command in [("--import", words), ("--export", "json", os.path.join(outside, "downgraded.json"))]:
    status, out, err = run(*command, stdin=passphrase + "\n")
    check(f"{command[0]} refuses a plain journal beside its key file, in words ({err[:90]}…)",
          status == 1 and err.startswith(f"flourish: {half_locked}") and "--encrypt" in err and "--decrypt" in err)
check("nothing was written, nothing exported", files() == before and not os.path.exists(os.path.join(outside, "downgraded.json")))
status, out, err = run("--check")
check(f"--check says so ({out.splitlines()[:1]})", status == 1 and half_locked in out)
status, out, err = run("--encrypt", stdin="not the passphrase at all\n")
check(f"--encrypt then asks for the key file's passphrase: a wrong one changes nothing ({err})",
      status == 1 and files() == before)
status, out, err = run("--encrypt", stdin=passphrase + "\n")
renewed = re.search(r"^New recovery key \(.*\): ((?:[A-Z2-7]{4}-){7}[A-Z2-7]{4})$", out, re.M)
check(f"with it, --encrypt locks the plain journal again under the same key and passphrase, and a new recovery key "
      f"(a lock cut short never showed its own) ({out.splitlines()[:1]})",
      status == 0 and out.startswith(f"Locked the journal at {journal} again") and renewed is not None and renewed.group(1) != recovery_key)
status, out, err = run("--export", "json", export, stdin=recovery_key + "\n")
check(f"the recovery key before it no longer opens it ({err})", status == 1)
recovery_key = renewed.group(1)
status, out, err = run("--export", "json", export, stdin=recovery_key + "\n")
with open(export, encoding="utf-8") as file:
    check(f"the new one does, with its entries ({out})",
          status == 0 and sorted(entry["title"] for entry in json.load(file)["entries"]) == sorted(title for _, title, _, _, _, _ in entries))
check_sealed("after locking the plain file again")

# A plain copy of the journal put back among its backups (or left there by a lock cut short):
# the next command that opens the locked journal seals it, and says so.
plain_backup = os.path.join(backups, "journal-2026-11-17.sqlite")
shutil.copyfile(reference, plain_backup)
status, out, err = run("--export", "json", export, stdin=passphrase + "\n")
check(f"a command opening the locked journal seals a plain backup beside it and says so ({err})",
      status == 0 and f"{plain_backup} was a plain copy of the locked journal: it is locked now." in err
      and not open(plain_backup, "rb").read(16).startswith(b"SQLite format 3"))
check_sealed("after a plain backup was put back")
shutil.copyfile(reference, plain_backup)
status, out, err = run("--encrypt", stdin=passphrase + "\n")
check(f"--encrypt on the locked journal finishes the job: its plain copies are locked ({out.splitlines()[:1]})",
      status == 0 and out.startswith(f"The journal at {journal} was locked already") and "Backups locked with it: 1." in out)
check_sealed("after --encrypt finished the job")
os.remove(plain_backup)
status, out, err = run("--encrypt", stdin=passphrase + "\n")
check("with nothing left to lock, --encrypt refuses", status == 1 and "already locked" in err)

# --decrypt: plain again, row for row and byte for byte of its SQL.
started = time.monotonic()
status, out, err = run("--decrypt", stdin=passphrase + "\n")
check(f"--decrypt makes it plain again ({time.monotonic() - started:.1f} s): {out.splitlines()[:1]}",
      status == 0 and f"The journal at {journal} is no longer locked" in out and "Backups made plain with it: 1." in out)
check(f"and says that a key a keyring out of reach kept stays there ({err})",
      err == "flourish: no keyring (Secret Service) answered: a key it kept for this journal stays there until "
             "“flourish --unlock-at-login off”")
check("the journal is plain SQLite, still private (0600)",
      open(journal, "rb").read(16) == b"SQLite format 3\x00" and os.stat(journal).st_mode & 0o777 == 0o600)
check("the key file and its copy are gone", not os.path.exists(journal + ".key") and not os.path.exists(os.path.join(backups, "journal.sqlite.key")))
check("its entries are the original's", rows(journal) == original_rows)
check("its sqlite3 .dump equals that of a VACUUM INTO copy made before locking", dump(journal) == dump(reference))
with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
    check("its schema version is the original's", db.execute("PRAGMA user_version").fetchone()[0] == user_version)
db.close()
backup = os.path.join(backups, "journal-2026-11-19.sqlite")
check("the backup is plain again, its entries the original's", open(backup, "rb").read(16) == b"SQLite format 3\x00" and rows(backup) == original_rows)
status, out, err = run("--export", "json", export, stdin="")
check("a plain journal asks for no passphrase", status == 0)
status, out, err = run("--decrypt", stdin=passphrase + "\n")
check("--decrypt on a plain journal is refused", status == 1 and "not locked" in err)
status, out, err = run("--unlock-at-login", "on", stdin=passphrase + "\n")
check(f"--unlock-at-login on is refused for a plain journal, in one line ({err})",
      status == 1 and err == f"flourish: The journal at {journal} is not locked.")
# Off forgets a key left behind, locked or not: here no keyring answers, and it says so.
status, out, err = run("--unlock-at-login", "off")
check(f"--unlock-at-login off on a plain journal asks the keyring, here out of reach ({err})",
      status == 1 and err.startswith("flourish: no keyring (Secret Service) answered"))

# Photos, in a second locked journal: a Flourish ZIP export with photos comes in, goes out again
# as ZIP byte for byte, comes in again (nothing new), and into a fresh journal (the same).
photo_folder = os.path.join(root, "photo-journal")
os.makedirs(photo_folder)
photo_journal = os.path.join(photo_folder, "journal.sqlite")
# Pictures that decode, each with its marker text inside (a JPEG's comments, a PNG's text chunk).
pictures = {"photos/IMG_2041.jpg": picture_files.jpeg("PHOTO-MARKER-LIGHTHOUSE", size=40000),
            "photos/harbour.png": picture_files.png("PHOTO-MARKER-HARBOUR", 640, 480)}
photo_entries = [
    {"uuid": "44444444-4444-4444-8444-444444444444", "title": "Lighthouse", "body": "Foghorn", "mood": 1, "mood_title": "",
     "created_at": "2026-11-05T10:00:00.000Z", "tags": [],
     "photos": [{"file": "photos/IMG_2041.jpg", "name": "IMG_2041.jpg"}, {"file": "photos/harbour.png", "name": "harbour.png"}]},
    {"uuid": "55555555-5555-4555-8555-555555555555", "title": "Harbour", "body": "", "mood": 2, "mood_title": "",
     "created_at": "2026-11-06T18:30:00.000Z", "tags": [], "photos": [{"file": "photos/IMG_2041.jpg", "name": "again.jpg"}]},
]
photos_in = os.path.join(outside, "photos-in.zip")
with zipfile.ZipFile(photos_in, "w") as archive:
    archive.writestr("journal.json", json.dumps({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z",
                                                 "tags": [], "entries": photo_entries}))
    for name, data in pictures.items():
        archive.writestr(name, data)


def zip_members(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def check_photos_sealed(moment):
    for path, contents in sorted(files_under(photo_folder, home).items()):
        if any(picture[40:104] in data or b"PHOTO-MARKER" in data for picture in pictures.values() for data in contents):
            check(f"{moment}: a photo is in the clear in {os.path.relpath(path, root)}", False)
    check(f"{moment}: no photo is in the clear in the journal's folder or the app's home", True)


status, out, err = run("--import", words, database=photo_journal)
status, out, err = run("--encrypt", stdin=passphrase + "\n", database=photo_journal)
check(f"a second journal is locked ({out.splitlines()[:1]})", status == 0)
status, out, err = run("--import", photos_in, stdin=passphrase + "\n", database=photo_journal)
check(f"--import of a ZIP export brings its entries and photos ({out})",
      status == 0 and "Imported 2 entries (0 already in your journal)" in out and "2 photos came with them." in out)
kept = os.listdir(os.path.join(photo_folder, "journal-photos"))
check(f"the photo two entries share is kept once: two sealed files ({kept})", len(kept) == 2)
check_photos_sealed("after importing photos into a locked journal")

photos_out = os.path.join(outside, "photos-out.zip")
status, out, err = run("--export", "zip", photos_out, stdin=passphrase + "\n", database=photo_journal)
check(f"--export zip writes the entries and photos ({out})", status == 0 and "Exported 5 entries" in out and "2 photos written with them." in out)
check("the ZIP file is private (0600)", os.stat(photos_out).st_mode & 0o777 == 0o600)
members = zip_members(photos_out)
check(f"it holds journal.json and photos/ ({sorted(members)})", sorted(members) == ["journal.json", *sorted(pictures)])
check("every photo byte for byte", all(members[name] == data for name, data in pictures.items()))
document = json.loads(members["journal.json"])
exported = {entry["uuid"]: entry for entry in document["entries"]}
check("journal.json names each entry's photos, in order, with the names the entries give them",
      all(exported[entry["uuid"]]["photos"] == entry["photos"] for entry in photo_entries))
check("and says the photos are in the ZIP file", "photos folder of this ZIP file" in document.get("photos_note", ""))
status, out, err = run("--export", "json", os.path.join(outside, "photos-out.json"), stdin=passphrase + "\n", database=photo_journal)
check(f"--export json says the photos are not in it and what has them ({out})",
      status == 0 and "2 photos not included: use --export zip to have them." in out)
check_photos_sealed("after the exports")

status, out, err = run("--import", photos_out, stdin=passphrase + "\n", database=photo_journal)
check(f"importing the ZIP export again adds nothing ({out})", status == 0 and "Imported 0 entries (5 already in your journal)" in out
      and "came with them" not in out)
check("and keeps no photo twice", sorted(os.listdir(os.path.join(photo_folder, "journal-photos"))) == sorted(kept))

fresh = os.path.join(outside, "fresh", "journal.sqlite")
os.makedirs(os.path.dirname(fresh))
status, out, err = run("--import", photos_out, database=fresh)
check(f"a fresh journal imports the ZIP export whole ({out})", status == 0 and "Imported 5 entries" in out and "2 photos came with them." in out)
again = os.path.join(outside, "fresh-out.zip")
status, out, err = run("--export", "zip", again, database=fresh)
again_members = zip_members(again)
check("and exports the same photos, byte for byte", {name: data for name, data in again_members.items() if name != "journal.json"}
      == {name: data for name, data in members.items() if name != "journal.json"})
check("and the same entries", json.loads(again_members["journal.json"])["entries"] == document["entries"])

# --encrypt killed part-way, then run again: whatever it had done, the second run ends with the
# journal locked under that passphrase, every entry in it, nothing in the clear and no half-made
# file left. The kill comes a little later each time after the sealed copy appears (the first
# thing written once the passphrase is known), so it lands before, during and after the key file,
# the backups and the swap. Bounded: eight kills.
def kill_encrypt(journal_path, after, delay):
    process = subprocess.Popen([flourish, "--database", journal_path, "--encrypt"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=environment)
    process.stdin.write(passphrase + "\n")
    process.stdin.close()
    deadline = time.monotonic() + 30
    while not os.path.exists(journal_path + after) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.0005)
    time.sleep(delay)
    process.kill()
    return process.wait()


# After the sealed copy appears, and after the key file does (the start of the backups' sealing).
for number, (after, delay) in enumerate([(".locking", 0), (".locking", 0.002), (".locking", 0.008), (".locking", 0.03),
                                         (".key", 0), (".key", 0.001), (".key", 0.004), (".key", 0.016)]):
    kill_folder = os.path.join(root, f"killed-{number}")
    kill_journal = os.path.join(kill_folder, "journal.sqlite")
    os.makedirs(os.path.join(kill_folder, "backups"), mode=0o700)
    status, out, err = run("--import", words, database=kill_journal)
    with sqlite3.connect(kill_journal) as source, sqlite3.connect(os.path.join(kill_folder, "backups", "journal-2026-11-19.sqlite")) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    killed = kill_encrypt(kill_journal, after, delay)
    status, out, err = run("--encrypt", stdin=passphrase + "\n", database=kill_journal)
    state = "finished already" if killed == 0 else ("already locked" if "already locked" in err else out.splitlines()[:1])
    export_killed = os.path.join(outside, f"killed-{number}.json")
    opened, _, _ = run("--export", "json", export_killed, stdin=passphrase + "\n", database=kill_journal)
    with open(export_killed, encoding="utf-8") as file:
        titles = sorted(entry["title"] for entry in json.load(file)["entries"])
    left = [name for name in os.listdir(kill_folder) + os.listdir(os.path.join(kill_folder, "backups"))
            if name.endswith((".locking", ".converting", ".unlocking"))]
    clear = in_the_clear(files_under(kill_folder), secrets)
    check(f"--encrypt killed {delay * 1000:g} ms after its {after} file appeared (then: {state}), run again: locked, whole, "
          f"nothing in the clear, nothing half made",
          (status == 0 or "already locked" in err) and opened == 0 and not open(kill_journal, "rb").read(16).startswith(b"SQLite format 3")
          and titles == sorted(title for _, title, _, _, _, _ in entries) and left == [] and clear == [])

# A journal locked by an earlier Flourish (page format 1: pages bound to their number only, nonces
# all random), with a change still in its log after a crash and a backup: the first command that
# opens it reads it whole and rewrites it, and its backup, in today's format (every nonce of a file
# opening with that file's own identity), with the same passphrase.
def identities(path):
    """The first 8 bytes of each page's nonce (the 24 bytes after each page's first 4056)."""
    with open(path, "rb") as file:
        data = file.read()
    return {data[start + 4056:start + 4064] for start in range(0, len(data), 4096)}


old_folder = os.path.join(root, "format-1")
shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "locked-format-1"), old_folder)
old_journal = os.path.join(old_folder, "journal.sqlite")
old_backup = os.path.join(old_folder, "backups", "journal-2023-12-25.sqlite")
check("the earlier format's journal and backup: a nonce of its own on every page",
      len(identities(old_journal)) > 40 and len(identities(old_backup)) > 40)
old_export = os.path.join(outside, "format-1.json")
status, out, err = run("--export", "json", old_export, stdin="locked fixture passphrase\n", database=old_journal)
with open(old_export, encoding="utf-8") as file:
    old_titles = [entry["title"] for entry in json.load(file)["entries"]]
check(f"--export opens it with its passphrase: its 40 entries, the change in its log too ({out})",
      status == 0 and len(old_titles) == 40 and "Day 0, changed in the log" in old_titles)
journal_identity, backup_identity = identities(old_journal), identities(old_backup)
check(f"and leaves it, and its backup, in today's format: one identity on every page of each, not the same "
      f"({len(journal_identity)} and {len(backup_identity)})",
      len(journal_identity) == 1 and len(backup_identity) == 1 and journal_identity != backup_identity)
check("nothing half made is left beside it", sorted(os.listdir(old_folder)) == ["backups", "journal.sqlite", "journal.sqlite.key", "journal.sqlite.newest"])
status, out, err = run("--check", stdin="locked fixture passphrase\n", database=old_journal)
check(f"--check finds it healthy ({out})", status == 0)

# --lock-new-key, for a passphrase that leaked: someone has the old passphrase, and took a copy of
# the photo journal's folder (its key file, journal and photo files). After the new key, nothing
# kept from then on opens with what they have; everything opens with the new passphrase or the new
# recovery key. The current passphrase comes first on standard input, the new one second.
recovered_copy = os.path.join(photo_folder, "journal-recovered-2026-12-06.sqlite")
status, out, err = run("--recover", photo_journal, recovered_copy, stdin=passphrase + "\n", database=photo_journal)
check(f"a recovered copy of it, locked with it, its photos in a folder of its own ({out.strip()})",
      status == 0 and len(os.listdir(os.path.join(photo_folder, "journal-recovered-2026-12-06-photos"))) == 2)
taken = os.path.join(outside, "taken")
shutil.copytree(photo_folder, taken)
new_passphrase = "a new passphrase after the leak"
status, out, err = run("--lock-new-key", stdin="not the passphrase at all\n" + new_passphrase + "\n", database=photo_journal)
check(f"--lock-new-key refuses a wrong current passphrase, changing nothing ({err.strip()})",
      status == 1 and "does not open this journal" in err
      and {os.path.relpath(path, photo_folder) for path in files_under(photo_folder)} == {os.path.relpath(path, taken) for path in files_under(taken)}
      and open(photo_journal + ".key", "rb").read() == open(os.path.join(taken, "journal.sqlite.key"), "rb").read())
status, out, err = run("--lock-new-key", stdin=passphrase + "\n" + new_passphrase + "\n", database=photo_journal)
new_recovery = re.search(r"^Recovery key .*: (([A-Z2-7]{4}-){7}[A-Z2-7]{4})$", out, re.M)
check(f"--lock-new-key seals the journal and its photos under a new key and prints a new recovery key ({out.strip()})",
      status == 0 and "has a new key and passphrase" in out and new_recovery and "Photo files sealed under the new key: 4." in out
      and "Backups sealed under the new key: 1." in out)
check("nothing is left half made, and no old key waits in the key file",
      sorted(os.listdir(photo_folder)) == ["journal-photos", "journal-recovered-2026-12-06-photos", "journal-recovered-2026-12-06.sqlite",
                                           "journal-recovered-2026-12-06.sqlite.key", "journal-recovered-2026-12-06.sqlite.newest",
                                           "journal.sqlite", "journal.sqlite.key",
                                           "journal.sqlite.newest"]
      and b"pending" not in open(photo_journal + ".key", "rb").read())
status, out, err = run("--check", stdin=passphrase + "\n", database=recovered_copy)
check(f"the old passphrase opens nothing of the recovered copy either ({err.strip()})", status == 1 and "does not open" in err)
recovered_out = os.path.join(outside, "recovered.zip")
status, out, err = run("--export", "zip", recovered_out, stdin=new_passphrase + "\n", database=recovered_copy)
check(f"the new one opens it, photos and all ({out.strip()})",
      status == 0 and all(zip_members(recovered_out)[name] == data for name, data in pictures.items()))
status, out, err = run("--check", stdin=passphrase + "\n", database=photo_journal)
check(f"the old passphrase opens nothing ({err.strip()})", status == 1 and "does not open this journal" in err)
renewed_out = os.path.join(outside, "renewed.zip")
status, out, err = run("--export", "zip", renewed_out, stdin=new_passphrase + "\n", database=photo_journal)
check(f"the new one opens every entry and photo, byte for byte ({out.strip()})",
      status == 0 and "Exported 5 entries" in out and all(zip_members(renewed_out)[name] == data for name, data in pictures.items()))
status, out, err = run("--check", stdin=new_recovery.group(1) + "\n", database=photo_journal)
check(f"and so does the new recovery key ({out.strip()})", status == 0 and "healthy" in out)
# What was taken, put together with what is kept now: the old key file and passphrase open neither
# today's journal file nor today's photo files.
mixed = os.path.join(outside, "mixed")
shutil.copytree(photo_folder, mixed)
shutil.copy(os.path.join(taken, "journal.sqlite.key"), os.path.join(mixed, "journal.sqlite.key"))
status, out, err = run("--check", stdin=passphrase + "\n", database=os.path.join(mixed, "journal.sqlite"))
check(f"the old key file with the old passphrase opens nothing of today's journal ({out.strip()} {err.strip()})",
      status == 1 and "healthy" not in out)
shutil.rmtree(os.path.join(taken, "journal-photos"))
shutil.copytree(os.path.join(photo_folder, "journal-photos"), os.path.join(taken, "journal-photos"))
status, out, err = run("--export", "zip", os.path.join(outside, "taken.zip"), stdin=passphrase + "\n",
                       database=os.path.join(taken, "journal.sqlite"))
taken_members = zip_members(os.path.join(outside, "taken.zip")) if os.path.exists(os.path.join(outside, "taken.zip")) else {}
check(f"nor, with the journal they took, today's photo files ({out.strip()} {err.strip()})",
      not any(data in taken_members.values() for data in pictures.values()))
check_photos_sealed("after --lock-new-key")

# --lock-new-key killed part-way, then the journal opened with the new passphrase: whatever it had
# done (the key file is written before the sealed copy appears), the opening finishes it: a
# command run again (--lock-new-key, with the new passphrase, when the key file still holds the old
# keys; else --export) ends with every entry and photo opening under the new key only, nothing in
# the clear, nothing half made. Bounded: five kills.
def kill_new_key(journal_path, delay):
    process = subprocess.Popen([flourish, "--database", journal_path, "--lock-new-key"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=environment)
    process.stdin.write(new_passphrase + "\n" + "the passphrase after the kill" + "\n")
    process.stdin.close()
    deadline = time.monotonic() + 30
    while not os.path.exists(journal_path + ".locking") and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.0005)
    time.sleep(delay)
    process.kill()
    return process.wait()


for number, delay in enumerate([0, 0.002, 0.008, 0.03, 0.1]):
    kill_folder = os.path.join(root, f"new-key-killed-{number}")
    shutil.copytree(photo_folder, kill_folder)
    kill_journal = os.path.join(kill_folder, "journal.sqlite")
    killed = kill_new_key(kill_journal, delay)
    pending = b"pending" in open(kill_journal + ".key", "rb").read()
    if pending and number % 2 == 1:
        # Any command's opening finishes it, and prints a recovery key made anew on stderr.
        status, out, err = run("--export", "json", os.path.join(outside, f"new-key-killed-{number}.json"),
                               stdin="the passphrase after the kill\n", database=kill_journal)
        state = f"finished by --export ({err.strip()[:60]}…)"
        opened_with = "the passphrase after the kill"
        finished = status == 0 and re.search(r"New recovery key .*: ([A-Z2-7]{4}-){7}[A-Z2-7]{4}$", err, re.M)
    elif pending:
        status, out, err = run("--lock-new-key", stdin="the passphrase after the kill\n", database=kill_journal)
        state = f"finished by --lock-new-key ({out.splitlines()[:1]})"
        opened_with = "the passphrase after the kill"
        finished = status == 0 and re.search(r"^New recovery key .*: ([A-Z2-7]{4}-){7}[A-Z2-7]{4}$", out, re.M)
    else:
        state, opened_with, finished = "finished already" if killed == 0 else "killed after the key file was settled", \
            "the passphrase after the kill", True
    export_killed = os.path.join(outside, f"new-key-killed-{number}.zip")
    status, out, err = run("--export", "zip", export_killed, stdin=opened_with + "\n", database=kill_journal)
    refused, _, _ = run("--check", stdin=new_passphrase + "\n", database=kill_journal)
    members = zip_members(export_killed) if status == 0 else {}
    left = [name for folder_name in ["", "journal-photos", "journal-recovered-2026-12-06-photos"]
            for name in os.listdir(os.path.join(kill_folder, folder_name)) if name.endswith((".locking", ".converting", ".partial"))]
    copy_opens, _, _ = run("--check", stdin=opened_with + "\n", database=os.path.join(kill_folder, "journal-recovered-2026-12-06.sqlite"))
    clear = in_the_clear(files_under(kill_folder), secrets)
    check(f"--lock-new-key killed {delay * 1000:g} ms after the sealed copy appeared (then: {state}): every entry and "
          f"photo opens with the new passphrase only, nothing in the clear, nothing half made",
          finished and status == 0 and "Exported 5 entries" in out and all(members.get(name) == data for name, data in pictures.items())
          and refused == 1 and left == [] and clear == [] and b"pending" not in open(kill_journal + ".key", "rb").read()
          and copy_opens == 0)

# The passphrase was never written anywhere, nor said.
for path, contents in sorted(files_under(root).items()):
    if any(passphrase.encode() in data for data in contents):
        check(f"the passphrase is in {os.path.relpath(path, root)}", False)
check("the passphrase is in no file written", True)
check("nor in anything printed", not any(passphrase in text for text in said))
check("the recovery key is printed once, by --encrypt only", sum(text.count(recovery_key) for text in said) == 1)

shutil.rmtree(root)
print(f"lock-cli: {passed} passed, 0 failed")
