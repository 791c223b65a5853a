#!/usr/bin/env bash
# Fuzzes the plaintext of persisted fence files (each app's fences and pending events, as FenceStore
# reads them once the sealed file has opened) with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-fences.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# The format's files in LocationPersistence use Foundation and LocationProtocol only (the sealing, with
# swift-crypto, and the store are in other files), so the target compiles them into its own module
# against LocationProtocol built as a static library:
#   swiftc -emit-module -emit-library -static -parse-as-library -sanitize=fuzzer,address -O \
#       -module-name LocationProtocol Sources/LocationProtocol/*.swift   (into .build-fuzz/fences/)
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FenceFileFuzz \
#       -I .build-fuzz/fences -L .build-fuzz/fences -lLocationProtocol \
#       Sources/LocationPersistence/{FenceFileFormat,FenceFileDTOs,FenceFileError,StoredFences,StrictDecoding}.swift \
#       Fuzz/FenceFileFuzz.swift -o .build-fuzz/fences-fuzz
# then runs it for RUNS inputs (-runs=RUNS) from a corpus of valid files and near misses (written
# below into a temporary directory: the repository is never written, except .build-fuzz/) and the
# dictionary Fuzz/fences.dict. A crash, a sanitizer report or a broken invariant stops it with a
# non-zero exit and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

BUILD=.build-fuzz/fences
mkdir -p "$BUILD"
swiftc -emit-module -emit-library -static -parse-as-library -sanitize=fuzzer,address -O \
    -module-name LocationProtocol -emit-module-path "$BUILD/LocationProtocol.swiftmodule" \
    Sources/LocationProtocol/*.swift -o "$BUILD/libLocationProtocol.a"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FenceFileFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationProtocol \
    Sources/LocationPersistence/FenceFileFormat.swift Sources/LocationPersistence/FenceFileDTOs.swift \
    Sources/LocationPersistence/FenceFileError.swift Sources/LocationPersistence/StoredFences.swift \
    Sources/LocationPersistence/StrictDecoding.swift Fuzz/FenceFileFuzz.swift -o .build-fuzz/fences-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { printf '%s' "$2" > "$CORPUS/$1.json"; }

circle='{"assumedState":"unknown","condition":{"kind":"circle","latitude":52.520008,"longitude":13.404954,"radius":150},"identifier":"home","lastEvent":{"date":786000000.123456,"issue":"denied","state":"inside"},"notifyOnEntry":true,"notifyOnExit":false}'
beacon='{"assumedState":"outside","condition":{"kind":"beacon","major":7,"minor":65535,"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"identifier":"door","lastEvent":{"date":0,"state":"unmonitored","issue":"unsupported"},"notifyOnEntry":true,"notifyOnExit":true}'
anyBeacon='{"assumedState":"inside","condition":{"kind":"beacon","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0"},"identifier":"lobby","lastEvent":{"date":-1e9,"state":"outside"},"notifyOnEntry":false,"notifyOnExit":true}'
edge='{"assumedState":"unmonitored","condition":{"kind":"circle","latitude":-90,"longitude":180,"radius":5e-324},"identifier":"caf\u00e9 \u65e5\u672c","lastEvent":{"date":-0.0,"issue":"persistenceUnavailable","state":"unknown"},"notifyOnEntry":false,"notifyOnExit":false}'
pending='{"date":786000001,"identifier":"home","state":"outside"},{"date":786000061.5,"identifier":"gone","issue":"limitExceeded","state":"inside"}'
file() { printf '{"app":"%s","format":"corelocation.fences","groups":[%s],"version":1}' "$1" "$2"; }

seed regions "$(file org.example.maps "{\"fences\":[$circle],\"kind\":\"regions\",\"pending\":[$pending]}")"
seed monitor "$(file /usr/bin/where "{\"fences\":[$beacon,$anyBeacon],\"kind\":\"monitor\",\"name\":\"Work\",\"pending\":[]}")"
seed both "$(file org.example.maps "{\"fences\":[$circle,$edge],\"kind\":\"regions\",\"pending\":[]},{\"fences\":[$beacon],\"kind\":\"monitor\",\"name\":\"Caf\\u00e9 \\\"q\\\"\",\"pending\":[$pending]}")"
seed only-pending "$(file a "{\"fences\":[],\"kind\":\"monitor\",\"name\":\"m\",\"pending\":[$pending]}")"
seed no-groups "$(file org.example.maps "")"
# Near misses: each is refused for one reason.
seed future '{"app":"a","format":"corelocation.fences","groups":[],"version":2}'
seed other-format '{"app":"a","format":"corelocation.policy","groups":[],"version":1}'
seed duplicate "$(file a "{\"fences\":[$circle,$circle],\"kind\":\"regions\",\"pending\":[]}")"
seed two-regions "$(file a "{\"fences\":[$circle],\"kind\":\"regions\",\"pending\":[]},{\"fences\":[$beacon],\"kind\":\"regions\",\"pending\":[]}")"
seed empty-group "$(file a "{\"fences\":[],\"kind\":\"regions\",\"pending\":[]}")"
seed unknown-field '{"app":"a","extra":1,"format":"corelocation.fences","groups":[],"version":1}'

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/fences-fuzz -runs="$RUNS" -max_len=4096 -dict=Fuzz/fences.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
