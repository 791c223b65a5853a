/// The state of a condition a `CLMonitor` watches; Swift code spells it `CLMonitor.Event.State`.
///
/// The name is Apple's exactly: in Apple's SDK, `CLMonitor.Event.State` is a typealias of the
/// Objective-C enumeration `CLMonitoringState`, imported as `__CLMonitoringState`. Code that
/// writes `CLMonitor.Event.State.unknown` or `case .satisfied` compiles the same on both. Raw
/// values are Apple's (`NSUInteger`).
public enum __CLMonitoringState: UInt, Sendable {
    /// Not determined yet.
    case unknown = 0
    /// The condition holds: the device is inside the circle.
    case satisfied = 1
    /// The condition does not hold: the device is outside the circle.
    case unsatisfied = 2
    /// The condition is not watched: it is over the app's limit, or unsupported on this device.
    case unmonitored = 3
}
