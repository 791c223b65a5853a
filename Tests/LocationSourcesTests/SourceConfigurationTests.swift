import Foundation
import TestSupport
import Testing
@testable import LocationSources

@Suite struct SourceConfigurationTests {
    private func files(in directory: TemporaryDirectory) -> (user: URL, system: URL) {
        (directory.url.appendingPathComponent("user"), directory.url.appendingPathComponent("system"))
    }

    @Test func environmentWinsAndMaySeparateSeveralSpecs() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let (user, system) = files(in: temporary)
        try "sim:walk\n".write(to: user, atomically: true, encoding: .utf8)
        let configuration = try SourceConfiguration.load(
            environment: ["CORELOCATION_SOURCE": " fixed:1,2 ; sim:run "], userFile: user, systemFile: system)
        #expect(configuration?.specs == [.fixed(latitude: 1, longitude: 2, horizontalAccuracy: 5), .simulation(.run)])
        #expect(configuration?.origin == "CORELOCATION_SOURCE")
    }

    @Test func userFileBeatsSystemFileAndIgnoresCommentsAndBlankLines() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let (user, system) = files(in: temporary)
        try "# my receivers\n\nsim:walk   # while testing\nfixed:3,4,10\n".write(to: user, atomically: true, encoding: .utf8)
        try "sim:run\n".write(to: system, atomically: true, encoding: .utf8)
        let configuration = try SourceConfiguration.load(environment: [:], userFile: user, systemFile: system)
        #expect(configuration?.specs == [.simulation(.walk), .fixed(latitude: 3, longitude: 4, horizontalAccuracy: 10)])
        #expect(configuration?.origin == user.path)
        let systemOnly = try SourceConfiguration.load(environment: [:], userFile: user.appendingPathExtension("absent"), systemFile: system)
        #expect(systemOnly?.specs == [.simulation(.run)])
    }

    @Test func nothingConfiguredIsNil() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let (user, system) = files(in: temporary)
        #expect(try SourceConfiguration.load(environment: ["CORELOCATION_SOURCE": "  "], userFile: user, systemFile: system) == nil)
    }

    @Test func aBrokenSpecNamesItsFileAndLine() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let (user, system) = files(in: temporary)
        try "sim:walk\n\nsim:moon\n".write(to: user, atomically: true, encoding: .utf8)
        #expect {
            try SourceConfiguration.load(environment: [:], userFile: user, systemFile: system)
        } throws: { error in
            let error = error as? SourceConfigurationError
            return error?.origin == user.path && error?.line == 3 && error?.description.contains("moon") == true
        }
    }

    @Test func anEmptyFileIsAnError() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let (user, system) = files(in: temporary)
        try "# nothing yet\n".write(to: user, atomically: true, encoding: .utf8)
        #expect(throws: SourceConfigurationError.self) {
            try SourceConfiguration.load(environment: [:], userFile: user, systemFile: system)
        }
    }
}

/// `configuredSources`: what an engine (in-process or locationd) actually runs.
@Suite struct ConfiguredSourcesTests {
    @Test func configuredSpecsBecomeSourcesInOrder() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let sources = SourceConfiguration.configuredSources(
            environment: ["CORELOCATION_SOURCE": "fixed:1,2;sim:walk"],
            userFile: directory.appendingPathComponent("user"), systemFile: directory.appendingPathComponent("system"))
        #expect(sources.map(\.descriptor.name) == ["fixed:1.0,2.0,5.0", "sim:walk"])
    }

    /// `?speed=N` reaches the source, from the environment and from a file alike.
    @Test func eachSpecRunsAtItsOwnSpeed() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let user = directory.appendingPathComponent("user")
        try "sim:run?speed=60   # an hour a minute\nsim:walk\n".write(to: user, atomically: true, encoding: .utf8)
        let fromFile = SourceConfiguration.configuredSources(
            environment: [:], userFile: user, systemFile: directory.appendingPathComponent("system"))
        #expect(fromFile.map { ($0 as? SimulatedRouteSource)?.speed } == [60, 1])
        let fromEnvironment = SourceConfiguration.configuredSources(
            environment: ["CORELOCATION_SOURCE": "sim:walk?speed=3600;sim:run?speed=0.5"], userFile: user,
            systemFile: directory.appendingPathComponent("system"))
        #expect(fromEnvironment.map { ($0 as? SimulatedRouteSource)?.speed } == [3600, 0.5])
        let broken = SourceConfiguration.configuredSources(
            environment: ["CORELOCATION_SOURCE": "sim:walk?speed=0"], userFile: user,
            systemFile: directory.appendingPathComponent("system"))
        #expect(broken.isEmpty, "a bad speed is a broken configuration, not speed 1")
    }

    @Test func nothingConfiguredRunsTheSimulatedDrive() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let sources = SourceConfiguration.configuredSources(
            environment: [:], userFile: directory.appendingPathComponent("user"), systemFile: directory.appendingPathComponent("system"))
        #expect(sources.map(\.descriptor.name) == [SourceConfiguration.fallbackSpec])
    }

    @Test func aBrokenConfigurationRunsNoSourceRatherThanASimulation() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let user = directory.appendingPathComponent("user")
        try "sim:moon\n".write(to: user, atomically: true, encoding: .utf8)
        let sources = SourceConfiguration.configuredSources(
            environment: [:], userFile: user, systemFile: directory.appendingPathComponent("system"))
        #expect(sources.isEmpty)
    }
}
