import Foundation
import Logging

extension SourceConfiguration {
    /// What runs when nothing is configured: a built-in simulated drive, so a fresh install needs no
    /// hardware. Configure real receivers with `CORELOCATION_SOURCE` or a sources file.
    public static let fallbackSpec = "sim:city-drive"

    /// The sources an engine should run: the configured ones (``load(environment:userFile:systemFile:)``),
    /// else the simulated ``fallbackSpec`` with a notice.
    ///
    /// A broken configuration runs no source at all (apps get `locationUnknown`) rather than silently
    /// simulating; a spec that parses but cannot be opened is skipped. Both are logged as errors.
    public static func configuredSources(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        userFile: URL? = nil, systemFile: URL = SourceConfiguration.systemFile,
        logger: Logger = Logger(label: "corelocation.sources")
    ) -> [any LocationSource] {
        let configuration: SourceConfiguration
        do {
            guard let configured = try load(environment: environment, userFile: userFile, systemFile: systemFile) else {
                logger.notice("no location source configured; using the simulated \(fallbackSpec) (set \(environmentVariable))")
                return (try? SourceSpec(fallbackSpec).makeSource()).map { [$0] } ?? []
            }
            configuration = configured
        } catch {
            logger.error("location source configuration is not usable; no source is running", metadata: ["error": "\(error)"])
            return []
        }
        return configuration.makeSources(logger: logger)
    }

    /// One source per spec (every `beacon:` together one scanner: `SourceSpec.makeSources`); a spec
    /// that cannot be made into a source is logged and skipped. Each replay runs at its spec's own
    /// `speed=` (`sim:walk?speed=60`), so an app's hour of driving can replay in a minute with no
    /// change to the app.
    public func makeSources(logger: Logger = Logger(label: "corelocation.sources")) -> [any LocationSource] {
        let origin = origin
        // With a handler for every failure, nothing is thrown.
        return (try? SourceSpec.makeSources(specs) { spec, error in
            logger.error("location source \(spec) from \(origin) is not usable", metadata: ["error": "\(error)"])
        }) ?? []
    }
}
