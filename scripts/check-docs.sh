#!/usr/bin/env bash
# Builds the CoreLocation module's documentation (the DocC catalog in
# Sources/CoreLocation/CoreLocation.docc plus the module's doc comments) and fails when DocC reports
# any warning or error: a link to a symbol or article that does not resolve, a malformed page.
#
# Usage: scripts/check-docs.sh   (the archive lands in .build/plugins/Swift-DocC/outputs/)
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! swift package --disable-sandbox generate-documentation --target CoreLocation >"$log" 2>&1; then
    cat "$log"
    echo "check-docs: generating the documentation failed" >&2
    exit 1
fi

# DocC's own diagnostics follow this line; everything before it is the build.
marker="Building documentation for 'CoreLocation'"
if ! grep -qF "$marker" "$log"; then
    cat "$log"
    echo "check-docs: DocC did not run (no \"$marker\" in its output)" >&2
    exit 1
fi
docc_output=$(sed -n "/$marker/,\$p" "$log")
count=$(grep -cE '^(warning|error):' <<<"$docc_output" || true)
if [ "$count" -gt 0 ]; then
    echo "$docc_output"
    echo "check-docs: DocC reported $count problem(s) in the CoreLocation documentation" >&2
    exit 1
fi
echo "check-docs: CoreLocation documentation builds with no DocC warnings"
