import ArgumentParser
import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol

extension LocationCtl {
    struct Apps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apps", abstract: "List apps and their location authorization.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var daemonOptions: DaemonOptions
        @Flag(name: .long, help: "Print JSON.") var json = false

        func run() async throws {
            let database = try SettingsTarget(store: storeOptions, daemon: daemonOptions).read()
            let alive: (ProcessStamp) -> Bool = { ProcessStamp.isAlive($0) }
            // The command's own moment: temporary grants that expired by now are shown as such.
            let now = Date()
            if json {
                let apps = database.apps.keys.sorted().map { id -> [String: Any] in
                    let record = database.apps[id]!
                    let effective = database.effectiveAuthorization(for: id, isAlive: alive, now: now)
                    var app: [String: Any] = [
                        "id": id, "name": record.displayName, "executable": record.executablePath,
                        "status": effective.status.name, "accuracy": effective.accuracy.name,
                        "allowOnce": record.allowOnce != nil, "alwaysRequestUsed": record.alwaysRequestUsed,
                    ]
                    if let temporary = record.activeTemporaryFullAccuracy(isAlive: alive) {
                        app["temporaryFullAccuracy"] = ["purposeKey": temporary.purposeKey, "pid": Int(temporary.process.pid)]
                    }
                    return app
                }
                let object: [String: Any] = ["servicesEnabled": database.servicesEnabled, "apps": apps]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("Location Services: \(database.servicesEnabled ? "on" : "off")")
            if database.apps.isEmpty { print("No app has asked for location yet.") }
            for id in database.apps.keys.sorted() {
                let record = database.apps[id]!
                let effective = database.effectiveAuthorization(for: id, isAlive: alive, now: now)
                var flags: [String] = [effective.accuracy == .fullAccuracy ? "precise" : "approximate"]
                if let temporary = record.activeTemporaryFullAccuracy(isAlive: alive) {
                    flags[0] = "precise until pid \(temporary.process.pid) exits, purpose \(temporary.purposeKey)"
                }
                if record.allowOnce != nil { flags.append("allow once") }
                print("\(id)  \(effective.status.name)  (\(flags.joined(separator: ", ")))  \(record.displayName)")
            }
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant", abstract: "Allow an app to use location (While Using, or Always).")

        @Argument(help: "The app: its bundle identifier, or its executable path.") var app: String
        @Flag(name: .long, help: "Grant Always instead of While Using.") var always = false
        @Flag(name: .long, help: "Approximate location only (Precise off).") var approximate = false
        @Flag(name: .long, help: "Precise location (Precise on; the default).") var precise = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var daemonOptions: DaemonOptions

        func validate() throws {
            if approximate && precise { throw ValidationError("--approximate and --precise contradict each other") }
        }

        func run() async throws {
            try SettingsTarget(store: storeOptions, daemon: daemonOptions)
                .apply(.grant(app: app, always: always, approximate: approximate))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Deny an app the use of location (Never).")

        @Argument(help: "The app: its bundle identifier, or its executable path.") var app: String
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var daemonOptions: DaemonOptions

        func run() async throws {
            try SettingsTarget(store: storeOptions, daemon: daemonOptions).apply(.revoke(app: app))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Forget an app's decision (it will be asked again), or every app's with --all.")

        @Argument(help: "The app: its bundle identifier, or its executable path.") var app: String?
        @Flag(name: .long, help: "Reset location & privacy for every app.") var all = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var daemonOptions: DaemonOptions

        func validate() throws {
            if (app == nil) == !all { throw ValidationError("name one app, or pass --all") }
        }

        func run() async throws {
            try SettingsTarget(store: storeOptions, daemon: daemonOptions).apply(app.map { .reset(app: $0) } ?? .resetAll)
        }
    }

    struct Services: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "services", abstract: "Switch Location Services on or off for every app.")

        enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

        @Argument(help: "on or off") var state: Switch
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var daemonOptions: DaemonOptions

        func run() async throws {
            try SettingsTarget(store: storeOptions, daemon: daemonOptions).apply(.services(enabled: state == .on))
        }
    }
}

extension AppRecord {
    /// The temporary full accuracy grant that applies now: the record is authorized with reduced
    /// accuracy and the process that asked still runs.
    func activeTemporaryFullAccuracy(isAlive: (ProcessStamp) -> Bool) -> TemporaryFullAccuracy? {
        guard status.isAuthorized, accuracy == .reducedAccuracy, let temporary = temporaryFullAccuracy,
              isAlive(temporary.process) else { return nil }
        return temporary
    }
}

extension AuthorizationStatus {
    var name: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorizedAlways: "authorizedAlways"
        case .authorizedWhenInUse: "authorizedWhenInUse"
        }
    }
}

extension AccuracyAuthorization {
    var name: String { self == .fullAccuracy ? "fullAccuracy" : "reducedAccuracy" }
}
