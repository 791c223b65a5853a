import ArgumentParser
import Foundation
import LocationEngine
import LocationProtocol

extension LocationCtl {
    struct Energy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "energy",
            abstract: "Replay a route through the engine once per app configuration and report source-on time and energy.",
            discussion: """
                Each configuration runs alone through the real engine on a virtual clock, with a \
                modelled device: a GNSS receiver (u-blox M8 data-sheet currents; commanded to \
                standby when no one needs it, unless --gnss-stays-on), Wi-Fi positioning (40 m) and \
                cell positioning (400 m) with power from a published measurement. The engine picks \
                the cheapest receiver each configuration's accuracy allows, pauses and wakes as it \
                does for apps. One row per configuration: how long each receiver drew power and how \
                many mWh it drew.
                """)

        @Option(name: .long, help: ArgumentHelp(
            "The route: \(EnergyRoute.commuteName) (drive, park 2 h, drive back), sim:NAME (one lap) or gpx:PATH."))
        var route: String = EnergyRoute.commuteName

        @Option(name: .long, help: ArgumentHelp(
            "Only this configuration (repeatable): " + Energy.configurations.map { "'\($0.name)'" }.joined(separator: ", ") + ".",
            valueName: "name"))
        var config: [String] = []

        @Option(name: .long, help: "Replay this many seconds of the route (default: all of it; one lap of a built-in route).")
        var duration: Double?

        @Flag(name: .long, help: "The GNSS receiver cannot be put to standby: it stays on when no one needs it.")
        var gnssStaysOn = false

        @Option(name: .long, help: ArgumentHelp(
            "The receivers the device has, comma-separated: gnss, wifi, cell.", valueName: "list"))
        var receivers: String = "gnss,wifi,cell"

        @Option(name: .long, help: ArgumentHelp("Also draw the energy as an SVG bar chart here.", valueName: "file"))
        var svg: String?

        /// The configurations Core Location's documentation discusses, as apps set them: continuous
        /// updates with automatic pausing off unless the name says auto-pause.
        static let configurations: [EnergyReplay.Configuration] = [
            .init(name: "best for navigation",
                  request: UpdateRequest(desiredAccuracy: -2, activity: .automotiveNavigation, pausesAutomatically: false)),
            .init(name: "best", request: UpdateRequest(desiredAccuracy: -1, pausesAutomatically: false)),
            .init(name: "best + 500 m filter",
                  request: UpdateRequest(desiredAccuracy: -1, distanceFilter: 500, pausesAutomatically: false)),
            .init(name: "hundred metres", request: UpdateRequest(desiredAccuracy: 100, pausesAutomatically: false)),
            .init(name: "kilometre", request: UpdateRequest(desiredAccuracy: 1_000, pausesAutomatically: false)),
            .init(name: "best + auto-pause automotive",
                  request: UpdateRequest(desiredAccuracy: -1, activity: .automotiveNavigation, pausesAutomatically: true)),
            .init(name: "best + auto-pause fitness",
                  request: UpdateRequest(desiredAccuracy: -1, activity: .fitness, pausesAutomatically: true)),
            .init(name: "best + auto-pause other",
                  request: UpdateRequest(desiredAccuracy: -1, activity: .other, pausesAutomatically: true)),
            .init(name: "significant change", request: UpdateRequest(mode: .significantChange)),
        ]

        func validate() throws {
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            for name in config where !Self.configurations.contains(where: { $0.name == name }) {
                throw ValidationError("no configuration named '\(name)'")
            }
            _ = try hardware()
        }

        func hardware() throws -> EnergyReplay.Hardware {
            let names = receivers.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            for name in names where !["gnss", "wifi", "cell"].contains(name) {
                throw ValidationError("--receivers takes gnss, wifi and cell, not '\(name)'")
            }
            guard !names.isEmpty else { throw ValidationError("--receivers needs at least one receiver") }
            return EnergyReplay.Hardware(gnss: names.contains("gnss"), wifi: names.contains("wifi"),
                                         cell: names.contains("cell"), gnssStandby: !gnssStaysOn)
        }

        func run() throws {
            LocationCtl.bootstrapLogging(verbose: false)
            let route = try EnergyRoute(route)
            let hardware = try hardware()
            let chosen = config.isEmpty ? Self.configurations : Self.configurations.filter { config.contains($0.name) }
            let results = chosen.map {
                EnergyReplay.run($0, track: route.track, profile: route.profile, hardware: hardware, duration: duration)
            }
            let table = EnergyTable(route: route, hardware: hardware, results: results)
            FileHandle.standardOutput.write(Data(table.render().utf8))
            if let svg {
                let chart = EnergyChart(title: "Energy per configuration: \(route.name)", bars: results.map { result in
                    EnergyChart.Bar(label: result.configuration.name,
                                    values: EnergyTable.sources.map { result.milliwattHours($0.0) })
                })
                do {
                    try Data(chart.render().utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
                } catch {
                    throw CommandFailure("cannot write \(svg): \(error.localizedDescription)")
                }
            }
        }
    }
}
