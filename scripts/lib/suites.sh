# Sourced by scripts/test and scripts/test-swift: runs each suite through `suite`, which keeps
# its name, its count of passed and failed checks and its time in $FLOURISH_SUITES, and
# `suites_summary` prints them, one line a suite, and the total, at the end of the run.

suites_parser="$(dirname "${BASH_SOURCE[0]}")/suites.py"

# The run's record: made by the first script of a run, shared with the scripts it calls.
if [[ -z "${FLOURISH_SUITES:-}" ]]; then
    FLOURISH_SUITES=$(mktemp)
    suites_owner=1
    export FLOURISH_SUITES
fi
suites_started=$SECONDS

suite() { # NAME COMMAND... : runs COMMAND as it is, its output also read for its counts
    local name=$1 out status=0 start=$SECONDS
    shift
    out=$(mktemp)
    # Its output is counted once tee is done; its errors go straight on, apart, so that what
    # other processes say there never breaks a line of the tally in two.
    "$@" | tee "$out" || status=$? # pipefail: the command's status, or tee's
    /usr/bin/python3 "$suites_parser" count "$name" "$status" "$((SECONDS - start))" <"$out" >>"$FLOURISH_SUITES" ||
        suite_broken "$name (its output could not be counted)"
    rm -f "$out"
    return "$status"
}

suite_broken() { # NAME: a step that could not run its suite at all counts as one failure
    printf '%s\t1\t0\t1\t0\n' "$1" >>"$FLOURISH_SUITES"
}

suites_summary() { # prints the record, if this script began it, and clears it
    [[ -n "${suites_owner:-}" ]] || return 0
    /usr/bin/python3 "$suites_parser" summary "$((SECONDS - suites_started))" <"$FLOURISH_SUITES"
    rm -f "$FLOURISH_SUITES"
}
