#!/usr/bin/env python3
"""NRIN and NRTS (docs/places-database.md, "Leaves inside one country" and "Leaves in one territorial sea"):
which leaves of the nearest-place candidate trees of mixed cells lie wholly inside their tree's country, or
wholly in its territorial sea beyond the coast's 2 km, so that the reader can take the answer from the leaf
instead of testing the point against the cell's boundaries and searching the coasts around it.

Computed from the sections the reader reads (GRID, CELL, PART, LINE, PNTS, NRCL, NRPT, NRND), so that the
result is what the reader's point in polygon and territorial search answer: build-places-db.py calls
`inside_bits` and `territorial_bits` on the sections it has just made, and run as a script this adds both
sections to an existing file:
    scripts/places/leaf_classes.py places.bin [OUT]
"""

import json
import math
import sys

import numpy as np

from places_file import read_sections, write

COLS, ROWS = 720, 360
CELL = 0.5
SUB = 4
UNITS = 65535
# Boxes are widened by this many 1/65535 of a cell (~0.85 m) before testing them against the boundaries: the
# reader's q is computed in doubles from degrees, a few units in the last place off the box's own edges.
MARGIN = 1.0
TERRITORIAL_M = 22224.0
COAST_TOLERANCE_M = 2000.0
# The reader's metres per degree for distances (PlacesGeometry.metresPerDegree: the mean Earth radius) and the
# generator's for the territorial search's column reach (PlacesGeometry.reachMetresPerDegree).
METRES_PER_DEGREE = 6_371_008.8 * math.pi / 180
REACH_METRES_PER_DEGREE = 111320.0
# Metres a territorial leaf's distance bounds keep from the thresholds, far above the doubles' rounding.
DISTANCE_MARGIN = 1.0


def column_reach(row):
    """Columns either side of a cell in `row` whose cells can hold a point within the territorial distance."""
    poleward = max(abs(-90.0 + row * CELL), abs(-90.0 + (row + 1) * CELL))
    width = CELL * REACH_METRES_PER_DEGREE * math.cos(math.radians(min(poleward, 90.0)))
    if width <= 0:
        return COLS
    return min(COLS, math.ceil(TERRITORIAL_M / width))


class MixedCells:
    """The sections the reader reads, decoded: each mixed cell's parts and its candidate trees' leaves."""

    def __init__(self, grid, cell, part, line, pnts, nrcl, nrpt, nrnd):
        self.grid = np.frombuffer(grid, dtype="<u4")
        self.cells = np.frombuffer(cell, dtype=np.dtype([("first", "<u4"), ("n", "<u2"), ("far", "<u2")]))
        self.parts = np.frombuffer(part, dtype=np.dtype([("ctry", "<u2"), ("inside", "<u2"), ("line", "<u4"),
                                                         ("nl", "<u4")]))
        self.lines = np.frombuffer(line, dtype=np.dtype([("first", "<u4"), ("n", "<u4")]))
        self.points = np.frombuffer(pnts, dtype="<u2").reshape(-1, 2).astype(np.float64)
        self.cell_first = np.frombuffer(nrcl, dtype="<u4")
        self.roots = np.frombuffer(nrpt, dtype=np.dtype([("ctry", "<u2"), ("reserved", "<u2"), ("word", "<u4")]))
        self.nodes = np.frombuffer(nrnd, dtype="<u4").reshape(-1, 4)
        self.bit_bytes = (len(self.nodes) * 4 + 7) // 8
        self._parts = {}

    def mixed(self, index):
        """GRID cell `index`'s CELL record, or None when it is not a mixed cell."""
        entry = int(self.grid[index])
        return self.cells[entry & 0x3FFFFFFF] if entry >> 30 == 2 else None

    def cell_parts(self, index):
        """Mixed cell `index`'s parts: (country, insideMask, segments a×b as an N×4 array in cell units)."""
        if index not in self._parts:
            mixed = self.mixed(index)
            found = []
            for p in range(int(mixed["first"]), int(mixed["first"]) + int(mixed["n"])):
                pieces = []
                for l in range(int(self.parts[p]["line"]), int(self.parts[p]["line"]) + int(self.parts[p]["nl"])):
                    first, count = int(self.lines[l]["first"]), int(self.lines[l]["n"])
                    run = self.points[first:first + count]
                    pieces.append(np.hstack([run[:-1], run[1:]]))
                segments = np.vstack(pieces) if pieces else np.zeros((0, 4))
                found.append((int(self.parts[p]["ctry"]), int(self.parts[p]["inside"]), segments))
            self._parts[index] = found
        return self._parts[index]

    def trees(self):
        """Per mixed cell with candidate trees: (GRID index, CELL record, [(country, leaves)]), a leaf as (node,
        quadrant, box south, west, size in degrees). Trees whose root is a leaf (the whole cell) are left out."""
        for index in np.nonzero((self.grid >> 30) == 2)[0]:
            index = int(index)
            entries = range(int(self.cell_first[index]), int(self.cell_first[index + 1]))
            if not entries:
                continue
            south, west = -90 + (index // COLS) * CELL, -180 + (index % COLS) * CELL
            trees = []
            for entry in entries:
                country, word = int(self.roots[entry]["ctry"]), int(self.roots[entry]["word"])
                if not word >> 31:
                    trees.append((country, self.leaves(word, south, west)))
            yield index, self.mixed(index), trees

    def leaves(self, root, south, west):
        found = []
        stack = [(root, south, west, CELL, 0)]
        while stack:
            node, s, w, size, depth = stack.pop()
            half = size * 0.5
            for quadrant in range(4):
                child = int(self.nodes[node][quadrant])
                cs, cw = s + (half if quadrant >= 2 else 0), w + (half if quadrant & 1 else 0)
                if child >> 31:
                    found.append((node, quadrant, cs, cw, half))
                elif child < len(self.nodes) and depth < 16:
                    stack.append((child, cs, cw, half, depth + 1))
        return found


def inside_bits(grid, cell, part, line, pnts, nrcl, nrpt, nrnd):
    """Bit 4 × node + quadrant set when that child of NRND node `node` is a leaf of a mixed cell's tree whose
    every point the reader's point in polygon puts in the tree's country: no boundary segment of the cell meets
    the leaf's box (widened by MARGIN), and at a point of each sub-cell the box overlaps the reader's test answers
    that country (on one side of no segment, every point of the box shares that answer)."""
    cells = MixedCells(grid, cell, part, line, pnts, nrcl, nrpt, nrnd)
    bits = np.zeros(cells.bit_bytes, dtype=np.uint8)
    flagged = 0
    for index, mixed, trees in cells.trees():
        cell_parts = cells.cell_parts(index)
        every = np.vstack([s for _, _, s in cell_parts]) if cell_parts else np.zeros((0, 4))
        south, west = -90 + (index // COLS) * CELL, -180 + (index % COLS) * CELL
        for country, leaves in trees:
            for node, quadrant, s, w, size in leaves:
                if leaf_inside(cell_parts, every, int(mixed["far"]), country, s - south, w - west, size):
                    bit = 4 * node + quadrant
                    bits[bit >> 3] |= 1 << (bit & 7)
                    flagged += 1
    return bits.tobytes(), flagged


def territorial_bits(grid, cell, part, line, pnts, nrcl, nrpt, nrnd, nrin):
    """Bit 4 × node + quadrant set when that child of NRND node `node` is a leaf of a mixed cell's tree whose
    every point the reader answers as in the territorial sea of the tree's country: outside every part of the
    cell (as `leaf_outside` checks), in no sub-cell of the far mask, and, by the reader's distances, nearer than
    12 nautical miles to that country's boundary, farther than 2 km from every boundary and nearer to that
    country's than to any other's, for every point of the box (`territorial_country`). NRIN's leaves are left
    out (a leaf is one or the other)."""
    cells = MixedCells(grid, cell, part, line, pnts, nrcl, nrpt, nrnd)
    inside = np.frombuffer(nrin, dtype=np.uint8)
    bits = np.zeros(cells.bit_bytes, dtype=np.uint8)
    flagged = 0
    for index, mixed, trees in cells.trees():
        cell_parts = cells.cell_parts(index)
        every = np.vstack([s for _, _, s in cell_parts]) if cell_parts else np.zeros((0, 4))
        row, column = index // COLS, index % COLS
        south, west = -90 + row * CELL, -180 + column * CELL
        coasts = None
        for country, leaves in trees:
            for node, quadrant, s, w, size in leaves:
                bit = 4 * node + quadrant
                if inside[bit >> 3] & (1 << (bit & 7)):
                    continue
                if not leaf_outside(cell_parts, every, int(mixed["far"]), s - south, w - west, size):
                    continue
                if coasts is None:
                    coasts = neighbourhood(cells, row, column)
                if territorial_country(coasts, s, w, size) == country:
                    bits[bit >> 3] |= 1 << (bit & 7)
                    flagged += 1
    return bits.tobytes(), flagged


def neighbourhood(cells, row, column):
    """The boundary segments the reader's territorial search reads for a point of cell (`row`, `column`), in
    degrees (a×b as an N×4 array of longitude, latitude pairs; a neighbour across ±180° shifted by ∓360°, as
    the reader shifts it), with each segment's country."""
    pieces, countries = [], []
    for neighbour_row in (row, row - 1, row + 1):
        if not 0 <= neighbour_row < ROWS:
            continue
        reach = min(column_reach(neighbour_row), COLS // 2)
        south = -90 + neighbour_row * CELL
        for offset in range(-reach, reach + 1):
            if reach == COLS // 2 and offset == reach:
                continue  # the whole row: +360 is -360's column
            unwrapped = column + offset
            wrapped = unwrapped % COLS
            index = neighbour_row * COLS + wrapped
            if cells.mixed(index) is None:
                continue
            west = -180 + unwrapped * CELL
            for country, _, segments in cells.cell_parts(index):
                if len(segments):
                    degrees = segments * (CELL / UNITS)
                    degrees[:, 0::2] += west
                    degrees[:, 1::2] += south
                    pieces.append(degrees)
                    countries.append(np.full(len(segments), country))
    if not pieces:
        return np.zeros((0, 4)), np.zeros(0, dtype=int)
    return np.vstack(pieces), np.concatenate(countries)


def territorial_country(coasts, south, west, size):
    """The country the reader's territorial search names for every point of the box (degrees), beyond
    COAST_TOLERANCE_M of every boundary; None when that is not so for every point.

    The reader measures from each point q in a plane of its own: metres east at cos(q's latitude) ×
    METRES_PER_DEGREE a degree, north at METRES_PER_DEGREE. From the box's centre c, in c's plane each segment's
    distance from a point of the box differs from its distance from c by at most the box's half-diagonal h; q's
    plane is c's with the east axis scaled by cos(q's latitude) / cos(c's), which scales every distance by a
    factor between that ratio and 1. So a segment at d from c is between (1 − ε)(d − h) and (1 + ε)(d + h) from
    every q, with ε the ratio's largest distance from 1 over the box."""
    segments, countries = coasts
    if not len(segments):
        return None
    latitude, longitude = south + size / 2, west + size / 2
    cosine = math.cos(math.radians(latitude))
    if cosine <= 0:
        return None
    x_scale = cosine * METRES_PER_DEGREE
    ax = (segments[:, 0] - longitude) * x_scale
    ay = (segments[:, 1] - latitude) * METRES_PER_DEGREE
    ex = (segments[:, 2] - longitude) * x_scale - ax
    ey = (segments[:, 3] - latitude) * METRES_PER_DEGREE - ay
    length = ex * ex + ey * ey
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(length > 0, -(ax * ex + ay * ey) / length, 0.0)
    t = np.clip(t, 0.0, 1.0)
    distance = np.hypot(ax + t * ex, ay + t * ey)
    nearest = int(np.argmin(distance))
    country = int(countries[nearest])
    own = distance[countries == country].min()
    others = distance[countries != country]
    half_diagonal = math.hypot(size / 2 * x_scale, size / 2 * METRES_PER_DEGREE)
    epsilon = max(abs(math.cos(math.radians(latitude + sign * size / 2)) / cosine - 1) for sign in (-1, 1))
    farthest = (1 + epsilon) * (own + half_diagonal)
    if (1 - epsilon) * (own - half_diagonal) <= COAST_TOLERANCE_M + DISTANCE_MARGIN:
        return None
    if farthest >= TERRITORIAL_M - DISTANCE_MARGIN:
        return None
    if len(others) and farthest >= (1 - epsilon) * (others.min() - half_diagonal) - DISTANCE_MARGIN:
        return None
    return country


def leaf_inside(cell_parts, segments, far_mask, country, south, west, size):
    """Whether the box (degrees from the cell's south-west corner) is wholly in `country` for the reader."""
    samples = sub_cell_samples(segments, south, west, size)
    return samples is not None and all(reader_country(cell_parts, far_mask, qx, qy) == country
                                       for qx, qy, _ in samples)


def leaf_outside(cell_parts, segments, far_mask, south, west, size):
    """Whether the box (degrees from the cell's south-west corner) is wholly outside the cell's parts for the
    reader, in no sub-cell of `far_mask` (where the reader answers without the territorial search)."""
    samples = sub_cell_samples(segments, south, west, size)
    return samples is not None and all(
        not far_mask & (1 << sub_cell) and reader_country(cell_parts, far_mask, qx, qy) is None
        for qx, qy, sub_cell in samples)


def sub_cell_samples(segments, south, west, size):
    """None when a boundary segment of the cell meets the box (degrees from the cell's south-west corner,
    widened by MARGIN); else a point (cell units) of each sub-cell the box overlaps, with the sub-cell's index
    (the reader picks the sub-cell as `reader_country` does): on one side of no segment, the box's every point
    answers as that point does."""
    scale = UNITS / CELL
    x0, x1 = west * scale - MARGIN, (west + size) * scale + MARGIN
    y0, y1 = south * scale - MARGIN, (south + size) * scale + MARGIN
    if len(segments) and meets_box(segments, x0, y0, x1, y1).any():
        return None
    sub = UNITS / SUB
    qx0, qx1, qy0, qy1 = west * scale, (west + size) * scale, south * scale, (south + size) * scale
    samples = []
    for row in range(SUB):
        for column in range(SUB):
            lx, hx = max(qx0, column * sub), min(qx1, (column + 1) * sub)
            ly, hy = max(qy0, row * sub), min(qy1, (row + 1) * sub)
            if lx >= hx or ly >= hy:
                continue
            samples.append(((lx + hx) / 2, (ly + hy) / 2, row * SUB + column))
    return samples


def meets_box(s, x0, y0, x1, y1):
    """Per segment (rows of ax, ay, bx, by): whether it meets the closed box."""
    ax, ay, bx, by = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
    overlap = ((np.maximum(ax, bx) >= x0) & (np.minimum(ax, bx) <= x1)
               & (np.maximum(ay, by) >= y0) & (np.minimum(ay, by) <= y1))
    ex, ey = bx - ax, by - ay
    corners = np.stack([ex * (cy - ay) - ey * (cx - ax) for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))])
    one_side = (corners > 0).all(axis=0) | (corners < 0).all(axis=0)
    return overlap & ~one_side


def reader_country(cell_parts, far_mask, qx, qy):
    """The country the reader's `locate` puts q in (CountryPolygons.swift), or None outside every part."""
    column = min(SUB - 1, int(qx * SUB / UNITS))
    row = min(SUB - 1, int(qy * SUB / UNITS))
    sub_cell = row * SUB + column
    if far_mask & (1 << sub_cell):
        for country, inside, _ in cell_parts:
            if inside & (1 << sub_cell):
                return country
        return None
    size = UNITS / SUB
    cx, cy = (column + 0.5) * size, (row + 0.5) * size
    dx, dy = cx - qx, cy - qy
    for country, inside, s in cell_parts:
        ax, ay, bx, by = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
        a_side = dx * (ay - qy) - dy * (ax - qx) > 0
        b_side = dx * (by - qy) - dy * (bx - qx) > 0
        ex, ey = bx - ax, by - ay
        q_side = ex * (qy - ay) - ey * (qx - ax) > 0
        c_side = ex * (cy - ay) - ey * (cx - ax) > 0
        odd = bool(np.count_nonzero((a_side != b_side) & (q_side != c_side)) & 1)
        if odd != bool(inside & (1 << sub_cell)):
            return country
    return None


def main():
    source = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else source
    sections = [(tag, data) for tag, data in read_sections(source) if tag not in (b"NRIN", b"NRTS")]
    by_tag = dict(sections)
    read = [by_tag[t] for t in (b"GRID", b"CELL", b"PART", b"LINE", b"PNTS", b"NRCL", b"NRPT", b"NRND")]
    inside, inside_count = inside_bits(*read)
    print(f"NRIN: {inside_count:,} leaves inside one country, {len(inside):,} bytes")
    territorial, territorial_count = territorial_bits(*read, inside)
    print(f"NRTS: {territorial_count:,} leaves in one territorial sea, {len(territorial):,} bytes")
    # META records them as the builder does.
    meta = json.loads(by_tag[b"META"])
    meta.setdefault("nearest_candidates", {})["leaves inside one country"] = inside_count
    meta["nearest_candidates"]["leaves in one territorial sea"] = territorial_count
    sections = [(tag, json.dumps(meta, sort_keys=True).encode() if tag == b"META" else data) for tag, data in sections]
    write(out, sections + [(b"NRIN", inside), (b"NRTS", territorial)])


if __name__ == "__main__":
    main()
