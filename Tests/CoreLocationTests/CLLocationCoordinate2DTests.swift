import CoreLocation
import Testing

@Suite struct CLLocationCoordinate2DTests {
    @Test func initializers() {
        let zero = CLLocationCoordinate2D()
        #expect(zero.latitude == 0 && zero.longitude == 0)
        let c = CLLocationCoordinate2D(latitude: 37.5, longitude: -122.25)
        #expect(c.latitude == 37.5 && c.longitude == -122.25)
        let made = CLLocationCoordinate2DMake(-33.9, 151.2)
        #expect(made.latitude == -33.9 && made.longitude == 151.2)
    }

    @Test func componentsAreMutable() {
        var c = CLLocationCoordinate2D()
        c.latitude = 10
        c.longitude = 20
        #expect(c.latitude == 10 && c.longitude == 20)
    }

    @Test(arguments: [
        (90.0, 180.0, true), (-90.0, -180.0, true), (90.0, -180.0, true), (-90.0, 180.0, true),
        (0.0, 0.0, true), (45.5, -122.7, true),
        (90.000001, 0.0, false), (-90.000001, 0.0, false), (0.0, 180.000001, false), (0.0, -180.000001, false),
        (.nan, 0.0, false), (0.0, .nan, false), (.infinity, 0.0, false), (0.0, -.infinity, false),
        (-180.0, -180.0, false),
    ])
    func validity(latitude: Double, longitude: Double, valid: Bool) {
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: latitude, longitude: longitude)) == valid)
    }

    @Test func invalidSentinelIsInvalid() {
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
    }

    @Test func printsLikeApple() {
        #expect(String(describing: kCLLocationCoordinate2DInvalid) == "CLLocationCoordinate2D(latitude: -180.0, longitude: -180.0)")
    }

    /// Apps add these conformances themselves; ours would make theirs a compile error.
    @Test func hasNoConformancesAppsAddThemselves() {
        let c: Any = CLLocationCoordinate2D(latitude: 1, longitude: 2)
        #expect(!(c is any Hashable))
        #expect(!(c is any Encodable))
        #expect(!(c is any Decodable))
        #expect(!(c is any CustomStringConvertible))
        #expect(!(c is any CustomDebugStringConvertible))
    }

    @Test func isSendableAndBitwiseCopyable() {
        func requireBitwiseCopyableSendable<T: BitwiseCopyable & Sendable>(_: T.Type) -> Bool { true }
        #expect(requireBitwiseCopyableSendable(CLLocationCoordinate2D.self))
        #expect(MemoryLayout<CLLocationCoordinate2D>.size == 16)
    }
}
