/// The relative distance to a ranged beacon. Raw values match Apple's.
public enum CLProximity: Int, Sendable {
    /// The proximity could not be determined.
    case unknown = 0
    /// Very close, typically within centimetres.
    case immediate = 1
    /// Within a few metres.
    case near = 2
    /// Farther away, or a weak signal.
    case far = 3
}
