import Foundation
import LocationCore
import LocationProtocol

/// Reduced ("approximate") accuracy, applied inside the service so precise data never reaches
/// an app that may only see an approximate location.
///
/// Following Apple's description of approximate location: the location is *quantised*
/// to fixed cells a few kilometres wide — not noise, which averaging would defeat — and it changes
/// only when the device crosses into another cell, at most a few times per hour. Altitude, speed and
/// course are withheld. The cells are a plain latitude/longitude grid; Apple's regions also follow
/// population, these do not.
public struct ApproximateLocation: Sendable {
    /// Cell height, degrees of latitude (≈ 5.6 km).
    public static let cellDegrees = 0.05
    /// Reported horizontal accuracy, metres.
    public static let reportedAccuracy = 5_000.0
    /// Minimum time between two approximate updates, seconds.
    public static let minimumInterval: TimeInterval = 15 * 60
    /// The desired accuracy (`kCLLocationAccuracyReduced`, metres) with which an app asks for
    /// approximate locations even when it may have precise ones.
    public static let requestedAccuracy = 6_380_000.0
    /// What the engine is asked for on behalf of an approximate stream: no GPS-grade demand.
    public static let engineAccuracy = 3_000.0

    private var lastCell: Cell?
    private var lastSent: Date?

    public init() {}

    /// The approximate fix to deliver for `fix`, or nil when nothing new may be said yet.
    public mutating func filter(_ fix: Fix) -> Fix? {
        let cell = Cell(latitude: fix.latitude, longitude: fix.longitude)
        if let lastCell, let lastSent {
            guard cell != lastCell, fix.timestamp.timeIntervalSince(lastSent) >= Self.minimumInterval else {
                return nil
            }
        }
        lastCell = cell
        lastSent = fix.timestamp
        let centre = cell.centre
        return Fix(
            latitude: centre.latitude, longitude: centre.longitude,
            horizontalAccuracy: Self.reportedAccuracy,
            timestamp: fix.timestamp, isSimulated: fix.isSimulated,
            isProducedByAccessory: fix.isProducedByAccessory)
    }

    /// A grid cell: fixed latitude bands, and longitude steps widened toward the poles so that
    /// cells stay roughly square on the ground.
    struct Cell: Equatable {
        let row: Int
        let column: Int
        let columns: Int

        init(latitude: Double, longitude: Double) {
            let rows = Int((180 / ApproximateLocation.cellDegrees).rounded())
            row = min(rows - 1, max(0, Int(((latitude + 90) / ApproximateLocation.cellDegrees).rounded(.down))))
            let bandCentre = -90 + (Double(row) + 0.5) * ApproximateLocation.cellDegrees
            columns = max(1, Int((360 * cos(bandCentre * .pi / 180) / ApproximateLocation.cellDegrees).rounded(.down)))
            let width = 360 / Double(columns)
            column = min(columns - 1, max(0, Int(((longitude + 180) / width).rounded(.down))))
        }

        var centre: (latitude: Double, longitude: Double) {
            let width = 360 / Double(columns)
            return (-90 + (Double(row) + 0.5) * ApproximateLocation.cellDegrees,
                    -180 + (Double(column) + 0.5) * width)
        }
    }
}
