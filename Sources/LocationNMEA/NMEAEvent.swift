/// What one completed epoch says.
public enum NMEAEvent: Sendable, Equatable {
    case fix(NMEAFix)
    /// The receiver reported no valid position for this epoch (GGA quality 0, RMC status V, …).
    case noFix(timeOfDay: Double?)
}
