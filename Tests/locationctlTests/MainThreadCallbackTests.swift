import Foundation
import TestSupport
import Testing

extension Executable {
    static let asyncExample = directory.appendingPathComponent("corelocation-async-example")
}

/// A manager created on the main thread calls back in every state the main thread can be in.
/// Each case is a real app process (the main thread's state cannot be faked inside the test
/// runner), against the in-process engine with a simulated walk and an "allow" prompt policy.
@Suite struct MainThreadCallbackTests {
    /// One way of serving the main thread, and where its callbacks must run.
    struct MainThreadState: CustomTestStringConvertible, Sendable {
        let name: String
        let executable: URL
        let arguments: [String]
        /// `main-thread`, or `main-queue` under `dispatchMain()`, whose blocks run on worker threads.
        let place: String
        var testDescription: String { name }
    }

    static let states = [
        MainThreadState(name: "RunLoop.main.run() from top-level code", executable: Executable.example,
                        arguments: [], place: "main-thread"),
        MainThreadState(name: "RunLoop.main.run(until:) in a loop from top-level code", executable: Executable.example,
                        arguments: ["--run-until"], place: "main-thread"),
        MainThreadState(name: "run(until:) inside a DispatchQueue.main.async block", executable: Executable.example,
                        arguments: ["--in-main-block", "--run-until"], place: "main-thread"),
        MainThreadState(name: "run(until:) inside a @MainActor task of top-level code", executable: Executable.example,
                        arguments: ["--in-main-actor-task", "--run-until"], place: "main-thread"),
        MainThreadState(name: "async top-level code: run(until:) after an await", executable: Executable.asyncExample,
                        arguments: [], place: "main-thread"),
        MainThreadState(name: "async top-level code: run(until:) in a @MainActor task", executable: Executable.asyncExample,
                        arguments: ["--main-actor-task"], place: "main-thread"),
        MainThreadState(name: "dispatchMain()", executable: Executable.example,
                        arguments: ["--dispatch-main"], place: "main-queue"),
        MainThreadState(name: "dispatchMain(), manager created in a main-queue block", executable: Executable.example,
                        arguments: ["--dispatch-main", "--in-main-block"], place: "main-queue"),
    ]

    private func environment(in directory: URL) throws -> [String: String] {
        [
            "CORELOCATION_STATE_DIR": directory.appendingPathComponent("state").path,
            "CORELOCATION_INFO_PLIST": try writeInfoPlist(in: directory, bundleID: "com.example.mainthread", whenInUse: "Tests.").path,
            "CORELOCATION_SOURCE": "sim:walk",
            "CORELOCATION_PROMPT_POLICY": "allow",
        ]
    }

    @Test(arguments: states)
    func authorizationAndLocationsArriveOnTheMainThread(state: MainThreadState) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try Child(state.executable, ["3", "--threads"] + state.arguments, environment: try environment(in: directory.url))
        let arrived = await child.lines(within: 20) { $0.filter { $0.hasPrefix("location ") }.count == 3 }
        let output = await child.finished(within: 5)
        #expect(arrived, "no 3 locations within 20 s; got: \(output.stdout)\(output.stderr)")
        #expect(output.exitedNormally && output.status == 0, "status \(output.status): \(output.stderr)")
        let callbacks = output.lines.filter { $0.hasPrefix("authorization ") || $0.hasPrefix("location ") }
        #expect(callbacks.first == "authorization 0 accuracy 0 on \(state.place)", "\(output.stdout)")
        #expect(callbacks.contains("authorization 4 accuracy 0 on \(state.place)"), "\(output.stdout)")
        #expect(callbacks.allSatisfy { $0.hasSuffix(" on \(state.place)") }, "\(output.stdout)")
    }

    /// A callback that spins the main run loop receives the next callbacks inside that spin, in
    /// order and once each, whichever path (main queue or the main run loop's timer) delivers.
    @Test(arguments: [[], ["--in-main-block", "--run-until"], ["--run-until"]])
    func aCallbackSpinningTheRunLoopGetsLaterOnesInOrderAndOnce(mainLoop: [String]) async throws {
        let arguments = ["4", "--threads", "--timestamps", "--spin-in-callback"] + mainLoop
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try await Child(Executable.example, arguments, environment: try environment(in: directory.url)).finished(within: 20)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let locations = output.lines.filter { $0.hasPrefix("location ") }
        #expect(locations.count == 4, "\(output.stdout)")
        #expect(locations.allSatisfy { $0.hasSuffix(" on main-thread") }, "\(output.stdout)")
        #expect(locations.contains { $0.contains(" nested ") }, "delivered inside the spinning callback: \(output.stdout)")
        let timestamps = locations.compactMap { line in line.split(separator: " ").dropFirst(4).first.flatMap { Double($0) } }
        #expect(timestamps.count == 4 && zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 },
                "in order, none twice: \(timestamps)")
    }
}
