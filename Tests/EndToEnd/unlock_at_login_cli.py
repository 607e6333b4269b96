#!/usr/bin/env python3
""""Unlock when I log in" from a terminal, end to end, under a real GNOME Keyring: the built
flourish binary locks a journal, `--unlock-at-login on` (its passphrase as standard input's first
line) keeps the journal's key in the keyring, and then --check and --export open the locked
journal with nothing on standard input; `--unlock-at-login off` forgets it, and they ask for the
passphrase again. A wrong passphrase keeps nothing. The passphrase is in no file written (the
app's home, the journal's folder, the keyring's own files) and in nothing printed.

Run it in a D-Bus session whose Secret Service is GNOME Keyring, unlocked:

    scripts/with-display scripts/with-keyring python3 unlock_at_login_cli.py PATH/TO/flourish

Without one it fails, never skips: it exists to prove the keyring is used.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from in_the_clear import files_under, in_the_clear

flourish = os.path.abspath(sys.argv[1])
# The keyring files the key under the journal file's real path: so is every path here.
root = os.path.realpath(tempfile.mkdtemp(prefix="flourish-unlock-at-login-"))
home = os.path.join(root, "home")
folder = os.path.join(root, "journal")
journal = os.path.join(folder, "journal.sqlite")
outside = os.path.join(root, "outside")  # what the test itself writes: the entry to import, exports
for made in (home, folder, outside):
    os.makedirs(made)
passphrase = "a login passphrase nobody guesses"
title, body = "Periwinkle harbour", "Cardamom fog over the tram depot"
passed = 0


def check(description, condition):
    global passed
    if not condition:
        print(f"unlock-at-login: FAILED: {description}", file=sys.stderr)
        print(f"unlock-at-login: {passed} passed, 1 failed (files left in {root})")
        sys.exit(1)
    passed += 1
    print(f"unlock-at-login: ok: {description}", file=sys.stderr)


session = {name: os.environ[name] for name in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR") if name in os.environ}
check("it runs in a D-Bus session (scripts/with-display scripts/with-keyring)", "DBUS_SESSION_BUS_ADDRESS" in session)
# Where GNOME Keyring keeps its keyrings: scripts/with-keyring's daemon writes them there.
keyrings = os.path.join(os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "keyrings")
environment = {"HOME": home, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8",
               "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_CONFIG_HOME": os.path.join(home, "config"),
               "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_STATE_HOME": os.path.join(home, "state"), **session}
said = []  # every stdout and stderr of every command


def run(*arguments, stdin=""):
    """flourish on the journal, standard input a pipe holding `stdin` (empty: it ends at once)."""
    command = [flourish, "--database", journal, *arguments]
    if passphrase in " ".join(command):
        check(f"the passphrase is on the command line of {arguments}", False)
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=environment, timeout=120)
    said.extend([done.stdout, done.stderr])
    return done.returncode, done.stdout.strip(), done.stderr.strip()


def kept():
    """Whether the keyring holds a journal key for the journal file (asked of the Secret Service
    directly, not through Flourish; the key itself is never read out)."""
    found = subprocess.run(["secret-tool", "lookup", "journal", journal, "kind", "lock-key"], env=environment,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    return found.returncode == 0


def opens_without_passphrase():
    """--check and --export of the locked journal, with nothing on standard input."""
    export = os.path.join(outside, "export.json")
    if os.path.exists(export):
        os.remove(export)
    checked = run("--check")
    exported = run("--export", "json", export)
    entries = []
    if exported[0] == 0:
        with open(export, encoding="utf-8") as file:
            entries = [(entry["title"], entry["body"]) for entry in json.load(file)["entries"]]
    return checked, exported, entries


# A locked journal of one entry.
words = os.path.join(outside, "entry.json")
with open(words, "w", encoding="utf-8") as file:
    json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
               "entries": [{"uuid": "44444444-4444-4444-8444-444444444444", "title": title, "body": body, "mood": 1,
                            "mood_title": "", "created_at": "2026-11-04T07:30:00.000Z", "tags": []}]}, file)
status, out, err = run("--import", words)
check(f"a plain journal of one entry ({out})", status == 0)
status, out, err = run("--encrypt", stdin=passphrase + "\n")
check(f"--encrypt locks it ({out.splitlines()[:1]})", status == 0 and os.path.exists(journal + ".key"))
check("the keyring keeps no key for it yet", not kept())

# A wrong passphrase keeps nothing.
status, out, err = run("--unlock-at-login", "on", stdin="not the passphrase at all\n")
check(f"--unlock-at-login on with a wrong passphrase exits 1 with one line on stderr ({err})",
      status == 1 and err.count("\n") == 0 and err.startswith("flourish: ") and out == "")
check("and the keyring keeps nothing", not kept())
(status, out, err), _, _ = opens_without_passphrase()
check(f"--check with nothing on standard input still asks for the passphrase ({err})",
      status == 1 and "before the passphrase" in err)

# On: the key is kept, and every command opens the journal with nothing on standard input.
status, out, err = run("--unlock-at-login", "on", stdin=passphrase + "\n")
check(f"--unlock-at-login on with the passphrase says the key is kept, in one line ({out})",
      status == 0 and out == f"The key of the journal at {journal} is kept in your keyring: it opens without its "
      "passphrase while you are logged in." and err == "")
check("the keyring keeps a journal key for the journal file", kept())
(status, out, err), exported, entries = opens_without_passphrase()
check(f"--check with nothing on standard input finds it healthy: the key came from the keyring ({out})", status == 0)
check(f"--export with nothing on standard input writes its entry ({exported[1]})",
      exported[0] == 0 and entries == [(title, body)])
status, out, err = run("--unlock-at-login", "on")
check("--unlock-at-login on again needs no passphrase either", status == 0 and kept())

# Off: forgotten, no passphrase needed, and the passphrase is asked for again.
status, out, err = run("--unlock-at-login", "off")
check(f"--unlock-at-login off says the key is no longer kept, in one line ({out})",
      status == 0 and out == f"The key of the journal at {journal} is no longer kept in your keyring: its passphrase "
      "is asked for again." and err == "")
check("the keyring keeps no key for it", not kept())
(status, out, err), exported, _ = opens_without_passphrase()
check(f"--check with nothing on standard input asks for the passphrase again ({err})",
      status == 1 and "before the passphrase" in err)
check(f"so does --export ({exported[2]})", exported[0] == 1 and "before the passphrase" in exported[2])
status, out, err = run("--check", stdin=passphrase + "\n")
check("the passphrase still opens it", status == 0)

# The passphrase was never written anywhere, nor said; the journal's words are sealed.
found = files_under(folder, home)
for path, word in in_the_clear(found, [title, body, passphrase]):
    check(f"{word!r} is in the clear in {os.path.relpath(path, root)}", False)
check(f"no file of the journal's folder or the app's home holds the entry or the passphrase in the clear "
      f"({', '.join(sorted(os.path.relpath(path, root) for path in found))})", True)
written = files_under(root, keyrings)
check(f"the keyring's files are among those read ({keyrings})", any(path.startswith(keyrings) for path in written))
for path, contents in sorted(written.items()):
    if any(passphrase.encode() in data for data in contents):
        check(f"the passphrase is in {path}", False)
check("the passphrase is in no file written, the keyring's included", True)
check("nor in anything printed", not any(passphrase in text for text in said))

# --lock-new-key with the key kept: it asks for the passphrase all the same (the keyring's key is
# no proof of it), and replaces the keyring's key with the new one, last: the journal still opens
# with nothing on standard input, which the old key could no longer do.
status, out, err = run("--unlock-at-login", "on", stdin=passphrase + "\n")
check("the key is kept", status == 0 and kept())
new_passphrase = "the passphrase after a leak"
status, out, err = run("--lock-new-key", stdin="\n")
check(f"--lock-new-key with nothing on standard input changes nothing ({err})", status == 1)
status, out, err = run("--lock-new-key", stdin=passphrase + "\n" + new_passphrase + "\n")
check(f"--lock-new-key after the passphrase makes a new key ({out.splitlines()[:1]})", status == 0 and "has a new key" in out)
(status, out, err), exported, entries = opens_without_passphrase()
check(f"the keyring keeps the new key: --check and --export open the journal with nothing on standard input ({out})",
      status == 0 and exported[0] == 0 and entries == [(title, body)])
status, out, err = run("--unlock-at-login", "off")
status, out, err = run("--check", stdin=passphrase + "\n")
check(f"the old passphrase opens nothing ({err})", status == 1 and "does not open" in err)
passphrase = new_passphrase

# --decrypt forgets the key, as the Preferences switch does: a plain journal has none to keep.
status, out, err = run("--unlock-at-login", "on", stdin=passphrase + "\n")
check("the key is kept again", status == 0 and kept())
status, out, err = run("--decrypt")
check(f"--decrypt takes the key from the keyring, with nothing on standard input ({out.splitlines()[:1]})",
      status == 0 and not os.path.exists(journal + ".key"))
check(f"and the keyring keeps no key for the plain journal ({err})", not kept() and err == "")
status, out, err = run("--unlock-at-login", "off")
check(f"--unlock-at-login off on the plain journal forgets nothing and says so ({out})",
      status == 0 and "is no longer kept in your keyring" in out)

shutil.rmtree(root)
print(f"unlock-at-login: {passed} passed, 0 failed")
