#!/usr/bin/env bash
# Soak: one locationd serving a simulated day at warp speed with every service active, while APPS
# apps connect and disconnect, and its memory and descriptors sampled throughout:
#
#   scripts/soak-locationd.sh [MINUTES] [APPS]      (default 10 minutes, 100 apps)
#
# The daemon runs `sim:city-drive` at SPEED simulated seconds a second (default 144: a day in ten
# minutes; its heading comes with it) and three simulated iBeacons along the route. Each app is
# `corelocation-example` hard-linked into a folder of its own with its own bundle identifier, granted
# Always, and runs again and again for 5–30 s at a time (SIGTERM), each time one of: the standard
# service, region monitoring (two fences on the route), heading, significant change, visits, or
# beacon ranging (`--service`). Every 5 s the script records the daemon's RSS (VmRSS) and its open
# descriptors (/proc/PID/fd); scripts/soak-report.py then fits a line through the samples after the
# first fifth (start-up and first-connection growth) and checks every app run's output: fixes and
# headings never go back in time or repeat, every run got its service's events.
#
# SANITIZE=address builds locationd with AddressSanitizer (into .build-asan) and fails when
# LeakSanitizer reports a leak at the daemon's exit (scripts/soak-locationd.lsan.supp: the one
# suppression, weak references' side tables, says why). KEEP=1 keeps the work folder and prints it.
set -euo pipefail

cd "$(dirname "$0")/.."
MINUTES="${1:-10}"
APPS="${2:-100}"
SPEED="${SPEED:-144}"
BEACON_UUID=E2C56DB5-DFFB-48D2-B060-D0F5A71096E0

for product in locationd locationctl corelocation-example; do
    swift build -c release --product "$product" >&2
done
BIN="$(swift build -c release --show-bin-path)"
LOCATIOND="$BIN/locationd"
if [ "${SANITIZE:-}" = address ]; then
    swift build -c debug --product locationd --scratch-path .build-asan -Xswiftc -sanitize=address >&2
    LOCATIOND="$(swift build -c debug --scratch-path .build-asan --show-bin-path)/locationd"
fi

WORK="$(mktemp -d /tmp/cl-soak-XXXXXX)"
cleanup() {
    pkill -TERM -P $$ 2>/dev/null || true
    if [ -n "${KEEP:-}" ]; then echo "soak: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
SOCKET="$WORK/d.sock"

# city-drive's first point: beacons and fences where the simulated car passes.
ROUTE_POINT="$(CORELOCATION_DAEMON_SOCKET=none "$BIN/locationctl" locate --source "sim:city-drive" --json 2>/dev/null | head -1 |
    python3 -c 'import json,sys; f=json.loads(sys.stdin.read()); print("%.6f,%.6f" % (f["latitude"], f["longitude"]))')"
LAT="${ROUTE_POINT%,*}"
LON="${ROUTE_POINT#*,}"
SOURCES=(--source "sim:city-drive?speed=$SPEED")
for minor in 1 2 3; do
    SOURCES+=(--source "beacon:$BEACON_UUID,7,$minor,-59@$(python3 -c "print(f'{$LAT + $minor * 0.0005:.6f},{$LON:.6f}')")")
done

export CORELOCATION_DAEMON_SOCKET="$SOCKET"
LSAN_OPTIONS="exitcode=23:suppressions=$PWD/scripts/soak-locationd.lsan.supp" "$LOCATIOND" --socket "$SOCKET" --state-dir "$WORK/state" --log-level warning \
    "${SOURCES[@]}" >"$WORK/locationd.log" 2>&1 &
DAEMON=$!
for _ in $(seq 100); do [ -S "$SOCKET" ] && break; sleep 0.1; done
[ -S "$SOCKET" ] || { cat "$WORK/locationd.log" >&2; echo "soak: locationd did not start" >&2; exit 1; }

SERVICES=(standard regions heading significant visits ranging)
for i in $(seq "$APPS"); do
    dir="$WORK/apps/app$i"
    mkdir -p "$dir"
    ln "$BIN/corelocation-example" "$dir/corelocation-example"
    cat >"$dir/Info.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>com.example.soak$i</string>
<key>NSLocationWhenInUseUsageDescription</key><string>Soak test.</string>
<key>NSLocationAlwaysAndWhenInUseUsageDescription</key><string>Soak test.</string>
</dict></plist>
PLIST
    "$BIN/locationctl" grant "com.example.soak$i" --always >/dev/null
done

# One app: runs of 5–30 s until the end, each run's output in its own file.
run_app() {
    local i=$1 end=$2 run=0
    local service=${SERVICES[$(((i - 1) % ${#SERVICES[@]}))]}
    local args
    case "$service" in
        standard) args=(1000000000 --timestamps) ;;
        regions) args=(--regions --monitor "$LAT,$LON,300,start$i" --monitor "$(python3 -c "print(f'{$LAT + 0.01:.6f},{$LON:.6f}')"),500,north$i") ;;
        ranging) args=(--service "ranging:$BEACON_UUID") ;;
        *) args=(--service "$service") ;;
    esac
    while [ "$(date +%s)" -lt "$end" ]; do
        run=$((run + 1))
        timeout -s TERM $((5 + RANDOM % 26)) "$WORK/apps/app$i/corelocation-example" "${args[@]}" \
            >"$WORK/runs/$service.app$i.run$run.out" 2>>"$WORK/runs/app$i.err" || true
    done
}

mkdir -p "$WORK/runs"
START=$(date +%s)
END=$((START + MINUTES * 60))
for i in $(seq "$APPS"); do run_app "$i" "$END" & done

echo "seconds,rss_kib,fds" >"$WORK/samples.csv"
while [ "$(date +%s)" -lt "$END" ]; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$DAEMON/status")
    fds=$(ls "/proc/$DAEMON/fd" | wc -l)
    echo "$(($(date +%s) - START)),$rss,$fds" >>"$WORK/samples.csv"
    sleep 5
done
wait $(jobs -p | grep -v "^$DAEMON\$") 2>/dev/null || true
kill -TERM "$DAEMON"
status=0
wait "$DAEMON" || status=$?

python3 scripts/soak-report.py "$WORK" "$MINUTES" "$APPS" "$SPEED"
if [ "$status" -eq 23 ] || grep -q "LeakSanitizer" "$WORK/locationd.log"; then
    grep -A30 "LeakSanitizer" "$WORK/locationd.log" >&2
    echo "soak: LeakSanitizer reported a leak in locationd" >&2
    exit 1
fi
[ "$status" -eq 0 ] || { tail -20 "$WORK/locationd.log" >&2; echo "soak: locationd exited with $status" >&2; exit 1; }
