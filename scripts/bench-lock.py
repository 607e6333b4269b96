#!/usr/bin/python3
"""What locking costs, run by scripts/bench (scripts/bench --lock-only alone): the 100,000-entry
sample journal plain and locked, measured side by side in one process of the release helper
(flourish-bench locked), round after round, the two in turn, so each round's ratio comes from the
same moment of a noisy machine. The locked copy is locked by JournalLock.lock at the cost people
get (Argon2id .moderate), under a passphrase the helper keeps to itself; the plain copy is
compacted by VACUUM, as locking compacts its own, so the two differ by their encryption only.

The figures are the store's, without a window (scripts/bench-lock-app.py times the app's
start-up, the key from the keyring): a locked journal's window starts on its unlock page unless
the keyring keeps its key, and the passphrase's Argon2id (about 0.65 s, on purpose) no plain
start-up has, so start-up is what the store reads for it once unlocked (open and the tags, before
the first frame; then the list's ids and newest rows, as JournalModel.load() reads them). Then a
scroll's batches, search a keystroke at a time, the Insights figures, saves, the health check,
and once: unlocking (Argon2id and the store opened) and the files' sizes.

Prints a table (medians, min–max, locked ÷ plain round by round, pass or miss) and writes the
same figures as JSON. Figures only: a miss never fails it.

    bench-lock.py --bin DIR --work DIR [--entries 100000] [--journal PATH] [--rounds 9] [--json PATH]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

RATIO_TARGET = 1.2
UNLOCK_TARGET_MS = 1000

# (label, figure, digits, target): rows of the table, in the order a person meets them.
ROWS = [
    ("start-up, store: open + tags", "open_ms", 1, True),
    # Not start-up's: the app reads the list's ids when the Journal page first shows (the window's
    # "Alt+2 to Journal painted", in scripts/bench-lock-app.py) or in the background after the check.
    ("list's first read, store: ids + 40 rows", "startup_ms", 1, False),
    ("scroll: a batch of 60 rows, p50", "scroll_batch_p50_ms", 2, True),
    ("search, store: a keystroke, p50", "search_p50_ms", 1, True),
    ("search, store: a keystroke, p95", "search_p95_ms", 1, True),
    ("insights, store: all", "insights_all_ms", 1, True),
    ("insights, store: 12 months", "insights_year_ms", 1, True),
    ("save p50 (FULL sync)", "save_p50_ms", 2, True),
    ("save p95 (FULL sync)", "save_p95_ms", 2, True),
    ("health check (every page)", "check_ms", 0, False),
]


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def fmt(summary, unit="ms", digits=0):
    return f"{summary['median']:.{digits}f} {unit} ({summary['min']:.{digits}f}–{summary['max']:.{digits}f})"


def side_by_side(plain, locked, target):
    """One figure's plain and locked runs, with locked ÷ plain taken round by round and, when the
    figure has a target, whether its median is within RATIO_TARGET (scripts/bench-lock-app.py's
    figures too)."""
    ratio = spread([after / before for before, after in zip(plain, locked) if before > 0])
    return {"plain": spread(plain), "locked": spread(locked), "ratio": ratio,
            "pass": ratio["median"] <= RATIO_TARGET if target else None}


def verdict(figure):
    return "no target" if figure["pass"] is None else ("pass" if figure["pass"] else "MISS")


def megabytes(count):
    return f"{count / 1_000_000:.1f} MB"


def arguments(json_path):
    """The options, which scripts/bench-lock-app.py shares."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--journal", help="a sample journal of --entries entries already written")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--json", default=json_path)
    return parser.parse_args()


def sample_journal(args, work, name):
    """--journal when it was written, else the sample journal of --entries entries written in `work`
    by the release helper; `name` says who is writing it."""
    if args.journal and os.path.exists(args.journal):
        return args.journal
    journal = os.path.join(work, f"journal-{args.entries}.sqlite")
    print(f"{name}: writing the sample journal of {args.entries} entries", file=sys.stderr, flush=True)
    subprocess.run([os.path.join(args.bin, "flourish-bench"), "generate", str(args.entries), journal], check=True)
    return journal


def main():
    args = arguments("bench-lock-results.json")
    helper = os.path.join(args.bin, "flourish-bench")
    work = os.path.join(args.work, "lock")
    os.makedirs(work, exist_ok=True)

    journal = sample_journal(args, work, "bench-lock")
    print("bench-lock: locking a copy (Argon2id, moderate), unlocking it, then plain and locked in turn",
          file=sys.stderr, flush=True)
    raw = json.loads(subprocess.run([helper, "locked", journal, work, str(args.rounds)], check=True,
                                    stdout=subprocess.PIPE, text=True).stdout)

    results = {"entries": args.entries, "rounds": raw["rounds"], "saves_per_round": raw["saves_per_round"],
               "startups_per_round": raw["startups_per_round"],
               "bytes": raw["bytes"], "lock_ms": raw["lock_ms"], "unlock_ms": spread(raw["unlock_ms"]),
               "argon2_ms": spread(raw["argon2_ms"]), "raw": raw,
               "figures": {name: side_by_side(raw["plain"][name], raw["locked"][name], target)
                           for _, name, _, target in ROWS}}
    unlock = results["unlock_ms"]["median"]
    results["unlock_pass"] = unlock <= UNLOCK_TARGET_MS
    with open(args.json, "w") as file:
        json.dump(results, file, indent=2, sort_keys=True)
    print_table(results)
    print(f"\nThe same figures as JSON: {args.json}")


def print_table(results):
    print(f"\nLocking: the {results['entries']:,}-entry sample journal, plain and locked (XChaCha20-Poly1305, "
          "every 4 KiB page), side by side")
    print("The store's figures, no window (bench-lock-app.py times the app's start-up): start-up is what the store reads once unlocked.")
    print(f"{results['rounds']} rounds in one process, plain and locked in turn (each opened afresh; start-up "
          f"{results['startups_per_round']} times a round, {results['saves_per_round']} saves); median (min–max); ratio: locked ÷ plain, "
          "round by round.\n")
    print(f"{'':<40}{'plain':>24}{'locked':>24}{'locked ÷ plain':>22}   within {RATIO_TARGET}×")
    for label, name, digits, target in ROWS:
        figure = results["figures"][name]
        print(f"{label:<40}{fmt(figure['plain'], 'ms', digits):>24}{fmt(figure['locked'], 'ms', digits):>24}"
              f"{fmt(figure['ratio'], '×', 2):>22}   {verdict(figure)}")
    unlock, argon2 = results["unlock_ms"], results["argon2_ms"]
    print(f"\nUnlock (Argon2id moderate, then the store opened): {fmt(unlock)}, of which Argon2id {fmt(argon2)}: "
          f"{'pass' if results['unlock_pass'] else 'MISS'} (at most {UNLOCK_TARGET_MS} ms)")
    print(f"Locking the journal (once: Argon2id for the passphrase and the recovery key, a sealed copy checked row by row): {results['lock_ms']:.0f} ms")
    sizes = results["bytes"]
    print(f"On disk: plain {megabytes(sizes['plain'])} (compacted; {megabytes(sizes['generated'])} as written), "
          f"locked {megabytes(sizes['locked'])} ({(sizes['locked'] / sizes['plain'] - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
