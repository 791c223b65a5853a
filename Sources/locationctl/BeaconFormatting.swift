import Foundation
import LocationProtocol

/// How `locationctl beacons` writes a ranging scan: a table, plain lines, or one JSON object per
/// scan with `CLBeacon`'s names (`accuracy` -1 when unknown, `rssi` 0 when the beacon was not
/// heard in the scan, proximity by name).
enum BeaconFormatting {
    static func proximity(_ proximity: BeaconProximity) -> String {
        switch proximity {
        case .unknown: "unknown"
        case .immediate: "immediate"
        case .near: "near"
        case .far: "far"
        }
    }

    /// `E2C56DB5-…  major 7  minor 1  near  1.75 m  -68 dBm`.
    static func summary(_ beacon: RangedBeacon) -> String {
        let distance = beacon.accuracy >= 0 ? String(format: "%.2f m", beacon.accuracy) : "—"
        let rssi = beacon.rssi != 0 ? "\(beacon.rssi) dBm" : "not heard"
        return "\(beacon.identity.uuid.uuidString)  major \(beacon.identity.major)  minor \(beacon.identity.minor)  "
            + "\(proximity(beacon.proximity))  \(distance)  \(rssi)"
    }

    /// One line per beacon, each with the scan's time; a scan without beacons says so.
    static func lines(_ beacons: [RangedBeacon], at time: Date) -> [String] {
        let stamp = FixFormatting.timestamp(time)
        guard !beacons.isEmpty else { return ["\(stamp)  no beacon in range"] }
        return beacons.map { "\(stamp)  \(summary($0))" }
    }

    /// The table a terminal redraws for each scan.
    static func table(_ beacons: [RangedBeacon]) -> [String] {
        let header = "  UUID                                  MAJOR  MINOR  PROXIMITY  DISTANCE   RSSI  LAST HEARD"
        guard !beacons.isEmpty else { return [header, "  (no beacon in range)"] }
        return [header] + beacons.map { beacon in
            let distance = beacon.accuracy >= 0 ? String(format: "%7.2f m", beacon.accuracy) : "      — "
            let rssi = beacon.rssi != 0 ? String(format: "%5d", beacon.rssi) : "    —"
            return "  \(beacon.identity.uuid.uuidString)  " + String(format: "%5u  %5u  ", beacon.identity.major, beacon.identity.minor)
                + proximity(beacon.proximity).padding(toLength: 9, withPad: " ", startingAt: 0)
                + "  \(distance)  \(rssi)  \(FixFormatting.timestamp(beacon.timestamp))"
        }
    }

    static func json(_ beacons: [RangedBeacon], at time: Date) -> String {
        let objects = beacons.map { beacon in
            "{" + [
                "\"uuid\":\"\(beacon.identity.uuid.uuidString)\"",
                "\"major\":\(beacon.identity.major)",
                "\"minor\":\(beacon.identity.minor)",
                "\"proximity\":\"\(proximity(beacon.proximity))\"",
                "\"accuracy\":\(beacon.accuracy.isFinite ? String(format: "%.3f", beacon.accuracy) : "-1")",
                "\"rssi\":\(beacon.rssi)",
                "\"timestamp\":\"\(FixFormatting.timestamp(beacon.timestamp))\"",
            ].joined(separator: ",") + "}"
        }
        return "{\"type\":\"beacons\",\"timestamp\":\"\(FixFormatting.timestamp(time))\",\"beacons\":[" + objects.joined(separator: ",") + "]}"
    }

    /// `E2C56DB5-… major 7 minor any`.
    static func constraint(_ constraint: BeaconConstraint) -> String {
        "\(constraint.uuid.uuidString) major \(constraint.major.map(String.init) ?? "any") minor \(constraint.minor.map(String.init) ?? "any")"
    }
}
