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

Then photos, through the folder: a journal of --photos entries each carrying a picture of its
own (about 2 MB, 600 MB for 300), made once with ImageMagick into --pictures (reused when it
already holds them), timed run after run, each Flourish command beside a copy of the same
pictures just before it:

  first sync up     the first machine's --sync-setup: every entry and every photo sent
  first sync down   a second machine's --sync-setup: every photo fetched
  copy              the floor: the pictures copied into a new folder with cp; and, beside it,
                    what flushing that copy to the disk takes (sync), as Flourish flushes
                    every photo it writes
  setup alone       the same two commands for an empty journal at a place of its own: what
                    setting up costs whatever the journal holds (mostly Argon2id deriving the
                    key from the passphrase, about a second by design)

and the processor time each Flourish command used, steadier than its time on a busy machine.
The photos' part of a first sync is its time less setup alone's, run by run; the target
compares it with the flushed copy, since Flourish has each photo on the disk before it says it
is done, and a copy that has not reached the disk is not done.

Prints a table and writes the figures as JSON. Figures only: nothing passes or fails, the
target (within 1.5 times the copy) is said beside the figure.

    bench-sync.py --bin DIR --work DIR [--entries 3650] [--runs 5] [--history 120] [--json PATH]
                  [--photos 300] [--photo-runs 5] [--pictures DIR] [--photos-only]

--photos 0 leaves the photos out; --photos-only measures them alone.
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import resource
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
    parser.add_argument("--photos", type=int, default=300)
    parser.add_argument("--photo-runs", type=int, default=5)
    parser.add_argument("--pictures", help="where the pictures are made, or were made by an earlier run")
    parser.add_argument("--photos-only", action="store_true", help="the photos' figures alone")
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
        if args.photos_only:
            args.entries = 0
        print(f"bench-sync: writing the sample journal of {args.entries} entries", file=sys.stderr, flush=True)
        subprocess.run([helper, "generate", str(args.entries), journal], check=True)
        access_log = os.path.join(work, "server", "access.log")
        places = {} if args.photos_only else {
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
        if args.photos > 0:
            pictures = args.pictures or os.path.join(work, "pictures")
            results["photos"] = photo_figures(binary, helper, environment, work, pictures, args.photos, args.photo_runs)
        with open(args.json, "w") as file:
            json.dump(results, file, indent=2, sort_keys=True)
        if results["places"]:
            print_table(results)
        if "photos" in results:
            print_photos(results["photos"])
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


def make_pictures(folder, count):
    """`count` distinct JPEGs of about 2 MB (1600 x 1200, quality 92) in `folder`, unless an
    earlier run made them there: ten plasma fractals, each rolled and grained differently per
    picture, so that no two pictures share their bytes and none compresses away."""
    done = os.path.join(folder, f".made-{count}")
    if os.path.exists(done):
        return
    print(f"bench-sync: making {count} pictures with ImageMagick (a few minutes)", file=sys.stderr, flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    bases = [os.path.join(folder, f".base-{index}.miff") for index in range(10)]
    workers = os.cpu_count() or 1

    def run(command):
        subprocess.run(command, check=True, capture_output=True)

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(run, [["convert", "-size", "1600x1200", "-seed", str(index + 1), "plasma:", base]
                            for index, base in enumerate(bases)]))
        list(pool.map(run, [["convert", bases[index % len(bases)], "-roll", f"+{index * 37 % 1600}+{index * 53 % 1200}",
                             "-seed", str(index + 100), "-attenuate", "1.0", "+noise", "Gaussian", "-quality", "92",
                             os.path.join(folder, f"photo-{index:04d}.jpg")] for index in range(count)]))
    for base in bases:
        os.remove(base)
    open(done, "w").close()


def photo_figures(binary, helper, environment, work, pictures, count, runs):
    """The first sync of a journal with `count` photos, up and down through a folder, beside a
    copy of the same pictures; run after run, each place and journal made afresh."""
    make_pictures(pictures, count)
    names = sorted(name for name in os.listdir(pictures) if name.endswith(".jpg"))
    picture_bytes = sum(os.path.getsize(os.path.join(pictures, name)) for name in names)
    journal = os.path.join(work, "photos.sqlite")
    print(f"bench-sync: writing the journal of {len(names)} photos ({picture_bytes / 1e6:.0f} MB)", file=sys.stderr, flush=True)
    subprocess.run([helper, "photo-journal", pictures, journal], check=True)
    secrets = PASSPHRASE + "\n"
    place = os.path.join(work, "photo-place")
    first, second = os.path.join(work, "photos-first.sqlite"), os.path.join(work, "photos-second.sqlite")
    copy = os.path.join(work, "photo-copy")
    empty_place = os.path.join(work, "empty-place")
    empty_first, empty_second = os.path.join(work, "empty-first.sqlite"), os.path.join(work, "empty-second.sqlite")
    figures = {"up": [], "down": [], "cpu_up": [], "cpu_down": [], "copy_up": [], "copy_down": [], "flush_up": [], "flush_down": [],
               "alone_up": [], "alone_down": []}

    def photo_folder(path):
        return path[: -len(".sqlite")] + "-photos"

    def clean():
        for path in [place, copy, photo_folder(first), photo_folder(second), empty_place]:
            shutil.rmtree(path, ignore_errors=True)
        for path in [first, second, empty_first, empty_second]:
            for suffix in ["", "-wal", "-shm"]:
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)

    def copied():
        """cp of the pictures into a new folder, then the flush of what it wrote, in ms."""
        start = time.monotonic()
        subprocess.run(["cp", "-r", pictures, copy], check=True)
        middle = time.monotonic()
        subprocess.run(["sync", *(os.path.join(copy, name) for name in names)], check=True)
        end = time.monotonic()
        shutil.rmtree(copy)
        return (middle - start) * 1000, (end - start) * 1000

    def expect(said, words):
        if words not in said:
            sys.exit(f"bench-sync: expected '{words}', the sync said: {said}")

    def timed_with_cpu(command):
        """The command's time, what it said, and the processor time it used (user and system, in
        ms): on a machine busy with other work, the time swings, the processor time much less."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        elapsed, said = timed(command, environment, secrets)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return elapsed, said, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000

    def one_way(way, database, verb):
        """A copy of the pictures, then the first sync one way, beside it: each figure of `way`."""
        floor, flushed = copied()
        figures[f"copy_{way}"].append(floor)
        figures[f"flush_{way}"].append(flushed)
        elapsed, said, cpu = timed_with_cpu([binary, "--database", database, "--sync-setup", place])
        expect(said, f"{len(names)} photos {verb}")
        figures[way].append(elapsed)
        figures[f"cpu_{way}"].append(cpu)

    for run in range(runs):
        print(f"bench-sync: photos, run {run + 1} of {runs}", file=sys.stderr, flush=True)
        clean()
        shutil.copy(journal, first)
        # The photos' files never change: the first machine's folder shares them (hard links).
        subprocess.run(["cp", "-al", photo_folder(journal), photo_folder(first)], check=True)
        one_way("up", first, "sent")
        one_way("down", second, "received")
        figures["alone_up"].append(timed([binary, "--database", empty_first, "--sync-setup", empty_place], environment, secrets)[0])
        figures["alone_down"].append(timed([binary, "--database", empty_second, "--sync-setup", empty_place], environment, secrets)[0])
    place_bytes = sum(os.path.getsize(os.path.join(place, "photos", name)) for name in os.listdir(os.path.join(place, "photos")))
    clean()
    results = {"photos": len(names), "picture_bytes": picture_bytes, "place_photo_bytes": place_bytes, "target_ratio": 1.5}
    for way in ["up", "down"]:
        results[f"first_{way}_ms"] = spread(figures[way])
        results[f"first_{way}_cpu_ms"] = spread(figures[f"cpu_{way}"])
        results[f"first_{way}_copy_ms"] = spread(figures[f"copy_{way}"])
        results[f"first_{way}_copy_flushed_ms"] = spread(figures[f"flush_{way}"])
        results[f"first_{way}_ratio"] = statistics.median(figures[way]) / statistics.median(figures[f"copy_{way}"])
        results[f"first_{way}_ratio_flushed"] = statistics.median(figures[way]) / statistics.median(figures[f"flush_{way}"])
        results[f"first_{way}_ratio_per_run"] = [ours / floor for ours, floor in zip(figures[way], figures[f"copy_{way}"])]
        results[f"setup_alone_{way}_ms"] = spread(figures[f"alone_{way}"])
        part = [ours - alone for ours, alone in zip(figures[way], figures[f"alone_{way}"])]
        results[f"first_{way}_photos_part_ms"] = spread(part)
        results[f"first_{way}_photos_part_ratio_flushed"] = statistics.median(
            ours / flushed for ours, flushed in zip(part, figures[f"flush_{way}"]))
    return results


def print_photos(photos):
    print(f"\nFirst sync of a journal with {photos['photos']} photos ({photos['picture_bytes'] / 1e6:.0f} MB; "
          f"{photos['place_photo_bytes'] / 1e6:.0f} MB sealed at the place), through a folder, "
          f"median of {photos['first_up_ms']['runs']} runs")
    for way in ["up", "down"]:
        ours, floor, flushed = photos[f"first_{way}_ms"], photos[f"first_{way}_copy_ms"], photos[f"first_{way}_copy_flushed_ms"]
        print(f"first sync {way} with {photos['photos']} photos: {ours['median']:.0f} ms, copy {floor['median']:.0f} ms, "
              f"ratio {photos[f'first_{way}_ratio']:.2f}")
        print(f"  spread {fmt(ours)}, processor time {fmt(photos[f'first_{way}_cpu_ms'])}; copy {fmt(floor)}; "
              f"copied and flushed {fmt(flushed)}, ratio {photos[f'first_{way}_ratio_flushed']:.2f}")
        print(f"  setup alone (an empty journal) {fmt(photos[f'setup_alone_{way}_ms'])}; the photos' part "
              f"{fmt(photos[f'first_{way}_photos_part_ms'])}, ratio to the copy flushed "
              f"{photos[f'first_{way}_photos_part_ratio_flushed']:.2f} (target ≤ {photos['target_ratio']})")


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
