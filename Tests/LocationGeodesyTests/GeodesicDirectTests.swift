import LocationGeodesy
import SeededRandom
import Testing

/// Direct problem: from point 1 along GeographicLib's azimuth for GeographicLib's
/// distance we must arrive at point 2.
@Suite struct GeodesicDirectTests {
    let g = Geodesic.wgs84

    /// Measured: the worst arrival is within a few nanometres of point 2.
    @Test func directReachesPoint2OnEveryPair() {
        var worst = 0.0
        for p in GeodesicFixtures.pairs {
            let r = g.direct(latitude: p.lat1, longitude: p.lon1, azimuth: p.azi1, distance: p.s12)
            let error = positionError(r.latitude, r.longitude, p.lat2, p.lon2)
            #expect(error <= 1e-6, "\(p): reached \(r)")
            worst = max(worst, error)
            // Arriving at a pole, the azimuth depends on the longitude convention; skip.
            if abs(p.lat2) < 90 && p.s12 > 0 {
                #expect(angleError(r.finalAzimuth, p.azi2) <= azimuthTolerance(distance: p.s12) + 1e-9,
                        "\(p): azi2 \(r.finalAzimuth) vs \(p.azi2)")
            }
        }
        #expect(worst <= 1e-6, "worst arrival \(worst) m")
    }

    /// inverse → direct → same point, and direct → inverse → same distance, for
    /// lines short enough to be shortest paths.
    @Test func roundTrips() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let lat = rng.uniform(-90, 90), lon = rng.uniform(-180, 180)
            let azi = rng.uniform(-180, 180), s = rng.uniform(0, 1.5e7)
            let d = g.direct(latitude: lat, longitude: lon, azimuth: azi, distance: s)
            let i = g.inverse(latitude1: lat, longitude1: lon, latitude2: d.latitude, longitude2: d.longitude)
            #expect(abs(i.distance - s) <= 1e-6, "from (\(lat), \(lon)) azi \(azi) s \(s)")
            if abs(lat) < 89.9 && abs(d.latitude) < 89.9 {
                #expect(angleError(i.initialAzimuth, azi) <= 1e-8, "from (\(lat), \(lon)) azi \(azi) s \(s)")
                #expect(angleError(i.finalAzimuth, d.finalAzimuth) <= 1e-8, "from (\(lat), \(lon)) azi \(azi) s \(s)")
            }
        }
    }

    @Test func zeroAndNegativeDistance() {
        let here = g.direct(latitude: 12.5, longitude: -45, azimuth: 33, distance: 0)
        // Through the reduced latitude and back costs an ulp or two, as in GeographicLib.
        #expect(abs(here.latitude - 12.5) <= 1e-13 && here.longitude == -45 && here.finalAzimuth == 33)
        let ahead = g.direct(latitude: 12.5, longitude: -45, azimuth: 33, distance: 5_000_000)
        let back = g.direct(latitude: ahead.latitude, longitude: ahead.longitude,
                            azimuth: ahead.finalAzimuth, distance: -5_000_000)
        #expect(positionError(back.latitude, back.longitude, 12.5, -45) <= 1e-6)
    }

    @Test func alongMeridiansAndEquator() {
        // A quarter meridian from the equator reaches the pole.
        let pole = g.direct(latitude: 0, longitude: 10, azimuth: 0, distance: 10_001_965.729312724)
        #expect(abs(pole.latitude - 90) <= 1e-12)
        // Over the pole the longitude flips by 180 and the heading turns south.
        let over = g.direct(latitude: 80, longitude: 10, azimuth: 0, distance: 2_500_000)
        #expect(angleError(over.longitude, -170) <= 1e-12)
        #expect(angleError(over.finalAzimuth, 180) <= 1e-12)
        // Along the equator: a quarter of it is 90° of longitude.
        let east = g.direct(latitude: 0, longitude: 170, azimuth: 90, distance: 10_018_754.171394622)
        #expect(east.latitude == 0)
        #expect(abs(east.longitude - -100) <= 1e-12)
        #expect(east.finalAzimuth == 90)
    }

    @Test func startingAtAPole() {
        // From the north pole, the azimuth is measured with the given longitude's
        // meridian as "north": azimuth 180 follows that meridian south.
        let r = g.direct(latitude: 90, longitude: 30, azimuth: 180, distance: 1_000_000)
        #expect(abs(r.longitude - 30) <= 1e-9)
        #expect(r.latitude < 90 && r.latitude > 80)
        let s = g.inverse(latitude1: 90, longitude1: 30, latitude2: r.latitude, longitude2: r.longitude)
        #expect(abs(s.distance - 1_000_000) <= 1e-6)
    }

    @Test func inputsOutsideTheStandardRange() {
        let a = g.direct(latitude: 10, longitude: 20, azimuth: 30, distance: 1e6)
        let b = g.direct(latitude: 10, longitude: 20 + 720, azimuth: 30 - 360, distance: 1e6)
        #expect(positionError(a.latitude, a.longitude, b.latitude, b.longitude) <= 1e-8)
        #expect(b.longitude >= -180 && b.longitude <= 180)
    }

    @Test(arguments: [
        (Double.nan, 0.0, 0.0, 1.0), (0, .nan, 0, 1), (0, 0, .nan, 1), (0, 0, 0, .nan),
        (90.5, 0, 0, 1), (0, 0, .infinity, 1), (0, 0, 0, .infinity),
    ])
    func invalidInputGivesNaN(lat: Double, lon: Double, azi: Double, s: Double) {
        let r = g.direct(latitude: lat, longitude: lon, azimuth: azi, distance: s)
        #expect(r.latitude.isNaN || r.longitude.isNaN)
        #expect(r.longitude.isNaN)
    }
}
