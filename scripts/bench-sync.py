#!/usr/bin/python3
"""Sync's figures, run by scripts/bench: the release flourish binary syncing a ten-year journal
through a folder and through a real WebDAV server (Apache httpd on 127.0.0.1,
Tests/Support/webdav_server.py), the key kept in GNOME Keyring in a D-Bus session of the
bench's own. Each figure is a whole command, as a person or a script runs it:

  first sync up     the first machine's --sync-setup: a new journal, every entry sent
  first sync down   a second machine's --sync-setup: joined, every entry received
  nothing to do     --sync with nothing new (the key from the keyring), and how many requests
  one edit, sent    --sync after one entry was edited
  one edit, got     the other machine's --sync that receives it
  plain copy        the floor: the same bytes, in the same number of files, copied to the same
                    place without Flourish (cp for the folder, PUT for the server)
  months later      after --history more edits, each synced on its own (a batch each), a third
                    machine's --sync-setup, and the files then at the place: each machine
                    compacts its batches into a snapshot every 100, so the joining machine
                    reads a snapshot and the batches since, not every batch ever written

Prints a table and writes the figures as JSON. Figures only: nothing passes or fails.

    bench-sync.py --bin DIR --work DIR [--entries 3650] [--runs 5] [--history 120] [--json PATH]
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

PASSPHRASE = "the bench's sync passphrase"


def timed(command, environment, stdin=""):
    start = time.monotonic()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=environment, timeout=600)
    elapsed = (time.monotonic() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"bench-sync: {' '.join(command[3:])} failed: {done.stderr.strip()}")
    return elapsed, done.stdout.strip()


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def fmt(summary):
    return f"{summary['median']:.0f} ms ({summary['min']:.0f}–{summary['max']:.0f})"


def place_bytes(files):
    return sum(len(data) for data in files.values())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--entries", type=int, default=3650)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--history", type=int, default=120)
    parser.add_argument("--json", default="bench-sync-results.json")
    args = parser.parse_args()
    binary, helper = os.path.join(args.bin, "flourish"), os.path.join(args.bin, "flourish-bench")
    work = os.path.join(args.work, "sync")
    os.makedirs(work, exist_ok=True)
    os.chmod(args.work, 0o711)  # the server's workers go through it
    os.chmod(work, 0o711)

    server = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "..", "Tests", "Support", "webdav_server.py"),
                               os.path.join(work, "server")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    try:
        ready = server.stdout.readline().split()
        if ready[:1] != ["ready"]:
            sys.exit("bench-sync: the WebDAV server did not start")
        runtime = os.path.join(work, "runtime")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        environment = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": os.path.join(work, "home"),
                       "XDG_DATA_HOME": os.path.join(work, "home", "data"), "XDG_CONFIG_HOME": os.path.join(work, "home", "config"),
                       "DBUS_SESSION_BUS_ADDRESS": bus.stdout.readline().strip(), "XDG_RUNTIME_DIR": runtime}
        os.makedirs(environment["HOME"], exist_ok=True)
        subprocess.run(["gnome-keyring-daemon", "--daemonize", "--login"], input="bench keyring", text=True, env=environment,
                       capture_output=True, check=True)
        subprocess.run(["gnome-keyring-daemon", "--start", "--components=secrets"], env=environment, capture_output=True, check=True)

        journal = os.path.join(work, "ten-years.sqlite")
        print(f"bench-sync: writing the sample journal of {args.entries} entries", file=sys.stderr, flush=True)
        subprocess.run([helper, "generate", str(args.entries), journal], check=True)
        access_log = os.path.join(work, "server", "access.log")
        places = {
            "folder": (os.path.join(work, "Sync", "Flourish"), "", None),
            "WebDAV": (ready[1].replace("http://", "http://anna@") + "/dav/Flourish/", "anna app password\n",
                       os.path.join(work, "server", "dav", "Flourish")),
        }
        os.makedirs(os.path.join(work, "Sync"), exist_ok=True)
        results = {"entries": args.entries, "journal_bytes": os.path.getsize(journal), "places": {}}
        for name, (target, password, served) in places.items():
            print(f"bench-sync: {name}", file=sys.stderr, flush=True)
            first, second = os.path.join(work, f"{name}-first.sqlite"), os.path.join(work, f"{name}-second.sqlite")
            shutil.copy(journal, first)
            secrets = password + PASSPHRASE + "\n"
            up, _ = timed([binary, "--database", first, "--sync-setup", target], environment, secrets)
            down, said = timed([binary, "--database", second, "--sync-setup", target], environment, secrets)
            folder = served or target
            files = {file: open(os.path.join(folder, file), "rb").read() for file in os.listdir(folder)}
            # What padding costs: the same files as they would be unpadded.
            sizes = json.loads(subprocess.run([helper, "unpadded", folder], input=PASSPHRASE + "\n", capture_output=True,
                                              text=True, check=True).stdout)
            idle, requests = [], []
            for _ in range(args.runs):
                before = sum(1 for _ in open(access_log)) if os.path.exists(access_log) else 0
                idle.append(timed([binary, "--database", first, "--sync"], environment)[0])
                after = sum(1 for _ in open(access_log)) if os.path.exists(access_log) else 0
                requests.append(after - before)
            sent, got = [], []
            for _ in range(args.runs):
                subprocess.run([helper, "edit", first], check=True)
                sent.append(timed([binary, "--database", first, "--sync"], environment)[0])
                got.append(timed([binary, "--database", second, "--sync"], environment)[0])
            floor = [plain_copy(files, target if served is None else ready[1], work) for _ in range(args.runs)]
            for _ in range(args.history):
                subprocess.run([helper, "edit", first], check=True)
                timed([binary, "--database", first, "--sync"], environment)
            third = os.path.join(work, f"{name}-third.sqlite")
            later, _ = timed([binary, "--database", third, "--sync-setup", target], environment, secrets)
            names = os.listdir(folder)
            results["places"][name] = {
                "first_up_ms": up, "first_down_ms": down, "first_down_said": said,
                "files": len(files), "bytes": place_bytes(files), "unpadded_bytes": place_bytes(files) - sizes["sealed_bytes"] + sizes["unpadded_bytes"],
                "nothing_to_do_ms": spread(idle), "nothing_to_do_requests": max(requests) if served else None,
                "one_edit_sent_ms": spread(sent), "one_edit_received_ms": spread(got),
                "plain_copy_ms": spread(floor),
                "history_syncs": args.history, "later_join_ms": later,
                "later_files": len(names), "later_snapshots": sum(1 for n in names if n.endswith(".snapshot")),
            }
        with open(args.json, "w") as file:
            json.dump(results, file, indent=2, sort_keys=True)
        print_table(results)
        print(f"\nThe same figures as JSON: {args.json}")
    finally:
        # GNOME Keyring leaves with its session bus.
        bus.terminate()
        server.stdin.close()
        server.wait(timeout=30)


def plain_copy(files, target, work):
    """The same bytes in the same number of files, copied to the place without Flourish."""
    start = time.monotonic()
    if target.startswith("http"):
        host, port = target.replace("http://", "").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        import base64
        authorization = "Basic " + base64.b64encode(b"anna:anna app password").decode()
        folder = f"/dav/plain-{time.monotonic_ns()}/"
        connection.request("MKCOL", folder, headers={"Authorization": authorization})
        connection.getresponse().read()
        for name, data in files.items():
            connection.request("PUT", folder + name, body=data, headers={"Authorization": authorization})
            connection.getresponse().read()
        connection.close()
    else:
        folder = os.path.join(work, f"plain-{time.monotonic_ns()}")
        os.makedirs(folder)
        for name, data in files.items():
            with open(os.path.join(folder, name), "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
    return (time.monotonic() - start) * 1000


def print_table(results):
    print(f"\nSync of a journal of {results['entries']:,} entries ({results['journal_bytes'] / 1e6:.1f} MB file), release build")
    print(f"{'':34}" + "".join(f"{name:>26}" for name in results["places"]))
    rows = [
        ("first sync up (setup, Argon2id)", lambda p: f"{p['first_up_ms']:.0f} ms"),
        ("first sync down (join)", lambda p: f"{p['first_down_ms']:.0f} ms"),
        ("files, bytes at the place", lambda p: f"{p['files']}, {p['bytes'] / 1e6:.2f} MB"),
        ("  the same, unpadded", lambda p: f"{p['unpadded_bytes'] / 1e6:.2f} MB"),
        ("plain copy of those bytes", lambda p: fmt(p["plain_copy_ms"])),
        ("sync with nothing to do", lambda p: fmt(p["nothing_to_do_ms"])),
        ("  its requests", lambda p: "—" if p["nothing_to_do_requests"] is None else str(p["nothing_to_do_requests"])),
        ("one edited entry, sent", lambda p: fmt(p["one_edit_sent_ms"])),
        ("one edited entry, received", lambda p: fmt(p["one_edit_received_ms"])),
        ("after N more syncs, N =", lambda p: str(p["history_syncs"])),
        ("  a third machine joins", lambda p: f"{p['later_join_ms']:.0f} ms"),
        ("  files at the place (snapshots)", lambda p: f"{p['later_files']} ({p['later_snapshots']})"),
    ]
    for label, value in rows:
        print(f"{label:34}" + "".join(f"{value(place):>26}" for place in results["places"].values()))


if __name__ == "__main__":
    main()
