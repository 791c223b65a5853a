"""Seeds for Fuzz/PlacesFileFuzz.swift (scripts/fuzz-places.sh): small places databases in the target's
section-list form (tag, u32 length, bytes; GRID and NRCL as (cell, value) pairs), and the head of the
real places.bin as a whole file.

The minimal database is the one the tests build (Tests/LocationPlacesTests/PlacesFileBuilder.swift): one
country "TL" with one place, Alpha, at 10.1°N 10.1°E in a whole-country cell, and a mixed cell east of
it cut by one line. The second seed adds nearest-place candidates for Alpha's cell and NRIN.

Usage: python3 scripts/places/fuzz_seeds.py CORPUS_DIR [PLACES_BIN]"""

import math
import os
import struct
import sys


def cell_index(latitude, longitude):
    return int((latitude + 90) * 2) * 720 + int((longitude + 180) * 2)


def minimal_sections():
    strings = bytearray()

    def string(text):
        ref = len(strings)
        data = text.encode()
        strings.extend(struct.pack("<H", len(data)) + data)
        return ref

    country, zone, region = string("Testland"), string("Etc/UTC"), string("North Region")
    county, name, key = string("Alpha County"), string("Alpha"), string("alpha")
    phi, lam = math.radians(10.1), math.radians(10.1)
    vector = (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))
    alpha = cell_index(10.1, 10.1)
    grid = struct.pack("<II", alpha, 1 << 30) + struct.pack("<II", cell_index(10.1, 10.6), 2 << 30)
    return [
        (b"META", b'{"test": true}'),
        (b"STRS", bytes(strings)),
        (b"CTRY", b"TL" + struct.pack("<HIII", 0, country, 0, 1)),
        (b"TZNS", struct.pack("<I", zone)),
        (b"ADM1", struct.pack("<HHI", 0, 0, region)),
        (b"ADM2", struct.pack("<HHI", 0, 0, county)),
        (b"PLCE", struct.pack("<fffBBHIIHHI", *vector, 0, 0, 0, 5000, name, 0, 0, 0)),
        (b"PAD2", struct.pack("<H", 0)),
        (b"NIDX", struct.pack("<II", key, 0)),
        (b"GRID", grid),
        (b"CELL", struct.pack("<IHH", 0, 1, 0)),
        (b"PART", struct.pack("<HHII", 0, 0xFF71, 0, 1)),
        (b"LINE", struct.pack("<II", 0, 2)),
        (b"PNTS", struct.pack("<HHHH", 0, 0, 65535, 32767)),
    ], alpha


def with_candidates(sections, alpha):
    leaf = (1 << 31) | (1 << 28)  # one candidate, NRCA[0]
    return sections + [
        # Cells up to Alpha's start at root 0; from the next cell on, at 1 (= NRPT's count).
        (b"NRCL", struct.pack("<II", 0, 0) + struct.pack("<II", alpha + 1, 1)),
        (b"NRPT", struct.pack("<HHI", 0, 0, 0)),
        (b"NRND", struct.pack("<IIII", leaf, leaf, leaf, leaf)),
        (b"NRCA", struct.pack("<H", 0)),
        (b"NRIN", bytes([0b0101])),
    ]


def section_list(sections):
    return b"".join(tag + struct.pack("<I", len(data)) + data for tag, data in sections)


def main():
    corpus = sys.argv[1]
    sections, alpha = minimal_sections()
    with open(os.path.join(corpus, "minimal"), "wb") as f:
        f.write(section_list(sections))
    with open(os.path.join(corpus, "candidates"), "wb") as f:
        f.write(section_list(with_candidates(sections, alpha)))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "rb") as real, open(os.path.join(corpus, "real-head"), "wb") as f:
            f.write(real.read(4096))


if __name__ == "__main__":
    main()
