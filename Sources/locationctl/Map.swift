import ArgumentParser
import Foundation
import LocationApproximation
import LocationPlaces
import LocationSources

extension LocationCtl {
    struct Map: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "map",
            abstract: "Draw a track, circular fences and where their events fire as an SVG map.",
            discussion: """
                Reads the source to its end as fast as possible (a built-in route: one lap; a fixed \
                point: one fix), then draws the track, each fence as a true circle on the ground, and \
                a marker where each enter (green disc) or exit (red square) event fired. A fix counts \
                as inside a fence when its whole accuracy circle is, as outside when its whole \
                accuracy circle is outside; the first state learned is not an event.

                With --approximate, also what an app with approximate location is told along the \
                track: each region's reported point (purple diamond) and the radius round it that \
                holds the region (dashed circle), joined in order, with a ring on the track where the \
                reported point changed. The layout is a random one (or --seed's), never this \
                device's: a shared picture would give the device's secret layout away.
                """)

        @Option(name: .long, help: ArgumentHelp(
            "A replayable source: sim:NAME, gpx:PATH, nmea:FILE or fixed:LAT,LON[,ACCURACY].",
            discussion: "Live receivers (gpsd, serial devices, TCP, standard input) have no end to read to."))
        var source: String = "sim:city-drive"

        @Option(name: .long, help: ArgumentHelp(
            "A circular fence: LAT,LON,RADIUS[,ID] (degrees, metres); repeatable.", valueName: "fence"))
        var fence: [String] = []

        @Option(name: .long, help: ArgumentHelp(
            "A file of fences, one LAT,LON,RADIUS[,ID] a line ('#' comments).", valueName: "file"))
        var fences: String?

        @Flag(name: .long, help: "Draw the approximate regions an app with reduced accuracy is told along the track.")
        var approximate = false

        @Option(name: .long, help: ArgumentHelp(
            "With --approximate: the layout's seed, 64 hexadecimal digits (default: a random one).", valueName: "hex"))
        var seed: String?

        @Option(name: .long, help: "Read at most this many seconds of the source's time.")
        var duration: Double?

        @Option(name: .long, help: "Width of the picture in pixels.")
        var width: Int = 1000

        @Option(name: .long, help: "Height of the picture in pixels.")
        var height: Int = 800

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the SVG here (default: standard output).", valueName: "file"))
        var output: String?

        func validate() throws {
            guard (200...20_000).contains(width), (200...20_000).contains(height) else {
                throw ValidationError("--width and --height must be from 200 to 20000 pixels")
            }
            if let duration, !(duration.isFinite && duration >= 0) {
                throw ValidationError("--duration must be a number of seconds, 0 or more")
            }
            if let seed {
                guard approximate else { throw ValidationError("--seed needs --approximate") }
                guard MapApproximation.seed(hex: seed) != nil else { throw ValidationError("--seed must be 64 hexadecimal digits") }
            }
        }

        func run() throws {
            LocationCtl.bootstrapLogging(verbose: false)
            let spec: SourceSpec
            do {
                spec = try SourceSpec(source)
            } catch {
                throw CommandFailure("\(error)")
            }
            let fences = try readFences()
            let fixes = try SourceReading.fixes(of: spec, limit: duration)
            guard !fixes.isEmpty else { throw CommandFailure("\(source) gave no fix") }
            let events = MapEvents.events(fixes: fixes, fences: fences)
            var approximateRegions: [MapApproximateRegion] = []
            if approximate {
                let database: PlacesDatabase
                switch PlacesDatabase.shared {
                case .success(let opened): database = opened
                case .failure(let error): throw CommandFailure("--approximate needs the places database: \(error)")
                }
                let layout = seed.flatMap(MapApproximation.seed(hex:)) ?? MapApproximation.randomSeed()
                approximateRegions = MapApproximation.regions(
                    fixes: fixes, regions: PlaceApproximateRegions(database: database, seed: layout))
            }
            let drawing = MapDrawing(source: source, fixes: fixes, fences: fences, events: events, approximate: approximateRegions)
            let svg = SVGMap(drawing, width: Double(width), height: Double(height)).render()
            if let output {
                do {
                    try Data(svg.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
                }
            } else {
                FileHandle.standardOutput.write(Data(svg.utf8))
            }
        }

        /// `--fence` options first, then the `--fences` file; unnamed fences are numbered in that order.
        private func readFences() throws -> [MapFence] {
            var result: [MapFence] = []
            do {
                for text in fence {
                    result.append(try MapFence(parsing: text, defaultIdentifier: "fence-\(result.count + 1)"))
                }
                if let fences {
                    let text: String
                    do {
                        text = try String(contentsOfFile: fences, encoding: .utf8)
                    } catch {
                        throw MapInputError("cannot read \(fences): \(error.localizedDescription)")
                    }
                    result += try MapFence.parseFile(text, name: fences, firstNumber: result.count + 1)
                }
            } catch let error as MapInputError {
                throw CommandFailure(error.description)
            }
            return result
        }
    }
}
