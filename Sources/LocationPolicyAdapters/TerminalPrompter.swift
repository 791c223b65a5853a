import Dispatch
import Foundation
import LocationCore
import LocationPolicy
import LocationProtocol
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Linux stand-in for Apple's location alert: asks on a terminal.
///
/// Initial requests offer **Allow Once** (`o`), **Allow While Using App** (`w`) and **Don't Allow** (`d`),
/// with a **Precise: On/Off** toggle (`p`) that starts from `preciseByDefault`. Upgrade requests offer
/// **Change to Always Allow** (`a`) and **Keep Only While Using** (`k`). Temporary full accuracy requests
/// show the app's purpose string and offer **Allow Once** (`o`) and **Don't Allow** (`d`). Answers are typed as a line
/// (key, then Enter); anything else is asked again. End of input answers nil ("cannot answer now").
///
/// Reading happens on the prompter's own serial queue, never on the caller's thread, and one prompt is
/// shown at a time: concurrent requests wait their turn. ``controllingTerminal(path:isTerminal:)`` hands
/// out one shared prompter per terminal, so all requests of a process queue up on it.
///
/// Like Apple's, the prompt is shown only to a process in the foreground: when the process is a background
/// job of its terminal, the answer is nil at once (reading the terminal would stop the whole process with
/// SIGTTIN).
///
/// The app's name and usage description are shown with control characters removed, so an app cannot
/// redraw the prompt with escape sequences.
public final class TerminalPrompter: AuthorizationPrompter {
    private let input: FileHandle
    private let output: FileHandle
    private let isForeground: @Sendable (Int32) -> Bool
    private let queue = DispatchQueue(label: "corelocation.policy.terminal-prompt")
    /// Bytes read past the end of the last answer; used only on `queue`.
    private let pending = Locked([UInt8]())
    private let logger: Logger

    /// - Parameters:
    ///   - input: where answers are read from (a terminal, or a pipe in tests).
    ///   - output: where the prompt is written.
    public convenience init(input: FileHandle, output: FileHandle, logger: Logger = Logger(label: "corelocation.policy")) {
        self.init(input: input, output: output, isForeground: Self.isForegroundProcess, logger: logger)
    }

    /// - Parameter isForeground: given the input descriptor, whether this process may read it now.
    package init(
        input: FileHandle, output: FileHandle, isForeground: @escaping @Sendable (Int32) -> Bool, logger: Logger
    ) {
        self.input = input
        self.output = output
        self.isForeground = isForeground
        self.logger = logger
    }

    /// False only when `fd` is this process's controlling terminal and another process group owns it.
    package static func isForegroundProcess(_ fd: Int32) -> Bool {
        guard isatty(fd) == 1 else { return true }  // a pipe or a file: no job control
        // Job control only concerns the controlling terminal of our session.
        let session = tcgetsid(fd)
        guard session >= 0, session == getsid(0) else { return true }
        let owner = tcgetpgrp(fd)
        return owner < 0 || owner == getpgrp()
    }

    private static let shared = Locked([String: TerminalPrompter]())

    /// The prompter for the process's controlling terminal, or nil when no terminal is attached.
    ///
    /// A terminal counts as attached when standard input or standard error is a terminal and `path` can be
    /// opened for reading and writing. The same prompter is returned on every call for the same path.
    /// - Parameters:
    ///   - path: the terminal device; `/dev/tty` is the controlling terminal.
    ///   - isTerminal: `isatty`, replaceable in tests.
    public static func controllingTerminal(
        path: String = "/dev/tty", isTerminal: (Int32) -> Bool = { isatty($0) == 1 }
    ) -> TerminalPrompter? {
        guard isTerminal(STDIN_FILENO) || isTerminal(STDERR_FILENO) else { return nil }
        return shared.withLock { shared -> TerminalPrompter? in
            if let existing = shared[path] { return existing }
            let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            let prompter = TerminalPrompter(input: handle, output: handle)
            shared[path] = prompter
            return prompter
        }
    }

    public func prompt(_ request: PromptRequest, completion: @escaping @Sendable (PromptAnswer?) -> Void) {
        queue.async {
            guard self.isForeground(self.input.fileDescriptor) else {
                self.logger.notice(
                    "not showing the location prompt: the process is in the background of its terminal",
                    metadata: ["app": "\(request.app.id)"])
                completion(nil)
                return
            }
            let answer = self.ask(request)
            if answer == nil {
                self.logger.notice("terminal prompt got no answer (end of input)", metadata: ["app": "\(request.app.id)"])
            }
            completion(answer)
        }
    }

    // MARK: - The dialogue (runs on `queue`)

    private func ask(_ request: PromptRequest) -> PromptAnswer? {
        let name = Self.sanitized(request.app.displayName, keepNewlines: false)
        let usage = Self.sanitized(request.usageDescription, keepNewlines: true)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { "  \($0)" }.joined(separator: "\n")
        switch request.kind {
        case .initial:
            return askInitial(name: name, usage: usage, preciseByDefault: request.preciseByDefault)
        case .upgradeToAlways:
            return askUpgrade(name: name, usage: usage)
        case .temporaryFullAccuracy:
            return askTemporaryFullAccuracy(name: name, purpose: usage)
        }
    }

    private func askInitial(name: String, usage: String, preciseByDefault: Bool) -> PromptAnswer? {
        var precise = preciseByDefault
        func onOff(_ value: Bool) -> String { value ? "On" : "Off" }
        write("""

            Location access request
            Allow "\(name)" to use your location?
            \(usage)

              [o] Allow Once
              [w] Allow While Using App
              [d] Don't Allow
              [p] Precise: \(onOff(precise))

            """)
        while true {
            write("Choose o, w or d (p toggles Precise): ")
            guard let line = readLine() else {
                write("\n(no answer)\n")
                return nil
            }
            let answer: PromptAnswer
            let label: String
            switch Self.normalized(line) {
            case "o", "allow once":
                answer = .allowOnce(precise: precise)
                label = "Allow Once, Precise: \(onOff(precise))"
            case "w", "allow while using app", "allow while using":
                answer = .allowWhileUsing(precise: precise)
                label = "Allow While Using App, Precise: \(onOff(precise))"
            case "d", "don't allow", "dont allow":
                answer = .dontAllow
                label = "Don't Allow"
            case "p", "precise":
                precise.toggle()
                write("  Precise: \(onOff(precise))\n")
                continue
            default:
                write("Please type o (Allow Once), w (Allow While Using App), d (Don't Allow) or p (Precise).\n")
                continue
            }
            write("→ \(label)\n")
            return answer
        }
    }

    private func askUpgrade(name: String, usage: String) -> PromptAnswer? {
        write("""

            Location access request
            Allow "\(name)" to also use your location even when you are not using the app?
            \(usage)

              [a] Change to Always Allow
              [k] Keep Only While Using

            """)
        while true {
            write("Choose a or k: ")
            guard let line = readLine() else {
                write("\n(no answer)\n")
                return nil
            }
            switch Self.normalized(line) {
            case "a", "change to always allow", "always":
                write("→ Change to Always Allow\n")
                return .changeToAlways
            case "k", "keep only while using", "keep":
                write("→ Keep Only While Using\n")
                return .keepWhileUsing
            default:
                write("Please type a (Change to Always Allow) or k (Keep Only While Using).\n")
            }
        }
    }

    private func askTemporaryFullAccuracy(name: String, purpose: String) -> PromptAnswer? {
        write("""

            Precise location request
            "\(name)" would like to use your precise location while you use it.
            \(purpose)

              [o] Allow Once
              [d] Don't Allow

            """)
        while true {
            write("Choose o or d: ")
            guard let line = readLine() else {
                write("\n(no answer)\n")
                return nil
            }
            switch Self.normalized(line) {
            case "o", "allow once":
                write("→ Allow Once (precise location until the app quits)\n")
                return .allowTemporaryFullAccuracy
            case "d", "don't allow", "dont allow":
                write("→ Don't Allow (approximate location)\n")
                return .denyTemporaryFullAccuracy
            default:
                write("Please type o (Allow Once) or d (Don't Allow).\n")
            }
        }
    }

    // MARK: - I/O

    private func write(_ text: String) {
        do {
            try POSIXFile.writeAll(fd: output.fileDescriptor, Data(text.utf8))
        } catch {
            logger.warning("cannot write the location prompt", metadata: ["error": "\(error.reason)"])
        }
    }

    /// The next line without its newline; a last line without a newline counts; nil at end of input.
    private func readLine() -> String? {
        pending.withLock { buffer -> String? in
            var chunk = [UInt8](repeating: 0, count: 256)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let count = chunk.withUnsafeMutableBytes { read(input.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.append(contentsOf: chunk[..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    // End of input (or a read error, which means the same here).
                    guard !buffer.isEmpty else { return nil }
                    let line = String(decoding: buffer, as: UTF8.self)
                    buffer.removeAll()
                    return line
                }
            }
        }
    }

    static func normalized(_ line: String) -> String {
        line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            .replacingOccurrences(of: "\u{2019}", with: "'")
    }

    /// Removes control characters (escape sequences included) and bidirectional overrides.
    static func sanitized(_ text: String, keepNewlines: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                scalars.append(keepNewlines ? "\n" : " ")
            } else if scalar == "\t" {
                scalars.append(" ")
            } else if scalar.properties.generalCategory == .control
                        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                continue
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
