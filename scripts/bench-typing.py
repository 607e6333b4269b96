#!/usr/bin/python3
"""Writing a long entry with spelling checked, beside the same with it turned off, run by
scripts/bench under scripts/with-display (scripts/bench --typing-only alone). Two journals, the
same but for Check Spelling (on in one, off in the other, as the body's context menu keeps it):
the release binary starts on each in turn, 30 times each, timed to idle as scripts/bench-app.py
times start-ups (its own functions); then, in rounds, the body given a 10,000-word
entry (pasted, as a long text comes in, then checked whole in slices while GTK is idle), keys
typed into it a few at a time, at a typist's pace. Each keystroke is timed from the body hearing
the key (FLOURISH_TRACE=1's "body key") to the end of the frame that shows it, the pointer
resting over the window as Xvfb leaves it, as a writer's often rests over the text. The
checker's dictionary is hunspell's en_US (scripts/setup installs it).

Prints a table (medians, min–max, on ÷ off start-up pair by pair, the targets) and writes the same
figures as JSON. Figures only: a miss never fails it.

    bench-typing.py --bin DIR --work DIR [--words 10000] [--keys 120] [--rounds 3] [--startups 30] [--json PATH]
"""
import argparse
import importlib.util
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time

FRAME_TARGET_MS = 16
STARTUP_RATIO_TARGET = 1.05
# Typed into the middle of the entry: words, spaces, a misspelling and its mending.
TYPED = "and then we walkd along the harbor wall, talking "


def script(name):
    """Another bench script of this folder, as a module (its file name is no module name)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(os.path.dirname(__file__), f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = script("bench-app")


def long_entry(words, seed=7):
    """`words` words in paragraphs of 40 to 160, one word in fifty misspelled."""
    rng = random.Random(seed)
    vocabulary = ("the morning was cold and bright we walked along the river talking about work family friends "
                  "coffee garden rain books music tired happy quiet evening dinner sleep weekend city sea").split()
    wrong = "todey wakled realy freind becuase tommorow seperate definately occured beleive".split()
    paragraphs, paragraph = [], []
    for index in range(words):
        paragraph.append(rng.choice(wrong) if rng.random() < 0.02 else rng.choice(vocabulary))
        if len(paragraph) >= rng.randint(40, 160) or index == words - 1:
            paragraphs.append(" ".join(paragraph).capitalize() + ".")
            paragraph = []
    return "\n\n".join(paragraphs)


def journal(binary, path, environment, checked):
    """A new journal, its spelling checked or not, as the context menu's Check Spelling keeps it."""
    subprocess.run([binary, "--database", path, "--export", "json", os.devnull], env=environment, check=True,
                   stdout=subprocess.DEVNULL)
    with sqlite3.connect(path) as db:
        if not checked:
            db.execute("INSERT INTO journal_setting (key, value) VALUES ('spelling-checked', 'no')")
    db.close()


def typing_once(binary, path, environment, text, count):
    """The body given `text`, then `count` keys typed into its middle: each key's latency (ms)."""
    bench.wait_quiet_machine()
    app = bench.Flourish(binary, path, environment)
    try:
        bench.wait_idle(app.process, app.launched)
        subprocess.run(["xclip", "-selection", "clipboard"], input=text.encode(), check=True)
        bench.keys("alt+b")  # the Body label's mnemonic
        time.sleep(0.2)
        bench.keys("ctrl+v")
        app.mark("body key", timeout=10)
        bench.wait_idle(app.process, time.monotonic())  # pasted, and checked whole on idle
        bench.keys("ctrl+Home")
        bench.keys("Down", repeat=20, delay_ms=20)
        bench.wait_idle(app.process, time.monotonic())
        latencies = []
        for letter in (TYPED * (count // len(TYPED) + 1))[:count]:
            before = time.monotonic()
            bench.keys("space" if letter == " " else ("comma" if letter == "," else letter))
            heard = app.mark("body key", after=before)
            latencies.append((app.painted_after(heard) - heard) * 1000)
            time.sleep(0.08)
        return latencies
    finally:
        app.quit()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--words", type=int, default=10_000)
    parser.add_argument("--keys", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--startups", type=int, default=30)
    parser.add_argument("--json")
    args = parser.parse_args()
    binary = os.path.join(args.bin, "flourish")
    work = os.path.join(args.work, "typing")
    os.makedirs(work, exist_ok=True)
    environment = bench.private_environment(work)
    environment["LANG"] = environment["LC_ALL"] = "C.UTF-8"
    environment["LC_MESSAGES"] = "en_US"  # the dictionary's language, whatever this machine's
    paths = {name: os.path.join(work, f"{name}.sqlite") for name in ("on", "off")}
    for name, path in paths.items():
        for stale in (path, path + "-wal", path + "-shm"):
            if os.path.exists(stale):
                os.remove(stale)
        journal(binary, path, environment, checked=name == "on")
    text = long_entry(args.words)

    startups = {"on": [], "off": []}
    typing = {"on": [], "off": []}
    for name in paths:
        bench.startup_once(binary, paths[name], environment)  # warms the caches; not counted
    # Idle is the last CPU tick of 10 ms before a quiet spell, so a start-up of some 75 ms reads
    # as 65, 75 or 95 by chance, and one pair's ratio as 0.7 or 1.4: start-ups are many (15
    # pairs read 1.11 and 0.89 on two runs of one binary), each cheap.
    for pair in range(args.startups):
        for name in (["on", "off"] if pair % 2 == 0 else ["off", "on"]):
            startups[name].append(bench.startup_once(binary, paths[name], environment)["startup_idle_ms"])
    for round in range(args.rounds):
        print(f"bench-typing: round {round + 1}/{args.rounds}", file=sys.stderr, flush=True)
        for name in (["on", "off"] if round % 2 == 0 else ["off", "on"]):
            typing[name].append(typing_once(binary, paths[name], environment, text, args.keys))

    def spread(values):
        return f"{statistics.median(values):6.1f} ({min(values):.1f}–{max(values):.1f})"

    ratios = [on / off for on, off in zip(startups["on"], startups["off"])]
    p95 = {name: [percentile(run, 0.95) for run in runs] for name, runs in typing.items()}
    p50 = {name: [statistics.median(run) for run in runs] for name, runs in typing.items()}
    print(f"writing a {args.words:,}-word entry, {args.keys} keys a round, {args.rounds} rounds; "
          f"{args.startups} start-ups of each, in turn:")
    print(f"  {'':38} {'spelling checked':>22} {'spelling off':>22}")
    print(f"  {'start-up to idle, ms':38} {spread(startups['on']):>22} {spread(startups['off']):>22}")
    print(f"  {'key to frame, p50, ms':38} {spread(p50['on']):>22} {spread(p50['off']):>22}")
    print(f"  {'key to frame, p95, ms':38} {spread(p95['on']):>22} {spread(p95['off']):>22}")
    verdict = "pass" if statistics.median(p95["on"]) <= FRAME_TARGET_MS else "miss"
    print(f"  key to frame p95 with spelling: target at most {FRAME_TARGET_MS} ms: {verdict}")
    verdict = "pass" if statistics.median(ratios) <= STARTUP_RATIO_TARGET else "miss"
    print(f"  start-up to idle, checked ÷ off, pair by pair: {statistics.median(ratios):.2f} "
          f"({min(ratios):.2f}–{max(ratios):.2f}); target at most {STARTUP_RATIO_TARGET}: {verdict}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"words": args.words, "keys": args.keys, "startup_idle_ms": startups, "startup_ratio": ratios,
                       "key_to_frame_ms": typing}, file, indent=2)


if __name__ == "__main__":
    main()
