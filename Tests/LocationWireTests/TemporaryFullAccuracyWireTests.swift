import Foundation
import LocationProtocol
import NIOCore
import Testing
@testable import LocationWire

/// Temporary full accuracy on the wire: the request, its outcome, the agent's prompt and answers, and
/// the grant in the app list, each in the wire's own named fields; values this version does not know
/// are refused, never guessed.
@Suite struct TemporaryFullAccuracyWireTests {
    static func json(_ message: ClientMessage) throws -> [String: Any] {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        return try #require(try JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any])
    }

    static func json(_ message: DaemonMessage) throws -> [String: Any] {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        return try #require(try JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any])
    }

    @Test func theRequestAndItsOutcomeHaveNamedFields() throws {
        let request = try Self.json(ClientMessage.request(.requestTemporaryFullAccuracy(9, purposeKey: "Trails")))
        #expect(request["type"] as? String == "requestTemporaryFullAccuracy")
        #expect(request["id"] as? Int == 9)
        #expect(request["purposeKey"] as? String == "Trails")
        #expect(Set(request.keys) == ["type", "id", "purposeKey"])

        let outcome = try Self.json(DaemonMessage.event(.temporaryFullAccuracy(9, .declined)))
        #expect(outcome["type"] as? String == "temporaryFullAccuracy")
        #expect(outcome["outcome"] as? String == "declined")
        #expect(Set(outcome.keys) == ["type", "id", "outcome"])
    }

    @Test func thePromptCarriesThePurposeKeyAndString() throws {
        let prompt = PromptRequest(
            app: AppIdentity(id: "com.example.trails", displayName: "Trails", executablePath: "/opt/trails"),
            kind: .temporaryFullAccuracy(purposeKey: "Trailhead"), level: .whenInUse,
            usageDescription: "Finds the trailhead you stand at.", preciseByDefault: false)
        let object = try Self.json(DaemonMessage.agentPrompt(id: 3, prompt))
        let fields = try #require(object["prompt"] as? [String: Any])
        #expect(fields["kind"] as? String == "temporaryFullAccuracy")
        #expect(fields["purposeKey"] as? String == "Trailhead")
        #expect(fields["usageDescription"] as? String == "Finds the trailhead you stand at.")
        // Other prompts have no purpose key.
        var initial = prompt
        initial.kind = .initial
        let plain = try #require(try Self.json(DaemonMessage.agentPrompt(id: 4, initial))["prompt"] as? [String: Any])
        #expect(plain["purposeKey"] == nil)
    }

    @Test func theGrantInTheAppListIsBoundToAProcess() throws {
        let record = AppRecord(
            status: .authorizedWhenInUse, accuracy: .reducedAccuracy,
            temporaryFullAccuracy: TemporaryFullAccuracy(purposeKey: "Trails", process: ProcessStamp(pid: 77, startTime: 123)),
            displayName: "Trails", executablePath: "/opt/trails", updated: Date(timeIntervalSinceReferenceDate: 5))
        let message = DaemonMessage.apps(AuthorizationDatabase(apps: ["com.example.trails": record]))
        let object = try Self.json(message)
        let apps = try #require((object["database"] as? [String: Any])?["apps"] as? [[String: Any]])
        let temporary = try #require(apps.first?["temporaryFullAccuracy"] as? [String: Any])
        #expect(temporary["purposeKey"] as? String == "Trails")
        #expect((temporary["process"] as? [String: Any])?["pid"] as? Int == 77)
        #expect(temporary["expires"] == nil)
        #expect(try WireCodecTests.roundTrip(message) == message)
    }

    @Test(arguments: [
        // An id that does not fit a request id.
        #"{"type":"requestTemporaryFullAccuracy","id":4294967296,"purposeKey":"x"}"#,
        #"{"type":"requestTemporaryFullAccuracy","purposeKey":"x"}"#,
        #"{"type":"requestTemporaryFullAccuracy","id":1}"#,
        #"{"type":"agentAnswer","id":1,"answer":{"kind":"allowTemporaryPrecise"}}"#,
    ])
    func badClientMessagesAreRefused(_ json: String) {
        #expect(throws: (any Error).self) { try WireCodec.decodeClientMessage(WireCodecTests.clientFrame(json)) }
    }

    @Test(arguments: [
        #"{"type":"temporaryFullAccuracy","id":1,"outcome":"granted"}"#,
        #"{"type":"temporaryFullAccuracy","id":1}"#,
        #"{"type":"temporaryFullAccuracy","id":-1,"outcome":"prompted"}"#,
        #"{"type":"agentPrompt","id":1,"prompt":{"app":{"id":"a","displayName":"a","executablePath":"/a"},"kind":"temporaryFullAccuracy","level":"whenInUse","usageDescription":"u","preciseByDefault":false}}"#,
        #"{"type":"apps","database":{"servicesEnabled":true,"apps":[{"app":"a","status":4,"accuracy":1,"alwaysRequestUsed":false,"temporaryFullAccuracy":{"purposeKey":"x","expires":5},"displayName":"a","executablePath":"/a","updated":0}]}}"#,
    ])
    func badDaemonMessagesAreRefused(_ json: String) {
        #expect(throws: (any Error).self) { try WireCodec.decodeDaemonMessage(WireCodecTests.clientFrame(json)) }
    }
}
