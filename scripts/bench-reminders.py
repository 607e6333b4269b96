#!/usr/bin/python3
"""The daily reminder's cost while Flourish is closed, run by scripts/bench: the release
flourish binary as the login item starts it (`--gapplication-service`, reminders on, the next
reminder hours away), under Xvfb. After it has settled, its memory (/proc/PID/smaps_rollup:
resident, proportional, private) and, over --seconds of idling, the CPU time it used and how
often it woke (context switches). Figures only: nothing passes or fails.

    bench-reminders.py --bin DIR --work DIR [--seconds 60]
"""
import argparse
import datetime
import os
import subprocess
import sys
import time


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as file:
        for line in file:
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
                values[name] = int(rest.split()[0])
    return values


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def switches(pid):
    with open(f"/proc/{pid}/status") as file:
        return sum(int(line.split()[1]) for line in file if "ctxt_switches" in line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    binary = os.path.join(args.bin, "flourish")
    home = os.path.join(args.work, "reminders")
    environment = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"))
    # The next reminder as far away as it can be: twelve hours on.
    at = (datetime.datetime.now() + datetime.timedelta(hours=12)).strftime("%H:%M")
    subprocess.run([binary, "--remind", at], env=environment, check=True, capture_output=True)
    service = subprocess.Popen([binary, "--gapplication-service"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(5)
        if service.poll() is not None:
            sys.exit("bench-reminders: the service did not stay")
        held = memory(service.pid)
        ticks, woke = cpu_ticks(service.pid), switches(service.pid)
        time.sleep(args.seconds)
        ticks, woke = cpu_ticks(service.pid) - ticks, switches(service.pid) - woke
    finally:
        service.terminate()
        service.wait()
        subprocess.run([binary, "--remind", "off"], env=environment, capture_output=True)
    tick = os.sysconf("SC_CLK_TCK")
    print(f"\nThe reminder's background service, idle (release build, next reminder 12 h away)")
    print(f"  resident memory                 {held['Rss'] / 1024:6.1f} MiB (most of it shared libraries)")
    print(f"  its proportional share           {held['Pss'] / 1024:6.1f} MiB (libraries shared with other programs count in part)")
    print(f"  its own memory (private, dirty)  {held['Private_Dirty'] / 1024:6.1f} MiB (what it costs beyond the libraries)")
    print(f"  CPU over {args.seconds} s idle             {ticks * 1000 / tick:6.0f} ms")
    print(f"  wake-ups over {args.seconds} s idle        {woke:6d} (context switches)")


if __name__ == "__main__":
    main()
