import Foundation
import LocationProtocol
import Logging

/// An app's identity together with the Info.plist it was resolved from.
public struct ResolvedApp: Sendable, Equatable {
    /// Where the Info.plist came from.
    public enum InfoSource: Sendable, Equatable {
        /// `Bundle.main`: on Linux, Foundation reads `Info.plist` in the directory of the (symlink-resolved)
        /// executable.
        case bundle
        /// The file named by `CORELOCATION_INFO_PLIST`.
        case environment(path: String)
        /// No Info.plist: the identity is the executable path and no usage description exists.
        case none
    }

    public var identity: AppIdentity
    public var info: AppInfo
    public var infoSource: InfoSource

    public init(identity: AppIdentity, info: AppInfo, infoSource: InfoSource) {
        self.identity = identity
        self.info = info
        self.infoSource = infoSource
    }
}

/// Works out who the current process is, for the in-process engine.
///
/// The Info.plist comes from `Bundle.main.infoDictionary` when there is one (on Linux, corelibs Foundation
/// reads `Info.plist` next to the symlink-resolved executable: verified with Swift 6.3.1), else from the
/// file named by the environment variable `CORELOCATION_INFO_PLIST`. That variable is honoured only by the
/// in-process engine: a process can set it to anything, so the location daemon ignores it and identifies
/// clients by what the kernel says about them.
///
/// The identity id is the bundle identifier, else the resolved executable path. The display name is
/// `CFBundleDisplayName`, else `CFBundleName`, else the executable's file name.
public enum AppIdentityResolver {
    /// The environment variable naming an Info.plist file (in-process engine only).
    public static let infoPlistEnvironmentVariable = "CORELOCATION_INFO_PLIST"

    /// Resolves the current process.
    ///
    /// - Parameters:
    ///   - bundleInfoDictionary: the main bundle's Info.plist; nil or empty means there is none.
    ///   - environment: consulted for `CORELOCATION_INFO_PLIST` when the bundle has no Info.plist.
    ///   - executablePath: the process's executable; nil resolves `/proc/self/exe`.
    /// - Throws: ``InfoPlistError`` when `CORELOCATION_INFO_PLIST` names a file that cannot be loaded:
    ///   the variable was set on purpose, so a broken file is reported rather than silently ignored.
    public static func resolveCurrentProcess(
        bundleInfoDictionary: [String: Any]? = Bundle.main.infoDictionary,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = nil,
        logger: Logger = Logger(label: "corelocation.policy")
    ) throws -> ResolvedApp {
        let executable = executablePath ?? currentExecutablePath()
        if let bundleInfo = bundleInfoDictionary, !bundleInfo.isEmpty {
            let info = AppInfo(infoDictionary: bundleInfo, logger: logger)
            return ResolvedApp(identity: identity(info: info, executablePath: executable), info: info, infoSource: .bundle)
        }
        if let path = environment[infoPlistEnvironmentVariable], !path.isEmpty {
            let info = try AppInfo.load(contentsOf: URL(fileURLWithPath: path), logger: logger)
            return ResolvedApp(
                identity: identity(info: info, executablePath: executable), info: info,
                infoSource: .environment(path: path))
        }
        let info = AppInfo()
        return ResolvedApp(identity: identity(info: info, executablePath: executable), info: info, infoSource: .none)
    }

    /// The identity of an app given its Info.plist keys and executable (for any process, not only this one).
    public static func identity(info: AppInfo, executablePath: String) -> AppIdentity {
        let fileName = URL(fileURLWithPath: executablePath).lastPathComponent
        return AppIdentity(
            id: info.bundleIdentifier ?? executablePath,
            displayName: info.displayName ?? (fileName.isEmpty ? executablePath : fileName),
            executablePath: executablePath)
    }

    /// The symlink-resolved path of this process's executable: `/proc/self/exe`, else Foundation's idea
    /// of it, else `argv[0]`.
    public static func currentExecutablePath(procSelfExe: String = "/proc/self/exe") -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: procSelfExe), path.hasPrefix("/") {
            return path
        }
        if let path = Bundle.main.executablePath {
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        return CommandLine.arguments.first ?? "unknown"
    }
}
