/// Whether the device is inside a monitored region. Raw values match Apple's.
public enum CLRegionState: Int, Sendable {
    /// Not yet known.
    case unknown = 0
    /// Inside the region.
    case inside = 1
    /// Outside the region.
    case outside = 2
}
