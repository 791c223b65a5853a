import Foundation

/// How a real receiver's figures become `Fix` accuracies, shared by the NMEA and gpsd sources so the
/// same receiver reports the same accuracies through either.
///
/// The project's accuracies are 1σ figures (as `NMEAFix` and `FixProfile` document them).
enum ReceiverAccuracy {
    /// gpsd's `eph`, `epx`, `epy`, `epv`, `eps`, `epd`: its JSON documentation says "certainty unknown",
    /// but gpsd computes them (when the receiver does not report them) from UERE constants its source
    /// declares as 95 % confidence (gpsd 3.22 `libgpsd_core.c`, `gpsd_error_model`: horizontal 15 m,
    /// vertical 23 m, position 19 m, "meters, 95% confidence"). A 95 % figure is about 2σ, so it is
    /// halved.
    static let gpsdToOneSigma = 0.5

    /// Metres of 1σ horizontal error per unit of HDOP, when only the HDOP is known: gpsd's own
    /// `eph = hdop × 19 m` (95 %), halved.
    static let metresPerHDOP = 9.5
    /// Metres of 1σ vertical error per unit of VDOP: gpsd's `epv = vdop × 23 m` (95 %), halved.
    static let metresPerVDOP = 11.5

    /// Claimed when a receiver says nothing about its accuracy (no GST, no DOP, no `ep*`): a position
    /// needs a non-negative accuracy to be usable at all, and 10 m (1σ) is a consumer receiver at
    /// HDOP ≈ 1 by the figure above, rounded up so as not to overclaim.
    static let unknownHorizontal = 10.0

    /// 1σ speed error claimed with a receiver's speed when it gives none (NMEA never does): Doppler
    /// speed from consumer GNSS receivers is good to a few tenths of a metre per second.
    static let speedSigma = 0.5

    /// The 1σ course error implied by a speed error at a speed: the angle the velocity error subtends,
    /// `atan(σv / v)` in degrees (180 at most). Nil when the receiver is not moving: its course means
    /// nothing then, and `CLLocation` marks such a course invalid (-1).
    static func courseAccuracy(speed: Double, speedAccuracy: Double) -> Double? {
        guard speed > 0, speed.isFinite, speedAccuracy >= 0 else { return nil }
        return min(180, atan2(speedAccuracy, speed) * 180 / .pi)
    }
}
