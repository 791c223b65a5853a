/// What the user is doing, so location services can tune power and automatic pausing.
///
/// Raw values start at 1, as Apple's do.
/// NOTE: Apple's iOS 27 beta adds `.maritime`; its raw value is not yet known, so it is absent.
public enum CLActivityType: Int, Sendable {
    /// Unknown activity (the default).
    case other = 1
    /// Driving with turn-by-turn navigation.
    case automotiveNavigation = 2
    /// Walking, running, cycling and similar.
    case fitness = 3
    /// Other vehicular navigation (boats, trains, off-road).
    case otherNavigation = 4
    /// Flying.
    case airborne = 5
}
