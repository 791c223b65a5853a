import Foundation
import LocationPlaces
import LocationPolicy

/// Approximate location as regions of the places database, laid out by a per-device secret.
///
/// **The layout.** The Earth is cut into coarse cells about 11 km square (`RegionGrid`): bands of
/// latitude shifted by a seeded fraction of a band, each band cut into columns shifted by a seeded
/// fraction of a column of their own. How many people live round a coarse cell decides how finely it
/// is split (`RegionDensity`: 6 × 6 parts of 1.8 km in a city's core, down to 1 part in empty land),
/// and because that depends on the coarse cell alone, every position of a part agrees on the
/// split. A region is a part intersected with one (country, locality, land or sea) as reverse
/// geocoding answers them, so a region never crosses a country border nor the line between two
/// localities.
///
/// **The reported point** is chosen once per region, from the region and the seed alone
/// (`RegionPoint`): the first of 32 seeded random points of the part that reverse-geocodes to the
/// region's country and locality, else the locality's own point, else a seeded lattice over the coarse
/// cell. Every fix inside the region reports that one point, so the reported point keeps the country
/// and the city, and it carries no information about where inside the region the device is.
/// `radius` holds the whole part plus the hysteresis margin (1–20 km), so it always holds the device.
/// A region thinner than the lattice's spacing (a sixteenth of a coarse cell, ~700 m) may have no
/// point of its own: then a lattice point of the same country stands for it (the locality is not
/// kept), and where even the country has no lattice point — a sliver of a country — the fix's point
/// rounded to 0.001° is reported, the one case where the point depends on the fix. On 10,000 random
/// land points neither happens.
///
/// **Why averaging fails.** Noise can be averaged away; a point that does not depend on the true
/// position cannot: a thousand fixes of a device standing still in a region report the same point a
/// thousand times, and their average is that point.
///
/// **Why boundary timing fails.** Watching the reported point change tells an app the moment the
/// device crossed a region's edge. The edges are secret: the offsets come from the device's seed
/// (`ApproximateRegionsSeed`, never leaving the device), so the app does not know where the line it
/// saw crossed is. And a change counts only once the device is a seeded margin (5–15 % of the
/// cell's side) inside the new region (`region(latitude:longitude:previous:)`), so the moment of the
/// change is not even the moment the edge was crossed. Country borders are public and a country
/// is never misreported, so a change of country counts at once.
public final class PlaceApproximateRegions: ApproximateRegions {
    let layout: RegionLayout<PlacesDatabaseApproximationPlaces>

    /// What is reported for a position that is not one (not finite, out of range): no place at all,
    /// the widest radius, the same for every such input.
    public static let nowhere = ApproximateRegion(id: 0, latitude: 0, longitude: 0, radius: 20_000)

    public init(database: PlacesDatabase, seed: ApproximateRegionsSeed) {
        layout = RegionLayout(places: PlacesDatabaseApproximationPlaces(database: database), seed: seed.bytes)
    }

    public func region(latitude: Double, longitude: Double) -> ApproximateRegion {
        guard let entry = layout.entry(latitude: latitude, longitude: longitude) else { return Self.nowhere }
        return Self.reported(entry, latitude: latitude, longitude: longitude, layout: layout)
    }

    /// The region to report for a device that was last reported in `previous`: `previous` itself
    /// while the device is within `previous`'s margin of it (and in the same country), else the
    /// region of the position. A rate limiter that counts changes of `id` counts only real moves.
    public func region(latitude: Double, longitude: Double, previous: ApproximateRegion?) -> ApproximateRegion {
        guard let entry = layout.entry(latitude: latitude, longitude: longitude) else { return previous ?? Self.nowhere }
        let current = Self.reported(entry, latitude: latitude, longitude: longitude, layout: layout)
        guard let previous, previous.id != current.id, let before = Self.entry(of: previous, layout: layout),
              before.locality.country == entry.locality.country else { return current }
        if Self.isWithin(before.margin, of: previous.id, latitude: latitude, longitude: longitude, layout: layout) {
            return before.source == nil ? previous : before.region
        }
        return current
    }

    /// The entry of a region handed out before: from the cache, else (after a restart, or once the
    /// cache has started again) found again at its reported point, which lies in the region itself
    /// unless the region had to borrow its locality's point or a point of the coarse cell.
    static func entry<P>(of region: ApproximateRegion, layout: RegionLayout<P>) -> RegionEntry? {
        if let entry = layout.entry(identity: region.id) { return entry }
        guard let entry = layout.entry(latitude: region.latitude, longitude: region.longitude), entry.region.id == region.id else {
            return nil
        }
        return entry
    }

    /// Whether a point `margin` metres from the position, in one of eight directions, is in region `id`.
    static func isWithin<P>(_ margin: Double, of id: UInt64, latitude: Double, longitude: Double,
                            layout: RegionLayout<P>) -> Bool {
        let step = margin / RegionGrid.metresPerDegree
        let cosine = max(0.01, cos(latitude * .pi / 180))
        for direction in 0..<8 {
            let angle = Double(direction) * .pi / 4
            let probeLatitude = min(90, max(-90, latitude + step * cos(angle)))
            let probeLongitude = RegionGrid.normalised(longitude + step * sin(angle) / cosine)
            if layout.entry(latitude: probeLatitude, longitude: probeLongitude)?.region.id == id { return true }
        }
        return false
    }

    /// The entry's region, or for a sliver with no point of its own the fix's point rounded to
    /// 0.001° (kept only when it has the region's key, else the fix's point itself).
    static func reported<P>(_ entry: RegionEntry, latitude: Double, longitude: Double, layout: RegionLayout<P>) -> ApproximateRegion {
        guard entry.source == nil else { return entry.region }
        var point = ((latitude * 1000).rounded() / 1000, RegionGrid.normalised((longitude * 1000).rounded() / 1000))
        if layout.places.localityKey(latitude: point.0, longitude: point.1) != entry.locality { point = (latitude, longitude) }
        return ApproximateRegion(id: entry.region.id, latitude: point.0, longitude: point.1,
                                 radius: RegionLayout<P>.radius(cell: entry.cell, from: point, margin: entry.margin))
    }
}
