/// The simulated routes that ship with the project, selected with `sim:NAME`.
///
/// Each is a closed circuit (or an out-and-back) of real streets, turned into a 1 Hz timed track by
/// `RouteGenerator` and repeated forever. Geoid separations are EGM96 undulations for the region,
/// rounded to the metre: about −32 m both in San Francisco and around Cupertino.
public enum BuiltInRoute: String, CaseIterable, Sendable {
    case walk
    case run
    case cityDrive = "city-drive"
    case freewayDrive = "freeway-drive"

    /// The name used in `sim:NAME`.
    public var name: String { rawValue }

    /// One line for `locationctl` help.
    public var summary: String {
        switch self {
        case .walk:
            "walk round Union Square, up Nob Hill and down through Chinatown, San Francisco (1.4 m/s, waits at crossings)"
        case .run:
            "run along The Embarcadero, Ferry Building to Pier 39 and back, San Francisco (about 3 m/s)"
        case .cityDrive:
            "drive round De Anza, Homestead, Wolfe and Stevens Creek, Cupertino (up to 15 m/s, stops at lights)"
        case .freewayDrive:
            "drive the CA-85 / US-101 / I-280 loop, Mountain View and San Jose (25-33 m/s)"
        }
    }

    /// The route with the given `sim:` name, if there is one.
    public init?(name: String) { self.init(rawValue: name) }

    /// How the simulated receiver reports fixes on this route.
    public var profile: FixProfile {
        switch self {
        case .walk: FixProfile(horizontalAccuracy: 5, verticalAccuracy: 8, speedAccuracy: 0.5,
                               courseAccuracy: 10, geoidSeparation: -32)
        case .run: FixProfile(horizontalAccuracy: 5, verticalAccuracy: 8, speedAccuracy: 0.5,
                              courseAccuracy: 10, geoidSeparation: -32)
        case .cityDrive: FixProfile(horizontalAccuracy: 6, verticalAccuracy: 8, speedAccuracy: 0.5,
                                    courseAccuracy: 5, geoidSeparation: -32)
        case .freewayDrive: FixProfile(horizontalAccuracy: 5, verticalAccuracy: 8, speedAccuracy: 0.5,
                                       courseAccuracy: 5, geoidSeparation: -32)
        }
    }

    /// The motion model of the traveller.
    public var generator: RouteGenerator {
        switch self {
        case .walk:
            RouteGenerator(cruiseSpeed: 1.4, acceleration: 0.7, deceleration: 0.9, lateralAcceleration: 1,
                           turnRadius: 3, speedVariation: 0.08, variationWavelength: 250)
        case .run:
            RouteGenerator(cruiseSpeed: 3.0, acceleration: 1.0, deceleration: 1.2, lateralAcceleration: 1.5,
                           turnRadius: 4, speedVariation: 0.15, variationWavelength: 600)
        case .cityDrive:
            RouteGenerator(cruiseSpeed: 14.5, acceleration: 2.0, deceleration: 2.5, lateralAcceleration: 2.5,
                           turnRadius: 12, speedVariation: 1.0, variationWavelength: 900)
        case .freewayDrive:
            RouteGenerator(cruiseSpeed: 29.5, acceleration: 0.8, deceleration: 1.2, lateralAcceleration: 2.5,
                           turnRadius: 400, speedVariation: 2.0, variationWavelength: 3500)
        }
    }

    /// The waypoints of one lap (the generator closes the circuit back to the first).
    public var waypoints: [RouteGenerator.Waypoint] {
        switch self {
        case .walk: RouteData.walk
        case .run: RouteData.run
        case .cityDrive: RouteData.cityDrive
        case .freewayDrive: RouteData.freewayDrive
        }
    }

    /// The generated 1 Hz track of one lap (looping). Generated once per process, then shared.
    public var track: TimedTrack {
        switch self {
        case .walk: RouteData.walkTrack
        case .run: RouteData.runTrack
        case .cityDrive: RouteData.cityDriveTrack
        case .freewayDrive: RouteData.freewayDriveTrack
        }
    }
}

extension RouteData {
    static let walkTrack = BuiltInRoute.walk.generator.track(through: walk, closed: true)
    static let runTrack = BuiltInRoute.run.generator.track(through: run, closed: true)
    static let cityDriveTrack = BuiltInRoute.cityDrive.generator.track(through: cityDrive, closed: true)
    static let freewayDriveTrack = BuiltInRoute.freewayDrive.generator.track(through: freewayDrive, closed: true)
}
