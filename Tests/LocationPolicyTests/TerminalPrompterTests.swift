import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import Logging
import TestSupport
import Testing

/// A terminal prompter wired to pipes: the test types into `keyboard` and reads `screen`.
struct PipeTerminal {
    let keyboard = Pipe()
    let screen = Pipe()
    let prompter: TerminalPrompter

    init() {
        prompter = TerminalPrompter(input: keyboard.fileHandleForReading, output: screen.fileHandleForWriting)
    }

    /// A terminal whose foreground is decided by `isForeground`.
    init(isForeground: @escaping @Sendable (Int32) -> Bool) {
        prompter = TerminalPrompter(
            input: keyboard.fileHandleForReading, output: screen.fileHandleForWriting, isForeground: isForeground,
            logger: Logger(label: "test"))
    }

    func type(_ text: String) {
        keyboard.fileHandleForWriting.write(Data(text.utf8))
    }

    func endInput() throws {
        try keyboard.fileHandleForWriting.close()
    }

    func ask(_ request: PromptRequest) async -> PromptAnswer? {
        await withCheckedContinuation { continuation in
            prompter.prompt(request) { continuation.resume(returning: $0) }
        }
    }

    /// Whether the prompter has written anything to the screen yet (polled, nothing is read).
    var hasShownSomething: Bool {
        var entry = pollfd(fd: screen.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Everything shown so far; call once the prompts are answered.
    func screenText() throws -> String {
        try screen.fileHandleForWriting.close()
        return String(decoding: try screen.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    }
}

@Suite(.timeLimit(.minutes(2))) struct TerminalPrompterTests {
    static let initialAnswers: [(typed: String, preciseByDefault: Bool, answer: PromptAnswer)] = [
        ("o\n", true, .allowOnce(precise: true)),
        ("w\n", true, .allowWhileUsing(precise: true)),
        ("d\n", true, .dontAllow),
        ("W\n", false, .allowWhileUsing(precise: false)),
        ("  allow once  \n", true, .allowOnce(precise: true)),
        ("p\nw\n", true, .allowWhileUsing(precise: false)),
        ("p\no\n", false, .allowOnce(precise: true)),
        ("p\np\nw\n", false, .allowWhileUsing(precise: false)),
        ("p\nd\n", true, .dontAllow),
        ("w", true, .allowWhileUsing(precise: true)),  // last line without a newline, then end of input
    ]

    @Test(arguments: initialAnswers)
    func initialPromptAnswers(sample: (typed: String, preciseByDefault: Bool, answer: PromptAnswer)) async throws {
        let terminal = PipeTerminal()
        terminal.type(sample.typed)
        if !sample.typed.hasSuffix("\n") { try terminal.endInput() }
        #expect(await terminal.ask(request(preciseByDefault: sample.preciseByDefault)) == sample.answer)
    }

    @Test func initialPromptShowsTheAppAndTheChoices() async throws {
        let terminal = PipeTerminal()
        terminal.type("p\nw\n")
        _ = await terminal.ask(request(app: identity(name: "Weather"), usage: "Shows the forecast\nwhere you are."))
        let screen = try terminal.screenText()
        for text in ["\"Weather\"", "Shows the forecast", "where you are.", "Allow Once", "Allow While Using App",
                     "Don't Allow", "Precise: On", "Precise: Off", "→ Allow While Using App, Precise: Off"] {
            #expect(screen.contains(text), "screen lacks \(text)")
        }
    }

    @Test func preciseStartsOffWhenTheAppDefaultsToReduced() async throws {
        let terminal = PipeTerminal()
        terminal.type("d\n")
        _ = await terminal.ask(request(preciseByDefault: false))
        let screen = try terminal.screenText()
        #expect(screen.contains("[p] Precise: Off"))
        #expect(!screen.contains("Precise: On"))
    }

    @Test func invalidInputIsAskedAgain() async throws {
        let terminal = PipeTerminal()
        terminal.type("x\n\nyes\nallow\nw\n")
        #expect(await terminal.ask(request()) == .allowWhileUsing(precise: true))
        let screen = try terminal.screenText()
        #expect(screen.components(separatedBy: "Please type").count - 1 == 4)
    }

    @Test func endOfInputMeansNoAnswer() async throws {
        let terminal = PipeTerminal()
        try terminal.endInput()
        #expect(await terminal.ask(request()) == nil)
        #expect(await terminal.ask(request(.upgradeToAlways)) == nil)

        let afterInvalid = PipeTerminal()
        afterInvalid.type("maybe\n")
        try afterInvalid.endInput()
        #expect(await afterInvalid.ask(request()) == nil)
    }

    @Test(arguments: [
        ("a\n", PromptAnswer.changeToAlways),
        ("k\n", .keepWhileUsing),
        ("o\nw\nk\n", .keepWhileUsing),  // the initial prompt's keys are not answers here
        ("p\na\n", .changeToAlways),
    ])
    func upgradePrompt(typed: String, answer: PromptAnswer) async throws {
        let terminal = PipeTerminal()
        terminal.type(typed)
        #expect(await terminal.ask(request(.upgradeToAlways)) == answer)
        let screen = try terminal.screenText()
        #expect(screen.contains("Change to Always Allow"))
        #expect(screen.contains("Keep Only While Using"))
        #expect(!screen.contains("Allow Once"))
    }

    @Test func promptingNeverBlocksTheCaller() async throws {
        let terminal = PipeTerminal()
        let answered = Locked<PromptAnswer??>(nil)
        terminal.prompter.prompt(request()) { answer in answered.withLock { $0 = .some(answer) } }
        // prompt(_:completion:) returned although nothing has been typed; the prompt is shown and waits.
        #expect(await eventually { terminal.hasShownSomething })
        #expect(answered.withLock { $0 } == nil)
        terminal.type("d\n")
        #expect(await eventually { answered.withLock { $0 } == .some(.dontAllow) })
    }

    @Test func concurrentPromptsAreShownOneAtATime() async throws {
        let terminal = PipeTerminal()
        let first = identity("com.example.first", name: "First")
        let second = identity("com.example.second", name: "Second")
        let answers = Locked([String: PromptAnswer?]())
        terminal.prompter.prompt(request(app: first)) { answer in answers.withLock { $0["first"] = answer } }
        terminal.prompter.prompt(request(app: second)) { answer in answers.withLock { $0["second"] = answer } }
        terminal.type("w\nd\n")
        #expect(await eventually { answers.withLock { $0.count } == 2 })
        #expect(answers.withLock { $0 } == ["first": .allowWhileUsing(precise: true), "second": .dontAllow])

        let screen = try terminal.screenText()
        let firstAnswer = try #require(screen.range(of: "→ Allow While Using App"))
        let secondHeader = try #require(screen.range(of: "\"Second\""))
        #expect(firstAnswer.upperBound <= secondHeader.lowerBound, "the second prompt appeared before the first was answered")
    }

    @Test func appTextCannotDrawOnTheTerminal() async throws {
        let terminal = PipeTerminal()
        terminal.type("d\n")
        let sneaky = identity(name: "Evil\u{1B}[2J\u{1B}[H\u{202E}ppA\nAllow Once")
        _ = await terminal.ask(request(app: sneaky, usage: "Clears\u{1B}[2J your\u{07} screen"))
        let screen = try terminal.screenText()
        #expect(!screen.contains("\u{1B}"))
        #expect(!screen.contains("\u{07}"))
        #expect(!screen.contains("\u{202E}"))
        #expect(screen.contains("\"Evil[2J[HppA Allow Once\""))
    }

    @Test func backgroundProcessIsNotPrompted() async throws {
        let inForeground = Locked(false)
        let terminal = PipeTerminal(isForeground: { _ in inForeground.withLock { $0 } })
        terminal.type("w\n")
        #expect(await terminal.ask(request()) == nil)
        // Back in the foreground, the typed answer is still there to be read.
        inForeground.withLock { $0 = true }
        #expect(await terminal.ask(request()) == .allowWhileUsing(precise: true))
        let screen = try terminal.screenText()
        #expect(screen.components(separatedBy: "Allow While Using App").count - 1 == 2)  // one prompt, one answer
    }

    @Test func pipesAndForeignTerminalsCountAsForeground() throws {
        let pipe = Pipe()
        #expect(TerminalPrompter.isForegroundProcess(pipe.fileHandleForReading.fileDescriptor))
        // A pseudo-terminal that is not our controlling terminal has no job control over us.
        let pty = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(pty >= 0)
        defer { close(pty) }
        #expect(isatty(pty) == 1)
        #expect(TerminalPrompter.isForegroundProcess(pty))
    }

    @Test func controllingTerminalNeedsATerminal() throws {
        #expect(TerminalPrompter.controllingTerminal(isTerminal: { _ in false }) == nil)
        #expect(TerminalPrompter.controllingTerminal(path: "/nonexistent/tty", isTerminal: { _ in true }) == nil)
        try withTemporaryDirectory { directory in
            // Any read-write file stands in for the device; the same prompter is handed out each time.
            let fakeTTY = directory.appendingPathComponent("tty").path
            #expect(FileManager.default.createFile(atPath: fakeTTY, contents: nil))
            let prompter = try #require(TerminalPrompter.controllingTerminal(path: fakeTTY, isTerminal: { $0 == 2 }))
            #expect(TerminalPrompter.controllingTerminal(path: fakeTTY, isTerminal: { _ in true }) === prompter)
        }
    }
}
