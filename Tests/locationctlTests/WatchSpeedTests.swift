import Foundation
import Testing

/// `watch --source 'SPEC?speed=N'` is `watch --speed N`; `--speed` wins when both are given.
@Suite struct WatchSpeedTests {
    private func timestamps(_ output: Finished) throws -> [Date] {
        try output.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try Date(try #require(object["timestamp"] as? String),
                            strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
    }

    private func watch(_ arguments: [String]) throws -> (output: Finished, seconds: Double) {
        let clock = ContinuousClock()
        let started = clock.now
        let output = try run(Executable.locationctl, ["watch", "--json", "--count", "120"] + arguments, timeout: 60)
        let elapsed = clock.now - started
        return (output, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// 120 fixes a simulated second apart: two minutes at speed 1, about a second at speed 120.
    @Test(arguments: [["--source", "sim:walk?speed=120"], ["--source", "sim:walk", "--speed", "120"],
                      ["--source", "sim:walk?speed=0.5", "--speed", "120"]])
    func theSpecsSpeedIsTheSpeedFlag(_ arguments: [String]) throws {
        let (output, seconds) = try watch(arguments)
        #expect(output.status == 0, "\(output.stderr)")
        let times = try timestamps(output)
        #expect(times.count == 120)
        // Whole simulated seconds apart (a loaded machine may make the player skip a few).
        #expect(zip(times, times.dropFirst()).allSatisfy { pair in
            let gap = pair.1.timeIntervalSince(pair.0)
            return gap > 0.5 && abs(gap - gap.rounded()) < 0.002
        }, "timestamps are whole simulated seconds apart")
        #expect(seconds < 20, "120 simulated seconds took \(seconds) s")
    }

    @Test func aBadSpeedInTheSpecIsRefused() throws {
        let output = try run(Executable.locationctl, ["watch", "--json", "--count", "1", "--source", "sim:walk?speed=0"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("speed 0.0 must be a positive finite number"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }
}
