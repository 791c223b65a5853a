#!/usr/bin/env python3
"""Cross-checks places.bin's grid answers against the Natural Earth polygons themselves (shapely).

Random points uniform over the Earth; for each, the reader's polygon country (corelocation-bench
places-polygons) must be the polygon's country when shapely finds the point inside one, and none when the
point is more than 23 km from every boundary outside all polygons. Points between (coast tolerance,
territorial sea) are counted, not judged. Run with the generator's venv:
    build-places-db.sh's packages + swift build -c release --product corelocation-bench
Usage: check-polygons.py BENCH_BINARY [COUNT]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import shapely

sys.path.insert(0, os.path.dirname(__file__))
import importlib.util
spec = importlib.util.spec_from_file_location("build", os.path.join(os.path.dirname(__file__), "build-places-db.py"))
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)


def main():
    bench = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rng = np.random.default_rng(7)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, count)))
    lon = rng.uniform(-180, 180, count)
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "points.f64")
        np.stack([lat, lon], axis=1).astype("<f8").tofile(path)
        subprocess.run([bench, "places-polygons", path, path + ".codes"], check=True)
        ours = np.fromfile(path + ".codes", dtype="S2")

    features, _ = build.load_polygons()
    cities, _ = build.load_places()
    parts, codes = [], []
    for code, name, geom in features:
        for poly in shapely.get_parts(geom):
            parts.append(poly)
            codes.append(code)
    # The generator's choice for features without a code (see build-places-db.py).
    fixed = {"Dhekelia": "CY", "Akrotiri": "CY", "Guantanamo Bay USNB": "CU"}
    names = [name for code, name, geom in features for _ in shapely.get_parts(geom)]
    codes = [fixed.get(n, c) if (not c or c.startswith("-")) else c for c, n in zip(codes, names)]
    tree = shapely.STRtree(parts)
    points = shapely.points(lon, lat)
    truth = np.array([b"--"] * count, dtype="S2")
    p_idx, q_idx = tree.query(points, predicate="within")
    for p, q in zip(p_idx, q_idx):
        if not codes[q].startswith("-"):
            truth[p] = codes[q].encode()
    outside = truth == b"--"
    boundaries = shapely.STRtree([shapely.boundary(g) for g in parts])
    # 0.21° of latitude is 23.4 km; in longitude, scaled by the point's latitude (conservatively poleward).
    reach = 0.21 / np.cos(np.radians(np.minimum(89.5, np.abs(lat[outside]) + 0.3)))
    near_p, _ = boundaries.query(points[outside], predicate="dwithin", distance=reach)
    maybe_near = np.zeros(outside.sum(), dtype=bool)
    maybe_near[near_p] = True
    far_sea = np.where(outside)[0][~maybe_near]

    inside = ~outside
    land_wrong = np.sum(ours[inside] != truth[inside])
    sea_wrong = np.sum(ours[far_sea] != b"--")
    print(f"{count:,} points: {inside.sum():,} inside a polygon, {land_wrong} answered another country; "
          f"{len(far_sea):,} far out at sea, {sea_wrong} given a country; "
          f"{outside.sum() - len(far_sea):,} near a coast not judged")
    sys.exit(1 if land_wrong or sea_wrong else 0)


if __name__ == "__main__":
    main()
