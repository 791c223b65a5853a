import CoreLocation
import Testing

@Suite struct CLDeviceOrientationTests {
    @Test(arguments: [
        (CLDeviceOrientation.unknown, Int32(0)), (.portrait, 1), (.portraitUpsideDown, 2),
        (.landscapeLeft, 3), (.landscapeRight, 4), (.faceUp, 5), (.faceDown, 6),
    ])
    func rawValue(orientation: CLDeviceOrientation, raw: Int32) {
        #expect(orientation.rawValue == raw)
        #expect(CLDeviceOrientation(rawValue: raw) == orientation)
    }

    @Test func rawType() {
        #expect(CLDeviceOrientation.RawValue.self == Int32.self)
        #expect(CLDeviceOrientation(rawValue: 7) == nil)
    }
}
