#!/usr/bin/env bash
# Fuzzes places.bin — PlacesDatabase.open, its validation, and every query on a file that opens — with
# libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-places.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# scripts/fuzz-modules.sh builds swift-log and LocationPlaces as modules; then the target:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PlacesFileFuzz -I … -L … \
#       Fuzz/PlacesFileFuzz.swift -o .build-fuzz/places-fuzz
# then it runs for RUNS inputs from the seeds of scripts/places/fuzz_seeds.py (the tests' minimal
# database, the same with nearest-place candidates, the head of the real places.bin) and the dictionary
# Fuzz/places.dict. A crash, a sanitizer report or a broken invariant stops it with a non-zero exit and
# leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

scripts/fuzz-modules.sh Logging LocationPlaces
BUILD=.build-fuzz/modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PlacesFileFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationPlaces -lLogging \
    Fuzz/PlacesFileFuzz.swift -o .build-fuzz/places-fuzz

CORPUS="$(mktemp -d)"
SCRATCH="$(mktemp -d)"   # the file each input is written to
trap 'rm -rf "$CORPUS" "$SCRATCH"' EXIT
python3 scripts/places/fuzz_seeds.py "$CORPUS" Sources/LocationPlaces/Resources/places.bin

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
TMPDIR="$SCRATCH" SWIFT_BACKTRACE=enable=no .build-fuzz/places-fuzz -runs="$RUNS" -max_len=8192 -dict=Fuzz/places.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
