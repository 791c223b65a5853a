#!/usr/bin/env python3
"""NRIN (docs/places-database.md, "Leaves inside one country"): which leaves of the nearest-place candidate
trees of mixed cells lie wholly inside their tree's country, so that the reader can take the country from the
leaf instead of testing the point against the cell's boundaries.

Computed from the sections the reader reads (GRID, CELL, PART, LINE, PNTS, NRCL, NRPT, NRND), so that the
result is what the reader's point in polygon answers: build-places-db.py calls `inside_bits` on the sections it
has just made, and run as a script it adds the section to an existing file:
    scripts/places/leaf_classes.py places.bin [OUT]
"""

import json
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


def inside_bits(grid, cell, part, line, pnts, nrcl, nrpt, nrnd):
    """Bit 4 × node + quadrant set when that child of NRND node `node` is a leaf of a mixed cell's tree whose
    every point the reader's point in polygon puts in the tree's country: no boundary segment of the cell meets
    the leaf's box (widened by MARGIN), and at a point of each sub-cell the box overlaps the reader's test answers
    that country (on one side of no segment, every point of the box shares that answer)."""
    grid = np.frombuffer(grid, dtype="<u4")
    cells = np.frombuffer(cell, dtype=np.dtype([("first", "<u4"), ("n", "<u2"), ("far", "<u2")]))
    parts = np.frombuffer(part, dtype=np.dtype([("ctry", "<u2"), ("inside", "<u2"), ("line", "<u4"), ("nl", "<u4")]))
    lines = np.frombuffer(line, dtype=np.dtype([("first", "<u4"), ("n", "<u4")]))
    points = np.frombuffer(pnts, dtype="<u2").reshape(-1, 2).astype(np.float64)
    cell_first = np.frombuffer(nrcl, dtype="<u4")
    roots = np.frombuffer(nrpt, dtype=np.dtype([("ctry", "<u2"), ("reserved", "<u2"), ("word", "<u4")]))
    nodes = np.frombuffer(nrnd, dtype="<u4").reshape(-1, 4)
    bits = np.zeros((len(nodes) * 4 + 7) // 8, dtype=np.uint8)
    flagged = 0
    for index in np.nonzero((grid >> 30) == 2)[0]:
        index = int(index)
        entries = range(int(cell_first[index]), int(cell_first[index + 1]))
        if not entries:
            continue
        mixed = cells[grid[index] & 0x3FFFFFFF]
        cell_parts = []  # (country, insideMask, segments a×b as an N×4 array)
        for p in range(int(mixed["first"]), int(mixed["first"]) + int(mixed["n"])):
            pieces = []
            for l in range(int(parts[p]["line"]), int(parts[p]["line"]) + int(parts[p]["nl"])):
                first, count = int(lines[l]["first"]), int(lines[l]["n"])
                run = points[first:first + count]
                pieces.append(np.hstack([run[:-1], run[1:]]))
            segments = np.vstack(pieces) if pieces else np.zeros((0, 4))
            cell_parts.append((int(parts[p]["ctry"]), int(parts[p]["inside"]), segments))
        every = np.vstack([s for _, _, s in cell_parts]) if cell_parts else np.zeros((0, 4))
        south, west = -90 + (index // COLS) * CELL, -180 + (index % COLS) * CELL
        for entry in entries:
            country, word = int(roots[entry]["ctry"]), int(roots[entry]["word"])
            if word >> 31:
                continue  # a root leaf is the whole cell, which its boundaries cross
            leaves = []  # (node, quadrant, box south, west, size in degrees)
            stack = [(word, south, west, CELL, 0)]
            while stack:
                node, s, w, size, depth = stack.pop()
                half = size * 0.5
                for quadrant in range(4):
                    child = int(nodes[node][quadrant])
                    cs, cw = s + (half if quadrant >= 2 else 0), w + (half if quadrant & 1 else 0)
                    if child >> 31:
                        leaves.append((node, quadrant, cs, cw, half))
                    elif child < len(nodes) and depth < 16:
                        stack.append((child, cs, cw, half, depth + 1))
            for node, quadrant, s, w, size in leaves:
                if leaf_inside(cell_parts, every, int(mixed["far"]), country, s - south, w - west, size):
                    bit = 4 * node + quadrant
                    bits[bit >> 3] |= 1 << (bit & 7)
                    flagged += 1
    return bits.tobytes(), flagged


def leaf_inside(cell_parts, segments, far_mask, country, south, west, size):
    """Whether the box (degrees from the cell's south-west corner) is wholly in `country` for the reader."""
    scale = UNITS / CELL
    x0, x1 = west * scale - MARGIN, (west + size) * scale + MARGIN
    y0, y1 = south * scale - MARGIN, (south + size) * scale + MARGIN
    if len(segments) and meets_box(segments, x0, y0, x1, y1).any():
        return False
    # One point of each sub-cell the box overlaps (the reader picks the sub-cell as below).
    sub = UNITS / SUB
    qx0, qx1, qy0, qy1 = west * scale, (west + size) * scale, south * scale, (south + size) * scale
    for row in range(SUB):
        for column in range(SUB):
            lx, hx = max(qx0, column * sub), min(qx1, (column + 1) * sub)
            ly, hy = max(qy0, row * sub), min(qy1, (row + 1) * sub)
            if lx >= hx or ly >= hy:
                continue
            qx, qy = (lx + hx) / 2, (ly + hy) / 2
            if reader_country(cell_parts, far_mask, qx, qy) != country:
                return False
    return True


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
    sections = [(tag, data) for tag, data in read_sections(source) if tag != b"NRIN"]
    by_tag = dict(sections)
    bits, flagged = inside_bits(*(by_tag[t] for t in (b"GRID", b"CELL", b"PART", b"LINE", b"PNTS", b"NRCL", b"NRPT",
                                                      b"NRND")))
    print(f"NRIN: {flagged:,} leaves inside one country, {len(bits):,} bytes")
    # META records it as the builder does.
    meta = json.loads(by_tag[b"META"])
    meta.setdefault("nearest_candidates", {})["leaves inside one country"] = flagged
    sections = [(tag, json.dumps(meta, sort_keys=True).encode() if tag == b"META" else data) for tag, data in sections]
    write(out, sections + [(b"NRIN", bits)])


if __name__ == "__main__":
    main()
