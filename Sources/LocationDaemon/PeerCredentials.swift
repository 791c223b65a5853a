import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel recorded it when the peer connected
/// (`SO_PEERCRED`). Nothing here comes from the client.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension PeerCredentials {
    /// Reads `SO_PEERCRED` from an accepted Unix-socket channel.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PeerIdentityError("the connection is not a socket"))
        }
        // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }` (socket(7)): three 32-bit words. Glibc's
        // module does not export `ucred`, so it is read as a homogeneous tuple of the same layout.
        let raw: EventLoopFuture<(UInt32, UInt32, UInt32)> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return raw.map { PeerCredentials(pid: Int32(bitPattern: $0.0), uid: $0.1, gid: $0.2) }
    }
}
