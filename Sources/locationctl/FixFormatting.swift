import Foundation
import LocationCore
import LocationProtocol

/// The JSON and text forms of a fix shared by `locate`, `watch` and `decode`.
enum FixFormatting {
    /// One JSON object on one line, keys in a fixed order (the names of `CLLocation`'s properties):
    /// see `JSONFixWriter`.
    static func json(_ fix: Fix) -> String {
        JSONFixWriter.string(fix)
    }

    /// ISO 8601 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        JSONFixWriter.timestampString(date.timeIntervalSince1970)
    }

    /// A compact human-readable line.
    static func line(_ fix: Fix) -> String {
        var parts = [String(format: "%@  %.6f, %.6f  ±%.0f m", timestamp(fix.timestamp), fix.latitude, fix.longitude, fix.horizontalAccuracy)]
        if fix.verticalAccuracy > 0 { parts.append(String(format: "alt %.1f m", fix.altitude)) }
        if fix.speedAccuracy >= 0, fix.speed >= 0 { parts.append(String(format: "%.1f km/h", fix.speed * 3.6)) }
        if fix.courseAccuracy >= 0, fix.course >= 0 { parts.append(String(format: "course %03.0f° %@", fix.course, compassPoint(fix.course))) }
        if fix.isSimulated { parts.append("(simulated)") }
        return parts.joined(separator: "  ")
    }

    static func compassPoint(_ course: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return points[Int(((course.truncatingRemainder(dividingBy: 360)) + 22.5) / 45) % 8]
    }
}
