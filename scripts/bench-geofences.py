#!/usr/bin/env python3
"""Geofence candidates with shapely's STRtree (GEOS), for `corelocation-bench geofences`.

Same fences and fixes as the Swift benchmark (little-endian float64 files it writes: lat, lon,
radius per fence; lat, lon per fix). Method: one envelope per fence in degrees, from the same
conservative bounds as FenceIndex (latitude ± r/ρ, ρ = a(1 − e²); longitude ± r/(a cos φmax); a box
over a pole spans all longitudes, one over ±180° is split in two), bulk-loaded into an STRtree.
Each fix queries the tree with its own envelope (margin k·a), then keeps the candidates whose
chord (Earth-centred coordinates, numpy) is within radius + margin and judges them like
FenceJudge (inside if chord + k·a ≤ r, outside if chord − k·a ≥ r). The per-fence state machine
is left out, so the timing is the index query and the filter alone.

Timed two ways: a Python loop of one `tree.query(box)` per fix (how a service would use it), and
one vectorised `tree.query(boxes)` for all fixes (GEOS's own speed, without Python per fix).
Memory: resident-set growth while the envelopes and the tree are built, per fence.
Exits with status 3 when shapely or numpy is missing.
"""
import argparse
import sys
import time

try:
    import numpy as np
    import shapely
    from shapely import STRtree
except ImportError as error:  # the Swift benchmark reports the skip
    print(f"bench-geofences.py: SHAPELY MISSING ({error}): pip install shapely numpy", file=sys.stderr)
    sys.exit(3)

A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)
RHO = A * (1 - E2)
K = 4.5
SLACK = 1e-9


def ecef(lat, lon):
    phi, lam = np.radians(lat), np.radians(lon)
    n = A / np.sqrt(1 - E2 * np.sin(phi) ** 2)
    return np.stack([n * np.cos(phi) * np.cos(lam), n * np.cos(phi) * np.sin(lam), n * (1 - E2) * np.sin(phi)], axis=1)


def envelopes(lat, lon, reach):
    """Boxes (xmin, ymin, xmax, ymax) in degrees and the index of the circle each belongs to."""
    dlat = np.degrees(reach / RHO) + SLACK
    south, north = np.maximum(-90, lat - dlat), np.minimum(90, lat + dlat)
    poleward = np.maximum(np.abs(lat - dlat), np.abs(lat + dlat))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = reach / (A * np.cos(np.radians(np.minimum(poleward, 90))))
    full = (poleward >= 90) | (ratio >= np.pi)
    dlon = np.where(full, 180, np.degrees(np.where(full, 0, ratio)) + SLACK)
    west, east = np.where(full, -180, lon - dlon), np.where(full, 180, lon + dlon)
    owner = np.arange(len(lat))
    boxes = [np.stack([np.maximum(west, -180), south, np.minimum(east, 180), north], axis=1)]
    owners = [owner]
    wraps_west, wraps_east = west < -180, east > 180
    if wraps_west.any():
        boxes.append(np.stack([west[wraps_west] + 360, south[wraps_west], np.full(wraps_west.sum(), 180.0), north[wraps_west]], axis=1))
        owners.append(owner[wraps_west])
    if wraps_east.any():
        boxes.append(np.stack([np.full(wraps_east.sum(), -180.0), south[wraps_east], east[wraps_east] - 360, north[wraps_east]], axis=1))
        owners.append(owner[wraps_east])
    return np.concatenate(boxes), np.concatenate(owners)


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fences", required=True)
    parser.add_argument("--fixes", required=True)
    parser.add_argument("--accuracy", type=float, default=10)
    parser.add_argument("--loop-fixes", type=int, default=50_000)
    args = parser.parse_args()
    fences = np.fromfile(args.fences, dtype="<f8").reshape(-1, 3)
    fixes = np.fromfile(args.fixes, dtype="<f8").reshape(-1, 2)[1:]
    margin = K * args.accuracy
    n = len(fences)

    before = rss()
    boxes, owners = envelopes(fences[:, 0], fences[:, 1], fences[:, 2])
    geometries = shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3])
    tree = STRtree(geometries)
    tree.query(shapely.box(0, 0, 0, 0))  # STRtree builds lazily: build it now
    grown = rss() - before
    centres = ecef(fences[:, 0], fences[:, 1])
    radii = fences[:, 2]

    qboxes, qowners = envelopes(fixes[:, 0], fixes[:, 1], np.full(len(fixes), margin))
    qgeoms = shapely.box(qboxes[:, 0], qboxes[:, 1], qboxes[:, 2], qboxes[:, 3])
    points = ecef(fixes[:, 0], fixes[:, 1])

    # One query per fix from Python (a fix's split envelope, if any, is queried too).
    per_fix = {}
    for g, o in zip(qgeoms, qowners):
        per_fix.setdefault(int(o), []).append(g)
    count = min(args.loop_fixes, len(fixes))
    decided = 0
    start = time.perf_counter()
    for i in range(count):
        hits = np.unique(owners[np.concatenate([tree.query(g) for g in per_fix[i]])])
        if len(hits):
            chord = np.linalg.norm(centres[hits] - points[i], axis=1)
            near = chord <= radii[hits] + margin
            decided += int(np.count_nonzero(chord[near] + margin <= radii[hits][near]))
    loop_ns = (time.perf_counter() - start) * 1e9 / count

    # All fixes in one vectorised query.
    start = time.perf_counter()
    qi, ti = tree.query(qgeoms)
    fix_index, fence_index = qowners[qi], owners[ti]
    chord = np.linalg.norm(centres[fence_index] - points[fix_index], axis=1)
    near = chord <= radii[fence_index] + margin
    inside = int(np.count_nonzero(chord[near] + margin <= radii[fence_index][near]))
    bulk_ns = (time.perf_counter() - start) * 1e9 / len(fixes)

    print(f"RESULT impl=shapely-STRtree-loop fences={n} fixes={count} ns_per_fix={loop_ns:.1f} "
          f"rss_bytes_per_fence={grown / n:.1f} inside_decisions={decided} "
          f"note=one_query_per_fix_from_Python;_shapely_{shapely.__version__}_GEOS_{shapely.geos_version_string}")
    print(f"RESULT impl=shapely-STRtree-bulk fences={n} fixes={len(fixes)} ns_per_fix={bulk_ns:.1f} "
          f"rss_bytes_per_fence={grown / n:.1f} inside_decisions={inside} "
          f"note=all_fixes_in_one_vectorised_query_(no_per-fix_Python)")


if __name__ == "__main__":
    main()
