import Foundation
import TestSupport
import Testing
@testable import locationctl

/// `locationctl map --approximate` as a browser draws it: the reported points and the circles round
/// them are where the projection puts them.
@Suite(.serialized) struct MapApproximateBrowserTests {
    private typealias Colour = MapBrowserTests.Colour

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium): the map is not checked in a browser"))
    func aBrowserDrawsTheReportedPointsAndTheirCircles() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let approximate = try ApproximateDrive()
        let map = SVGMap(approximate.drawing, width: 1000, height: 800)
        let file = temporary.url.appendingPathComponent("map.svg")
        try Data(map.render().utf8).write(to: file)
        let image = try Chromium.screenshot(of: file, width: 1000, height: 800, in: temporary.url)
        let purple = Colour(SVGMap.Colour.approximate)
        for (index, region) in approximate.regions.enumerated() {
            let point = map.projection.point(latitude: region.latitude, longitude: region.longitude)
            #expect(MapBrowserTests.found(purple, near: point, radius: 2, in: image), "region \(index + 1): no diamond at its reported point")
            // The dashed outline: its colour at most of 24 points round it (gaps and overlaps aside).
            let outline = map.projection.groundCircle(latitude: region.latitude, longitude: region.longitude,
                                                      radius: region.radius, count: 24)
            let seen = outline.filter { MapBrowserTests.found(purple, near: $0, radius: 3, in: image) }.count
            #expect(seen >= 10, "region \(index + 1): outline seen at \(seen) of 24 points")
        }
    }
}
