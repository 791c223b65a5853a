#!/usr/bin/env bash
# Fan-out: one 10 Hz receiver, one daemon, many clients. Latency from the receiver's write to each
# client's receipt (p50, p99, max) and the daemon's CPU, for locationd and, in the same run, gpsd.
#
# Both daemons read the same feeder (scripts/nmea-feeder.py: GGA + RMC per epoch over TCP, each
# write's wall-clock time logged) as a network NMEA source, one daemon after the other, for the
# same duration; the first WARMUP seconds after every client is connected are not measured. (The
# feeder stands in for gpsfake so that the send time of every epoch is known exactly.)
#   locationd --source nmea:tcp://…  + corelocation-bench locationd-clients (N connections, 1 process)
#   gpsd -N -n -b tcp://…            + N `gpspipe -w -uu` processes (receive timestamps in µs)
# gpsd accepts at most 64 clients (Debian 3.22's compile-time limit; the 65th is told "no
# subscriber slots available"), so gpsd runs with min(N, 64) and locationd also runs with that N.
# CPU: utime + stime of the daemon (/proc/PID/stat) over the window ÷ the window's wall time.
# Memory: the daemon's RSS at the window's end, and for locationd what each client added to the RSS
# it had a second after start, before any client.
# The "floor" row is the same clients against an ideal server (corelocation-bench fanout-floor): the
# latency the kernel and the clients themselves add; locationd's own share is the difference.
#
# Usage: scripts/bench-locationd.sh [CLIENTS] [SECONDS]      (default 1000 clients, 30 s)
# Needs python3, and gpsd + gpspipe for the comparison (Debian: apt-get install gpsd gpsd-clients).
# KEEP=1 keeps the temporary directory (logs, raw deliveries) and prints its path; CLIENT_THREADS=T
# gives the NIO clients T event loop threads (default 1); CLIENT_IO=nio|epoll picks the clients' I/O
# (default epoll: one plain epoll thread, ~40% less client CPU per fix than NIO at 100 clients).
set -euo pipefail

cd "$(dirname "$0")/.."
CLIENTS="${1:-1000}"
DURATION="${2:-30}"
WARMUP=3
GPSD_MAX_CLIENTS=64

if ! command -v python3 >/dev/null 2>&1; then
    echo "bench-locationd: python3 is missing (it runs the NMEA feeder and the analysis)" >&2
    exit 1
fi
RUN_GPSD=1
for tool in gpsd gpspipe; do
    if ! command -v "$tool" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$tool" ]; then
        echo "bench-locationd: $tool is missing (Debian: apt-get install gpsd gpsd-clients); gpsd is not measured" >&2
        RUN_GPSD=0
    fi
done
GPSD="$(command -v gpsd || echo /usr/sbin/gpsd)"

source scripts/lib/processes.sh
build_release locationd corelocation-bench locationctl
start_work cl-bench

# start_feeder DIR: the 10 Hz receiver; sets FEED_PORT.
start_feeder() {
    python3 scripts/nmea-feeder.py --log "$1/feed.tsv" --port-file "$1/feed.port" 2>"$1/feeder.log" &
    PIDS+=($!)
    wait_for "the NMEA feeder" 10 test -s "$1/feed.port"
    FEED_PORT="$(cat "$1/feed.port")"
}

# measure_window DIR PID: after the warm-up, the daemon's CPU counters at both ends of the window.
measure_window() {
    sleep "$WARMUP"
    echo "$(date +%s%N) $(cat "/proc/$2/stat")" >"$1/window.txt"
    sleep "$DURATION"
    echo "$(date +%s%N) $(cat "/proc/$2/stat")" >>"$1/window.txt"
}

clients_ready() { grep -q '^ready ' "$1"; }
process_alive() { kill -0 "$1" 2>/dev/null; }

# run_clients DIR N DAEMON_PID: corelocation-bench's N clients on DIR/d.sock, the window measured.
run_clients() {
    local dir="$1" n="$2" daemon="$3"
    "$BIN/corelocation-bench" locationd-clients --socket "$dir/d.sock" --clients "$n" \
        --seconds $((WARMUP + DURATION + 2)) --threads "${CLIENT_THREADS:-1}" --io "${CLIENT_IO:-epoll}" \
        --out "$dir/deliveries.tsv" >"$dir/clients.out" 2>&1 &
    local clients=$!
    PIDS+=("$clients")
    if ! wait_for "$n clients to be welcomed" 120 clients_ready "$dir/clients.out"; then
        cat "$dir/clients.out" "$dir/daemon.log" >&2
        return 1
    fi
    measure_window "$dir" "$daemon"
    if ! wait "$clients"; then
        echo "bench-locationd: the clients failed:" >&2
        cat "$dir/clients.out" >&2
        return 1
    fi
}

run_locationd() {
    local n="$1" dir="$WORK/locationd-$1"
    mkdir -p "$dir/state"
    echo "bench-locationd: locationd, $n clients, ${DURATION} s" >&2
    "$BIN/locationctl" grant "$BIN/corelocation-bench" --state-dir "$dir/state" >/dev/null
    start_feeder "$dir"
    "$BIN/locationd" --socket "$dir/d.sock" --state-dir "$dir/state" \
        --source "nmea:tcp://127.0.0.1:$FEED_PORT" >"$dir/daemon.log" 2>&1 &
    local daemon=$!
    PIDS+=("$daemon")
    wait_for "locationd's socket" 20 test -S "$dir/d.sock"
    sleep 1  # its first fixes: the memory of a daemon at work, before any client
    cat "/proc/$daemon/stat" >"$dir/idle.stat"
    run_clients "$dir" "$n" "$daemon"
    stop_run
    python3 scripts/bench-locationd-report.py row --daemon locationd --clients "$n" --idle "$dir/idle.stat" \
        --feeder "$dir/feed.tsv" --window "$dir/window.txt" --locationd "$dir/deliveries.tsv" >>"$WORK/rows.jsonl"
}

# The same clients against the cheapest possible server (corelocation-bench fanout-floor: one
# write(2) per client per fix, nothing else): what the kernel and the clients cost by themselves.
run_floor() {
    local n="$1" dir="$WORK/floor-$1"
    mkdir -p "$dir"
    echo "bench-locationd: ideal fan-out server (floor), $n clients, ${DURATION} s" >&2
    start_feeder "$dir"
    "$BIN/corelocation-bench" fanout-floor --socket "$dir/d.sock" --feed "$FEED_PORT" --clients "$n" \
        >"$dir/daemon.log" 2>&1 &
    local daemon=$!
    PIDS+=("$daemon")
    wait_for "the floor server's socket" 20 test -S "$dir/d.sock"
    run_clients "$dir" "$n" "$daemon"
    stop_run
    python3 scripts/bench-locationd-report.py row --daemon floor --clients "$n" \
        --feeder "$dir/feed.tsv" --window "$dir/window.txt" --locationd "$dir/deliveries.tsv" >>"$WORK/rows.jsonl"
}

all_gpspipes_reporting() {
    local file
    for file in "$1"/gpspipe-*.json; do grep -q '"TPV"' "$file" || return 1; done
}

run_gpsd() {
    local n="$1" dir="$WORK/gpsd-$1"
    mkdir -p "$dir"
    echo "bench-locationd: gpsd, $n gpspipe clients, ${DURATION} s" >&2
    start_feeder "$dir"
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # -N foreground, -n read the receiver without waiting for a client, -b never write to it.
    "$GPSD" -N -n -b -S "$port" "tcp://127.0.0.1:$FEED_PORT" >"$dir/daemon.log" 2>&1 &
    local daemon=$!
    PIDS+=("$daemon")
    wait_for "gpsd's port" 20 python3 -c "import socket; socket.create_connection(('127.0.0.1', $port)).close()"
    local i
    for ((i = 0; i < n; i++)); do
        gpspipe -w -uu -x $((WARMUP + DURATION + 2)) "127.0.0.1:$port" >"$dir/gpspipe-$i.json" 2>&1 &
        PIDS+=($!)
    done
    if ! wait_for "$n gpspipe clients to get a fix" 60 all_gpspipes_reporting "$dir"; then
        echo "bench-locationd: some gpspipe clients get no fixes (they count as undelivered):" >&2
        grep -c "no subscriber slots" "$dir/daemon.log" >&2 || true
    fi
    process_alive "$daemon" || { cat "$dir/daemon.log" >&2; return 1; }
    measure_window "$dir" "$daemon"
    sleep 2  # the gpspipes stop by themselves (-x)
    stop_run
    python3 scripts/bench-locationd-report.py row --daemon gpsd --clients "$n" \
        --feeder "$dir/feed.tsv" --window "$dir/window.txt" --gpspipe "$dir"/gpspipe-*.json >>"$WORK/rows.jsonl"
}

# The clients' process holds a descriptor per client (locationd raises its own limit at start).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ $((CLIENTS + 64)) -gt "$(ulimit -n)" ]; then
    echo "bench-locationd: $CLIENTS clients need $((CLIENTS + 64)) descriptors; the limit here is $(ulimit -n)" >&2
    exit 1
fi

EQUAL_N=$((CLIENTS < GPSD_MAX_CLIENTS ? CLIENTS : GPSD_MAX_CLIENTS))
run_locationd "$CLIENTS"
run_floor "$CLIENTS"
if [ "$RUN_GPSD" = 1 ]; then
    if [ "$EQUAL_N" -ne "$CLIENTS" ]; then run_locationd "$EQUAL_N"; fi
    run_gpsd "$EQUAL_N"
fi

echo
echo "Fan-out at 10 Hz, ${DURATION} s measured after ${WARMUP} s of warm-up; latency = receiver write -> client receipt"
python3 scripts/bench-locationd-report.py table "$WORK/rows.jsonl"
