// libFuzzer target for the configuration files a user or an administrator writes: the sources file
// (`~/.config/corelocation/sources`, `/etc/corelocation/sources`: one source spec a line) and the
// prompt policy (`prompt-policy.json`). Built by scripts/fuzz-config.sh with LocationSources as an
// instrumented module and PromptPolicy.swift compiled in.
//
// The first byte picks the file; the rest is its contents. Errors are fine; besides crashes and
// AddressSanitizer reports, it traps when an error gives no reason, a parsed spec's canonical
// spelling does not parse back to the same spec, or a policy's decisions do not survive their own
// spelling. fatalError, not precondition, so that -O builds print what broke.

import Foundation
import LocationProtocol
import LocationSources

@_cdecl("LLVMFuzzerTestOneInput")
public func configFilesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let contents = Data(bytes: data + 1, count: size - 1)
    if data[0] & 1 == 0 {
        checkSourcesFile(String(decoding: contents, as: UTF8.self))
    } else {
        checkPromptPolicy(contents)
    }
    return 0
}

private func checkSourcesFile(_ text: String) {
    let configuration: SourceConfiguration
    do {
        configuration = try SourceConfiguration.parse(fileText: text, origin: "fuzz")
    } catch {
        if error.reason.isEmpty { fatalError("an error without a reason") }
        return
    }
    if configuration.specs.isEmpty { fatalError("a sources file parsed to no source: \(text.debugDescription)") }
    for spec in configuration.specs {
        let spelling = spec.description
        do {
            let again = try SourceSpec(spelling)
            if again != spec { fatalError("\(spelling.debugDescription) parses to \(again), not \(spec)") }
            if again.description != spelling { fatalError("one spec, two spellings: \(spelling.debugDescription), \(again.description.debugDescription)") }
        } catch {
            fatalError("the canonical spelling \(spelling.debugDescription) of \(spec) does not parse: \(error)")
        }
    }
}

private func checkPromptPolicy(_ contents: Data) {
    let policy: PromptPolicy
    do {
        policy = try PromptPolicy(jsonData: contents, source: "fuzz")
    } catch let error as PromptPolicyError {
        if error.reason.isEmpty { fatalError("an error without a reason") }
        return
    } catch {
        fatalError("not a PromptPolicyError: \(error)")
    }
    var decisions = Array(policy.appDecisions.values)
    if let fallback = policy.defaultDecision { decisions.append(fallback) }
    for decision in decisions {
        do {
            let again = try PromptDecision(parsing: decision.description, source: "fuzz")
            if again != decision { fatalError("\(decision) parses back as \(again)") }
        } catch {
            fatalError("the spelling \(decision.description.debugDescription) does not parse: \(error)")
        }
    }
    for (app, decision) in policy.appDecisions where policy.decision(forApp: app) != decision {
        fatalError("app \(app.debugDescription) gets \(String(describing: policy.decision(forApp: app))), not its own \(decision)")
    }
}
