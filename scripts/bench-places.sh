#!/usr/bin/env bash
# Reverse geocoding, in the same run on the same points:
#   (a) LocationPlaces (release build of corelocation-bench: the database memory-mapped, one thread);
#   (b) the same, through the batch reverseGeocode(_:threads:_:) (answered in spatial order; the sort is timed
#       too), on one thread and on every core;
#   (c) PyPI reverse_geocoder 1.5.1 (k-d tree over GeoNames cities1000), which answers a list of points, as
#       (b) does: mode=1 (one process) against (a) and the batch on one thread, and the faster of mode 1 and
#       its default, mode=2 (a process a core), against the batch on every core.
# Workloads (seeded, kept in .build-bench/): 1,000,000 points uniform over the Earth's surface, and 1,000,000
# points within ~20 km of GeoNames places (nearly all on land: every query finds a locality).
# Also: localityKey and populationNear (10 km) on the same points (corelocation-bench places --keys / --density);
# time from process start to the first answer (locationctl reverse, linked as usual and with
# --static-swift-stdlib, corelocation-bench places-once,
# python -c 'import reverse_geocoder; search(...)'), and each run's peak memory (GNU time's max RSS).
#
# Usage: scripts/bench-places.sh [POINTS]      (default 1000000)
# Installs reverse_geocoder into .build-bench/places-venv (not a project dependency).
set -euo pipefail

cd "$(dirname "$0")/.."
POINTS="${1:-1000000}"

if [ ! -x /usr/bin/time ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq time >/dev/null
fi

mkdir -p .build-bench
VENV=.build-bench/places-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import reverse_geocoder" 2>/dev/null; then
    echo "bench-places: installing reverse_geocoder into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet numpy scipy reverse_geocoder==1.5.1
fi

swift build -c release --product corelocation-bench >&2
swift build -c release --product locationctl >&2
BIN="$(swift build -c release --show-bin-path)"
# locationctl as README's installation builds it: the Swift runtime and Foundation linked in (a build of its own).
swift build -c release --product locationctl --static-swift-stdlib --build-path .build-static >&2
STATIC_BIN="$(swift build -c release --static-swift-stdlib --build-path .build-static --show-bin-path)"

"$VENV/bin/python" scripts/bench-places.py --points "$POINTS" --bin "$BIN" --static-bin "$STATIC_BIN" \
    --work .build-bench
