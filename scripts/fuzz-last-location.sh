#!/usr/bin/env bash
# Fuzzes the plaintext of the daemon's last-location file (what LastLocationStore reads once the
# sealed file has opened) with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-last-location.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# scripts/fuzz-modules.sh builds LocationProtocol (the Fix it holds) as a module; then the target:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name LastLocationFuzz -I … -L … \
#       Sources/LocationPersistence/LastLocationFileFormat.swift Fuzz/LastLocationFuzz.swift \
#       -o .build-fuzz/last-location-fuzz
# then it runs for RUNS inputs from a corpus of saved fixes (written into a temporary directory) and
# the dictionary Fuzz/last-location.dict. The sealing is left out: a file that opens is exactly what
# reaches the decoder. A crash, a sanitizer report or a broken invariant stops it with a non-zero exit
# and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

scripts/fuzz-modules.sh LocationProtocol
BUILD=.build-fuzz/modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name LastLocationFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationProtocol \
    Sources/LocationPersistence/LastLocationFileFormat.swift Fuzz/LastLocationFuzz.swift \
    -o .build-fuzz/last-location-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { printf '%s' "$2" > "$CORPUS/$1.json"; }
seed full '{"version":1,"fix":{"latitude":59.3293,"longitude":18.0686,"altitude":28.5,"ellipsoidalAltitude":51.25,"horizontalAccuracy":4.2,"verticalAccuracy":6,"speed":1.5,"speedAccuracy":0.3,"course":271.5,"courseAccuracy":8,"timestamp":786000000.125,"isSimulated":false,"isProducedByAccessory":true,"floor":3}}'
seed sentinels '{"version":1,"fix":{"latitude":-90,"longitude":180,"altitude":0,"ellipsoidalAltitude":0,"horizontalAccuracy":65,"verticalAccuracy":-1,"speed":-1,"speedAccuracy":-1,"course":-1,"courseAccuracy":-1,"timestamp":-978307200,"isSimulated":true,"isProducedByAccessory":false}}'
seed nonfinite '{"version":1,"fix":{"latitude":0,"longitude":0,"altitude":"nan","ellipsoidalAltitude":"+inf","horizontalAccuracy":1e308,"verticalAccuracy":"-inf","speed":5e-324,"speedAccuracy":-0.0,"course":0,"courseAccuracy":0,"timestamp":0,"isSimulated":false,"isProducedByAccessory":false,"floor":-2147483648}}'
seed future '{"version":2,"fix":{}}'

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/last-location-fuzz -runs="$RUNS" -max_len=1024 -dict=Fuzz/last-location.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
