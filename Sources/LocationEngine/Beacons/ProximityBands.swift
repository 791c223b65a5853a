import LocationProtocol

/// Where proximity changes, with hysteresis: a beacon becomes immediate below `immediateEnter`
/// metres but stays so until beyond `immediateExit`, and becomes near (from far) below `nearEnter`
/// but stays near until beyond `nearExit`. A change must hold for `dwell` consecutive rangings
/// before it is reported, and proximity moves one band at a time, so immediate and far are never
/// one report apart. Noise at a boundary therefore does not make proximity flap.
public struct ProximityBands: Sendable, Equatable {
    public var immediateEnter = 0.5
    public var immediateExit = 1.0
    public var nearEnter = 3.0
    public var nearExit = 6.0
    /// Consecutive rangings (about a second each) a change must hold.
    public var dwell = 2

    public init() {}

    /// The band a first estimate falls in, without history.
    func initial(_ distance: Double) -> BeaconProximity {
        if distance < immediateEnter { return .immediate }
        if distance < nearEnter { return .near }
        return .far
    }

    /// The band one step from `current` that `distance` calls for (`current` itself when none).
    func next(from current: BeaconProximity, distance: Double) -> BeaconProximity {
        switch current {
        case .unknown: initial(distance)
        case .immediate: distance > immediateExit ? .near : .immediate
        case .near: distance < immediateEnter ? .immediate : distance > nearExit ? .far : .near
        case .far: distance < nearEnter ? .near : .far
        }
    }
}

/// One beacon's reported proximity: `ProximityBands` applied estimate after estimate.
struct ProximityTracker: Sendable {
    private(set) var current: BeaconProximity = .unknown
    private var candidate: BeaconProximity = .unknown
    private var candidateCount = 0

    /// The proximity to report for this ranging's distance; nil distance: unknown at once.
    mutating func update(distance: Double?, bands: ProximityBands) -> BeaconProximity {
        guard let distance else {
            current = .unknown
            candidateCount = 0
            return current
        }
        if current == .unknown {
            current = bands.initial(distance)
            candidateCount = 0
            return current
        }
        let wanted = bands.next(from: current, distance: distance)
        if wanted == current {
            candidateCount = 0
        } else if wanted == candidate && candidateCount > 0 {
            candidateCount += 1
        } else {
            candidate = wanted
            candidateCount = 1
        }
        if candidateCount >= bands.dwell {
            current = wanted
            candidateCount = 0
        }
        return current
    }
}
