/// Geodesics on an ellipsoid of revolution (WGS84 by default), after C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013): accurate to round-off
/// (nanometres on the Earth) for any pair of points, antipodal ones included.
///
/// Latitudes, longitudes and azimuths are in degrees, distances in metres.
/// Latitudes outside [-90, 90] and non-finite inputs give NaN results.
public struct Geodesic: Sendable {
    /// Equatorial radius, metres.
    public let equatorialRadius: Double
    /// Flattening.
    public let flattening: Double

    // Derived constants, computed once per ellipsoid so each solution only does
    // per-pair work.
    @usableFromInline let f1: Double        // 1 − f
    @usableFromInline let ep2: Double       // e'², second eccentricity squared
    @usableFromInline let n: Double         // third flattening f/(2 − f)
    @usableFromInline let b: Double         // polar semi-axis
    @usableFromInline let etol2: Double     // below this, short lines are solved directly
    @usableFromInline let longitude: LongitudeSeries

    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// An ellipsoid with the given equatorial radius and flattening. The series
    /// are accurate to round-off for |flattening| ≤ 1/50; a negative flattening
    /// is a prolate ellipsoid.
    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        let f = flattening
        f1 = 1 - f
        ep2 = f * (2 - f) / (f1 * f1)  // e²/(1 − e²)
        n = f / (2 - f)
        b = equatorialRadius * f1
        // Karney's threshold for skipping Newton's method on short lines: where the
        // spherical start is already accurate to round-off.
        etol2 = 0.1 * Tolerance.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        longitude = LongitudeSeries(n: n)
    }

    public struct InverseResult: Sendable, Equatable {
        /// Geodesic distance, metres.
        public var distance: Double
        /// Azimuth at point 1, degrees clockwise from north, in [-180, 180].
        public var initialAzimuth: Double
        /// Azimuth at point 2 (forward direction), degrees, in [-180, 180].
        public var finalAzimuth: Double

        /// Public so that callers can build expected values and stubs.
        public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
            self.distance = distance
            self.initialAzimuth = initialAzimuth
            self.finalAzimuth = finalAzimuth
        }
    }

    public struct DirectResult: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Forward azimuth at the end point, degrees.
        public var finalAzimuth: Double

        /// Public so that callers can build expected values and stubs.
        public init(latitude: Double, longitude: Double, finalAzimuth: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.finalAzimuth = finalAzimuth
        }
    }

    /// The shortest path between two points (degrees).
    ///
    /// For coincident points the azimuths are those of the meridian (0 or 180).
    /// For nearly antipodal points several shortest paths may exist; one is returned.
    @inlinable
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> InverseResult {
        let r = solveInverse(latitude1, longitude1, latitude2, longitude2)
        return InverseResult(distance: r.s12,
                             initialAzimuth: atan2d(r.salp1, r.calp1),
                             finalAzimuth: atan2d(r.salp2, r.calp2))
    }

    /// Distance in metres between two points (degrees). Skips the azimuths'
    /// arctangents, so it is slightly cheaper than `inverse`.
    @inlinable
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        solveInverse(latitude1, longitude1, latitude2, longitude2).s12
    }

    /// The point reached by going `distance` metres from a point along `azimuth` degrees.
    /// A negative distance goes backwards; the longitude is reduced to [-180, 180].
    @inlinable
    public func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> DirectResult {
        solveDirect(latitude, longitude, azimuth, distance)
    }
}

/// Convergence tolerances (Karney 2013, section 3 and GeographicLib's choices).
@usableFromInline
enum Tolerance {
    // Literals rather than expressions, so the hot loops read constants instead of
    // lazily initialised globals.
    /// Machine epsilon, 2⁻⁵².
    @usableFromInline static let tol0 = 0x1p-52
    /// Allowed slack in the antipodal start (y > −tol1 treats y as zero).
    @usableFromInline static let tol1 = 200 * 0x1p-52
    /// √tol0.
    @usableFromInline static let tol2 = 0x1p-26
    /// Bisection stops when the bracket is narrower than this.
    @usableFromInline static let tolb = 0x1p-52
    /// Near this of x = −1 the astroid solution is replaced by its limit.
    @usableFromInline static let xthresh = 1000 * 0x1p-26
    /// Newton iterations before falling back to bisection only.
    @usableFromInline static let maxit1 = 20
    /// Total iterations: enough for bisection to exhaust a double's 53 bits.
    @usableFromInline static let maxit2 = 20 + 53 + 10
}
