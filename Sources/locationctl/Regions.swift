import ArgumentParser
import Foundation
import LocationDaemonClient
import LocationProtocol

extension LocationCtl {
    /// `locationctl regions`: every app's monitored regions and `CLMonitor` conditions, with their states.
    struct Regions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "regions",
            abstract: "List each app's monitored regions and CLMonitor conditions, with their states.")

        @OptionGroup var daemonOptions: DaemonOptions
        @Flag(name: .long, help: "Print JSON.") var json = false

        func run() async throws {
            guard let socketPath = daemonOptions.discoveredSocket() else {
                throw CommandFailure("no locationd runs: regions live in the service that watches them (start locationd, or pass --socket)")
            }
            let fences: [AppFences]
            do {
                fences = try DaemonControl.listFences(socketPath: socketPath)
            } catch {
                throw CommandFailure("\(error)")
            }
            if json {
                let data = try JSONSerialization.data(withJSONObject: fences.map(Self.object), options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print(Self.text(fences), terminator: "")
        }

        static func text(_ fences: [AppFences]) -> String {
            guard !fences.isEmpty else { return "No app monitors any region.\n" }
            var out = ""
            for app in fences {
                out += "\(app.app)\n"
                for group in app.groups {
                    let pending = group.pendingEvents > 0 ? "  (\(group.pendingEvents) events wait for the app)" : ""
                    out += "  \(group.group.title)\(pending)\n"
                    for record in group.records {
                        out += "    \(record.definition.identifier)  \(record.lastEvent.state.name)"
                        if let issue = record.lastEvent.issue { out += " (\(issue.rawValue))" }
                        out += "  \(record.definition.condition.summary)\n"
                    }
                }
            }
            return out
        }

        static func object(_ app: AppFences) -> [String: Any] {
            [
                "app": app.app,
                "groups": app.groups.map { group -> [String: Any] in
                    [
                        "group": group.group.title, "pendingEvents": group.pendingEvents,
                        "fences": group.records.map { record -> [String: Any] in
                            var fence: [String: Any] = [
                                "identifier": record.definition.identifier, "state": record.lastEvent.state.name,
                                "since": ISO8601DateFormatter().string(from: record.lastEvent.date),
                                "condition": record.definition.condition.summary,
                            ]
                            if let issue = record.lastEvent.issue { fence["issue"] = issue.rawValue }
                            return fence
                        },
                    ]
                },
            ]
        }
    }
}

extension FenceGroup {
    var title: String {
        switch self {
        case .regions: "monitored regions"
        case .monitor(let name): "CLMonitor \"\(name)\""
        }
    }
}

extension FenceState {
    var name: String {
        switch self {
        case .unknown: "unknown"
        case .inside: "inside"
        case .outside: "outside"
        case .unmonitored: "unmonitored"
        }
    }
}

extension FenceCondition {
    var summary: String {
        switch self {
        case let .circle(latitude, longitude, radius):
            String(format: "circle %.6f,%.6f r %.0f m", latitude, longitude, radius)
        case let .beacon(uuid, major, minor):
            "beacon \(uuid.uuidString)" + (major.map { " major \($0)" } ?? "") + (minor.map { " minor \($0)" } ?? "")
        }
    }
}
