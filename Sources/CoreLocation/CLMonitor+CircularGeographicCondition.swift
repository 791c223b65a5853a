extension CLMonitor {
    /// Satisfied while the device is inside a circle on the Earth's surface.
    public struct CircularGeographicCondition: CLCondition {
        /// The centre of the circle.
        public let center: CLLocationCoordinate2D
        /// The radius of the circle, in metres.
        public let radius: CLLocationDistance

        /// A circle around `center` of `radius` metres.
        ///
        /// Not an error here: a radius that is not positive, larger than
        /// `CLLocationManager.maximumRegionMonitoringDistance`, or an invalid centre. Adding such a
        /// condition gives it the state `.unmonitored` and an event with `conditionUnsupported`.
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
            self.center = center
            self.radius = radius
        }

        // `CLLocationCoordinate2D` is deliberately not `Codable` (apps declare that conformance
        // themselves), so the centre is coded as its two numbers.
        private enum CodingKeys: String, CodingKey {
            case latitude, longitude, radius
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            center = CLLocationCoordinate2D(
                latitude: try container.decode(CLLocationDegrees.self, forKey: .latitude),
                longitude: try container.decode(CLLocationDegrees.self, forKey: .longitude))
            radius = try container.decode(CLLocationDistance.self, forKey: .radius)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(center.latitude, forKey: .latitude)
            try container.encode(center.longitude, forKey: .longitude)
            try container.encode(radius, forKey: .radius)
        }
    }
}
