/// How the decoder turns what a receiver reports into 1σ accuracies, in metres.
///
/// - With GST: horizontal = √(σ_lat² + σ_lon²) (the distance RMS, the 1σ radius Core Location's
///   `horizontalAccuracy` stands for), vertical = σ_alt.
/// - Otherwise from the dilution of precision: horizontal = HDOP × UERE (PDOP × UERE, an upper
///   bound, when the receiver sends no HDOP), vertical = VDOP × UERE. By definition a DOP is the
///   ratio of position error to ranging error, so this is the receiver's own geometry applied to
///   a typical ranging error.
/// - Vertical accuracy only for 3D fixes with an altitude.
public enum NMEAAccuracy {
    /// User equivalent range error, metres (1σ), for a single-frequency L1 C/A receiver without
    /// corrections: the textbook error budget (satellite clock and ephemeris, ionosphere after the
    /// broadcast model, troposphere, multipath, receiver noise) sums to about 5 m — e.g. Kaplan &
    /// Hegarty, *Understanding GPS*, 5.3 m — and gpsd's defaults are in the same range. Modern
    /// multi-GNSS receivers often do better; GST, when sent, replaces this estimate.
    public static let userEquivalentRangeError = 5.0

    /// Horizontal 1σ from GST's per-axis σ, or nil unless both are present.
    static func horizontal(sigmaLatitude: Double?, sigmaLongitude: Double?) -> Double? {
        guard let sigmaLatitude, let sigmaLongitude else { return nil }
        return (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
    }
}

extension NMEAAccuracy {
    /// For receivers that send no DOP and no GST at all (RMC or GLL only): a nominal HDOP of 2,
    /// the pessimistic end of a typical open-sky 1–2, so such fixes still carry an honest accuracy.
    public static let nominalHDOP = 2.0

    /// Speed error per unit of HDOP, metres per second (1σ). NMEA carries no velocity accuracy;
    /// Doppler-derived velocity from a consumer receiver is good to about 0.05–0.1 m/s in open sky
    /// (u-blox M8: 0.05 m/s, 50 %), so 0.1 m/s × HDOP.
    public static let speedErrorPerDOP = 0.1
}

extension NMEAFix {
    /// `horizontalAccuracy`, or HDOP-less receivers' `nominalHDOP` × UERE.
    public var horizontalAccuracyOrNominal: Double {
        horizontalAccuracy ?? NMEAAccuracy.nominalHDOP * NMEAAccuracy.userEquivalentRangeError
    }

    /// Estimated 1σ speed accuracy, m/s (`NMEAAccuracy.speedErrorPerDOP` × HDOP); nil without a speed.
    public var estimatedSpeedAccuracy: Double? {
        guard speed != nil else { return nil }
        return (hdop ?? NMEAAccuracy.nominalHDOP) * NMEAAccuracy.speedErrorPerDOP
    }

    /// Estimated 1σ course accuracy, degrees: the speed error seen across the speed,
    /// σ_speed / speed radians, capped at 180° (standing still, the course means nothing).
    /// nil without a course.
    public var estimatedCourseAccuracy: Double? {
        guard course != nil, let speed, let sigma = estimatedSpeedAccuracy else { return nil }
        guard speed > 0 else { return 180 }
        return min(180, sigma / speed * (180 / Double.pi))
    }
}
