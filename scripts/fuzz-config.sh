#!/usr/bin/env bash
# Fuzzes the configuration files people write — the sources file (one source spec a line) and the
# prompt policy (JSON) — with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-config.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# Spec parsing touches every source's options, so scripts/fuzz-modules.sh builds LocationSources and
# what it imports as instrumented modules; the prompt policy's parser is compiled into the target:
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ConfigFilesFuzz -I … -L … \
#       Sources/LocationPolicyAdapters/PromptPolicy.swift Fuzz/ConfigFilesFuzz.swift -o .build-fuzz/config-fuzz
# then it runs for RUNS inputs from a corpus of real files (the first byte of an input picks the file:
# even a sources file, odd a policy; written into a temporary directory) and the dictionary
# Fuzz/config.dict. A crash, a sanitizer report or a broken invariant stops it with a non-zero exit and
# leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

scripts/fuzz-modules.sh Logging LocationProtocol LocationCore LocationGeodesy LocationNMEA LocationGeomagnetism SeededRandom LocationDBus LocationSources
BUILD=.build-fuzz/modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ConfigFilesFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationSources -lLocationDBus -lSeededRandom -lLocationGeomagnetism -lLocationNMEA -lLocationGeodesy \
    -lLocationCore -lLocationProtocol -lLogging \
    Sources/LocationPolicyAdapters/PromptPolicy.swift Fuzz/ConfigFilesFuzz.swift -o .build-fuzz/config-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
sources() { printf '\0%s\n' "$2" > "$CORPUS/$1.sources"; }
policy() { printf '\1%s' "$2" > "$CORPUS/$1.json"; }
sources receivers '# the boat: a receiver on the serial port, gpsd as a fallback
nmea:/dev/ttyUSB0?baud=9600&standby=ublox
gpsd://[::1]:2947
nmea:tcp://192.168.1.20:10110?checksum=optional&heading=also'
sources simulated 'sim:city-drive?speed=60
gpx:~/tracks/run @ dawn.gpx@3.5?speed=10
fixed:-33.8688, 151.2093, 12
compass:-90
iio:/sys/bus/iio/devices/iio:device0?mode=buffered'
sources beacons 'sim:walk
beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0,1,2,-59@48.8584,2.2945
beacon:f7826da6-4fa2-4e98-8024-bc5b71e0893e, 65535, 0, -77 @ -33.8568, 151.2153'
sources replay 'nmea:drive.nmea?pace=max
nmea:-
gpsd
iio'
sources broken 'fixed:91,0
nmea:/dev/ttyS0?baud=fast'
policy simple '{"default": "deny", "apps": {"com.example.weather": "allow,approximate", "/usr/local/bin/tracker": "always"}}'
policy spaced '{"comment": "kiosk", "apps": {"kiosk": " Allow-Once , PRECISE "}}'
policy broken '{"default": "maybe", "aps": {}}'

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/config-fuzz -runs="$RUNS" -max_len=2048 -dict=Fuzz/config.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
