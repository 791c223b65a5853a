import Dispatch
import Foundation
import LocationDaemonClient
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol

#if canImport(Glibc)
import Glibc
#endif

/// What the terminal needs from its connection: an `AgentConnection`, or a test's stand-in.
protocol AgentAnswering: AnyObject, Sendable {
    func answer(_ prompt: AgentPrompt, with answer: PromptAnswer?)
    func close()
}

extension AgentConnection: AgentAnswering {}

/// `locationctl agent`'s terminal: shows the daemon's questions one at a time, with exactly the
/// dialogue an app's own terminal prompt uses (`TerminalPrompter`), and sends back the answers.
///
/// The agent reads its input itself, line by line, so that end of input ends it even while no
/// question shows; a showing question gets the lines through a pipe of its own, which is closed to
/// cut the question short when the daemon withdraws it. All state is confined to `queue`.
final class AgentTerminal: @unchecked Sendable {
    private let queue = DispatchQueue(label: "corelocation.locationctl.agent")
    private let input: FileHandle
    private let output: FileHandle
    private let socketPath: String
    private var connection: (any AgentAnswering)?
    private var interrupt: (any DispatchSourceSignal)?
    private var onFinish: (@Sendable () -> Void)?

    // Confined to `queue`.
    private var waiting: [AgentPrompt] = []
    private var showing: (prompt: AgentPrompt, lines: FileHandle, withdrawn: Bool)?
    private var hasRegistered = false
    private var isEnding = false

    init(input: FileHandle, output: FileHandle, socketPath: String) {
        self.input = input
        self.output = output
        self.socketPath = socketPath
    }

    /// Starts reading input and serving `connection`; `onFinish` runs once, after end of input (or
    /// Ctrl-C) and the last answer.
    func start(connection: any AgentAnswering, handlesInterrupt: Bool, onFinish: @escaping @Sendable () -> Void) {
        queue.sync {
            self.connection = connection
            self.onFinish = onFinish
        }
        if handlesInterrupt {
            signal(SIGINT, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
            source.setEventHandler { [weak self] in
                self?.write("\n")
                self?.endOfInput()
            }
            source.resume()
            interrupt = source
        }
        write("Waiting for location requests from locationd at \(socketPath). End with Ctrl-D.\n")
        readLines()
    }

    /// An event of the connection (any thread).
    func handle(_ event: AgentEvent) {
        queue.async { self.received(event) }
    }

    // MARK: On the queue

    private func received(_ event: AgentEvent) {
        switch event {
        case .registered:
            if hasRegistered { write("locationd is back; waiting for location requests.\n") }
            hasRegistered = true
        case .prompt(let prompt):
            waiting.append(prompt)
            showNext()
        case .withdrawn(let prompt):
            waiting.removeAll { $0 == prompt }
            if let current = showing, current.prompt == prompt, !current.withdrawn {
                showing?.withdrawn = true
                try? current.lines.close()
            }
        case .refused(let reason):
            write("locationd refused this agent: \(reason)\n")
        case .disconnected:
            write("locationd went away; waiting for it to come back.\n")
        }
    }

    private func showNext() {
        guard showing == nil, !isEnding, !waiting.isEmpty else { return }
        let prompt = waiting.removeFirst()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            write("cannot show a location request: \(String(cString: strerror(errno)))\n")
            connection?.answer(prompt, with: nil)
            return showNext()
        }
        let lines = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        showing = (prompt, lines, false)
        let prompter = TerminalPrompter(input: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), output: output)
        prompter.prompt(prompt.request) { [weak self] answer in
            guard let self else { return }
            queue.async { self.answered(prompt, answer) }
        }
    }

    private func answered(_ prompt: AgentPrompt, _ answer: PromptAnswer?) {
        guard let current = showing, current.prompt == prompt else { return }
        showing = nil
        try? current.lines.close()
        if current.withdrawn {
            write("(This request was answered elsewhere, or its app quit.)\n")
        } else {
            connection?.answer(prompt, with: answer)
        }
        if isEnding { return finish() }
        showNext()
    }

    private func line(_ text: String) {
        guard let current = showing, !current.withdrawn else {
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { write("No location request is waiting.\n") }
            return
        }
        try? current.lines.write(contentsOf: Data((text + "\n").utf8))
    }

    /// End of input or Ctrl-C: the showing question is dismissed (answered nil), then the agent ends.
    private func endOfInput() {
        guard !isEnding else { return }
        isEnding = true
        waiting.removeAll()
        if let current = showing {
            // Its prompter sees end of input and answers nil; `answered` then finishes.
            try? current.lines.close()
        } else {
            finish()
        }
    }

    private func finish() {
        connection?.close()
        connection = nil
        interrupt?.cancel()
        let onFinish = self.onFinish
        self.onFinish = nil
        onFinish?()
    }

    // MARK: I/O

    /// Reads `input` on a thread of its own (a blocking read must not hold the queue).
    private func readLines() {
        let fd = input.fileDescriptor
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: chunk[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    queue.async { self.line(text) }
                }
            }
            if !pending.isEmpty {
                let text = String(decoding: pending, as: UTF8.self)
                queue.async { self.line(text) }
            }
            queue.async { self.endOfInput() }
        }
        thread.start()
    }

    private func write(_ text: String) {
        try? output.write(contentsOf: Data(text.utf8))
    }
}
