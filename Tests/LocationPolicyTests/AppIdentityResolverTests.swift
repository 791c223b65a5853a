import Foundation
import LocationPolicy
import LocationPolicyAdapters
import LocationProtocol
import TestSupport
import Testing

@Suite struct AppIdentityResolverTests {
    let executable = "/opt/weather/bin/weather-cli"

    @Test func bundleIdentifierIsTheIdentity() throws {
        let resolved = try AppIdentityResolver.resolveCurrentProcess(
            bundleInfoDictionary: ["CFBundleIdentifier": "com.example.weather", "CFBundleDisplayName": "Weather",
                                   "NSLocationWhenInUseUsageDescription": "Forecast."],
            environment: [:], executablePath: executable)
        #expect(resolved.identity == AppIdentity(id: "com.example.weather", displayName: "Weather", executablePath: executable))
        #expect(resolved.info.whenInUseUsageDescription == "Forecast.")
        #expect(resolved.infoSource == .bundle)
    }

    @Test(arguments: [nil, [:]] as [[String: String]?])
    func withoutInfoPlistTheExecutablePathIsTheIdentity(bundle: [String: String]?) throws {
        let resolved = try AppIdentityResolver.resolveCurrentProcess(
            bundleInfoDictionary: bundle, environment: ["HOME": "/root"], executablePath: executable)
        #expect(resolved.identity == AppIdentity(id: executable, displayName: "weather-cli", executablePath: executable))
        #expect(resolved.info == AppInfo())
        #expect(resolved.infoSource == .none)
    }

    @Test func bundleWithoutIdentifierUsesExecutablePathAndBundleName() throws {
        let resolved = try AppIdentityResolver.resolveCurrentProcess(
            bundleInfoDictionary: ["CFBundleName": "Weather CLI"], environment: [:], executablePath: executable)
        #expect(resolved.identity == AppIdentity(id: executable, displayName: "Weather CLI", executablePath: executable))
    }

    @Test func environmentNamesTheInfoPlistWhenTheBundleHasNone() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("Weather-Info.plist")
            try PropertyListSerialization.data(
                fromPropertyList: ["CFBundleIdentifier": "com.example.env", "CFBundleName": "Env Weather"],
                format: .xml, options: 0
            ).write(to: url)
            let environment = [AppIdentityResolver.infoPlistEnvironmentVariable: url.path]

            let fromEnvironment = try AppIdentityResolver.resolveCurrentProcess(
                bundleInfoDictionary: [:], environment: environment, executablePath: executable)
            #expect(fromEnvironment.identity.id == "com.example.env")
            #expect(fromEnvironment.identity.displayName == "Env Weather")
            #expect(fromEnvironment.infoSource == .environment(path: url.path))

            // A real bundle Info.plist wins over the variable.
            let fromBundle = try AppIdentityResolver.resolveCurrentProcess(
                bundleInfoDictionary: ["CFBundleIdentifier": "com.example.bundle"], environment: environment,
                executablePath: executable)
            #expect(fromBundle.identity.id == "com.example.bundle")
        }
    }

    @Test func brokenEnvironmentPlistIsAnError() throws {
        try withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("nope.plist").path
            #expect(throws: InfoPlistError.self) {
                try AppIdentityResolver.resolveCurrentProcess(
                    bundleInfoDictionary: nil,
                    environment: [AppIdentityResolver.infoPlistEnvironmentVariable: missing],
                    executablePath: executable)
            }
        }
    }

    @Test func currentExecutablePathResolvesProcSelfExe() throws {
        let path = AppIdentityResolver.currentExecutablePath()
        #expect(path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
        #expect(path == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))

        try withTemporaryDirectory { directory in
            let link = directory.appendingPathComponent("exe").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/bin/env")
            #expect(AppIdentityResolver.currentExecutablePath(procSelfExe: link) == "/usr/bin/env")
        }
    }

    @Test func defaultsResolveThisTestProcess() throws {
        // The test runner has no Info.plist next to it: the identity is its executable.
        let resolved = try AppIdentityResolver.resolveCurrentProcess(environment: [:])
        #expect(resolved.identity.executablePath == AppIdentityResolver.currentExecutablePath())
        if resolved.infoSource == .none {
            #expect(resolved.identity.id == resolved.identity.executablePath)
        }
    }
}
