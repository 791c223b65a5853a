import ArgumentParser
import Foundation
import LocationApproximation
import LocationGeodesy
import LocationPlaces
import LocationPolicy
import LocationProtocol
import LocationSources
import TestSupport
import Testing
@testable import locationctl

/// The built-in freeway loop (Mountain View and San Jose) as an approximate app sees it, with a fixed layout.
struct ApproximateDrive {
    static let seed = String(repeating: "5a", count: 16) + String(repeating: "c3", count: 16)

    let fixes: [Fix]
    let regions: [MapApproximateRegion]

    init() throws {
        fixes = try SourceReading.fixes(of: try SourceSpec("sim:freeway-drive"))
        let database = try PlacesDatabase.shared.get()
        let layout = try #require(MapApproximation.seed(hex: Self.seed))
        regions = MapApproximation.regions(fixes: fixes, regions: PlaceApproximateRegions(database: database, seed: layout))
    }

    var drawing: MapDrawing {
        MapDrawing(source: "sim:freeway-drive", fixes: fixes, fences: [], events: [], approximate: regions)
    }
}

@Suite struct MapApproximateTests {
    @Test func theRegionsAlongATrackHoldTheFixWhereTheyBegin() throws {
        let approximate = try ApproximateDrive()
        #expect(approximate.regions.count >= 5, "the drive crosses regions: \(approximate.regions.count)")
        #expect(approximate.regions.first?.firstFix == 0)
        for region in approximate.regions {
            let fix = approximate.fixes[region.firstFix]
            #expect(fix.latitude == region.changeLatitude && fix.longitude == region.changeLongitude)
            let distance = Geodesic.wgs84.distance(latitude1: fix.latitude, longitude1: fix.longitude,
                                                   latitude2: region.latitude, longitude2: region.longitude)
            #expect(distance <= region.radius)
            #expect((1_000...20_000).contains(region.radius))
        }
        // The same seed draws the same regions.
        #expect(try ApproximateDrive().regions == approximate.regions)
    }

    @Test func theSVGHasACircleAndAPointForEachRegion() throws {
        let approximate = try ApproximateDrive()
        let svg = SVGMap(approximate.drawing).render()
        func count(_ text: String) -> Int { svg.components(separatedBy: text).count - 1 }
        #expect(count("class=\"approximate-region\"") == approximate.regions.count)
        #expect(count("class=\"approximate-point\"") == approximate.regions.count)
        #expect(count("class=\"approximate-change\"") == approximate.regions.count)
        #expect(svg.contains("approximate region"))
        #expect(SVGMap(try DriveWithFences().drawing).render().contains("approximate") == false)
    }

    @Test func theSeedNeedsApproximateAndSixtyFourHexDigits() throws {
        #expect(throws: (any Error).self) { try LocationCtl.Map.parse(["--seed", ApproximateDrive.seed]) }
        #expect(throws: (any Error).self) { try LocationCtl.Map.parse(["--approximate", "--seed", "abc"]) }
        #expect(throws: (any Error).self) { try LocationCtl.Map.parse(["--approximate", "--seed", String(repeating: "g", count: 64)]) }
        let command = try LocationCtl.Map.parse(["--approximate", "--seed", ApproximateDrive.seed])
        #expect(command.approximate)
    }
}
