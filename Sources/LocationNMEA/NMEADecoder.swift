// PLACEHOLDER API (issue #3): the NMEA 0183 decoder is being written; this is the contract other
// modules code against. No Foundation in this module.

/// How a receiver reports its fix mode (GSA field 2, or derived from GGA/RMC).
public enum NMEAFixMode: Int, Sendable, Equatable {
    case noFix = 1
    case twoD = 2
    case threeD = 3
}

/// One epoch's position, assembled from all the sentences the receiver sent for it.
/// Optional fields are nil when no sentence of the epoch carried them.
public struct NMEAFix: Sendable, Equatable {
    /// Degrees, WGS84.
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level (GGA).
    public var altitudeMSL: Double?
    /// Metres of geoid above the ellipsoid (GGA); ellipsoidal height = MSL + separation.
    public var geoidSeparation: Double?
    /// Metres, 1σ: from GST when present, otherwise estimated from DOP (documented constant).
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    /// Metres per second over ground (RMC/VTG).
    public var speed: Double?
    /// Degrees from true north (RMC/VTG).
    public var course: Double?
    /// True heading from HDT/THS, degrees.
    public var heading: Double?
    /// Seconds since 1970-01-01T00:00:00Z; nil until a date is known (RMC/ZDA).
    public var time: Double?
    /// Seconds since midnight UTC of the epoch (for pacing replays even without a date).
    public var timeOfDay: Double?
    /// GGA fix quality (0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, …).
    public var quality: Int
    public var mode: NMEAFixMode
    public var satellitesUsed: Int?
    public var satellitesInView: Int?
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?

    public init(
        latitude: Double, longitude: Double, altitudeMSL: Double? = nil, geoidSeparation: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, speed: Double? = nil,
        course: Double? = nil, heading: Double? = nil, time: Double? = nil, timeOfDay: Double? = nil,
        quality: Int = 1, mode: NMEAFixMode = .threeD, satellitesUsed: Int? = nil, satellitesInView: Int? = nil,
        hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.heading = heading
        self.time = time
        self.timeOfDay = timeOfDay
        self.quality = quality
        self.mode = mode
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }
}

/// What one completed epoch says.
public enum NMEAEvent: Sendable, Equatable {
    case fix(NMEAFix)
    /// The receiver reported no valid position for this epoch (GGA quality 0, RMC status V, …).
    case noFix(timeOfDay: Double?)
}

/// Streaming NMEA 0183 decoder: bytes in (any chunking), one event per completed epoch out.
public struct NMEADecoder: Sendable {
    public struct Options: Sendable, Equatable {
        /// Accept sentences without a `*hh` checksum (only for sources configured to allow it).
        public var allowMissingChecksum: Bool
        public init(allowMissingChecksum: Bool = false) { self.allowMissingChecksum = allowMissingChecksum }
    }

    public let options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Feeds bytes; calls `onEvent` for every epoch these bytes complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onEvent: (NMEAEvent) -> Void) {}

    /// Feeds bytes from any collection (convenience for tests and small inputs).
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes, onEvent: (NMEAEvent) -> Void) where Bytes.Element == UInt8 {
        Array(bytes).withUnsafeBytes { feed($0, onEvent: onEvent) }
    }

    /// Ends the input (end of file): completes the last epoch.
    public mutating func finish(onEvent: (NMEAEvent) -> Void) {}

    /// Counts of what was seen and rejected.
    public var statistics: NMEAStatistics { NMEAStatistics() }
}

/// Counts kept by the decoder.
public struct NMEAStatistics: Sendable, Equatable {
    public var sentences = 0
    public var epochs = 0
    public var badChecksum = 0
    public var missingChecksum = 0
    public var malformed = 0
    public var overlong = 0
    public var unsupported = 0
    public init() {}
}
