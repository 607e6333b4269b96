#!/usr/bin/env python3
"""What moving in from Day One costs, beside Flourish's own import of the same journal: a Day
One export (a ZIP of Journal.json and photos/) and a Flourish ZIP export holding the same
entries and the same photos, each imported by the release binary (`flourish --import`) into a
fresh journal, in turn, round after round. Prints each import's time and peak memory (the
child's maximum resident set), the ratio of the two times pair by pair, and the peak memory
with fewer and more photos (it must not grow with their number). Figures only: a miss never
fails it.

    bench-import.py --bin DIR --work DIR [--entries 10000] [--photos 2000] [--rounds 3] [--json PATH]
"""
import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import zipfile

# The tests' pictures: real ones, made byte by byte.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "EndToEnd"))
import pictures  # noqa: E402


def picture(seed, size):
    """A JPEG of 1600 x 1200 that decodes (an import keeps only photos that do), padded to about
    `size` bytes."""
    return pictures.jpeg(seed, 1600, 1200, size=size)


def journal(entries, photos, seed=1):
    """The same journal for both: entries over ten years, one in five of the first ones with a
    photo until `photos` are placed, some long."""
    rng = random.Random(seed)
    start = 1_420_070_400  # 1 January 2015
    made = []
    for index in range(entries):
        words = " ".join(rng.choice(["walk", "rain", "coffee", "garden", "friends", "work", "tired", "sea", "book"])
                         for _ in range(rng.choice([12, 40, 400])))
        made.append({"title": f"Day {index}", "body": words, "time": start + index * 31_536,
                     "photo": index // 5 if index % 5 == 0 and index // 5 < photos else None})
    return made


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(seconds))


def write_day_one(path, entries, size):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        items = []
        for index, entry in enumerate(entries):
            item = {"uuid": f"{index:032X}", "creationDate": iso(entry["time"]), "timeZone": "Europe/Berlin",
                    "text": f"# {entry['title']}\n\n{entry['body']}", "tags": ["bench"]}
            if entry["photo"] is not None:
                identifier = f"P{entry['photo']}"
                item["text"] += f"\n\n![](dayone-moment://{identifier})"
                item["photos"] = [{"identifier": identifier, "md5": f"{entry['photo']:08x}", "type": "jpeg"}]
                archive.writestr(f"photos/{entry['photo']:08x}.jpeg", picture(entry["photo"], size))
            items.append(item)
        archive.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": items}))


def write_flourish(path, entries, size):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        items = []
        for index, entry in enumerate(entries):
            item = {"uuid": f"00000000-0000-4000-8000-{index:012d}", "title": entry["title"], "body": entry["body"],
                    "mood": None, "mood_title": None, "created_at": iso(entry["time"]), "tags": ["bench"]}
            if entry["photo"] is not None:
                name = f"{entry['photo']:08x}.jpeg"
                item["photos"] = [{"file": f"photos/{name}", "name": name}]
                archive.writestr(f"photos/{name}", picture(entry["photo"], size))
            items.append(item)
        archive.writestr("journal.json", json.dumps({"format": "flourish-journal", "version": 1, "exported_at": iso(time.time()),
                                                      "tags": ["bench"], "entries": items}))


def imported(binary, work, export, photos):
    """Seconds and peak resident memory (MiB) of one `flourish --import` into a fresh journal,
    which must then hold all `photos`: an import that left them behind would be timed for less."""
    folder = os.path.join(work, "target")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    environment = dict(os.environ, HOME=folder, XDG_DATA_HOME=os.path.join(folder, "data"), XDG_CONFIG_HOME=os.path.join(folder, "config"))
    start = time.monotonic()
    process = subprocess.Popen([binary, "--database", os.path.join(folder, "journal.sqlite"), "--import", export],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench-import: --import {export} failed: {process.stderr.read().decode()}")
    with sqlite3.connect(f"file:{os.path.join(folder, 'journal.sqlite')}?mode=ro", uri=True) as db:
        kept = db.execute("SELECT count(*) FROM entry_photo").fetchone()[0]
    if kept != photos:
        raise SystemExit(f"bench-import: --import {export} kept {kept} of its {photos} photos")
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--photos", type=int, default=2_000)
    parser.add_argument("--photo-bytes", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json")
    options = parser.parse_args()
    binary = os.path.join(options.bin, "flourish")
    work = os.path.join(options.work, "import-bench")
    os.makedirs(work, exist_ok=True)

    figures = {}
    for photos in sorted({options.photos // 4, options.photos}):
        entries = journal(options.entries, photos)
        day_one, own = os.path.join(work, f"dayone-{photos}.zip"), os.path.join(work, f"flourish-{photos}.zip")
        write_day_one(day_one, entries, options.photo_bytes)
        write_flourish(own, entries, options.photo_bytes)
        times = {"day_one": [], "flourish": []}
        memory = {"day_one": [], "flourish": []}
        for round_number in range(options.rounds):
            order = [("day_one", day_one), ("flourish", own)]
            for name, path in order if round_number % 2 == 0 else reversed(order):
                seconds, peak = imported(binary, work, path, photos)
                times[name].append(seconds)
                memory[name].append(peak)
        ratios = [a / b for a, b in zip(times["day_one"], times["flourish"])]
        figures[photos] = {"entries": options.entries, "photos": photos, "seconds": times, "peak_mib": memory, "ratio": ratios}
        print(f"import of {options.entries} entries and {photos} photos ({options.photo_bytes // 1000} kB each):")
        for name, label in (("day_one", "Day One export"), ("flourish", "Flourish ZIP export")):
            print(f"  {label:22} {statistics.median(times[name]):7.2f} s   peak {statistics.median(memory[name]):6.0f} MiB")
        verdict = "pass" if statistics.median(ratios) <= 2 else "miss"
        print(f"  Day One / Flourish     {statistics.median(ratios):7.2f}x  (target at most 2x: {verdict})")
    low, high = sorted(figures)
    growth = statistics.median(figures[high]["peak_mib"]["day_one"]) - statistics.median(figures[low]["peak_mib"]["day_one"])
    print(f"peak memory of the Day One import, {low} photos to {high}: {growth:+.0f} MiB "
          f"({'flat' if abs(growth) < 64 else 'grows'} with the photos)")
    if options.json:
        with open(options.json, "w") as file:
            json.dump({"imports": figures, "peak_growth_mib": growth}, file, indent=2)


if __name__ == "__main__":
    main()
