"""Counts one suite's checks from its output, and prints a run's summary.

    suites.py count NAME STATUS SECONDS < OUTPUT   one record line: name, status, passed, failed, seconds
    suites.py summary SECONDS < RECORDS            a line a suite, then the total

Each runner says how each check went: XCTest's "Test Case '…' passed (…" lines, Swift Testing's
"✔ Test "…" passed after …", the journeys' closing "label: N passed, F failed", meson's "Ok:"
and "Fail:", the package test's "ok" and "FAIL" lines. A suite that failed without saying how many
checks failed counts as one failure, so the total never reads green over a red run.
"""

import re
import sys


def count(text):
    """(passed, failed) from a runner's output, or None when it says no tally."""
    # XCTest: one line a test case ("with F failures" counts assertions, and a crash leaves the
    # last "Executed" line a single class's).
    cases = re.findall(r"^Test Case '[^']+' (passed|failed) \(", text, re.MULTILINE)
    if cases:
        failed = cases.count("failed")
        # The whole run's count, where the run ended whole: a line another process wrote into
        # the middle of a test's own would otherwise drop that test from the tally.
        whole = re.search(r"^Test Suite 'All tests' (?:passed|failed) at .*\n\s*Executed (\d+) tests?", text, re.MULTILINE)
        return (int(whole.group(1)) - failed, failed) if whole else (cases.count("passed"), failed)
    # Swift Testing: one line a test ("✔ Test "…" passed after …", "✘ Test "…" with 6 test cases
    # failed after …"); its closing "Test run with N tests" line is no test.
    tests = re.findall(r'^\S+ Test "[^"]*"(?: with \d+ test cases?)? (passed|failed) after', text, re.MULTILINE)
    if tests:
        return tests.count("passed"), tests.count("failed")
    tally = re.findall(r"^\S*:? ?(\d+) passed, (\d+) failed", text, re.MULTILINE)
    if tally:
        return int(tally[-1][0]), int(tally[-1][1])
    ok = re.findall(r"^Ok:\s+(\d+)", text, re.MULTILINE)
    fail = re.findall(r"^(?:Fail|Timeout):\s+(\d+)", text, re.MULTILINE)
    if ok:
        return sum(map(int, ok)), sum(map(int, fail))
    checks = re.findall(r"^  (ok|FAIL) ", text, re.MULTILINE)
    if checks:
        return checks.count("ok"), checks.count("FAIL")
    return None


def minutes(seconds):
    return f"{seconds // 60}m{seconds % 60:02d}s"


def main():
    if sys.argv[1] == "count":
        name, status, seconds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        # Whatever bytes a suite printed (an apt log, a crash dump) are read, never refused.
        passed, failed = count(sys.stdin.buffer.read().decode("utf-8", "replace")) or (0, 0)
        if status != 0 and failed == 0:
            failed = 1
        print(f"{name}\t{status}\t{passed}\t{failed}\t{seconds}")
        return
    total_seconds = int(sys.argv[2])
    rows = [line.rstrip("\n").split("\t") for line in sys.stdin if line.strip()]
    width = max([len(row[0]) for row in rows] + [5])
    print("== summary")
    passed = failed = 0
    for name, status, suite_passed, suite_failed, seconds in rows:
        passed, failed = passed + int(suite_passed), failed + int(suite_failed)
        verdict = "ok  " if status == "0" else "FAIL"
        print(f"{verdict} {name:<{width}}  {int(suite_passed):>5} passed {int(suite_failed):>3} failed  {minutes(int(seconds)):>7}")
    print(f"     {'all':<{width}}  {passed:>5} passed {failed:>3} failed  {minutes(total_seconds):>7}")
    print(f"total: {passed} passed, {failed} failed")


if __name__ == "__main__":
    main()
