#!/usr/bin/env bash
# Fuzzes locationd's socket bytes below the JSON — the frame decoder every client's bytes reach first,
# and the binary locations frames apps read — with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-wire-frames.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# The target links NIOCore as SwiftPM builds it (`swift build --target NIOCore`: nothing to do after the
# package's own build; not instrumented, as NIO is not what is fuzzed here) and LocationProtocol built by
# scripts/fuzz-modules.sh; then:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name WireFramesFuzz -I … \
#       Sources/LocationWire/{WireCodec,WireJSON*,WireMessages}.swift \
#       Fuzz/WireFramesFuzz.swift NIOCore's objects… -o .build-fuzz/wire-frames-fuzz
# then it runs for RUNS inputs from a corpus of framed messages (written below into a temporary
# directory) and the dictionary Fuzz/wire.dict. A crash, a sanitizer report or a broken invariant stops
# it with a non-zero exit and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

swift build --target NIOCore >&2
DEBUG="$(swift build --show-bin-path)"
scripts/fuzz-modules.sh LocationProtocol
BUILD=.build-fuzz/modules

# NIOCore's objects and those of the targets it depends on, and the module maps of its C targets.
objects=()
for target in NIOCore NIOConcurrencyHelpers _NIOBase64 _NIODataStructures Atomics _AtomicsShims DequeModule \
    InternalCollectionsUtilities ContainersPreview CNIOAtomics CNIOLinux CNIODarwin CNIOWindows CNIOOpenBSD \
    CNIOFreeBSD CNIOWASI; do
    while IFS= read -r -d '' object; do objects+=("$object"); done < <(find "$DEBUG/$target.build" -name '*.o' -print0)
done
maps=(-Xcc -fmodule-map-file=.build/checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap)
for map in "$DEBUG"/*.build/module.modulemap; do maps+=(-Xcc "-fmodule-map-file=$map"); done

# ld.gold says it cannot export AddressSanitizer's local symbols, once each: not the project's warnings.
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name WireFramesFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationProtocol -I "$DEBUG/Modules" "${maps[@]}" \
    Sources/LocationWire/WireCodec.swift Sources/LocationWire/WireJSON*.swift \
    Sources/LocationWire/WireMessages.swift Fuzz/WireFramesFuzz.swift \
    "${objects[@]}" -o .build-fuzz/wire-frames-fuzz 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
python3 - "$CORPUS" <<'PY'
import json, math, os, struct, sys

corpus = sys.argv[1]

def frame(kind, payload):
    return struct.pack(">IB", 1 + len(payload), kind) + payload

def message(obj):
    return frame(1, json.dumps(obj, separators=(",", ":")).encode())

def fix(lat, lon, flags=0, floor=0, nan=False):
    values = [lat, lon, 35.0, 82.5, 5.0, 8.0, 13.9, 0.5, 271.0, 4.0, 786000000.25]
    if nan:
        values[2] = math.nan
        values[6] = -1.0
    return struct.pack(">11dBi", *values, flags, floor)

def locations(stream, fixes):
    return frame(2, struct.pack(">IH", stream, len(fixes)) + b"".join(fixes))

seeds = {
    # The first byte of each input picks the chunk size the stream also arrives in.
    "hello": b"\x00" + message({"type": "hello", "version": 6}),
    "session": b"\x07" + message({"type": "hello", "version": 6})
        + message({"type": "startUpdates", "stream": 1, "options": {"distanceFilter": -1, "desiredAccuracy": 10}})
        + message({"type": "stopUpdates", "stream": 1}),
    "locations": b"\x03" + locations(1, [fix(48.8566, 2.3522), fix(48.8567, 2.3523, flags=7, floor=-2)]),
    "locations-nan": b"\x1f" + locations(9, [fix(-33.9, 151.2, flags=1, nan=True)]),
    "mixed": b"\x05" + message({"type": "welcome"}) + locations(2, [fix(0, 0)]) + b"\x00\x00\x00",
    "too-long": b"\x02" + struct.pack(">I", 256 * 1024 + 1) + b"\x01{}",
    "empty-frame": b"\x01" + struct.pack(">I", 0),
    "wrong-count": b"\x04" + frame(2, struct.pack(">IH", 1, 3) + fix(1, 2)),
}
for name, data in seeds.items():
    with open(os.path.join(corpus, name), "wb") as f:
        f.write(data)
PY

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/wire-frames-fuzz -runs="$RUNS" -max_len=4096 -dict=Fuzz/wire.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
