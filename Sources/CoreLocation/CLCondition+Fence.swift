import LocationProtocol

/// Conditions as the service knows them, and back.
enum ConditionMapping {
    /// The fence a condition becomes, or nil for one the service cannot watch: a type it does not
    /// know, or a circle that is no place on Earth (which the service would refuse).
    static func fence(for condition: any CLCondition) -> FenceCondition? {
        switch condition {
        case let circle as CLMonitor.CircularGeographicCondition:
            CLLocationCoordinate2DIsValid(circle.center) && circle.radius.isFinite && circle.radius > 0
                ? .circle(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
                : nil
        case let beacon as CLMonitor.BeaconIdentityCondition:
            .beacon(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor)
        default:
            nil
        }
    }

    static func condition(for fence: FenceCondition) -> any CLCondition {
        switch fence {
        case let .circle(latitude, longitude, radius):
            CLMonitor.CircularGeographicCondition(
                center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius)
        case let .beacon(uuid, major, minor):
            CLMonitor.BeaconIdentityCondition(identity: uuid, major: major, minor: minor)
        }
    }
}
