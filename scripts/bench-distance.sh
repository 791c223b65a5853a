#!/usr/bin/env bash
# Inverse-geodesic throughput: LocationGeodesy (Swift, release build) against
# GeographicLib's C++ Geodesic::WGS84().Inverse, in the same run, on the same
# pseudo-random pairs (both programs use SplitMix64 with the same seed and
# mapping, and print the same checksum Σ s12 to prove it).
#
# Usage: scripts/bench-distance.sh [--count N] [--repeat R] [--seed S]
# Installs libgeographiclib-dev with apt-get if its header is missing.
set -euo pipefail

cd "$(dirname "$0")/.."
ARGS=("$@")

if [ ! -f /usr/include/GeographicLib/Geodesic.hpp ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "bench-distance: installing libgeographiclib-dev" >&2
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq libgeographiclib-dev >/dev/null
fi

swift build -c release --product corelocation-bench >&2
SWIFT_BENCH="$(swift build -c release --show-bin-path)/corelocation-bench"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/geographiclib-bench.cpp" <<'CPP'
// Same workload as Sources/corelocation-bench/main.swift, with GeographicLib.
#include <GeographicLib/Geodesic.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    double unit() { return double(next() >> 11) * 0x1p-53; }
};

struct Pair { double lat1, lon1, lat2, lon2; };
const int pairCount = 4096;
}  // namespace

int main(int argc, char** argv) {
    long count = 2000000, repeats = 3;
    std::uint64_t seed = 42;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--count")) count = std::atol(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat")) repeats = std::atol(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
        else { std::fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    SplitMix64 rng{seed};
    auto lat = [&] { return std::asin(2 * rng.unit() - 1) * (180 / M_PI); };
    auto lon = [&] { return 360 * rng.unit() - 180; };
    std::vector<Pair> pairs;
    for (int i = 0; i < pairCount; ++i) {
        // Separate statements: C++ leaves argument evaluation order unspecified.
        Pair p;
        p.lat1 = lat(); p.lon1 = lon(); p.lat2 = lat(); p.lon2 = lon();
        pairs.push_back(p);
    }
    const GeographicLib::Geodesic& g = GeographicLib::Geodesic::WGS84();
    double checksum = 0;
    for (const Pair& p : pairs) {
        double s12;
        g.Inverse(p.lat1, p.lon1, p.lat2, p.lon2, s12);
        checksum += s12;
    }
    double best = 1e300, sink = 0;
    for (long r = 0; r < repeats; ++r) {
        double acc = 0;
        auto t0 = std::chrono::steady_clock::now();
        for (long i = 0, j = 0; i < count; ++i, j = (j + 1) & (pairCount - 1)) {
            const Pair& p = pairs[j];
            double s12, azi1, azi2;
            g.Inverse(p.lat1, p.lon1, p.lat2, p.lon2, s12, azi1, azi2);
            acc += s12 + azi1 + azi2;
        }
        auto t1 = std::chrono::steady_clock::now();
        sink += acc;
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    }
    double rate = count / best;
    std::printf("RESULT impl=cpp-GeographicLib calls=%ld seconds=%.4f rate=%.0f ns_per_call=%.1f "
                "checksum=%.17g sink=%.17g\n", count, best, rate, 1e9 / rate, checksum, sink);
    return 0;
}
CPP
# -O2 and no -march: the same generic x86-64 code generation as the Swift release build.
g++ -O2 -std=c++17 -o "$TMP/geographiclib-bench" "$TMP/geographiclib-bench.cpp" -lGeographicLib

SWIFT_OUT="$("$SWIFT_BENCH" "${ARGS[@]+"${ARGS[@]}"}")"
CPP_OUT="$("$TMP/geographiclib-bench" "${ARGS[@]+"${ARGS[@]}"}")"
echo "$SWIFT_OUT"
echo "$CPP_OUT"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
SWIFT_RATE="$(field rate "$SWIFT_OUT")"
CPP_RATE="$(field rate "$CPP_OUT")"
SWIFT_SUM="$(field checksum "$SWIFT_OUT")"
CPP_SUM="$(field checksum "$CPP_OUT")"
awk -v s="$SWIFT_RATE" -v c="$CPP_RATE" -v ss="$SWIFT_SUM" -v cs="$CPP_SUM" 'BEGIN {
    d = ss - cs; if (d < 0) d = -d
    printf "swift LocationGeodesy: %d inverse/s (%.1f ns/call)\n", s, 1e9 / s
    printf "C++ GeographicLib:     %d inverse/s (%.1f ns/call)\n", c, 1e9 / c
    printf "ratio swift/C++:       %.2f\n", s / c
    printf "checksum difference:   %.3g m over 4096 pairs (same workload if tiny)\n", d
    if (d > 1e-3) { print "bench-distance: checksums differ: the workloads are not the same" > "/dev/stderr"; exit 1 }
}'
