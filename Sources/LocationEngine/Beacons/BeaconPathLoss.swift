import Foundation

/// Distance from received strength by the log-distance path-loss model:
/// `rssi = measuredPower − 10 · n · log10(d)`, so `d = 10^((measuredPower − rssi) / (10 · n))` metres,
/// `measuredPower` being what the beacon advertises for 1 m.
///
/// The exponent n is 2, free space. Indoors it ranges from about 1.6 (corridors guide the signal) to
/// 3–4 (walls, people), and no one value fits every room; 2 is right in line of sight over the first
/// few metres, where proximity is decided (immediate, near), and beyond them a larger exponent would
/// only shrink distances that are already "far".
public enum BeaconPathLoss {
    public static let exponent = 2.0

    /// Metres, or nil when the strengths cannot give one (a measured power or strength of 0 dBm or
    /// more is no measurement).
    public static func distance(rssi: Double, measuredPower: Int, exponent: Double = exponent) -> Double? {
        guard measuredPower < 0, rssi < 0, rssi.isFinite, exponent > 0 else { return nil }
        return pow(10, (Double(measuredPower) - rssi) / (10 * exponent))
    }
}
