import Foundation
import LocationProtocol
import NIOCore
import Testing
@testable import LocationWire

/// Fence requests, updates and listings on the wire.
@Suite struct FenceMessageTests {
    static let circle = FenceDefinition(
        identifier: "home", condition: .circle(latitude: 52.52, longitude: 13.405, radius: 150),
        notifyOnEntry: false, notifyOnExit: true, assumedState: .inside)
    static let beacon = FenceDefinition(
        identifier: "door", condition: .beacon(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 7, minor: nil))
    static let event = FenceEvent(identifier: "home", state: .outside, date: Date(timeIntervalSinceReferenceDate: 785_000_000.5))
    static let limited = FenceEvent(identifier: "door", state: .unmonitored, date: Date(timeIntervalSinceReferenceDate: 1), issue: .unsupported)

    @Test(arguments: [
        ClientMessage.request(.openFences(.regions)), .request(.openFences(.monitor("Trips"))),
        .request(.closeFences(.monitor(""))), .request(.addFence(.regions, Self.circle)),
        .request(.addFence(.monitor("Doors"), Self.beacon)), .request(.removeFence(.regions, identifier: "home")),
        .request(.requestFenceState(.monitor("Trips"), identifier: "home")), .listFences,
    ])
    func fenceRequestsRoundTrip(_ message: ClientMessage) throws {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        #expect(try WireCodec.decodeClientMessage(frame) == message)
    }

    @Test(arguments: [
        DaemonMessage.event(.fences(.regions, .snapshot([]))),
        .event(.fences(.monitor("Trips"), .snapshot([
            FenceRecord(definition: Self.circle, lastEvent: Self.event),
            FenceRecord(definition: Self.beacon, lastEvent: Self.limited),
        ]))),
        .event(.fences(.regions, .started(FenceRecord(definition: Self.circle, lastEvent: Self.event)))),
        .event(.fences(.regions, .failed(identifier: "home", .limitExceeded))),
        .event(.fences(.monitor("m"), .changed(Self.limited))),
        .event(.fences(.regions, .determined(Self.event))),
        .event(.fences(.monitor("Trips"), .removed(identifier: "home"))),
        .fences([]),
        .fences([AppFences(app: "com.example.app", groups: [
            GroupFences(group: .regions, records: [FenceRecord(definition: Self.circle, lastEvent: Self.event)], pendingEvents: 2),
            GroupFences(group: .monitor("Trips"), records: [], pendingEvents: 0),
        ])]),
    ])
    func fenceUpdatesRoundTrip(_ message: DaemonMessage) throws {
        var buffer = ByteBuffer()
        try WireCodec.encode(message, into: &buffer)
        let frame = try #require(try WireFrameDecoder.nextFrame(from: &buffer))
        #expect(try WireCodec.decodeDaemonMessage(frame) == message)
    }

    static func frame(_ json: String) -> WireFrame {
        var payload = ByteBuffer()
        payload.writeString(json)
        return WireFrame(kind: WireCodec.Kind.json.rawValue, payload: payload)
    }

    @Test(arguments: [
        #"{"type":"addFence","group":{"kind":"regions"}}"#,
        #"{"type":"addFence","group":{"kind":"planet"},"fence":{"identifier":"x","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0}}"#,
        #"{"type":"addFence","group":{"kind":"monitor"},"fence":{"identifier":"x","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0}}"#,
        #"{"type":"addFence","group":{"kind":"regions"},"fence":{"identifier":"x","condition":{"kind":"circle","latitude":1,"radius":3},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0}}"#,
        #"{"type":"addFence","group":{"kind":"regions"},"fence":{"identifier":"x","condition":{"kind":"beacon","uuid":"not-a-uuid"},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":0}}"#,
        #"{"type":"addFence","group":{"kind":"regions"},"fence":{"identifier":"x","condition":{"kind":"circle","latitude":1,"longitude":2,"radius":3},"notifyOnEntry":true,"notifyOnExit":true,"assumedState":9}}"#,
        #"{"type":"removeFence","group":{"kind":"regions"}}"#,
    ])
    func malformedFenceRequestsAreRefused(json: String) {
        #expect(throws: WireError.self) { try WireCodec.decodeClientMessage(Self.frame(json)) }
    }

    @Test func unknownFenceIssuesAndStatesFromTheDaemonAreRefused() {
        for json in [
            #"{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"failed","identifier":"x","issue":"gremlins"}}"#,
            #"{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"changed","event":{"identifier":"x","state":7,"date":0}}}"#,
            #"{"type":"fences","group":{"kind":"regions"},"fenceUpdate":{"kind":"teleported"}}"#,
        ] {
            #expect(throws: WireError.self, "\(json)") { try WireCodec.decodeDaemonMessage(Self.frame(json)) }
        }
    }
}
