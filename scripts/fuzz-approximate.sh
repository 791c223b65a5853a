#!/usr/bin/env bash
# Fuzzes the plaintext of persisted approximate-location files (each app's history, as
# ApproximationStore reads it once the sealed file has opened) with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-approximate.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# The format's files use Foundation only, so the target compiles them with the fuzz entry point:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ApproximationFileFuzz \
#       Sources/LocationPersistence/{ApproximationFileFormat,StoredApproximation,StrictDecoding}.swift \
#       Fuzz/ApproximationFileFuzz.swift -o .build-fuzz/approximate-fuzz
# then runs it for RUNS inputs from a corpus of valid files and near misses (written into a
# temporary directory) and the dictionary Fuzz/approximate.dict. A crash, a sanitizer report or a
# broken invariant stops it with a non-zero exit and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

mkdir -p .build-fuzz
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ApproximationFileFuzz \
    Sources/LocationPersistence/ApproximationFileFormat.swift Sources/LocationPersistence/StoredApproximation.swift \
    Sources/LocationPersistence/StrictDecoding.swift \
    Fuzz/ApproximationFileFuzz.swift -o .build-fuzz/approximate-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { printf '%s' "$2" > "$CORPUS/$1.json"; }

current='{"latitude":52.5170369,"longitude":13.3888599,"radius":2345.5,"region":"deadbeef0042","simulated":true,"timestamp":786000000.25}'
seed full "{\"app\":\"org.example.weather\",\"current\":$current,\"format\":\"corelocation.approximate\",\"reports\":[785999000,786000000.5],\"version\":1}"
seed empty '{"app":"/usr/bin/where","format":"corelocation.approximate","reports":[],"version":1}'
seed edge '{"app":"caf\u00e9","current":{"latitude":-90,"longitude":180,"radius":5e-324,"region":"ffffffffffffffff","simulated":false,"timestamp":-0.0},"format":"corelocation.approximate","reports":[-1e9,-1e9,0],"version":1}'
# Near misses: each is refused for one reason.
seed future '{"app":"a","format":"corelocation.approximate","reports":[],"version":2}'
seed unordered '{"app":"a","format":"corelocation.approximate","reports":[2,1],"version":1}'
seed unknown '{"app":"a","format":"corelocation.approximate","more":1,"reports":[],"version":1}'
seed hex '{"app":"a","current":{"latitude":0,"longitude":0,"radius":1,"region":"0x1","simulated":false,"timestamp":0},"format":"corelocation.approximate","reports":[],"version":1}'

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/approximate-fuzz -runs="$RUNS" -max_len=2048 -dict=Fuzz/approximate.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
