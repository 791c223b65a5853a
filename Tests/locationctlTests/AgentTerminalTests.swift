import Foundation
import LocationCore
import LocationDaemonClient
import LocationPolicy
import LocationProtocol
import TestSupport
import Testing
@testable import locationctl

/// `locationctl agent`'s terminal, driven in-process: the daemon's events go in, typed lines go in
/// through a pipe, and the answers come out to a stand-in session.
@Suite struct AgentTerminalTests {
    final class RecordingSession: AgentAnswering {
        private let state = Locked((answers: [AnsweredPrompt](), closed: false))
        var answers: [AnsweredPrompt] { state.withLock { $0.answers } }
        var isClosed: Bool { state.withLock { $0.closed } }
        func answer(_ prompt: AgentPrompt, with answer: PromptAnswer?) {
            state.withLock { $0.answers.append(AnsweredPrompt(id: prompt.id, answer: answer)) }
        }
        func close() { state.withLock { $0.closed = true } }
    }

    struct AnsweredPrompt: Equatable {
        var id: UInt64
        var answer: PromptAnswer?
    }

    /// A terminal wired to pipes, with its output collected.
    final class Rig: Sendable {
        let terminal: AgentTerminal
        let session = RecordingSession()
        private let typing: FileHandle
        private let collected = Locked("")
        private let finished = Locked(false)

        init() {
            let input = Pipe(), output = Pipe()
            typing = input.fileHandleForWriting
            terminal = AgentTerminal(input: input.fileHandleForReading, output: output.fileHandleForWriting, socketPath: "/tmp/d.sock")
            let reading = output.fileHandleForReading
            let collected = self.collected
            Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    collected.withLock { $0 += String(decoding: buffer[..<count], as: UTF8.self) }
                }
            }.start()
            let finished = self.finished
            terminal.start(connection: session, handlesInterrupt: false) { finished.withLock { $0 = true } }
        }

        var output: String { collected.withLock { $0 } }
        var isFinished: Bool { finished.withLock { $0 } }

        func type(_ line: String) { typing.write(Data((line + "\n").utf8)) }
        func endInput() { try? typing.close() }

        /// Waits until the output contains `text` `count` times.
        func shows(_ text: String, times count: Int = 1) async -> Bool {
            await eventually { output.components(separatedBy: text).count - 1 >= count }
        }
    }

    static func prompt(_ id: UInt64, _ name: String, _ kind: PromptRequest.Kind = .initial, precise: Bool = true) -> AgentPrompt {
        AgentPrompt(id: id, request: PromptRequest(
            app: AppIdentity(id: "com.example.\(name)", displayName: name, executablePath: "/usr/bin/\(name)"),
            kind: kind, level: kind == .initial ? .whenInUse : .always,
            usageDescription: "Shows \(name) where you are.", preciseByDefault: precise))
    }

    @Test func questionsShowOneAtATimeAndTheAnswersGoBack() async {
        let rig = Rig()
        rig.terminal.handle(.registered)
        rig.terminal.handle(.prompt(Self.prompt(1, "Maps")))
        rig.terminal.handle(.prompt(Self.prompt(2, "Runner", .upgradeToAlways)))
        #expect(await rig.shows("Choose o, w or d"))
        #expect(rig.output.contains("Allow \"Maps\" to use your location?"))
        #expect(rig.output.contains("Shows Maps where you are."))
        #expect(!rig.output.contains("Runner"), "one question at a time")

        rig.type("p")
        rig.type("o")
        #expect(await eventually { rig.session.answers == [AnsweredPrompt(id: 1, answer: .allowOnce(precise: false))] })
        #expect(await rig.shows("Choose a or k"))
        #expect(rig.output.contains("Allow \"Runner\" to also use your location even when you are not using the app?"))
        rig.type("maybe")
        #expect(await rig.shows("Please type a (Change to Always Allow) or k (Keep Only While Using)."))
        rig.type("a")
        #expect(await eventually { rig.session.answers.count == 2 })
        #expect(rig.session.answers.last == AnsweredPrompt(id: 2, answer: .changeToAlways))
        #expect(!rig.isFinished)
    }

    @Test func aTemporaryFullAccuracyQuestionShowsThePurposeString() async {
        let rig = Rig()
        rig.terminal.handle(.registered)
        rig.terminal.handle(.prompt(Self.prompt(4, "Maps", .temporaryFullAccuracy(purposeKey: "Navigation"), precise: false)))
        #expect(await rig.shows("Choose o or d"))
        #expect(rig.output.contains("\"Maps\" would like to use your precise location while you use it."))
        #expect(rig.output.contains("Shows Maps where you are."), "the purpose string")
        rig.type("o")
        #expect(await eventually { rig.session.answers == [AnsweredPrompt(id: 4, answer: .allowTemporaryFullAccuracy)] })
    }

    @Test func withdrawnQuestionsAreCutShortOrNeverShown() async {
        let rig = Rig()
        let maps = Self.prompt(1, "Maps"), runner = Self.prompt(2, "Runner"), bus = Self.prompt(3, "Bus")
        rig.terminal.handle(.prompt(maps))
        rig.terminal.handle(.prompt(runner))
        rig.terminal.handle(.prompt(bus))
        #expect(await rig.shows("Choose o, w or d"))
        rig.terminal.handle(.withdrawn(runner))
        rig.terminal.handle(.withdrawn(maps))
        #expect(await rig.shows("(This request was answered elsewhere, or its app quit.)"))
        #expect(await rig.shows("Choose o, w or d", times: 2))
        #expect(rig.output.contains("Allow \"Bus\""))
        #expect(!rig.output.contains("Runner"), "withdrawn before it was shown")
        rig.type("d")
        #expect(await eventually { rig.session.answers == [AnsweredPrompt(id: 3, answer: .dontAllow)] })
    }

    @Test func endOfInputDismissesTheShowingQuestionAndEnds() async {
        let rig = Rig()
        rig.terminal.handle(.prompt(Self.prompt(1, "Maps")))
        rig.terminal.handle(.prompt(Self.prompt(2, "Runner")))
        #expect(await rig.shows("Choose o, w or d"))
        rig.endInput()
        #expect(await eventually { rig.isFinished })
        #expect(rig.session.answers == [AnsweredPrompt(id: 1, answer: nil)])
        #expect(rig.session.isClosed)
    }

    @Test func endOfInputWithNothingShowingEndsAtOnce() async {
        let rig = Rig()
        rig.type("w")
        #expect(await rig.shows("No location request is waiting."))
        rig.endInput()
        #expect(await eventually { rig.isFinished })
        #expect(rig.session.answers.isEmpty)
        #expect(rig.session.isClosed)
    }

    @Test func theDaemonGoingAwayAndComingBackIsReported() async {
        let rig = Rig()
        rig.terminal.handle(.registered)
        rig.terminal.handle(.disconnected)
        rig.terminal.handle(.registered)
        #expect(await rig.shows("locationd went away; waiting for it to come back."))
        #expect(await rig.shows("locationd is back; waiting for location requests."))
        #expect(rig.output.hasPrefix("Waiting for location requests from locationd at /tmp/d.sock."))
    }
}
