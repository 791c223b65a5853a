#!/usr/bin/env bash
# Fuzzes the NMEA decoder with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-nmea.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# It compiles Fuzz/NMEADecoderFuzz.swift together with Sources/LocationNMEA/*.swift:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NMEAFuzz \
#       Sources/LocationNMEA/*.swift Fuzz/NMEADecoderFuzz.swift -o .build-fuzz/nmea-fuzz
# then runs it for RUNS inputs (-runs=RUNS) from a corpus seeded with the test fixtures (copied to a
# temporary directory: the repository is never written, except .build-fuzz/) and the dictionary
# Fuzz/nmea.dict. A crash, a sanitizer report or a broken invariant stops it with a non-zero exit
# and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

mkdir -p .build-fuzz
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NMEAFuzz \
    Sources/LocationNMEA/*.swift Fuzz/NMEADecoderFuzz.swift -o .build-fuzz/nmea-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
cp Tests/LocationNMEATests/Fixtures/*.nmea "$CORPUS/"
# Single epochs of each fixture too: small seeds mutate faster than whole files.
for fixture in Tests/LocationNMEATests/Fixtures/*.nmea; do
    split -l 8 -d "$fixture" "$CORPUS/$(basename "$fixture" .nmea)-part-"
done

.build-fuzz/nmea-fuzz -runs="$RUNS" -max_len=4096 -dict=Fuzz/nmea.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
