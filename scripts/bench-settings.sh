#!/usr/bin/env bash
# Settings reach running apps: how long from `locationctl revoke|grant` to the app's authorization
# event, through a real locationd (release build) on a temporary socket and state directory.
#
# corelocation-bench settings-latency is the app (one connection, as CoreLocation keeps one) and
# makes each change as locationctl does (a new connection, the change, the daemon's answer),
# alternately revoking and granting itself. "told" is the change's start to the app's event,
# "answered" to the command's answer; both include the daemon writing the authorization store.
#
# LOAD=N runs N busy loops beside it (this machine has 2 cores: LOAD=2 is a machine as busy as
# `swift test` makes it, when every suite runs at once).
#
# Usage: scripts/bench-settings.sh [CHANGES]      (default 400, after 10 not counted)
# KEEP=1 keeps the temporary directory (the daemon's log) and prints its path.
set -euo pipefail

cd "$(dirname "$0")/.."
CHANGES="${1:-400}"
LOAD="${LOAD:-0}"

source scripts/lib/processes.sh
build_release locationd corelocation-bench locationctl
start_work cl-bench

mkdir -p "$WORK/state"
"$BIN/locationctl" grant "$BIN/corelocation-bench" --state-dir "$WORK/state" >/dev/null
"$BIN/locationd" --socket "$WORK/d.sock" --state-dir "$WORK/state" --source sim:city-drive \
    >"$WORK/daemon.log" 2>&1 &
PIDS+=($!)
if ! wait_for "locationd's socket" 20 test -S "$WORK/d.sock"; then
    cat "$WORK/daemon.log" >&2
    exit 1
fi

for _ in $(seq 1 "$LOAD"); do
    (while :; do :; done) &
    PIDS+=($!)
done

echo "bench-settings: $CHANGES changes, $LOAD busy loops beside" >&2
"$BIN/corelocation-bench" settings-latency --socket "$WORK/d.sock" --changes "$CHANGES"
