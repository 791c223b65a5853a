#!/usr/bin/env python3
"""Reference geodesics for LocationGeodesyTests, solved by GeographicLib.

Requires: pip install geographiclib

Writes Tests/LocationGeodesyTests/Fixtures/geodesic-pairs.csv with columns
lat1,lon1,lat2,lon2,s12,azi1,azi2 (degrees, metres) on WGS84, every number
printed with repr() so it round-trips exactly. A fixed seed makes the file
reproducible; rerun after changing the categories below.

The pairs stress the special cases of Karney's algorithm, not just typical
ones: see the category functions for what each covers.
"""

import math
import os
import random
import sys

from geographiclib.geodesic import Geodesic

SEED = 20130102  # any fixed value; changing it changes every pair
G = Geodesic.WGS84
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                   "Tests", "LocationGeodesyTests", "Fixtures", "geodesic-pairs.csv")

rng = random.Random(SEED)


def rand_lat():
    """Latitude uniform in area, so high latitudes are not over-represented."""
    return math.degrees(math.asin(rng.uniform(-1.0, 1.0)))


def rand_lon():
    return rng.uniform(-180.0, 180.0)


def log_uniform(lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def along(lat1, lon1, s):
    """Point 2 at distance s (metres) from point 1 in a random direction."""
    r = G.Direct(lat1, lon1, rng.uniform(-180.0, 180.0), s)
    return r["lat2"], r["lon2"]


def random_global(n):
    return [(rand_lat(), rand_lon(), rand_lat(), rand_lon()) for _ in range(n)]


def by_distance(n, lo, hi):
    pairs = []
    for _ in range(n):
        lat1, lon1 = rand_lat(), rand_lon()
        pairs.append((lat1, lon1) + along(lat1, lon1, log_uniform(lo, hi)))
    return pairs


def near_antipodal(n):
    """Within 1e-9..1 degree of the antipode, exactly antipodal, and on the
    cut locus (lat2 = -lat1), where Newton's method needs the astroid start."""
    pairs = []
    for i in range(n):
        lat1, lon1 = rand_lat(), rand_lon()
        kind = i % 5
        if kind == 0:
            dlat, dlon = 0.0, 0.0
        elif kind == 1:
            dlat, dlon = rng.uniform(-1e-6, 1e-6), rng.uniform(-1e-6, 1e-6)
        elif kind == 2:
            dlat = 0.0
            dlon = rng.choice([-1, 1]) * log_uniform(1e-9, 1.0)
        else:
            dlat = rng.choice([-1, 1]) * log_uniform(1e-9, 1.0)
            dlon = rng.choice([-1, 1]) * log_uniform(1e-9, 1.0)
        pairs.append((lat1, lon1, -lat1 + dlat, lon1 + 180.0 + dlon))
    return pairs


def equatorial_antipodal(n):
    """Both points on (or within 1e-12 deg of) the equator with the longitude
    difference across 180(1 - f) ~ 179.4: the switch from the equator to a
    path over the pole."""
    pairs = []
    for i in range(n):
        lon1 = rand_lon()
        dlon = rng.uniform(179.0, 180.0) if i % 3 else 180.0 - log_uniform(1e-9, 1.0)
        lat1 = 0.0 if i % 4 else rng.uniform(-1e-12, 1e-12)
        lat2 = 0.0 if i % 5 else rng.uniform(-1e-12, 1e-12)
        pairs.append((lat1, lon1, lat2, lon1 + rng.choice([-1, 1]) * dlon))
    return pairs


def polar(n):
    """One or both points at or within 1e-12..1 deg of a pole."""
    pairs = []
    for i in range(n):
        pole = rng.choice([-90.0, 90.0])
        if i % 3 == 0:
            lat1 = pole
        else:
            lat1 = pole - (1 if pole > 0 else -1) * log_uniform(1e-12, 1.0)
        lat2 = rng.choice([pole, -pole]) if i % 4 == 0 else rand_lat()
        pairs.append((lat1, rand_lon(), lat2, rand_lon()))
    return pairs


def antimeridian(n):
    """Points on both sides of ±180, short and long, including longitudes
    given outside [-180, 180]."""
    pairs = []
    for i in range(n):
        lon1 = 180.0 - log_uniform(1e-9, 5.0)
        lon2 = -180.0 + log_uniform(1e-9, 5.0)
        if rng.random() < 0.5:
            lon1, lon2 = -lon1, -lon2
        if i % 10 == 0:
            lon1 += rng.choice([-720.0, -360.0, 360.0, 540.0])
        lat1 = rand_lat()
        lat2 = lat1 + rng.uniform(-1.0, 1.0) if i % 2 else rand_lat()
        pairs.append((lat1, lon1, max(-90.0, min(90.0, lat2)), lon2))
    return pairs


def meridional(n):
    """Same meridian, or opposite meridians (over a pole)."""
    pairs = []
    for i in range(n):
        lon1 = rand_lon()
        lon2 = lon1 if i % 2 else lon1 + rng.choice([-180.0, 180.0])
        lat1 = rand_lat()
        lat2 = lat1 + rng.choice([-1, 1]) * log_uniform(1e-9, 1.0) if i % 3 == 0 else rand_lat()
        pairs.append((lat1, lon1, max(-90.0, min(90.0, lat2)), lon2))
    return pairs


def equatorial(n):
    pairs = []
    for i in range(n):
        lon1 = rand_lon()
        dlon = log_uniform(1e-9, 179.0) if i % 2 else rng.uniform(0.0, 179.0)
        pairs.append((0.0, lon1, 0.0, lon1 + rng.choice([-1, 1]) * dlon))
    return pairs


def coincident(n):
    pairs = [(90.0, 0.0, 90.0, 0.0), (-90.0, 10.0, -90.0, -170.0), (0.0, 0.0, 0.0, 0.0),
             (0.0, 180.0, 0.0, -180.0), (45.0, 180.0, 45.0, -180.0)]
    while len(pairs) < n:
        lat, lon = rand_lat(), rand_lon()
        pairs.append((lat, lon, lat, lon))
    return pairs


def equal_latitudes(n):
    """lat2 = ±lat1 exactly, where the algorithm forces |β₂| = |β₁|."""
    pairs = []
    for i in range(n):
        lat = rand_lat()
        pairs.append((lat, rand_lon(), lat if i % 2 else -lat, rand_lon()))
    return pairs


def main():
    pairs = (random_global(400)
             + by_distance(250, 1e-3, 1e3)        # short: mm to 1 km
             + by_distance(200, 1e3, 1e6)         # medium
             + by_distance(200, 1e6, 1.99e7)      # long
             + near_antipodal(250)
             + equatorial_antipodal(60)
             + polar(150)
             + antimeridian(150)
             + meridional(150)
             + equatorial(100)
             + coincident(40)
             + equal_latitudes(100))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        out.write("lat1,lon1,lat2,lon2,s12,azi1,azi2\n")
        for lat1, lon1, lat2, lon2 in pairs:
            r = G.Inverse(lat1, lon1, lat2, lon2)
            row = (lat1, lon1, lat2, lon2, r["s12"], r["azi1"], r["azi2"])
            out.write(",".join(repr(float(v)) for v in row) + "\n")
    print(f"wrote {len(pairs)} pairs to {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
