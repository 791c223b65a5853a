#!/usr/bin/env bash
# Builds modules for the fuzz targets that need them, instrumented like the targets (libFuzzer +
# AddressSanitizer), as static libraries in .build-fuzz/modules:
#
#   scripts/fuzz-modules.sh MODULE…      (Logging, or any of the package's targets under Sources/)
#
# Logging is swift-log from the package's checkout (`swift package resolve` fetches it when missing).
# A target links them with: -I .build-fuzz/modules -L .build-fuzz/modules -lMODULE…
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=.build-fuzz/modules
mkdir -p "$BUILD"
for name in "$@"; do
    extra=()
    if [ "$name" = Logging ]; then
        sources=.build/checkouts/swift-log/Sources/Logging
        if [ ! -d "$sources" ]; then swift package resolve >&2; fi
        extra=(-package-name swift_log)
    else
        sources="Sources/$name"
        # The project's modules share `package` declarations, as in SwiftPM's build.
        extra=(-package-name corelocation)
    fi
    mapfile -t files < <(find "$sources" -name '*.swift' | sort)
    swiftc -emit-module -emit-library -static -parse-as-library -sanitize=fuzzer,address -O \
        "${extra[@]}" -module-name "$name" -I "$BUILD" -emit-module-path "$BUILD/$name.swiftmodule" \
        "${files[@]}" -o "$BUILD/lib$name.a"
done
