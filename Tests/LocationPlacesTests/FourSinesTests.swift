import Foundation
import Testing
@testable import LocationPlaces

/// The unit vectors of reverse geocoding queries come from `FourSines`: within about half a unit in the last
/// place of a `Float` of the true sines over the whole range of latitudes and longitudes, with the signs of
/// every quadrant and the exact values at whole quarter turns.
@Suite struct FourSinesTests {
    @Test func closeToTheTrueSinesOverTheSphere() {
        var worst = 0.0
        var latitude = -90.0
        while latitude <= 90 {
            var longitude = -180.0
            while longitude < 180 {
                let sines = FourSines.of(degrees: SIMD4(90 - latitude, 90 - longitude, longitude, latitude))
                let expected = [cos(latitude * .pi / 180), cos(longitude * .pi / 180), sin(longitude * .pi / 180),
                                sin(latitude * .pi / 180)]
                for lane in 0..<4 { worst = max(worst, abs(Double(sines[lane]) - expected[lane])) }
                longitude += 0.523
            }
            latitude += 0.367
        }
        // Rounded once from double precision: about half a unit in the last place of a Float near 1 (2⁻²⁵).
        #expect(worst < 3.2e-8, "largest error \(worst)")
    }

    @Test func quarterTurnsAndSigns() {
        let sines = FourSines.of(degrees: SIMD4(90, -90, 180, 270))
        #expect(sines == SIMD4(1, -1, 0, -1))
        let turns = FourSines.of(degrees: SIMD4(30, 150, 210, -330))
        for (lane, expected) in [0.5, 0.5, -0.5, 0.5].enumerated() {
            #expect(abs(Double(turns[lane]) - expected) < 1e-7, "lane \(lane): \(turns[lane])")
        }
    }

    @Test func unitVectorsHaveUnitLengthAndPointWhereTheCoordinatesSay() {
        let north = PlacesTables.unitVector(latitude: 90, longitude: 0)
        #expect(north == SIMD3(0, 0, 1))
        let berlin = PlacesTables.unitVector(latitude: 52.52, longitude: 13.405)
        let length = (berlin * berlin).sum().squareRoot()
        #expect(abs(length - 1) < 3e-7)
        let phi = 52.52 * Double.pi / 180, lambda = 13.405 * Double.pi / 180
        let expected = SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
        for axis in 0..<3 { #expect(abs(Double(berlin[axis]) - expected[axis]) < 3e-7) }
    }
}
