import Foundation
import LocationApproximation
import LocationPolicy
import LocationProtocol

/// A region an approximate app was told about along a track: the point and radius it saw, and from
/// which fix on (with the previous region, as the service asks, so the margin's delay shows).
struct MapApproximateRegion: Equatable, Sendable {
    var latitude: Double
    var longitude: Double
    /// Metres on the ground.
    var radius: Double
    /// The fix at which the app was first told this region.
    var firstFix: Int
    /// Where the device was at that fix (where the reported point changed).
    var changeLatitude: Double
    var changeLongitude: Double
}

/// What `locationctl map --approximate` adds: the regions the track's fixes are reported as.
enum MapApproximation {
    static func regions(fixes: [Fix], regions: PlaceApproximateRegions) -> [MapApproximateRegion] {
        var result: [MapApproximateRegion] = []
        var previous: ApproximateRegion?
        for (index, fix) in fixes.enumerated() where fix.hasValidPosition {
            let region = regions.region(latitude: fix.latitude, longitude: fix.longitude, previous: previous)
            if region.id != previous?.id {
                result.append(MapApproximateRegion(
                    latitude: region.latitude, longitude: region.longitude, radius: region.radius, firstFix: index,
                    changeLatitude: fix.latitude, changeLongitude: fix.longitude))
            }
            previous = region
        }
        return result
    }

    /// The 32 bytes of a 64-digit hexadecimal seed, or nil.
    static func seed(hex text: String) -> ApproximateRegionsSeed? {
        let digits = Array(text.utf8)
        guard digits.count == 2 * ApproximateRegionsSeed.byteCount else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return ApproximateRegionsSeed(bytes: bytes)
    }

    /// A fresh random layout: the drawing shows what regions look like, never this device's own
    /// layout (a shared picture would give it away).
    static func randomSeed() -> ApproximateRegionsSeed {
        var generator = SystemRandomNumberGenerator()
        return ApproximateRegionsSeed(bytes: (0..<ApproximateRegionsSeed.byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })!
    }
}
