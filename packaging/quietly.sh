#!/usr/bin/env bash
# quietly.sh COMMAND [ARG...]: run the command with its output held back, and show that output
# only if the command fails, with its status. A build step that worked has nothing to say
# (pip's notices and warnings, PyInstaller's progress, a validator's "all fine"); one that
# failed shows all it said, and the build stops with its status.
set -uo pipefail
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
"$@" >"$output" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
    cat "$output" >&2
    echo "failed with status $status: $*" >&2
fi
exit "$status"
