#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Each connected app holds one descriptor in the daemon, and service managers start daemons with a
/// soft limit of 1,024 descriptors (systemd's default) under a far higher hard limit: the soft limit
/// is raised to the hard one at start, as servers that hold a connection per client do, so that the
/// hard limit alone says how many apps can connect.
enum DescriptorLimit {
    static func raiseToHardLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let soft = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 {
            logger.debug("raised the descriptor limit", metadata: ["from": "\(soft)", "to": "\(limit.rlim_max)"])
        } else {
            logger.notice("cannot raise the descriptor limit; at most about \(soft) apps can connect",
                          metadata: ["error": "\(String(cString: strerror(errno)))"])
        }
    }

    /// Glibc imports `RLIMIT_NOFILE` as an enum case of `__rlimit_resource`; the calls take its raw value.
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
