import ArgumentParser
import Foundation
import LocationDaemonClient

#if canImport(Glibc)
import Glibc
#endif

extension LocationCtl {
    struct Agent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "agent",
            abstract: "Answer apps' location requests on this terminal, for locationd.",
            discussion: """
                Registers with locationd as your prompt agent: each time an app asks for your location, \
                the question is shown here (Allow Once / Allow While Using App / Don't Allow, with Precise \
                on or off; or Change to Always Allow / Keep Only While Using) and your answer goes back to \
                the daemon. Ends at end of input (Ctrl-D) or Ctrl-C.
                """)

        @OptionGroup var daemonOptions: DaemonOptions
        @Flag(name: .long, help: "Log the connection's details to standard error.") var verbose = false

        func run() async throws {
            LocationCtl.bootstrapLogging(verbose: verbose)
            guard let socketPath = daemonOptions.discoveredSocket() else {
                throw CommandFailure("no locationd is running (start it, or name its socket with --socket)")
            }
            // A question's input pipe may close under a write (the question ended); that is not fatal.
            signal(SIGPIPE, SIG_IGN)
            let terminal = AgentTerminal(input: .standardInput, output: .standardOutput, socketPath: socketPath)
            let connection = AgentConnection(socketPath: socketPath) { terminal.handle($0) }
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                terminal.start(connection: connection, handlesInterrupt: true) { finished.resume() }
                connection.start()
            }
        }
    }
}
