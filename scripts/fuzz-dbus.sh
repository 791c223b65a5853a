#!/usr/bin/env bash
# Fuzzes the reading of D-Bus messages (what the bus delivers to the D-Bus sources) with libFuzzer and
# AddressSanitizer:
#
#   scripts/fuzz-dbus.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# It compiles Fuzz/DBusMessageFuzz.swift with the libdbus-facing files of Sources/LocationDBus against
# libdbus-1 (needs libdbus-1-dev):
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name DBusFuzz -I Sources/CDBus \
#       $(pkg-config --cflags dbus-1 as -Xcc flags) -ldbus-1 Sources/LocationDBus/{…}.swift \
#       Fuzz/DBusMessageFuzz.swift -o .build-fuzz/dbus-fuzz
# then writes a seed corpus of marshalled messages (the harness does, given DBUS_FUZZ_SEEDS) to a
# temporary directory and runs RUNS inputs (-runs=RUNS) with the dictionary Fuzz/dbus.dict. A crash,
# a sanitizer report or a broken invariant stops it with a non-zero exit and leaves the input in
# .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

if ! pkg-config --exists dbus-1; then
    echo "fuzz-dbus: libdbus-1-dev is not installed (apt-get install libdbus-1-dev)" >&2
    exit 1
fi
cflags=()
for flag in $(pkg-config --cflags dbus-1); do cflags+=(-Xcc "$flag"); done

mkdir -p .build-fuzz
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name DBusFuzz -I Sources/CDBus "${cflags[@]}" -ldbus-1 \
    Sources/LocationDBus/DBusValue.swift Sources/LocationDBus/DBusFailure.swift Sources/LocationDBus/DBusMessages.swift \
    Sources/LocationDBus/DBusProperties.swift Sources/LocationDBus/DBusNames.swift \
    Sources/LocationDBus/DBusArgumentReader.swift Sources/LocationDBus/DBusArgumentWriter.swift \
    Fuzz/DBusMessageFuzz.swift -o .build-fuzz/dbus-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
DBUS_FUZZ_SEEDS="$CORPUS" .build-fuzz/dbus-fuzz -runs=0 -artifact_prefix=.build-fuzz/ >/dev/null 2>&1 || {
    echo "fuzz-dbus: writing the seed corpus failed" >&2
    exit 1
}

.build-fuzz/dbus-fuzz -runs="$RUNS" -max_len=4096 -dict=Fuzz/dbus.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
