import CoreLocation
import Testing

@Suite struct CLFloorTests {
    @Test(arguments: [-3, 0, 1, 42])
    func level(_ level: Int) throws {
        let floor = CLFloor(level: level)
        #expect(floor.level == level)
        let decoded = try #require(try archiveRoundTrip(floor))
        #expect(decoded.level == level)
        #expect(floor.copy() as AnyObject === floor)
    }

    @Test func defaultInitializerIsGroundFloor() {
        #expect(CLFloor().level == 0)
    }

    @Test func mockBySubclassing() {
        final class Mezzanine: CLFloor {
            override var level: Int { 1 }
        }
        #expect(Mezzanine().level == 1)
    }
}
