import ArgumentParser
import Testing
@testable import locationctl

/// Every subcommand names itself: a missing name is derived with `String(describing:)` at each start, whose
/// dynamic casts scan all of the binary's protocol conformances (~1.3 ms of every `locationctl` run).
@Suite struct CommandNamesTests {
    @Test func everySubcommandNamesItselfAsArgumentParserWouldHave() {
        let subcommands = LocationCtl.configuration.subcommands
        #expect(subcommands.count == 16)
        for command in subcommands {
            let derived = String(describing: command).lowercased()
            #expect(command.configuration.commandName == derived, "\(command) has no commandName of its own")
        }
    }
}
