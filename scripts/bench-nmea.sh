#!/usr/bin/env bash
# NMEA decoding throughput, in the same run on the same log:
#   (a) gpsd's gpsdecode (JSON TPV/SKY reports on stdout, its default), reading stdin;
#   (b) locationctl decode --json FILE (release build), one JSON line per fix;
#   (c) the LocationNMEA decoder alone, in memory (corelocation-bench nmea).
# The log comes from scripts/generate-nmea-log.py (deterministic: a car at 1 Hz, GGA GSA 3×GSV RMC
# VTG per epoch) and is kept in .build-bench/ for the next run.
#
# Usage: scripts/bench-nmea.sh [SIZE_MB]        (default 100)
# Needs gpsdecode (Debian: apt-get install gpsd-clients; installed here if missing) and python3.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB="${1:-100}"
SEED=1

if ! command -v gpsdecode >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "bench-nmea: installing gpsd-clients (gpsdecode)" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gpsd-clients >/dev/null
fi

mkdir -p .build-bench
LOG=".build-bench/nmea-${SIZE_MB}mb-seed${SEED}.log"
if [ ! -s "$LOG" ]; then
    echo "bench-nmea: generating $LOG" >&2
    python3 scripts/generate-nmea-log.py --size-mb "$SIZE_MB" --seed "$SEED" "$LOG.tmp"
    mv "$LOG.tmp" "$LOG"
fi

swift build -c release --product locationctl >&2
swift build -c release --product corelocation-bench >&2
BIN="$(swift build -c release --show-bin-path)"

cat "$LOG" >/dev/null  # into the page cache before anything is timed

# Timing and arithmetic in Python (wall clock, best of N runs: the machine is shared).
python3 - "$LOG" "$BIN" <<'PY'
import re, subprocess, sys, time

log, bin_dir = sys.argv[1], sys.argv[2]
size = len(open(log, "rb").read())
sentences = sum(1 for line in open(log, "rb") if line.startswith(b"$"))

def best_of(runs, command, stdin=None):
    best = float("inf")
    for _ in range(runs):
        source = open(stdin, "rb") if stdin else subprocess.DEVNULL
        start = time.perf_counter()
        subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
        if stdin:
            source.close()
    return best

gpsdecode = ["gpsdecode"]
locationctl = [bin_dir + "/locationctl", "decode", "--json", log]
print(f"log: {log}, {size} bytes, {sentences} sentences")
tpv = subprocess.run(gpsdecode, stdin=open(log, "rb"), capture_output=True, check=True).stdout.count(b'"class":"TPV"')
ours = subprocess.run(locationctl, capture_output=True, check=True).stdout.count(b"\n")
print(f"fixes: gpsdecode {tpv} TPV reports, locationctl decode --json {ours} lines")

t_gpsd = best_of(2, gpsdecode, stdin=log)
t_ours = best_of(5, locationctl)
bench = subprocess.run([bin_dir + "/corelocation-bench", "nmea", log, "--repeat", "5"],
                       capture_output=True, check=True, text=True).stdout.strip()
fields = dict(re.findall(r"(\w+)=(\S+)", bench))
t_dec = float(fields["seconds"])

def row(name, t):
    print(f"{name:28} {t:8.3f} s {sentences / t:12,.0f} sentences/s {size / t / 1e6:8.1f} MB/s")

row("gpsdecode < log", t_gpsd)
row("locationctl decode --json", t_ours)
row("decoder alone (in memory)", t_dec)
print(f"ratio locationctl/gpsdecode: {t_gpsd / t_ours:.1f}x   (targets: >= 20x, decoder >= 300 MB/s)")
print(bench)
PY
