#!/usr/bin/env python3
"""What the journal as a book costs: the release binary's `flourish --export pdf` of ten years
(3,650 entries, 700 photos of 24 megapixels) and of one year (365 entries, 70 photos), each beside
`flourish --export markdown` of the same journal, in turn, round after round. Prints each one's
time, peak memory (the child's maximum resident set) and the size of what it wrote, and the ratio
of the PDF's time to the Markdown's pair by pair. Figures only: a miss never fails it.

    bench-book.py --bin DIR --work DIR [--rounds 3] [--json PATH]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
import zipfile

WORDS = ["walk", "rain", "coffee", "garden", "friends", "work", "tired", "sea", "book", "letter", "train", "snow"]


def body(rng):
    """Mostly a few sentences; one in ten long (two to five thousand characters); some Markdown."""
    def sentence():
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 16))).capitalize() + "."
    if rng.random() < 0.1:
        paragraphs = []
        while sum(map(len, paragraphs)) < rng.randint(2000, 5000):
            paragraphs.append(" ".join(sentence() for _ in range(rng.randint(3, 7))))
        return "## A long day\n\n" + "\n\n".join(paragraphs) + "\n\n- " + "\n- ".join(rng.sample(WORDS, 3))
    return " ".join(sentence() for _ in range(rng.randint(1, 4)))


def camera_photo(folder):
    """A 24-megapixel JPEG of a scene (a gradient, a square, a disc) at quality 90, made once by
    ImageMagick: a camera's size, decoded pixel for pixel as a camera's photo is."""
    path = os.path.join(folder, "camera.jpg")
    if not os.path.exists(path):
        subprocess.run(["convert", "-size", "6000x4000", "gradient:skyblue-navy", "-fill", "yellow", "-draw", "rectangle 0,0 1000,1000",
                        "-fill", "green", "-draw", "circle 3000,2000 3000,800", "-attenuate", "0.4", "+noise", "Gaussian",
                        "-quality", "90", path], check=True)
    with open(path, "rb") as file:
        return file.read()


def unique(photo, seed):
    """The photo with a comment of its own after its first marker: bytes of its own (the journal
    keeps each photo once by its bytes), the same pixels."""
    comment = f"photo {seed}".encode()
    return photo[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + photo[2:]


def write_journal(path, days, photos, seed):
    """A Flourish ZIP export: an entry a day back from 1 November 2026, a 24-megapixel photo on
    `photos` of them spread evenly."""
    camera = camera_photo(os.path.dirname(path))
    rng = random.Random(seed)
    start = 1_793_566_800 - days * 86_400
    every = days // photos if photos else 0
    placed = 0
    entries = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for day in range(days):
            entry = {"uuid": f"00000000-0000-4000-8000-{seed:04d}{day:08d}", "title": f"Day {day}", "body": body(rng),
                     "mood": rng.randint(0, 5), "tags": [], "created_at": time.strftime(
                         "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(start + day * 86_400 + rng.randint(0, 80_000)))}
            if every and day % every == 0 and placed < photos:
                placed += 1
                name = f"photo-{day}.jpg"
                archive.writestr(f"photos/{name}", unique(camera, f"{seed}-{day}"))
                entry["photos"] = [{"file": f"photos/{name}", "name": name}]
            entries.append(entry)
        archive.writestr("journal.json", json.dumps({"format": "flourish-journal", "version": 1,
                                                     "exported_at": "2026-11-01T00:00:00.000Z", "tags": [], "entries": entries}))


def size_of(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)


def timed(command, environment):
    """Runs `command`; its wall time in seconds and its peak resident set in MiB."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - started
    if status != 0:
        raise SystemExit(f"bench-book: {' '.join(command)} failed: {process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json")
    options = parser.parse_args()
    flourish = os.path.join(options.bin, "flourish")
    folder = os.path.join(options.work, "book")
    os.makedirs(folder, exist_ok=True)
    environment = dict(os.environ, HOME=folder, LANG="C.UTF-8", XDG_DATA_HOME=os.path.join(folder, "data"),
                       XDG_CONFIG_HOME=os.path.join(folder, "config"))
    environment.pop("DISPLAY", None)
    figures = {}
    for label, days, photos in (("ten years", 3650, 700), ("one year", 365, 70)):
        journal = os.path.join(folder, f"{days}.sqlite")
        export = os.path.join(folder, f"{days}.zip")
        print(f"bench-book: writing {label}: {days} entries, {photos} photos of 24 megapixels", file=sys.stderr)
        write_journal(export, days, photos, seed=days)
        subprocess.run([flourish, "--database", journal, "--import", export], check=True, capture_output=True, env=environment)
        os.remove(export)
        rows = {"pdf": [], "markdown": []}
        for _ in range(options.rounds):
            for kind in ("pdf", "markdown"):
                out = os.path.join(folder, f"out-{days}." + ("pdf" if kind == "pdf" else "md"))
                for leftover in (out, os.path.join(folder, f"out-{days}-photos")):
                    if os.path.isdir(leftover):
                        shutil.rmtree(leftover)
                    elif os.path.exists(leftover):
                        os.remove(leftover)
                seconds, mib = timed([flourish, "--database", journal, "--export", kind, out], environment)
                written = size_of(out) + (size_of(os.path.join(folder, f"out-{days}-photos")) if kind == "markdown" else 0)
                rows[kind].append({"seconds": seconds, "peak_mib": mib, "bytes": written})
        ratios = [pdf["seconds"] / markdown["seconds"] for pdf, markdown in zip(rows["pdf"], rows["markdown"])]
        figures[label] = {"entries": days, "photos": photos, "rounds": rows, "time_ratios": ratios}
        print(f"\n{label}: {days} entries, {photos} photos, {options.rounds} rounds in turn")
        print(f"  {'':10} {'time (median)':>14} {'peak memory':>12} {'written':>10}")
        for kind in ("pdf", "markdown"):
            row = rows[kind]
            print(f"  {kind:10} {statistics.median(r['seconds'] for r in row):>12.2f} s"
                  f" {statistics.median(r['peak_mib'] for r in row):>8.1f} MiB {row[-1]['bytes'] / 1_048_576:>7.1f} MiB")
        print(f"  pdf ÷ markdown time, pair by pair: {', '.join(f'{ratio:.2f}' for ratio in ratios)}"
              f" (median {statistics.median(ratios):.2f})")
    if options.json:
        with open(options.json, "w") as file:
            json.dump(figures, file, indent=2)


if __name__ == "__main__":
    main()
