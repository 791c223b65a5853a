import Foundation
import LocationCore
import LocationEngine
import LocationPolicy
import LocationService
import LocationSources
import Logging

/// Everything a manager needs from outside itself: the service it talks to and who the app is.
///
/// Not Apple API (`package` access): the process-wide default is the in-process engine; tests and
/// the `CoreLocationTesting` harness substitute their own through a task-local value, so each test
/// gets its own virtual world even when tests run in parallel.
package struct LocationSystem: Sendable {
    package var provider: any LocationServiceProvider
    package var app: AppIdentity
    package var info: AppInfo
    package var process: ProcessStamp

    package init(provider: any LocationServiceProvider, app: AppIdentity, info: AppInfo, process: ProcessStamp) {
        self.provider = provider
        self.app = app
        self.info = info
        self.process = process
    }

    @TaskLocal package static var override: LocationSystem?

    /// The system a manager created now would use.
    package static var current: LocationSystem { override ?? shared }

    /// The app's authorization now, straight from the service.
    package func currentAuthorization() -> EffectiveAuthorization {
        provider.currentAuthorization(app: app, process: process)
    }

    private static let shared: LocationSystem = {
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "corelocation")
        let resolved: ResolvedApp
        do {
            resolved = try AppIdentityResolver.resolveCurrentProcess()
        } catch {
            // A broken CORELOCATION_INFO_PLIST: run without usage descriptions, so requests fail visibly.
            logger.error("could not load the app's Info.plist", metadata: ["error": "\(error)"])
            let executable = AppIdentityResolver.currentExecutablePath()
            resolved = ResolvedApp(
                identity: AppIdentityResolver.identity(info: AppInfo(), executablePath: executable),
                info: AppInfo(), infoSource: .none)
        }
        let spec = environment["CORELOCATION_SOURCE"] ?? InProcessDefaults.sourceSpec
        var sources: [any LocationSource] = []
        do {
            sources = [try SourceSpec(spec).makeSource(speed: 1)]
        } catch {
            logger.error("CORELOCATION_SOURCE is not usable; no location source is running", metadata: ["error": "\(error)"])
        }
        let engine = LocationEngine(loop: RealtimeLoop(), sources: sources)
        let store = FileAuthorizationStore(directory: FileAuthorizationStore.defaultDirectory())
        let service = LocationService(
            engine: engine, store: store, prompter: PrompterChain.defaultPrompter(),
            isAlive: { ProcessStamp.isAlive($0) })
        service.startWatchingStore()
        return LocationSystem(provider: service, app: resolved.identity, info: resolved.info, process: ProcessStamp.current())
    }()
}

/// The embedded default when nothing is configured.
enum InProcessDefaults {
    /// A built-in simulated drive: the project's default needs no hardware. Set
    /// `CORELOCATION_SOURCE` (e.g. `gpx:track.gpx`, `fixed:52.52,13.40`) to choose another source.
    static let sourceSpec = "sim:city-drive"
}
