import Foundation
import LocationProtocol
import TestSupport
import Testing
import TrackFixtures
@testable import locationctl

/// Headless Chromium, when installed (Debian: `apt-get install chromium`).
enum Chromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Renders `svg` at `width`×`height` CSS pixels (device scale 1) and decodes the screenshot.
    static func screenshot(of svg: URL, width: Int, height: Int, in directory: URL) throws -> PNGImage {
        let png = directory.appendingPathComponent("screenshot.png")
        let result = try run(URL(fileURLWithPath: try #require(path)), [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--screenshot=\(png.path)", "--window-size=\(width),\(height)", svg.absoluteString,
        ], timeout: 120)
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(2000))")
        return try PNGImage(contentsOf: png)
    }
}

/// The SVG of `locationctl map`, as a real browser draws it: the colours are where the projection
/// says the fences, the track and the events are.
@Suite(.serialized) struct MapBrowserTests {
    struct Colour {
        let red: Int, green: Int, blue: Int

        init(_ hex: String) {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            red = value >> 16
            green = value >> 8 & 0xFF
            blue = value & 0xFF
        }

        init(red: Int, green: Int, blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// This colour laid at `opacity` over white.
        func overWhite(_ opacity: Double) -> Colour {
            func blend(_ channel: Int) -> Int { Int((Double(channel) * opacity + 255 * (1 - opacity)).rounded()) }
            return Colour(red: blend(red), green: blend(green), blue: blend(blue))
        }

        func matches(_ pixel: PNGImage.Pixel, tolerance: Int = 24) -> Bool {
            abs(Int(pixel.red) - red) <= tolerance && abs(Int(pixel.green) - green) <= tolerance
                && abs(Int(pixel.blue) - blue) <= tolerance
        }
    }

    /// Whether a pixel of `colour` lies within `radius` pixels of (x, y).
    static func found(_ colour: Colour, near point: MapPoint, radius: Int = 2, in image: PNGImage) -> Bool {
        let x0 = Int(point.x.rounded()), y0 = Int(point.y.rounded())
        for y in (y0 - radius)...(y0 + radius) where y >= 0 && y < image.height {
            for x in (x0 - radius)...(x0 + radius) where x >= 0 && x < image.width {
                if colour.matches(image[x, y]) { return true }
            }
        }
        return false
    }

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium): the map is not checked in a browser"))
    func aBrowserDrawsTheFencesTrackAndEventsWhereTheProjectionPutsThem() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let drive = try DriveWithFences()
        let map = SVGMap(drive.drawing, width: 1000, height: 800)
        let file = temporary.url.appendingPathComponent("map.svg")
        try Data(map.render().utf8).write(to: file)
        let image = try Chromium.screenshot(of: file, width: 1000, height: 800, in: temporary.url)
        #expect(image.width == 1000 && image.height == 800)
        let projection = map.projection

        // A corner far from the data is background.
        #expect(Colour(SVGMap.Colour.background).matches(image[999, 40], tolerance: 2))

        // Fences: the outline in the fence colour on (at least three of) its four extremes, and the
        // translucent fill inside.
        let stroke = Colour(SVGMap.Colour.fence), fill = Colour(SVGMap.Colour.fence).overWhite(0.18)
        for fence in drive.fences {
            let outline = projection.groundCircle(latitude: fence.latitude, longitude: fence.longitude, radius: fence.radius, count: 4)
            let onOutline = outline.filter { Self.found(stroke, near: $0, in: image) }.count
            #expect(onOutline >= 3, "\(fence.identifier): outline seen at \(onOutline) of 4 points")
            let centre = projection.point(latitude: fence.latitude, longitude: fence.longitude)
            let inside = projection.groundCircle(latitude: fence.latitude, longitude: fence.longitude, radius: fence.radius * 0.6, count: 8)
            let filled = (inside + [centre]).filter { Self.found(fill, near: $0, radius: 3, in: image) }.count
            #expect(filled >= 3, "\(fence.identifier): fill seen at \(filled) of 9 points")
        }

        // The track: its colour along the line, at (nearly) every tenth fix.
        let track = Colour(SVGMap.Colour.track)
        let samples = stride(from: 0, to: drive.fixes.count, by: 10).map { drive.fixes[$0] }
        let onTrack = samples.filter {
            Self.found(track, near: projection.point(latitude: $0.latitude, longitude: $0.longitude), in: image)
        }.count
        #expect(Double(onTrack) >= 0.8 * Double(samples.count), "track seen at \(onTrack) of \(samples.count) fixes")

        // Events: a marker of the right colour where each fired (a later marker may cover an earlier one).
        let enter = Colour(SVGMap.Colour.entry), exit = Colour(SVGMap.Colour.exit)
        var seen: [MapEvent.Kind: Int] = [:]
        for event in drive.events {
            let point = projection.point(latitude: event.latitude, longitude: event.longitude)
            if Self.found(event.kind == .enter ? enter : exit, near: point, radius: 3, in: image) { seen[event.kind, default: 0] += 1 }
        }
        let enters = drive.events.filter { $0.kind == .enter }.count, exits = drive.events.count - enters
        #expect(enters > 0 && exits > 0)
        #expect(Double(seen[.enter] ?? 0) >= 0.8 * Double(enters), "enter markers seen: \(seen[.enter] ?? 0) of \(enters)")
        #expect(Double(seen[.exit] ?? 0) >= 0.8 * Double(exits), "exit markers seen: \(seen[.exit] ?? 0) of \(exits)")
        // And nowhere near a marker, no marker colour: the top-left quarter of the title band.
        let band = (0..<200).flatMap { x in (0..<10).map { y in image[x, y] } }
        #expect(!band.contains { enter.matches($0) || exit.matches($0) })
    }

    /// The decoder itself, on a picture whose pixels are known.
    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium)"))
    func theDecoderReadsKnownPixels() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("known.svg")
        try """
            <svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
            <rect width="300" height="200" fill="#ffffff"/>
            <rect x="10" y="20" width="30" height="40" fill="#ff0000"/>
            <circle cx="200" cy="100" r="50" fill="#0000ff"/>
            </svg>
            """.write(to: file, atomically: true, encoding: .utf8)
        let image = try Chromium.screenshot(of: file, width: 300, height: 200, in: temporary.url)
        #expect(image.width == 300 && image.height == 200)
        #expect(image[25, 40] == PNGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image[200, 100] == PNGImage.Pixel(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(image[5, 5] == PNGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image[260, 100] == PNGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255), "just outside the circle")
    }
}
