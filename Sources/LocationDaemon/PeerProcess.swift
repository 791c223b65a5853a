import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A connected process as the daemon sees it: the kernel's credentials, and what `/proc` says about
/// that pid — read by the daemon at accept, never taken from the client.
///
/// Known limit: `SO_PEERCRED`'s pid is the process that called `connect`. A process that connects and
/// then execs another binary (or exits, its pid reused) is judged by what `/proc` says when the daemon
/// reads it, which is why it is read immediately at accept. The start time in ``stamp`` pins the
/// process for Allow Once. (Linux 6.5's `SO_PEERPIDFD` would close the window; it is not used yet.)
public struct PeerProcess: Sendable, Equatable {
    public var credentials: PeerCredentials
    /// The symlink-resolved executable, `readlink(/proc/PID/exe)`. A binary deleted or replaced since
    /// the process started reads as `PATH (deleted)`: it matches no stored app until it restarts.
    public var executablePath: String
    public var stamp: ProcessStamp

    public init(credentials: PeerCredentials, executablePath: String, stamp: ProcessStamp) {
        self.credentials = credentials
        self.executablePath = executablePath
        self.stamp = stamp
    }

    /// Reads `/proc/PID/exe` and `/proc/PID/stat` for the peer.
    /// - Throws: ``PeerIdentityError`` when the process is gone or `/proc` will not say (reading another
    ///   user's `/proc/PID/exe` needs root).
    public static func inspect(_ credentials: PeerCredentials, procRoot: String = "/proc") throws(PeerIdentityError) -> PeerProcess {
        let pid = credentials.pid
        guard pid > 0 else { throw PeerIdentityError("the kernel reported no process for the connection") }
        let link = "\(procRoot)/\(pid)/exe"
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { readlink(link, $0.baseAddress!, $0.count - 1) }
        guard length > 0 else {
            let code = errno
            throw PeerIdentityError("cannot read \(link): \(String(cString: strerror(code)))"
                + (code == EACCES || code == EPERM ? " (another user's process: the daemon must run as root to serve it)" : ""))
        }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard path.hasPrefix("/") else { throw PeerIdentityError("\(link) is not an absolute path: \(path)") }
        guard let stamp = ProcessStamp.read(pid: pid, procRoot: procRoot) else {
            throw PeerIdentityError("cannot read \(procRoot)/\(pid)/stat: the process has exited")
        }
        return PeerProcess(credentials: credentials, executablePath: path, stamp: stamp)
    }

    /// Where the app's Info.plist is: `Info.plist` beside the executable (as Foundation's `Bundle.main`
    /// finds it on Linux). `CORELOCATION_INFO_PLIST` in the client's environment is never consulted.
    public var infoPlistURL: URL {
        URL(fileURLWithPath: executablePath).deletingLastPathComponent().appendingPathComponent("Info.plist")
    }

    /// The Info.plist keys, read by the daemon. No file means no keys (the app is known by its
    /// executable path and has no usage descriptions); a broken file is logged and counts as none.
    public func loadAppInfo(logger: Logger) -> AppInfo {
        let url = infoPlistURL
        guard FileManager.default.fileExists(atPath: url.path) else { return AppInfo() }
        do {
            return try AppInfo.load(contentsOf: url, logger: logger)
        } catch {
            logger.warning("client's Info.plist is unusable; treating the app as having none",
                           metadata: ["pid": "\(credentials.pid)", "error": "\(error)"])
            return AppInfo()
        }
    }
}
