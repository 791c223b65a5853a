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

# One product per build: `swift build` keeps only the last of several --product options.
for product in locationd corelocation-bench locationctl; do
    swift build -c release --product "$product" >&2
done
BIN="$(swift build -c release --show-bin-path)"

# Short: a Unix socket path must fit in 107 bytes.
WORK="$(mktemp -d /tmp/cl-bench-XXXXXX)"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "${KEEP:-0}" = 1 ]; then echo "bench-settings: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK/state"
"$BIN/locationctl" grant "$BIN/corelocation-bench" --state-dir "$WORK/state" >/dev/null
"$BIN/locationd" --socket "$WORK/d.sock" --state-dir "$WORK/state" --source sim:city-drive \
    >"$WORK/daemon.log" 2>&1 &
PIDS+=($!)
deadline=$((SECONDS + 20))
until [ -S "$WORK/d.sock" ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        echo "bench-settings: locationd did not start:" >&2
        cat "$WORK/daemon.log" >&2
        exit 1
    fi
    sleep 0.1
done

for _ in $(seq 1 "$LOAD"); do
    (while :; do :; done) &
    PIDS+=($!)
done

echo "bench-settings: $CHANGES changes, $LOAD busy loops beside" >&2
"$BIN/corelocation-bench" settings-latency --socket "$WORK/d.sock" --changes "$CHANGES"
