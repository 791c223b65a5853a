#!/usr/bin/env bash
# Fuzzes the JSON form of locationd's control messages with libFuzzer and AddressSanitizer:
#
#   scripts/fuzz-wire.sh [RUNS] [libFuzzer options…]      (default: 1000000 runs)
#
# WireJSON's envelopes are internal to LocationWire, and LocationWire needs NIO only for its framing
# (WireCodec.swift), so the target compiles the two files that hold the JSON form into its own module
# against LocationProtocol built as a static library:
#   swiftc -emit-module -emit-library -static -parse-as-library -sanitize=fuzzer,address -O \
#       -module-name LocationProtocol Sources/LocationProtocol/*.swift   (into .build-fuzz/wire/)
#   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name WireFuzz \
#       -I .build-fuzz/wire -L .build-fuzz/wire -lLocationProtocol \
#       Sources/LocationWire/WireJSON*.swift Sources/LocationWire/WireMessages.swift \
#       Fuzz/WireMessagesFuzz.swift -o .build-fuzz/wire-fuzz
# then runs it for RUNS inputs (-runs=RUNS) from a corpus of one valid message of each type (written
# below into a temporary directory: the repository is never written, except .build-fuzz/) and the
# dictionary Fuzz/wire.dict. A crash, a sanitizer report or a broken invariant stops it with a
# non-zero exit and leaves the input in .build-fuzz/.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
shift || true

BUILD=.build-fuzz/wire
mkdir -p "$BUILD"
swiftc -emit-module -emit-library -static -parse-as-library -sanitize=fuzzer,address -O \
    -module-name LocationProtocol -emit-module-path "$BUILD/LocationProtocol.swiftmodule" \
    Sources/LocationProtocol/*.swift -o "$BUILD/libLocationProtocol.a"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name WireFuzz \
    -I "$BUILD" -L "$BUILD" -lLocationProtocol \
    Sources/LocationWire/WireJSON*.swift Sources/LocationWire/WireMessages.swift \
    Fuzz/WireMessagesFuzz.swift -o .build-fuzz/wire-fuzz

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { printf '%s' "$2" > "$CORPUS/$1.json"; }

# Client messages.
seed hello '{"type":"hello","version":3}'
seed hello-v1 '{"hello":{"version":1}}'
seed request-when-in-use '{"type":"requestAuthorization","level":"whenInUse"}'
seed request-always '{"type":"requestAuthorization","level":"always"}'
seed start-updates '{"type":"startUpdates","stream":1,"update":{"mode":"continuous","desiredAccuracy":-1,"distanceFilter":10.5,"activity":2,"pausesAutomatically":true}}'
seed significant '{"type":"startUpdates","stream":9,"update":{"mode":"significantChange","desiredAccuracy":-1,"distanceFilter":-1,"activity":2,"pausesAutomatically":true}}'
seed change-updates '{"type":"changeUpdates","stream":4294967295,"update":{"mode":"live","desiredAccuracy":100,"distanceFilter":-1,"activity":5,"pausesAutomatically":false}}'
seed single-update '{"type":"startUpdates","stream":7,"update":{"mode":"single","desiredAccuracy":3000,"distanceFilter":-1,"activity":1,"pausesAutomatically":true}}'
seed resume-updates '{"type":"resumeUpdates","stream":1}'
seed stop-updates '{"type":"stopUpdates","stream":1}'
seed settings-grant '{"type":"settings","change":{"kind":"grant","app":"org.example.maps","always":true,"approximate":false}}'
seed settings-revoke '{"type":"settings","change":{"kind":"revoke","app":"org.example.maps"}}'
seed settings-reset '{"type":"settings","change":{"kind":"reset","app":"/usr/bin/where"}}'
seed settings-reset-all '{"type":"settings","change":{"kind":"resetAll"}}'
seed settings-services '{"type":"settings","change":{"kind":"services","enabled":false}}'
seed list-apps '{"type":"listApps"}'
seed register-agent '{"type":"registerAgent"}'
seed answer-allow-once '{"type":"agentAnswer","id":1,"answer":{"kind":"allowOnce","precise":true}}'
seed answer-allow-while-using '{"type":"agentAnswer","id":2,"answer":{"kind":"allowWhileUsing","precise":false}}'
seed answer-dont-allow '{"type":"agentAnswer","id":3,"answer":{"kind":"dontAllow"}}'
seed answer-change-to-always '{"type":"agentAnswer","id":4,"answer":{"kind":"changeToAlways"}}'
seed answer-keep-while-using '{"type":"agentAnswer","id":18446744073709551615,"answer":{"kind":"keepWhileUsing"}}'
seed answer-dismissed '{"type":"agentAnswer","id":5}'
seed open-regions '{"type":"openFences","group":{"kind":"regions"}}'
seed close-monitor '{"type":"closeFences","group":{"kind":"monitor","name":"Trips"}}'
seed add-circle '{"type":"addFence","group":{"kind":"monitor","name":"Trips"},"fence":{"identifier":"home","condition":{"kind":"circle","latitude":52.52,"longitude":13.405,"radius":150},"notifyOnEntry":true,"notifyOnExit":false,"assumedState":1}}'
seed add-beacon '{"type":"addFence","group":{"kind":"regions"},"fence":{"identifier":"door","condition":{"kind":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":7,"minor":65535},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0}}'
seed remove-fence '{"type":"removeFence","group":{"kind":"regions"},"identifier":"home"}'
seed request-fence-state '{"type":"requestFenceState","group":{"kind":"monitor","name":""},"identifier":"home"}'
seed list-fences '{"type":"listFences"}'
seed request-temporary-full-accuracy '{"type":"requestTemporaryFullAccuracy","id":4294967295,"purposeKey":"Navigation"}'
seed end-temporary-full-accuracy '{"type":"endTemporaryFullAccuracy"}'
seed answer-allow-temporary '{"type":"agentAnswer","id":6,"answer":{"kind":"allowTemporaryFullAccuracy"}}'
seed answer-deny-temporary '{"type":"agentAnswer","id":7,"answer":{"kind":"denyTemporaryFullAccuracy"}}'
seed start-visits '{"type":"startVisits"}'
seed stop-visits '{"type":"stopVisits"}'
seed visits-mode '{"type":"startUpdates","stream":3,"update":{"mode":"visits","desiredAccuracy":-1,"distanceFilter":-1,"activity":1,"pausesAutomatically":true}}'
seed start-heading '{"type":"startHeading","stream":3,"headingFilter":-1}'
seed stop-heading '{"type":"stopHeading","stream":3}'
seed start-ranging '{"type":"startRanging","stream":4,"beaconConstraint":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}'
seed start-ranging-major '{"type":"startRanging","stream":5,"beaconConstraint":{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":7}}'
seed start-ranging-exact '{"type":"startRanging","stream":6,"beaconConstraint":{"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":65535,"minor":0}}'
seed stop-ranging '{"type":"stopRanging","stream":4}'

# Daemon messages.
seed welcome '{"type":"welcome","identity":{"id":"org.example.maps","displayName":"Maps","executablePath":"/usr/bin/maps"},"authorization":{"status":4,"accuracy":0,"servicesEnabled":true}}'
seed refused '{"type":"refused","reason":"protocol version 1, this daemon speaks 3"}'
seed authorization-changed '{"type":"authorizationChanged","authorization":{"status":3,"accuracy":1,"servicesEnabled":false}}'
seed request-in-progress '{"type":"authorizationRequestInProgress","inProgress":true}'
seed failed '{"type":"failed","stream":1,"failure":"locationUnknown"}'
seed heading '{"type":"heading","stream":3,"heading":{"magneticHeading":17.63,"trueHeading":19.5,"headingAccuracy":25,"x":-5.68,"y":18.537,"z":-28.31,"timestamp":800000000.125}}'
seed heading-magnetic-only '{"type":"heading","stream":3,"heading":{"magneticHeading":0,"headingAccuracy":-1,"timestamp":0}}'
seed failed-denied '{"type":"failed","stream":2,"failure":"denied"}'
seed failed-ranging-unavailable '{"type":"failed","stream":4,"failure":"rangingUnavailable"}'
seed beacons '{"type":"beacons","stream":4,"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":7,"minor":1,"proximity":2,"accuracy":1.75,"rssi":-68,"timestamp":800000000.5},{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":7,"minor":2,"proximity":0,"accuracy":-1,"rssi":0,"timestamp":799999990}]}'
seed beacons-none '{"type":"beacons","stream":4,"beacons":[]}'
seed paused '{"type":"paused","stream":1}'
seed stationary '{"type":"stationary","stream":1,"stationary":true}'
seed completed '{"type":"completed","stream":1}'
seed source-finished '{"type":"sourceFinished","stream":1}'
seed visit-arrival '{"type":"visit","visit":{"arrival":785999000.5,"latitude":46.05,"longitude":14.5,"horizontalAccuracy":35}}'
seed visit-departure '{"type":"visit","visit":{"departure":786003600,"latitude":-33.9,"longitude":151.2,"horizontalAccuracy":12.5}}'
seed stream-visit '{"type":"visit","stream":2,"visit":{"arrival":0,"departure":1,"latitude":0,"longitude":180,"horizontalAccuracy":5}}'
seed settings-result '{"type":"settingsResult"}'
seed settings-result-error '{"type":"settingsResult","error":"no such app"}'
seed apps '{"type":"apps","database":{"servicesEnabled":true,"apps":[{"app":"org.example.maps","status":4,"accuracy":1,"alwaysRequestUsed":true,"allowOnce":{"pid":4242,"startTime":123456789},"temporaryFullAccuracy":{"purposeKey":"Navigation","process":{"pid":4243,"startTime":123456790}},"displayName":"Maps","executablePath":"/usr/bin/maps","updated":785999000.5},{"app":"/usr/bin/where","status":2,"accuracy":0,"alwaysRequestUsed":false,"displayName":"where","executablePath":"/usr/bin/where","updated":0}]}}'
seed apps-unavailable '{"type":"appsUnavailable","error":"database locked"}'
seed agent-prompt '{"type":"agentPrompt","id":9,"prompt":{"app":{"id":"org.example.maps","displayName":"Maps","executablePath":"/usr/bin/maps"},"kind":"initial","level":"whenInUse","usageDescription":"Shows where you are.","preciseByDefault":true}}'
seed agent-prompt-upgrade '{"type":"agentPrompt","id":10,"prompt":{"app":{"id":"org.example.maps","displayName":"Maps","executablePath":"/usr/bin/maps"},"kind":"upgradeToAlways","level":"always","usageDescription":"Warns of traffic.","preciseByDefault":false}}'
seed agent-prompt-temporary '{"type":"agentPrompt","id":11,"prompt":{"app":{"id":"org.example.maps","displayName":"Maps","executablePath":"/usr/bin/maps"},"kind":"temporaryFullAccuracy","purposeKey":"Navigation","level":"whenInUse","usageDescription":"Turn-by-turn directions need your exact position.","preciseByDefault":false}}'
seed temporary-full-accuracy-prompted '{"type":"temporaryFullAccuracy","id":1,"outcome":"prompted"}'
seed temporary-full-accuracy-declined '{"type":"temporaryFullAccuracy","id":2,"outcome":"declined"}'
seed agent-prompt-withdrawn '{"type":"agentPromptWithdrawn","id":9}'
seed fence-snapshot '{"type":"fences","group":{"kind":"monitor","name":"Trips"},"fenceUpdate":{"kind":"snapshot","records":[{"fence":{"identifier":"home","condition":{"kind":"circle","latitude":52.52,"longitude":13.405,"radius":150},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0},"lastEvent":{"identifier":"home","state":2,"date":785000000.5}}]}}'
seed fence-started '{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"started","record":{"fence":{"identifier":"door","condition":{"kind":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0},"lastEvent":{"identifier":"door","state":3,"date":1,"issue":"unsupported"}}}}'
seed fence-failed '{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"failed","identifier":"home","issue":"limitExceeded"}}'
seed fence-changed '{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"changed","event":{"identifier":"home","state":1,"date":785000100}}}'
seed fence-determined '{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"determined","event":{"identifier":"home","state":0,"date":0,"issue":"denied"}}}'
seed fence-removed '{"type":"fences","group":{"kind":"monitor","name":"Trips"},"fenceUpdate":{"kind":"removed","identifier":"home"}}'
seed fence-listing '{"type":"fenceListing","fenceListing":[{"app":"org.example.maps","groups":[{"group":{"kind":"regions"},"records":[],"pendingEvents":3}]}]}'

# No Swift backtracer: it reads memory that AddressSanitizer then reports, burying the real failure.
SWIFT_BACKTRACE=enable=no .build-fuzz/wire-fuzz -runs="$RUNS" -max_len=4096 -dict=Fuzz/wire.dict -artifact_prefix=.build-fuzz/ -print_final_stats=1 "$@" "$CORPUS"
