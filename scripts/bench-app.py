#!/usr/bin/python3
"""Flourish's benchmark, run by scripts/bench under Xvfb: the real release binary on sample
journals of several sizes, driven with the keyboard (xdotool) and measured from outside (exec,
/proc) and from the window's own frame clock (FLOURISH_TRACE=1). Prints a table, writes the same
figures as JSON, and says pass or miss against the targets; it never fails on a miss.

    bench-app.py --bin DIR --work DIR [--sizes 0,1000,...] [--photo-sizes 100000] [--unmade-sizes 100000]
                 [--runs N] [--startup-runs N] [--peers] [--json PATH]

Beside the journals of --sizes, the journals of --photo-sizes entries with photos: one entry in
five carries one to three of 40 pictures made with ImageMagick (bench_photos.py), their
thumbnails kept, so the rows show kept thumbnails; and those of --unmade-sizes ("cold"), the same
journal with its thumbnails removed before each run, so the app makes each from its photo the
first time a row shows it.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

from bench_photos import forget_thumbnails, make_photos

QUIET_SECONDS = 0.3   # "idle": no CPU tick for this long
SCROLL_ROWS = 10_000  # rows paged through (the whole journal when it is smaller)
HELD_DOWN_KEYS = 150  # Down presses at a held key's repeat rate
PAGE_DELAY_MS = 16    # between Page Down presses: one a frame
SEARCH_WORDS = ("walk", "rain", "coffee")  # typed into the search, a key at a time


# MARK: - Processes

def cpu_ticks(pid):
    """User and system clock ticks of the process and its direct children."""
    total = 0
    try:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        children = []
    for process in [str(pid)] + children:
        try:
            fields = open(f"/proc/{process}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wait_idle(process, launched, timeout=30.0):
    """Seconds from `launched` to the last CPU tick before QUIET_SECONDS of none."""
    last, since = cpu_ticks(process.pid), time.monotonic()
    while time.monotonic() - launched < timeout:
        time.sleep(0.01)
        ticks, now = cpu_ticks(process.pid), time.monotonic()
        if ticks != last:
            last, since = ticks, now
        elif now - since >= QUIET_SECONDS:
            break
    return since - launched


def machine_busy_ticks():
    """Clock ticks the whole machine has spent busy (all cores), from /proc/stat."""
    fields = [int(value) for value in open("/proc/stat").readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # all but idle and iowait


def wait_quiet_machine(timeout=15.0):
    """Waits until the machine has been nearly idle for QUIET_SECONDS: after a long scroll the
    display server and the accessibility registry are still working through its events, and a
    program started then would be timed against them."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        before = machine_busy_ticks()
        time.sleep(QUIET_SECONDS)
        # At most a tick or two busy in the window (this script's own polling included).
        if machine_busy_ticks() - before <= 2:
            return


def keys(*names, delay_ms=40, repeat=1):
    subprocess.run(["xdotool", "key", "--delay", str(delay_ms), "--repeat", str(repeat), *names], check=True)


class Flourish:
    """The release binary with FLOURISH_TRACE=1; its trace lines are read on a thread and put on
    this script's monotonic clock (the app says where its own clock starts)."""

    def __init__(self, binary, journal, environment):
        self.marks, self.frames, self.origin = [], [], None
        self.launched = time.monotonic()
        self.process = subprocess.Popen([binary, "--database", journal], stderr=subprocess.PIPE, text=True,
                                        env=dict(environment, FLOURISH_TRACE="1"))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stderr:
            if line.startswith("flourish-frame: "):
                started, took = map(float, line.split()[1:3])
                self.frames.append((self._seconds(started), took))
            elif line.startswith("flourish-trace: "):
                ms, event = line[len("flourish-trace: "):].strip().split(" ", 1)
                if event.startswith("clock "):
                    self.origin = float(event.split()[1]) / 1000
                else:
                    self.marks.append((self._seconds(float(ms)), event))

    def _seconds(self, app_ms):
        return (self.origin or self.launched) + app_ms / 1000

    def mark(self, prefix, after=0.0, timeout=20.0):
        """When the app first said `prefix…` after `after` (this script's clock)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, event in list(self.marks):
                if at >= after and event.startswith(prefix):
                    return at
            time.sleep(0.005)
        raise RuntimeError(f"the app never said '{prefix}'")

    def painted_after(self, moment, timeout=5.0):
        """The end of the first frame that was still painting at or after `moment`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for started, took in list(self.frames):
                if started + took / 1000 >= moment:
                    return started + took / 1000
            time.sleep(0.005)
        raise RuntimeError("no frame was painted")

    def frames_between(self, start, end):
        return [took for started, took in list(self.frames) if start <= started <= end]

    def furthest_row(self):
        rows = [int(event.split()[-1]) for _, event in list(self.marks) if event.startswith("rows reached")]
        return max(rows, default=0)

    def quit(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# MARK: - One run on one journal

def startup_once(binary, journal, environment, shows=None):
    """Exec to the first frame painted and to idle, and the memory then. `shows`: the trace event
    of the window the start must have shown by then (a locked journal's main window, or its
    unlock page), so that a start which showed the other is never timed as this one."""
    wait_quiet_machine()
    app = Flourish(binary, journal, environment)
    try:
        idle = wait_idle(app.process, app.launched)
        figures = {"startup_first_frame_ms": (app.painted_after(app.launched) - app.launched) * 1000,
                   "startup_idle_ms": idle * 1000, "rss_startup_mib": rss_mib(app.process.pid)}
        if shows:
            app.mark(shows, timeout=1.0)
    finally:
        app.quit()
    return figures


def bare_once(bare, environment, screen=False):
    """Exec to idle of the bare GTK window, and its memory then: the floor Flourish is set against.
    With `screen`, the window holds the controls of Flourish's first screen instead of one label."""
    figures = {}
    figures["startup_idle_ms"] = startup_to_idle([bare] + (["--new-entry-screen"] if screen else []), environment,
                                                 at_idle=lambda process: figures.update(rss_startup_mib=rss_mib(process.pid)))
    return figures


def startups(binary, journals, rounds, environment, bare=None):
    """Start-ups of every size, round after round, apart from the runs that scroll: whichever
    program starts right after a 10,000-row scroll has exited comes up some 30 ms slower (the
    display server's, not the journal's, doing: an empty journal started there is as slow), so
    timing start-ups in between the scrolling runs would charge that to the size that follows.
    Each round starts the sizes in a different order, after one start that is not counted, and
    the size ratios are taken round by round, like the peers'. With `bare`, each round also
    starts the bare GTK window, first, kept under "bare", and the same window holding the controls
    of Flourish's first screen, kept under "bare screen"."""
    sizes = list(journals)
    startup_once(binary, journals[sizes[0]], environment)  # warms the caches; not counted
    per_size = {size: [] for size in sizes}
    if bare:
        bare_once(bare, environment)  # warms the caches; not counted
        per_size["bare"], per_size["bare screen"] = [], []
    for round in range(rounds):
        order = sizes[round % len(sizes):] + sizes[:round % len(sizes)]
        print(f"bench: start-ups, round {round + 1}/{rounds}", file=sys.stderr, flush=True)
        if bare:
            per_size["bare"].append(bare_once(bare, environment))
            per_size["bare screen"].append(bare_once(bare, environment, screen=True))
        for size in order:
            per_size[size].append(startup_once(binary, journals[size], environment))
    return per_size


def run_once(binary, journal, entries, environment):
    """The Journal page, opening the longest entry, paging and holding Down, memory."""
    wait_quiet_machine()
    app = Flourish(binary, journal, environment)
    figures = {}
    # The journal's health check reads the whole file once, in the background, 1.5 s after the
    # window appears: timed on its own, and over before anything else is measured.
    started = app.mark("journal check started")
    checked = app.mark("journal checked", after=started)
    figures["health_check_ms"] = (checked - started) * 1000
    # Started and settled: the window gives back what it freed once quiet for 2 s (the check's
    # reads included). What scrolling adds is measured from here, in the same process.
    app.mark("memory given back", after=checked)
    wait_idle(app.process, time.monotonic())
    figures["rss_started_mib"] = rss_mib(app.process.pid)
    # What the window keeps in memory at most, as it says itself (one line, the same every run):
    # words, not a figure, so main takes it out before the figures are summarised.
    figures["caches"] = next((event for _, event in list(app.marks) if event.startswith("caches at most: ")), None)

    # From the moment the app has the key (xdotool's own start-up is no part of a person's wait).
    before = time.monotonic()
    keys("alt+2")
    pressed = app.mark("show journal", after=before)
    shown = app.mark("journal page shown", after=pressed)
    ready = app.mark("first journal row shown", after=before) if entries else shown
    figures["journal_painted_ms"] = (app.painted_after(max(ready, shown)) - pressed) * 1000
    wait_idle(app.process, time.monotonic())

    if entries:
        # The newest entry of the sample journal is its longest; the list's focus starts on it.
        before = time.monotonic()
        keys("Return")
        opened = app.mark("entry opened", after=before)
        figures["open_entry_ms"] = (app.painted_after(opened) - opened) * 1000
        time.sleep(0.3)
        keys("Escape")
        wait_idle(app.process, time.monotonic())

        # Search as a person types it: Ctrl+F, then a word a key at a time. Each keystroke is
        # timed from the app hearing the new words to the frame that shows their results.
        latencies = []
        for word in SEARCH_WORDS:
            keys("ctrl+f")
            time.sleep(0.2)
            for letter in word:
                before = time.monotonic()
                keys(letter)
                started = app.mark("search started", after=before)
                latencies.append((app.mark("search shown", after=started) - started) * 1000)
                time.sleep(0.15)
            keys("Escape")  # the whole journal again, where it was
            wait_idle(app.process, time.monotonic())
        ordered = sorted(latencies)
        figures["app_search_p50_ms"] = statistics.median(ordered)
        figures["app_search_p95_ms"] = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]

    # Page Down, one press a frame, until 10,000 rows (or the whole journal) have been shown.
    target = min(entries, SCROLL_ROWS) - 1
    start = time.monotonic()
    stalled = 0
    while entries and app.furthest_row() < target - 100 and stalled < 3:
        before = app.furthest_row()
        # A page is about five rows; the app reports every hundredth row it reaches.
        presses = max(5, min(100, (target - before) // 5))
        keys("Page_Down", delay_ms=PAGE_DELAY_MS, repeat=presses)
        time.sleep(0.05)
        stalled = stalled + 1 if app.furthest_row() == before else 0
    time.sleep(0.2)
    paging_end = time.monotonic()
    figures["rows_paged"] = app.furthest_row() + (1 if entries else 0)
    figures["paging_total_s"] = paging_end - start
    paging_frames = app.frames_between(start, paging_end)

    # Holding Down: one row at a time, at a keyboard's repeat rate (about 30 a second).
    start = time.monotonic()
    keys("Down", delay_ms=33, repeat=HELD_DOWN_KEYS)
    time.sleep(0.2)
    held_frames = app.frames_between(start, time.monotonic())
    frames = paging_frames + held_frames
    if frames:
        ordered = sorted(frames)
        figures["scroll_frame_median_ms"] = statistics.median(ordered)
        figures["scroll_frame_p95_ms"] = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        figures["scroll_frame_worst_ms"] = ordered[-1]
        figures["scroll_frames"] = len(frames)
    app.mark("memory given back", after=time.monotonic())  # settled, as after start-up
    wait_idle(app.process, time.monotonic())
    figures["rss_scrolled_mib"] = rss_mib(app.process.pid)
    figures["rss_scroll_growth_mib"] = figures["rss_scrolled_mib"] - figures["rss_started_mib"]

    # Insights: Alt+3 (the last 30 days), then All and the last 12 months, chosen from the
    # keyboard; each timed from the app hearing it to the frame that shows its figures.
    before = time.monotonic()
    keys("alt+3")
    pressed = app.mark("show insights", after=before)
    figures["insights_shown_ms"] = (app.painted_after(app.mark("insights shown", after=pressed)) - pressed) * 1000
    wait_idle(app.process, time.monotonic())
    for name, chosen in (("insights_all_window_ms", ("Tab", "Tab", "space")), ("insights_12m_window_ms", ("shift+Tab", "space"))):
        before = time.monotonic()
        keys(*chosen)
        asked = app.mark("insights asked", after=before)
        figures[name] = (app.painted_after(app.mark("insights shown", after=asked)) - asked) * 1000
        wait_idle(app.process, time.monotonic())
    app.quit()
    return figures


def startup_to_idle(command, environment, at_idle=lambda process: None):
    """Exec to idle of `command`, in ms; `at_idle` reads what it will of the process then."""
    wait_quiet_machine()
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    launched = time.monotonic()
    idle = wait_idle(process, launched)
    at_idle(process)
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return idle * 1000


def private_environment(work):
    """The environment of the programs measured: everything they read is private to the run under
    `work`; the cursor does not blink, since a blinking cursor keeps a window painting (and never
    idle) for its first ten seconds."""
    config = os.path.join(work, "config")
    for toolkit in ("gtk-3.0", "gtk-4.0"):
        os.makedirs(os.path.join(config, toolkit), exist_ok=True)
        with open(os.path.join(config, toolkit, "settings.ini"), "w") as file:
            file.write("[Settings]\ngtk-cursor-blink=false\n")
    environment = dict(os.environ, XDG_CONFIG_HOME=config, HOME=os.path.join(work, "home"),
                       GSETTINGS_BACKEND="memory")
    os.makedirs(environment["HOME"], exist_ok=True)
    return environment


# MARK: - Summaries

def spread(values):
    values = [value for value in values if value is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    gtk = subprocess.run(["pkg-config", "--modversion", "gtk4"], capture_output=True, text=True).stdout.strip()
    import sqlite3
    return {"cpu": cpu, "cores": os.cpu_count(), "gtk": gtk, "sqlite": sqlite3.sqlite_version,
            "renderer": os.environ.get("GSK_RENDERER", "default"), "display": "Xvfb 1280x800",
            "system": platform.platform()}


def entries_of(column):
    """A column's journal size: its key is "1000", "100000+photos" or "100000+unmade"."""
    return int(column.split("+")[0])


def column_label(column):
    kind = column.partition("+")[2]
    return f"{entries_of(column):,}" + {"": "", "photos": " + photos", "unmade": " + photos, cold"}[kind]


def fmt(summary, unit="ms", digits=0):
    if summary is None:
        return "—"
    return f"{summary['median']:.{digits}f} {unit} ({summary['min']:.{digits}f}–{summary['max']:.{digits}f})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sizes", default="0,1000,10000,100000")
    parser.add_argument("--photo-sizes", default="100000")
    parser.add_argument("--unmade-sizes", default="100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--startup-runs", type=int, default=7)
    parser.add_argument("--peers", action="store_true")
    parser.add_argument("--json", default="bench-results.json")
    args = parser.parse_args()

    binary = os.path.join(args.bin, "flourish")
    helper = os.path.join(args.bin, "flourish-bench")
    bare = os.path.join(args.bin, "flourish-bare-window")
    sizes = [int(size) for size in args.sizes.split(",")]
    numbers = lambda text: [int(size) for size in text.split(",") if size]
    columns = ([str(size) for size in sizes] + [f"{size}+photos" for size in numbers(args.photo_sizes)]
               + [f"{size}+unmade" for size in numbers(args.unmade_sizes)])
    environment = private_environment(args.work)

    journals = {}
    photos = os.path.join(args.work, "photos")
    for column in columns:
        journals[column] = os.path.join(args.work, f"journal-{column}.sqlite")
        command = [helper, "generate", str(entries_of(column)), journals[column]]
        if "+" in column:
            if not os.path.isdir(photos):
                print("bench: making the sample photos", file=sys.stderr, flush=True)
            make_photos(photos)  # once: a second call finds them made
            command += ["--photos", photos]
        print(f"bench: writing the sample journal of {column_label(column)} entries", file=sys.stderr, flush=True)
        subprocess.run(command, check=True)

    results = {"machine": machine(), "runs": args.runs, "startup_runs": args.startup_runs, "sizes": {},
               "peers": None, "targets": []}
    # A journal whose thumbnails are to be made starts as the one that keeps them: not started again.
    per_run = startups(binary, {column: journals[column] for column in columns if not column.endswith("+unmade")},
                       args.startup_runs, environment, bare=bare)
    largest, empty = max(sizes), min(sizes)
    # Against the bare GTK window, round by round: start-up as a ratio, memory as a difference.
    bare_runs, screen_runs = per_run.pop("bare"), per_run.pop("bare screen")
    results["bare_window"] = {name: spread([figures[name] for figures in bare_runs])
                              for name in ("startup_idle_ms", "rss_startup_mib")}
    # The first screen's controls alone, against the one label and under Flourish: how much of
    # the distance to the bare window is GTK's own work for what the screen shows.
    results["bare_screen"] = {name: spread([figures[name] for figures in screen_runs])
                              for name in ("startup_idle_ms", "rss_startup_mib")}
    results["bare_screen_over_bare"] = spread([screen["startup_idle_ms"] / floor["startup_idle_ms"]
                                               for screen, floor in zip(screen_runs, bare_runs)])
    results["startup_largest_over_bare_screen"] = spread([flourish["startup_idle_ms"] / screen["startup_idle_ms"]
                                                          for flourish, screen in zip(per_run[str(largest)], screen_runs)])
    results["startup_largest_over_bare"] = spread([flourish["startup_idle_ms"] / floor["startup_idle_ms"]
                                                   for flourish, floor in zip(per_run[str(largest)], bare_runs)])
    results["rss_largest_above_bare_mib"] = spread([flourish["rss_startup_mib"] - floor["rss_startup_mib"]
                                                    for flourish, floor in zip(per_run[str(largest)], bare_runs)])
    def over_empty(column):
        return spread([big["startup_idle_ms"] / small["startup_idle_ms"] for big, small in zip(per_run[column], per_run[str(empty)])])
    results["startup_largest_over_empty"] = over_empty(str(largest))
    results["startup_photos_over_empty"] = {column: over_empty(column) for column in columns if column.endswith("+photos")}
    for run in range(args.runs):
        for column in columns:  # interleaved, so a slow moment of the machine hits them all
            print(f"bench: run {run + 1}/{args.runs}, {column_label(column)} entries", file=sys.stderr, flush=True)
            if column.endswith("+unmade"):
                forget_thumbnails(journals[column])
            figures = run_once(binary, journals[column], entries_of(column), environment)
            results["caches"] = figures.pop("caches") or results.get("caches")
            per_run.setdefault(column, []).append(figures)

    for column in columns:
        store = json.loads(subprocess.run([helper, "store", journals[column]], check=True, capture_output=True,
                                          text=True).stdout)
        summary = {name: spread([figures.get(name) for figures in per_run[column]])
                   for name in sorted({name for figures in per_run[column] for name in figures})}
        summary["save_p50_ms"] = {"median": store["save_p50_ms"], "min": store["save_p50_ms"], "max": store["save_p50_ms"], "runs": 1}
        summary["save_p99_ms"] = {"median": store["save_p99_ms"], "min": store["save_p99_ms"], "max": store["save_p99_ms"], "runs": 1}
        for name in ("search_p50_ms", "search_p95_ms", "insights_all_ms", "insights_year_ms", "memories_p50_ms", "memories_p95_ms",
                     "measure_search_p50_ms", "measure_search_p95_ms", "measure_insights_all_ms"):
            summary[name] = {"median": store[name], "min": store[name], "max": store[name], "runs": 1}
        results["sizes"][column] = summary

    if args.peers:
        results["peers"] = peers(args, helper, binary, environment)

    results["targets"] = targets(results, sizes, columns)
    with open(args.json, "w") as file:
        json.dump(results, file, indent=2, sort_keys=True)
    print_table(results, sizes, columns)
    print(f"\nThe same figures as JSON: {args.json}")


def peers(args, helper, binary, environment):
    """Start-up to idle of Flourish, RedNotebook and Almanah on the same ten years of entries,
    in turn, run after run; each run's ratios come from the same moment of the machine."""
    entries = 3650
    folder = os.path.join(args.work, "peers")
    journal = os.path.join(args.work, "journal-peers.sqlite")
    subprocess.run([helper, "generate", str(entries), journal], check=True)
    subprocess.run([helper, "peers", str(entries), folder], check=True)
    home = os.path.join(folder, "home")
    os.makedirs(os.path.join(home, ".rednotebook"), exist_ok=True)
    data = os.path.join(home, ".rednotebook", "data")
    if os.path.islink(data) or os.path.exists(data):
        os.remove(data) if os.path.islink(data) else shutil.rmtree(data)
    os.symlink(os.path.join(folder, "rednotebook", "data"), data)
    commands = {
        "flourish": ([binary, "--database", journal], environment),
        "rednotebook": (["rednotebook"], dict(environment, HOME=home)),
        "almanah": (["almanah"], dict(environment, HOME=home, XDG_DATA_HOME=os.path.join(folder, "almanah"))),
    }
    times = {name: [] for name in commands}
    for run in range(max(args.runs, 5)):
        print(f"bench: peers, run {run + 1}", file=sys.stderr, flush=True)
        for name, (command, env) in commands.items():
            times[name].append(startup_to_idle(command, env))
    ratios = {name: [f / p for f, p in zip(times["flourish"], times[name])] for name in ("rednotebook", "almanah")}
    return {"entries": entries, "startup_idle_ms": {name: spread(values) for name, values in times.items()},
            "flourish_over": {name: spread(values) for name, values in ratios.items()},
            "versions": {name: package_version(name) for name in ("rednotebook", "almanah")}}


def package_version(package):
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True).stdout


def targets(results, sizes, columns):
    checks = []
    def add(name, value, limit, unit=""):
        checks.append({"target": name, "value": value, "limit": limit, "unit": unit,
                       "pass": value is not None and value <= limit})
    by = results["sizes"]
    largest, empty = str(max(sizes)), str(min(sizes))
    def median(size, name):
        summary = by.get(size, {}).get(name)
        return summary["median"] if summary else None
    if results.get("startup_largest_over_empty") and largest != empty:
        add(f"start-up to idle, {int(largest):,} entries ÷ empty", results["startup_largest_over_empty"]["median"], 1.15, "×")
    if results.get("startup_largest_over_bare"):
        add(f"start-up to idle, {int(largest):,} entries ÷ the bare GTK window", results["startup_largest_over_bare"]["median"], 1.2, "×")
        add(f"RSS after start-up, {int(largest):,} entries, above the bare GTK window",
            results["rss_largest_above_bare_mib"]["median"], 25, "MiB")
    for size in sizes:
        if size >= 10000:
            add(f"RSS after scrolling {min(size, SCROLL_ROWS):,} rows of {size:,} entries, above its own start-up",
                median(str(size), "rss_scroll_growth_mib"), 15, "MiB")
    for column in columns:
        add(f"Journal page painted after Alt+2, {column_label(column)} entries", median(column, "journal_painted_ms"), 50, "ms")
    add(f"scrolling {int(largest):,} entries: p95 frame", median(largest, "scroll_frame_p95_ms"), 16, "ms")
    add(f"scrolling {int(largest):,} entries: median frame", median(largest, "scroll_frame_median_ms"), 8, "ms")
    if median(largest, "rss_scrolled_mib") and median(empty, "rss_scrolled_mib"):
        add(f"RSS after scrolling {min(int(largest), SCROLL_ROWS):,} rows, above the empty journal",
            median(largest, "rss_scrolled_mib") - median(empty, "rss_scrolled_mib"), 40, "MiB")
    # The three for a journal with photos: it starts as fast as an empty one, scrolls
    # smoothly with the thumbnails showing, and holds no more memory after 10,000 rows.
    for column in columns:
        if not column.endswith("+photos"):
            continue
        ratio = results["startup_photos_over_empty"].get(column)
        if ratio and entries_of(column) != int(empty):
            add(f"start-up to idle, {column_label(column)} ÷ empty", ratio["median"], 1.15, "×")
        add(f"scrolling {column_label(column)}: p95 frame", median(column, "scroll_frame_p95_ms"), 16, "ms")
        if median(column, "rss_scrolled_mib") and median(empty, "rss_scrolled_mib"):
            add(f"RSS after scrolling {min(entries_of(column), SCROLL_ROWS):,} rows of {column_label(column)}, above the empty journal",
                median(column, "rss_scrolled_mib") - median(empty, "rss_scrolled_mib"), 40, "MiB")
    add(f"search in the window, a keystroke at {int(largest):,} entries: p95", median(largest, "app_search_p95_ms"), 50, "ms")
    add(f"search in the store, a keystroke at {int(largest):,} entries: p95", median(largest, "search_p95_ms"), 50, "ms")
    add(f"Insights painted after Alt+3, {int(largest):,} entries", median(largest, "insights_shown_ms"), 100, "ms")
    add(f"Insights painted for All, {int(largest):,} entries", median(largest, "insights_all_window_ms"), 100, "ms")
    add(f"Insights painted for the last 12 months, {int(largest):,} entries", median(largest, "insights_12m_window_ms"), 100, "ms")
    for size in sizes:
        add(f"save p50, {size:,} entries", median(str(size), "save_p50_ms"), 5, "ms")
        add(f"save p99, {size:,} entries", median(str(size), "save_p99_ms"), 30, "ms")
    if results["peers"]:
        over = results["peers"]["flourish_over"]
        add("start-up to idle, ten years: Flourish ÷ Almanah", over["almanah"]["median"], 1.0, "×")
        add("start-up to idle, ten years: Flourish ÷ RedNotebook", over["rednotebook"]["median"], 1 / 3, "×")
    else:
        checks.append({"target": "start-up against RedNotebook and Almanah", "value": None, "limit": None,
                       "unit": "", "pass": None})
    return checks


def print_table(results, sizes, columns):
    m = results["machine"]
    print(f"Flourish benchmark: {m['cpu']}, {m['cores']} cores, GTK {m['gtk']}, SQLite {m['sqlite']}, "
          f"renderer {m['renderer']}, {m['display']}")
    print(f"Median of {results['runs']} runs (start-up: {results['startup_runs']}) (min–max); "
          "the sample journals are generated with a fixed seed.\n")
    rows = [
        ("start-up: first frame", "startup_first_frame_ms", "ms", 0),
        ("start-up: idle", "startup_idle_ms", "ms", 0),
        ("Alt+2 to Journal painted", "journal_painted_ms", "ms", 0),
        ("open the longest entry", "open_entry_ms", "ms", 0),
        ("health check (background)", "health_check_ms", "ms", 0),
        ("rows paged through", "rows_paged", "", 0),
        ("paging: total", "paging_total_s", "s", 1),
        ("scroll frame: median", "scroll_frame_median_ms", "ms", 1),
        ("scroll frame: p95", "scroll_frame_p95_ms", "ms", 1),
        ("scroll frame: worst", "scroll_frame_worst_ms", "ms", 1),
        ("RSS after start-up", "rss_startup_mib", "MiB", 0),
        ("RSS after scrolling", "rss_scrolled_mib", "MiB", 0),
        ("RSS added by scrolling", "rss_scroll_growth_mib", "MiB", 0),
        ("save p50 (FULL sync)", "save_p50_ms", "ms", 2),
        ("save p99 (FULL sync)", "save_p99_ms", "ms", 2),
        ("search, window: p50", "app_search_p50_ms", "ms", 1),
        ("search, window: p95", "app_search_p95_ms", "ms", 1),
        ("search, store: p50", "search_p50_ms", "ms", 1),
        ("search, store: p95", "search_p95_ms", "ms", 1),
        ("Alt+3 to Insights painted", "insights_shown_ms", "ms", 0),
        ("insights, window: All", "insights_all_window_ms", "ms", 0),
        ("insights, window: 12 months", "insights_12m_window_ms", "ms", 0),
        ("insights, store: all", "insights_all_ms", "ms", 1),
        ("insights, store: 12 months", "insights_year_ms", "ms", 1),
        ("on this day, store: p50", "memories_p50_ms", "ms", 1),
        ("on this day, store: p95", "memories_p95_ms", "ms", 1),
        ("sleep < 6, store: p50", "measure_search_p50_ms", "ms", 1),
        ("sleep < 6, store: p95", "measure_search_p95_ms", "ms", 1),
        ("insights, store: measures", "measure_insights_all_ms", "ms", 1),
    ]
    header = f"{'entries':<26}" + "".join(f"{column_label(column):>24}" for column in columns)
    print(header)
    for label, name, unit, digits in rows:
        cells = [fmt(results["sizes"][column].get(name), unit, digits) for column in columns]
        print(f"{label:<26}" + "".join(f"{cell:>24}" for cell in cells))
    floor = results.get("bare_window")
    if floor:
        print(f"\nThe bare GTK window (one label), in the same rounds: start-up to idle {fmt(floor['startup_idle_ms'])}, "
              f"RSS {fmt(floor['rss_startup_mib'], 'MiB')}")
        print(f"Start-up to idle, {max(sizes):,} entries ÷ the bare window, round by round: "
              f"{fmt(results['startup_largest_over_bare'], '×', 2)}")
        print(f"RSS after start-up, {max(sizes):,} entries, above the bare window, round by round: "
              f"{fmt(results['rss_largest_above_bare_mib'], 'MiB')}")
        screen = results.get("bare_screen")
        if screen:
            print(f"The same window holding the controls of Flourish's first screen (New Entry), nothing behind them: "
                  f"start-up to idle {fmt(screen['startup_idle_ms'])}, RSS {fmt(screen['rss_startup_mib'], 'MiB')}")
            print(f"  ÷ the bare window, round by round: {fmt(results['bare_screen_over_bare'], '×', 2)}; "
                  f"Flourish at {max(sizes):,} entries ÷ it: {fmt(results['startup_largest_over_bare_screen'], '×', 2)}")
    if results.get("caches"):
        print(f"\nThe window's {results['caches']}")
    ratio = results.get("startup_largest_over_empty")
    if ratio:
        print(f"\nStart-up to idle, {max(sizes):,} entries ÷ empty, round by round: {fmt(ratio, '×', 2)}")
    for column, ratio in results.get("startup_photos_over_empty", {}).items():
        if ratio:
            print(f"Start-up to idle, {column_label(column)} ÷ empty, round by round: {fmt(ratio, '×', 2)}")
    if results["peers"]:
        p = results["peers"]
        print(f"\nStart-up to idle on the same {p['entries']:,} entries (ten years), side by side:")
        for name in ("flourish", "rednotebook", "almanah"):
            version = "" if name == "flourish" else f" {p['versions'][name]}"
            print(f"  {name + version:<28}{fmt(p['startup_idle_ms'][name])}")
        for name in ("rednotebook", "almanah"):
            print(f"  Flourish ÷ {name:<17}{fmt(p['flourish_over'][name], '×', 2)}")
    print("\nTargets:")
    for check in results["targets"]:
        if check["pass"] is None:
            print(f"  not measured  {check['target']} (scripts/bench --peers)")
            continue
        value = "—" if check["value"] is None else f"{check['value']:.2f} {check['unit']}"
        print(f"  {'pass' if check['pass'] else 'MISS':<12}  {check['target']}: {value} (at most {check['limit']:.2f} {check['unit']})")


if __name__ == "__main__":
    main()
