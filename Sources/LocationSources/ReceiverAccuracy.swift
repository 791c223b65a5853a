import Foundation
import LocationNMEA

/// How a real receiver's figures become `Fix` accuracies (1σ, metres), shared by the NMEA and gpsd
/// sources. Where a receiver says nothing, both fall back on the decoder's documented model
/// (`NMEAAccuracy`: DOP × a 5 m user equivalent range error, a nominal HDOP of 2, 0.1 m/s of speed
/// error per unit of HDOP), so the same receiver gets the same estimates through either source.
enum ReceiverAccuracy {
    /// gpsd's `eph`, `epx`, `epy`, `epv`, `eps`, `epd`: its JSON documentation says "certainty unknown",
    /// but gpsd computes them (when the receiver does not report them) from UERE constants its source
    /// declares as 95 % confidence (gpsd 3.22 `libgpsd_core.c`, `gpsd_error_model`: horizontal 15 m,
    /// vertical 23 m, position 19 m, "meters, 95% confidence"). A 95 % figure is about 2σ, so it is
    /// halved. (For plain NMEA receivers gpsd derives `eps` from successive position errors, which
    /// makes it pessimistic: tens of m/s. It is still the only figure gpsd gives.)
    static let gpsdToOneSigma = 0.5

    /// Metres of 1σ error per unit of DOP, when only a DOP is known.
    static var metresPerDOP: Double { NMEAAccuracy.userEquivalentRangeError }

    /// Claimed when a receiver says nothing about its accuracy (no GST, no DOP, no `ep*`): a position
    /// needs a non-negative accuracy to be usable at all (10 m: the nominal HDOP of 2 × 5 m).
    static var unknownHorizontal: Double { NMEAAccuracy.nominalHDOP * NMEAAccuracy.userEquivalentRangeError }

    /// 1σ speed error when the receiver states none: 0.1 m/s per unit of HDOP (nominal HDOP without one).
    static func speedAccuracy(hdop: Double?) -> Double {
        (hdop.flatMap { $0 > 0 && $0 < 99 ? $0 : nil } ?? NMEAAccuracy.nominalHDOP) * NMEAAccuracy.speedErrorPerDOP
    }

    /// The 1σ course error a speed error implies: σv / v in degrees, 180 at most. Nil when not moving:
    /// a course means nothing then, and `CLLocation` marks it invalid (-1).
    static func courseAccuracy(speed: Double, speedAccuracy: Double) -> Double? {
        guard speed > 0, speed.isFinite, speedAccuracy >= 0 else { return nil }
        return min(180, speedAccuracy / speed * 180 / .pi)
    }
}
