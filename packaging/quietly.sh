#!/usr/bin/env bash
# quietly.sh COMMAND [ARG...]: run the command with its output held back, and show that output
# only if the command fails, with its status. A build step that worked has nothing to say
# (pip's notices and warnings, PyInstaller's progress, a validator's "all fine"); one that
# failed shows all it said, and the build stops with its status.
#
# A step that runs long is not silent meanwhile: every QUIETLY_HEARTBEAT seconds (15 unless
# set) one line says which step is still running and for how long, so a build that takes
# minutes is seen to be working. A step that ends sooner prints nothing.
set -uo pipefail
interval="${QUIETLY_HEARTBEAT:-15}"
# The step by its program: "python -m PyInstaller ..." is PyInstaller, "dpkg-deb ..." dpkg-deb.
if [ "$#" -ge 3 ] && [ "$2" = "-m" ]; then
    step="$3"
else
    step="$(basename "$1")"
fi
output="$(mktemp)"
heartbeat=""
finish() {
    # Only the step's own shell cleans up: a subshell that ran this on its way out would take
    # the output away before it is shown.
    [ "$BASHPID" = "$$" ] || return 0
    [ -n "$heartbeat" ] && kill "$heartbeat" 2>/dev/null && wait "$heartbeat" 2>/dev/null
    rm -f "$output"
}
trap finish EXIT

elapsed() {
    local seconds=$(($(date +%s) - started))
    if [ "$seconds" -ge 60 ]; then
        echo "$((seconds / 60)) min $((seconds % 60)) s"
    else
        echo "$seconds s"
    fi
}

started="$(date +%s)"
(
    trap - EXIT
    # Its sleep is ended with it, so no stray sleep outlives the step.
    nap=""
    trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null; exit 0' TERM
    while true; do
        sleep "$interval" &
        nap=$!
        wait "$nap"
        echo "  … $step is still running ($(elapsed))"
    done
) &
heartbeat=$!

"$@" >"$output" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
    kill "$heartbeat" 2>/dev/null && wait "$heartbeat" 2>/dev/null
    heartbeat=""
    cat "$output" >&2
    echo "failed with status $status: $*" >&2
fi
exit "$status"
