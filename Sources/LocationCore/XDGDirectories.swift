import Foundation

/// The XDG base directories (https://specifications.freedesktop.org/basedir-spec/): a variable is used
/// only when it holds an absolute path.
public enum XDGDirectories {
    public static func home(environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static func stateHome(environment: [String: String]) -> URL {
        base("XDG_STATE_HOME", environment: environment, fallback: ".local/state")
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome(environment: [String: String]) -> URL {
        base("XDG_CONFIG_HOME", environment: environment, fallback: ".config")
    }

    private static func base(_ variable: String, environment: [String: String], fallback: String) -> URL {
        if let path = environment[variable], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return home(environment: environment).appendingPathComponent(fallback, isDirectory: true)
    }
}
