#!/usr/bin/env bash
# Geofence evaluation, in the same run on the same seeded fences and fixes:
#   (a) GeofenceEvaluator over FenceIndex (release build of corelocation-bench, one thread);
#   (b) LinearGeofenceScan: every fence judged on every fix (the same transitions, checked);
#   (c) shapely's STRtree (GEOS) via scripts/bench-geofences.py: one query per fix from Python, and
#       all fixes in one vectorised query.
# At 1,000 / 100,000 / 1,000,000 fences (radii 50 m – 2 km), 10 m fixes; REGION world (uniform over
# the Earth's surface) and metro (a 1,000 × 1,000 km square of central Europe); fixes that jump (each
# an unrelated point) and that drive (15 m a fix, as one device moves).
#
# Usage: scripts/bench-geofences.sh [REGION...]      (default: world metro)
# Installs shapely and numpy into .build-bench/geofences-venv (not a project dependency); without
# them the STRtree rows are skipped, and the benchmark says so.
set -euo pipefail

cd "$(dirname "$0")/.."
REGIONS=("$@")
if [ ${#REGIONS[@]} -eq 0 ]; then REGIONS=(world metro); fi

mkdir -p .build-bench
VENV=.build-bench/geofences-venv
PYTHON=python3
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import shapely, numpy" 2>/dev/null; then
    PYTHON="$VENV/bin/python"
elif python3 -m venv "$VENV" >/dev/null 2>&1 && "$VENV/bin/pip" install --quiet shapely numpy >&2; then
    PYTHON="$VENV/bin/python"
else
    echo "bench-geofences: could not install shapely into $VENV; trying the system python3" >&2
fi

swift build -c release --product corelocation-bench >&2
BIN="$(swift build -c release --show-bin-path)"
for region in "${REGIONS[@]}"; do
    for motion in jump drive; do
        echo "== region $region, fixes $motion"
        "$BIN/corelocation-bench" geofences --region "$region" --motion "$motion" --python "$PYTHON" --work .build-bench
    done
done
