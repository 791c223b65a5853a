#!/usr/bin/env bash
# Fuzzes the iBeacon advertisement decoder with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-beacon.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# It builds LocationProtocol (for BeaconIdentity) with scripts/fuzz-modules.sh and compiles
# Fuzz/IBeaconFuzz.swift together with the decoder:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name IBeaconFuzz \
#       -I .build-fuzz/modules -L .build-fuzz/modules -lLocationProtocol \
#       Sources/LocationSources/Beacons/IBeaconAdvertisement.swift Fuzz/IBeaconFuzz.swift -o .build-fuzz/beacon-fuzz
# then runs it for RUNS inputs (-runs=RUNS) from a corpus of published advertisements (written to a
# temporary directory: the repository is never written, except .build-fuzz/). A crash, a sanitizer
# report or a broken invariant stops it with a non-zero exit and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

scripts/fuzz-modules.sh LocationProtocol
BUILD=.build-fuzz/modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name IBeaconFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationProtocol \
    Sources/LocationSources/Beacons/IBeaconAdvertisement.swift Fuzz/IBeaconFuzz.swift -o .build-fuzz/beacon-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { printf '%s' "$2" | xxd -r -p > "$CORPUS/$1"; }
# The advertisements the decoder's tests take from open-source beacon projects (see
# Tests/LocationSourcesTests/Beacons/IBeaconAdvertisementTests.swift for where each comes from).
seed beacontools-ibeacon 0201061aff4c0002154142434445464748494041424344454600010002f8
seed beacontools-cypress 0201041aff4c0002150005000100001000800000805f9b013100026c66c3
seed librebeacon 02011a1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000000000c5
seed multi-beacon 02011a1aff4c00021583256b7478d043a4826905f9dc8a44ba00100020c6
seed payload 0215e2c56db5dffb48d2b060d0f5a71096e000000000c5
# Not iBeacons: an AltBeacon (Android Beacon Library's tests) and an Eddystone UID (beacontools').
seed altbeacon 02011a1aff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c5000000
seed eddystone 0201060303aafe1716aafe00e3123456789012346789010000000000010000

.build-fuzz/beacon-fuzz -runs="$RUNS" -max_len=64 -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
