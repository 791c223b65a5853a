import Foundation

/// The plaintext of an app's approximate-location file, as JSON:
/// `{"format":"corelocation.approximate","version":1,"app":ID,"current":{…}|absent,"reports":[…]}`,
/// keys sorted, dates as seconds since 2001. Reading is strict: another format or version, another
/// app, an unknown key, a coordinate out of range, a radius that is not positive, more reports than
/// ``maximumReports`` or reports out of order are refused, never guessed at.
public enum ApproximationFileFormat {
    public static let format = "corelocation.approximate"
    public static let version = 1
    /// More than the rate limit ever keeps (4 an hour); a file with more was not written by us.
    public static let maximumReports = 16

    public static func encode(_ value: StoredApproximation, appID: String) throws(ApproximationFileError) -> Data {
        try validate(value)
        let file = FileDTO(
            app: appID, format: format, version: version,
            current: value.current.map {
                ReportDTO(region: String($0.regionID, radix: 16), latitude: $0.latitude, longitude: $0.longitude,
                          radius: $0.radius, timestamp: $0.timestamp.timeIntervalSinceReferenceDate, simulated: $0.isSimulated)
            },
            reports: value.recentReports.map(\.timeIntervalSinceReferenceDate))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(file)
        } catch {
            throw .invalid("cannot encode: \(error)")
        }
    }

    /// The app's value; refuses a file that names another app.
    public static func decode(_ data: Data, appID: String) throws(ApproximationFileError) -> StoredApproximation {
        let (stored, value) = try decodeAnyApp(data)
        guard stored == appID else { throw .foreign(storedAppID: stored, expectedAppID: appID) }
        return value
    }

    /// The app the file names and its value.
    public static func decodeAnyApp(_ data: Data) throws(ApproximationFileError) -> (appID: String, value: StoredApproximation) {
        let file: FileDTO
        do {
            file = try JSONDecoder().decode(FileDTO.self, from: data)
        } catch {
            throw .notAnApproximationFile("\(error)")
        }
        guard file.format == format else { throw .notAnApproximationFile("format \(file.format)") }
        guard file.version == version else { throw .unsupportedVersion(file.version) }
        var current: StoredApproximation.Report?
        if let report = file.current {
            guard let id = UInt64(report.region, radix: 16), String(id, radix: 16) == report.region else {
                throw .invalid("region \(report.region) is not a lowercase hexadecimal id")
            }
            current = StoredApproximation.Report(
                regionID: id, latitude: report.latitude, longitude: report.longitude, radius: report.radius,
                timestamp: Date(timeIntervalSinceReferenceDate: report.timestamp), isSimulated: report.simulated)
        }
        let value = StoredApproximation(
            current: current, recentReports: file.reports.map { Date(timeIntervalSinceReferenceDate: $0) })
        try validate(value)
        return (file.app, value)
    }

    static func validate(_ value: StoredApproximation) throws(ApproximationFileError) {
        if let report = value.current {
            guard (-90...90).contains(report.latitude), (-180...180).contains(report.longitude) else {
                throw .invalid("coordinate \(report.latitude), \(report.longitude) out of range")
            }
            guard report.radius > 0, report.radius.isFinite else { throw .invalid("radius \(report.radius)") }
            guard report.timestamp.timeIntervalSinceReferenceDate.isFinite else { throw .invalid("timestamp") }
        }
        guard value.recentReports.count <= maximumReports else {
            throw .invalid("\(value.recentReports.count) reports; at most \(maximumReports)")
        }
        let times = value.recentReports.map(\.timeIntervalSinceReferenceDate)
        guard times.allSatisfy(\.isFinite), zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw .invalid("reports not finite and in order")
        }
    }

    // Unknown keys are refused: a file with fields this version does not know was not written by it.
    private struct FileDTO: Codable {
        var app: String
        var format: String
        var version: Int
        var current: ReportDTO?
        var reports: [Double]

        enum CodingKeys: String, CodingKey, CaseIterable { case app, format, version, current, reports }

        init(app: String, format: String, version: Int, current: ReportDTO?, reports: [Double]) {
            self.app = app
            self.format = format
            self.version = version
            self.current = current
            self.reports = reports
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            app = try container.decode(String.self, forKey: .app)
            format = try container.decode(String.self, forKey: .format)
            version = try container.decode(Int.self, forKey: .version)
            current = try container.decodeIfPresent(ReportDTO.self, forKey: .current)
            reports = try container.decode([Double].self, forKey: .reports)
        }
    }

    private struct ReportDTO: Codable {
        var region: String
        var latitude: Double
        var longitude: Double
        var radius: Double
        var timestamp: Double
        var simulated: Bool

        enum CodingKeys: String, CodingKey, CaseIterable { case region, latitude, longitude, radius, timestamp, simulated }

        init(region: String, latitude: Double, longitude: Double, radius: Double, timestamp: Double, simulated: Bool) {
            self.region = region
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
            self.timestamp = timestamp
            self.simulated = simulated
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            region = try container.decode(String.self, forKey: .region)
            latitude = try container.decode(Double.self, forKey: .latitude)
            longitude = try container.decode(Double.self, forKey: .longitude)
            radius = try container.decode(Double.self, forKey: .radius)
            timestamp = try container.decode(Double.self, forKey: .timestamp)
            simulated = try container.decode(Bool.self, forKey: .simulated)
        }
    }
}

public enum ApproximationFileError: Error, Equatable, CustomStringConvertible {
    case notAnApproximationFile(String)
    case unsupportedVersion(Int)
    case foreign(storedAppID: String, expectedAppID: String)
    case invalid(String)

    public var description: String {
        switch self {
        case .notAnApproximationFile(let reason): "not an approximate-location file: \(reason)"
        case .unsupportedVersion(let version): "format version \(version); this version reads \(ApproximationFileFormat.version)"
        case let .foreign(stored, expected): "the file belongs to \(stored), not \(expected)"
        case .invalid(let reason): "invalid approximate-location file: \(reason)"
        }
    }
}
