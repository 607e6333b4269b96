#!/usr/bin/python3
"""A locked journal in the real app, beside a plain one, run by scripts/bench under
scripts/with-display scripts/with-keyring (scripts/bench --lock-only too). The release binary
starts on two copies of the 100,000-entry sample journal, in separate folders: one plain,
compacted by VACUUM as locking compacts its own, and one locked by `flourish --encrypt` whose key
`flourish --unlock-at-login on` keeps in the keyring, so that it opens as "Unlock when I log in"
opens it: the key from the keyring, no passphrase. Start-up to the first frame and to idle are
measured as scripts/bench-app.py measures them (its own functions), in rounds, the first of the
pair alternating, after one start of each that is not counted; each round's locked ÷ plain comes
from the same moment of a noisy machine. Then the window, used as scripts/bench-app.py uses it
(its run_once: the Journal page, the longest entry, search, paging and holding Down, Insights),
plain and locked in turn. Then, the key forgotten (`--unlock-at-login off`), the
start-up to the unlock page: its Argon2id comes only once a passphrase is typed, and
scripts/bench-lock.py times it.

The passphrase is random, made here, and reaches flourish on standard input only: never on a
command line, in a file or in anything printed. The recovery key --encrypt prints is dropped.

Prints a table and writes the same figures as JSON. Figures only: a miss never fails it.

    bench-lock-app.py --bin DIR --work DIR [--entries 100000] [--journal PATH] [--rounds 9] [--json PATH]
"""
import importlib.util
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys

# (label, figure, unit, digits, target): the rows of the table.
ROWS = [
    ("start-up: first frame", "startup_first_frame_ms", "ms", 0, True),
    ("start-up: idle", "startup_idle_ms", "ms", 0, True),
    ("RSS after start-up", "rss_startup_mib", "MiB", 0, False),
]
# The window's own figures, from bench-app.py's run (the Journal page, the longest entry, search
# typed a key at a time, paging and holding Down, Insights), locked and plain in turn.
WINDOW_ROWS = [
    ("Alt+2 to Journal painted", "journal_painted_ms", "ms", 0, True),
    ("open the longest entry", "open_entry_ms", "ms", 0, True),
    ("search, window: p50", "app_search_p50_ms", "ms", 1, True),
    ("search, window: p95", "app_search_p95_ms", "ms", 1, True),
    ("scroll frame: median", "scroll_frame_median_ms", "ms", 1, True),
    ("scroll frame: p95", "scroll_frame_p95_ms", "ms", 1, True),
    ("Alt+3 to Insights painted", "insights_shown_ms", "ms", 0, True),
    ("insights, window: All", "insights_all_window_ms", "ms", 0, True),
    ("insights, window: 12 months", "insights_12m_window_ms", "ms", 0, True),
    ("RSS after scrolling", "rss_scrolled_mib", "MiB", 0, False),
    ("health check (background)", "health_check_ms", "ms", 0, False),
]
WINDOW_ROUNDS = 3
# Rows paged through in each window run: fewer than bench-app.py's 10,000, so that the rounds
# fit in minutes; the frames of a scroll do not change with its length.
WINDOW_SCROLL_ROWS = 3_000
# What each start must have shown (FLOURISH_TRACE=1): a locked journal whose key did not come
# from the keyring would show its unlock page, far quicker than the journal.
MAIN_WINDOW, UNLOCK_PAGE = "window presented", "unlock page presented"


def script(name):
    """Another bench script of this folder, as a module (its file name is no module name)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(os.path.dirname(__file__), f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# bench-app.py's start-up measure and summaries; bench-lock.py's options and sample journal.
bench, lock = script("bench-app"), script("bench-lock")


def flourish(binary, journal, *arguments, passphrase=None):
    """A flourish command on `journal`, the passphrase (if any) as standard input's first line.
    What it prints is not shown: --encrypt prints the recovery key. Its error line is."""
    done = subprocess.run([binary, "--database", journal, *arguments], input=f"{passphrase}\n" if passphrase else "",
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"bench-lock-app: flourish {' '.join(arguments)} failed: {done.stderr.strip()}")


def journals(args, binary, work):
    """The plain copy and the locked one, its key kept in the keyring."""
    source = lock.sample_journal(args, work, "bench-lock-app")
    plain, locked = (os.path.join(work, name, "journal.sqlite") for name in ("plain", "locked"))
    for folder in (os.path.dirname(plain), os.path.dirname(locked)):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    with sqlite3.connect(source) as db:
        db.execute("VACUUM INTO ?", (plain,))
    db.close()
    shutil.copyfile(plain, locked)
    print("bench-lock-app: locking a copy (flourish --encrypt) and keeping its key in the keyring "
          "(flourish --unlock-at-login on)", file=sys.stderr, flush=True)
    passphrase = secrets.token_urlsafe(24)
    flourish(binary, locked, "--encrypt", passphrase=passphrase)
    flourish(binary, locked, "--unlock-at-login", "on", passphrase=passphrase)
    return plain, locked


def main():
    args = lock.arguments("bench-lock-app-results.json")
    binary = os.path.join(args.bin, "flourish")
    work = os.path.join(args.work, "lock-app")
    os.makedirs(work, exist_ok=True)
    environment = bench.private_environment(work)
    plain, locked = journals(args, binary, work)

    def start(journal, shows):
        return bench.startup_once(binary, journal, environment, shows=shows)

    # Plain and locked (its key from the keyring), the first of the pair alternating.
    pair = [("plain", plain), ("locked", locked)]
    for _, journal in pair:
        start(journal, MAIN_WINDOW)  # warms the caches; not counted
    raw = {"plain": [], "locked": [], "unlock_page": []}
    for round in range(args.rounds):
        print(f"bench-lock-app: plain and locked, round {round + 1}/{args.rounds}", file=sys.stderr, flush=True)
        for name, journal in (pair if round % 2 == 0 else pair[::-1]):
            raw[name].append(start(journal, MAIN_WINDOW))

    # The window, used as bench-app.py uses it, plain and locked in turn.
    bench.SCROLL_ROWS = WINDOW_SCROLL_ROWS
    raw["window_plain"], raw["window_locked"] = [], []
    for round in range(WINDOW_ROUNDS):
        print(f"bench-lock-app: the window, plain and locked, round {round + 1}/{WINDOW_ROUNDS}", file=sys.stderr, flush=True)
        for name, journal in (pair if round % 2 == 0 else pair[::-1]):
            raw[f"window_{name}"].append(bench.run_once(binary, journal, args.entries, environment))

    # No key kept: the unlock page.
    flourish(binary, locked, "--unlock-at-login", "off")
    start(locked, UNLOCK_PAGE)  # not counted
    for round in range(args.rounds):
        print(f"bench-lock-app: the unlock page, start {round + 1}/{args.rounds}", file=sys.stderr, flush=True)
        raw["unlock_page"].append(start(locked, UNLOCK_PAGE))

    results = {"machine": bench.machine(), "entries": args.entries, "rounds": args.rounds,
               "window_rounds": WINDOW_ROUNDS, "window_scroll_rows": WINDOW_SCROLL_ROWS,
               "figures": side_by_side(ROWS, raw["plain"], raw["locked"]),
               "window": side_by_side(WINDOW_ROWS, raw["window_plain"], raw["window_locked"]),
               "unlock_page": {name: bench.spread([run[name] for run in raw["unlock_page"]]) for _, name, _, _, _ in ROWS},
               "raw": raw}
    with open(args.json, "w") as file:
        json.dump(results, file, indent=2, sort_keys=True)
    print_table(results)
    print(f"\nThe same figures as JSON: {args.json}")


def side_by_side(rows, plain_runs, locked_runs):
    """Each row's figure, plain beside locked (bench-lock.py's), when every run measured it."""
    figures = {}
    for _, name, _, _, target in rows:
        plains, lockeds = [run.get(name) for run in plain_runs], [run.get(name) for run in locked_runs]
        if plains and None not in plains and None not in lockeds:
            figures[name] = lock.side_by_side(plains, lockeds, target)
    return figures


def print_table(results):
    m = results["machine"]
    print(f"\nA locked journal in the app: the {results['entries']:,}-entry sample journal, plain and locked "
          f"(its key from the keyring)\n{m['cpu']}, {m['cores']} cores, GTK {m['gtk']}, renderer {m['renderer']}, "
          f"{m['display']}; {results['rounds']} rounds, the first of the pair alternating, after one start of each "
          "not counted; median (min–max); ratio: locked ÷ plain, round by round.\n")
    print_rows(ROWS, results["figures"])
    if results["window"]:
        print(f"\nThe window, as scripts/bench-app.py uses it ({results['window_rounds']} rounds, "
              f"{results['window_scroll_rows']:,} rows paged), plain and locked in turn:\n")
        print_rows(WINDOW_ROWS, results["window"])
    print("\nLocked, no key kept: start-up to the unlock page (its Argon2id comes once the passphrase is typed: "
          "scripts/bench-lock.py times it)")
    for label, name, unit, digits, _ in ROWS:
        print(f"{label.replace('start-up', 'unlock page'):<26}{bench.fmt(results['unlock_page'][name], unit, digits):>22}")


def print_rows(rows, figures):
    print(f"{'':<30}{'plain':>22}{'locked, keyring':>22}{'locked ÷ plain':>22}   within {lock.RATIO_TARGET}×")
    for label, name, unit, digits, _ in rows:
        if name not in figures:
            continue
        figure = figures[name]
        print(f"{label:<30}{bench.fmt(figure['plain'], unit, digits):>22}{bench.fmt(figure['locked'], unit, digits):>22}"
              f"{bench.fmt(figure['ratio'], '×', 2):>22}   {lock.verdict(figure)}")


if __name__ == "__main__":
    main()
