#!/usr/bin/env bash
# Memory under a flooding receiver: a loopback peer (scripts/flood-peer.py) that sends either one
# endless line (no newline ever) or valid reports as fast as the kernel takes them, to
#   locationctl watch --source nmea:tcp://127.0.0.1:PORT   and   --source gpsd://127.0.0.1:PORT
#   locationd --source …  (the same two sources, with one app streaming locations, so the source runs)
# For each case the peak resident set (VmHWM of /proc/PID/status) of locationctl or locationd is
# printed in MB with PASS or FAIL against the limit. Exit status 1 when a case fails.
#
# Usage: scripts/flood-sources.sh [SECONDS] [LIMIT_MB]     (default 60 s per case, 64 MB)
# Builds release locationctl, locationd and corelocation-bench (the app), or takes all three from
# BIN_DIR (to measure another build). Needs python3. KEEP=1 keeps the logs and prints where.
# CASES="watch-nmea-endless …" runs only the named cases (see the list at the end).
set -euo pipefail

cd "$(dirname "$0")/.."
DURATION="${1:-60}"
LIMIT_MB="${2:-64}"

if ! command -v python3 >/dev/null 2>&1; then
    echo "flood-sources: python3 is missing (it runs the flooding peer)" >&2
    exit 1
fi

source scripts/lib/processes.sh
if [ -n "${BIN_DIR:-}" ]; then
    BIN="$BIN_DIR"
else
    build_release locationctl locationd corelocation-bench
fi
start_work cl-flood

# start_peer DIR PROTOCOL FLOOD: the flooding peer for DURATION (+ a margin); sets PEER_PORT.
start_peer() {
    python3 scripts/flood-peer.py --protocol "$2" --flood "$3" --seconds $((DURATION + 15)) \
        --port-file "$1/peer.port" 2>"$1/peer.log" &
    PIDS+=($!)
    wait_for "the flooding peer" 10 test -s "$1/peer.port"
    PEER_PORT="$(cat "$1/peer.port")"
}

# watch_memory PID SECONDS: samples the process every 0.2 s; prints its VmHWM in kB at the end (or
# the last one seen, if it died), and "died" when it did not live through the window.
watch_memory() {
    local pid="$1" limit="$2" hwm=0 value deadline=$((SECONDS + $2))
    while [ "$SECONDS" -lt "$deadline" ]; do
        value="$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
        if [ -z "$value" ]; then
            echo "$hwm died"
            return
        fi
        hwm="$value"
        sleep 0.2
    done
    echo "$hwm alive"
}

# report CASE KB STATE: one result line.
FAILED=0
report() {
    local name="$1" kb="$2" state="$3" mb verdict
    mb="$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')"
    verdict=PASS
    if [ "$state" != alive ] || awk -v kb="$kb" -v limit="$LIMIT_MB" 'BEGIN { exit !(kb / 1024 >= limit) }'; then
        verdict=FAIL
        FAILED=1
    fi
    printf '%-22s peak RSS %7s MB over %s s  %s%s\n' "$name" "$mb" "$DURATION" "$verdict" \
        "$([ "$state" = alive ] || echo " (the process exited early: see $WORK/$name)")"
}

spec_for() {
    if [ "$1" = nmea ]; then echo "nmea:tcp://127.0.0.1:$2"; else echo "gpsd://127.0.0.1:$2"; fi
}

# run_watch PROTOCOL FLOOD: locationctl watch against the peer, its output thrown away.
run_watch() {
    local name="watch-$1-$2" dir="$WORK/watch-$1-$2"
    mkdir -p "$dir"
    start_peer "$dir" "$1" "$2"
    "$BIN/locationctl" watch --source "$(spec_for "$1" "$PEER_PORT")" >/dev/null 2>"$dir/watch.log" &
    local pid=$!
    PIDS+=("$pid")
    local result
    result="$(watch_memory "$pid" "$DURATION")"
    stop_run
    report "$name" ${result}
}

# run_daemon PROTOCOL FLOOD: locationd with the peer as its only source and one app streaming.
run_daemon() {
    local name="locationd-$1-$2" dir="$WORK/d-$1-$2"
    mkdir -p "$dir/state"
    "$BIN/locationctl" grant "$BIN/corelocation-bench" --state-dir "$dir/state" >/dev/null
    start_peer "$dir" "$1" "$2"
    "$BIN/locationd" --socket "$dir/d.sock" --state-dir "$dir/state" --source "$(spec_for "$1" "$PEER_PORT")" \
        >"$dir/daemon.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    wait_for "locationd's socket" 20 test -S "$dir/d.sock"
    # The app keeps the source running; it outlives the window.
    "$BIN/corelocation-bench" locationd-clients --socket "$dir/d.sock" --clients 1 \
        --seconds $((DURATION + 10)) --out /dev/null >"$dir/app.log" 2>&1 &
    PIDS+=($!)
    local result
    result="$(watch_memory "$pid" "$DURATION")"
    stop_run
    report "$name" ${result}
}

ALL_CASES="watch-nmea-endless watch-nmea-valid watch-gpsd-endless watch-gpsd-valid \
locationd-nmea-endless locationd-nmea-valid locationd-gpsd-endless locationd-gpsd-valid"
echo "flood-sources: ${DURATION} s per case, limit ${LIMIT_MB} MB (VmHWM)" >&2
for name in ${CASES:-$ALL_CASES}; do
    IFS=- read -r program protocol flood <<<"$name"
    case "$program" in
        watch) run_watch "$protocol" "$flood" ;;
        locationd) run_daemon "$protocol" "$flood" ;;
        *) echo "flood-sources: unknown case $name" >&2; exit 2 ;;
    esac
done
exit "$FAILED"
