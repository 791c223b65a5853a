import Foundation
import NIOCore

/// Why a conversation with `locationd` failed (the daemon's own verdicts on a settings change
/// arrive as `SettingsChangeError` instead).
public struct DaemonClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Nothing accepts connections at the socket (no daemon, or a stale socket file).
        case unreachable
        /// The daemon answered `refused` (another protocol version, an unidentifiable peer, …).
        case refused
        /// The daemon accepted the connection but did not answer in time.
        case timedOut
        /// The daemon closed the connection before answering.
        case disconnected
        /// The daemon sent something this client cannot use.
        case protocolViolation
    }

    public var code: Code
    public var socketPath: String
    /// The specifics: an errno text, the daemon's reason, the timeout, …
    public var detail: String

    public init(_ code: Code, socketPath: String, detail: String) {
        self.code = code
        self.socketPath = socketPath
        self.detail = detail
    }

    public var description: String {
        switch code {
        case .unreachable: "locationd is not reachable at \(socketPath): \(detail)"
        case .refused: "locationd at \(socketPath) refused the connection: \(detail)"
        case .timedOut: "locationd at \(socketPath) did not answer within \(detail)"
        case .disconnected: "locationd at \(socketPath) closed the connection\(detail.isEmpty ? "" : ": \(detail)")"
        case .protocolViolation: "unexpected answer from locationd at \(socketPath): \(detail)"
        }
    }

    /// A failed connect, with the errno's text rather than NIO's wording.
    static func unreachable(_ socketPath: String, _ error: any Error) -> DaemonClientError {
        let detail: String
        if let io = error as? IOError {
            detail = String(cString: strerror(io.errnoCode))
        } else {
            detail = "\(error)"
        }
        return DaemonClientError(.unreachable, socketPath: socketPath, detail: detail)
    }
}
