import Foundation

/// Approximate regions as a plain latitude/longitude grid of cells about 5.6 km high, reported at
/// their centres. The fallback when no better layout can be had (the places database cannot be
/// opened): it knows no borders, and its layout is public.
public struct GridApproximateRegions: ApproximateRegions {
    /// Cell height, degrees of latitude (≈ 5.6 km).
    public static let cellDegrees = 0.05

    public init() {}

    public func region(latitude: Double, longitude: Double) -> ApproximateRegion {
        let rows = Int((180 / Self.cellDegrees).rounded())
        let row = min(rows - 1, max(0, Int(((latitude + 90) / Self.cellDegrees).rounded(.down))))
        let centreLatitude = -90 + (Double(row) + 0.5) * Self.cellDegrees
        // Longitude steps widen toward the poles so that cells stay roughly square on the ground.
        let columns = max(1, Int((360 * cos(centreLatitude * .pi / 180) / Self.cellDegrees).rounded(.down)))
        let width = 360 / Double(columns)
        let column = min(columns - 1, max(0, Int(((longitude + 180) / width).rounded(.down))))
        let centreLongitude = -180 + (Double(column) + 0.5) * width
        // Half the cell's diagonal, on the ground, bounds every point of it.
        let metresPerDegree = 111_320.0
        let halfHeight = Self.cellDegrees / 2 * metresPerDegree
        let halfWidth = width / 2 * metresPerDegree * cos((abs(centreLatitude) - Self.cellDegrees / 2) * .pi / 180)
        return ApproximateRegion(
            id: UInt64(row) << 32 | UInt64(column), latitude: centreLatitude, longitude: centreLongitude,
            radius: (halfHeight * halfHeight + halfWidth * halfWidth).squareRoot() * 1.01)
    }
}
