import Foundation
import LocationCore
import LocationProtocol
import Testing
@testable import LocationSources

/// `GPSDSource` against a fake gpsd: a loopback TCP server in the test, speaking the protocol by hand.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct GPSDSourceTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"

    static func tpv(_ time: String?, lat: Double = 45.07, lon: Double = 7.68, mode: Int = 3, extra: String = "") -> String {
        var fields = [#""class":"TPV""#, #""device":"/dev/pts/3""#, "\"mode\":\(mode)"]
        if let time { fields.append("\"time\":\"\(time)\"") }
        if mode >= 2 { fields += ["\"lat\":\(lat)", "\"lon\":\(lon)"] }
        if !extra.isEmpty { fields.append(extra) }
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    static let full = #""altHAE":290.5,"altMSL":243.2,"geoidSep":47.3,"eph":9.0,"epv":20.0,"speed":12.5,"track":87.0,"eps":1.2,"epd":4.0"#

    /// Starts a source on a fresh server and returns the accepted connection after the watch request.
    static func connect(_ server: LoopbackServer, _ recorder: LiveRecorder, _ source: GPSDSource) throws -> LoopbackServer.Connection {
        recorder.start(source)
        let connection = try #require(server.accept(), "the source connects when started")
        connection.send(version)
        #expect(connection.readLine() == #"?WATCH={"enable":true,"json":true};"#)
        return connection
    }

    @Test func watchesOnlyWhileStartedAndReleasesTheWatchAtOnceOnStop() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port)
        #expect(server.accept(timeout: 0.3) == nil, "no connection before start")

        let connection = try Self.connect(server, recorder, source)
        connection.send(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/3","activated":"2025-06-14T10:00:00.000Z"}]}"# + "\n")
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 1 })

        let stopped = Date()
        recorder.stop(source)
        #expect(connection.readLine(timeout: 1) == #"?WATCH={"enable":false};"#)
        let closedAfter = try #require(connection.secondsUntilClosed(timeout: 1), "socket closed within 1 s of stop")
        #expect(Date().timeIntervalSince(stopped) < 1, "closed \(closedAfter) s after the unwatch")

        connection.send(Self.tpv("2025-06-14T10:00:02.000Z", extra: Self.full))
        #expect(server.accept(timeout: 0.3) == nil, "no reconnection after stop")
        #expect(recorder.fixes.count == 1, "nothing after stop")
        #expect(recorder.emissionsOutsideLoop == 0)
    }

    @Test func convertsATPV() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port)
        let connection = try Self.connect(server, recorder, source)
        connection.send(Self.tpv("2025-06-14T10:00:01.500Z", lat: 45.0701234, lon: 7.6809876, extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 1 })
        recorder.stop(source)
        let fix = try #require(recorder.fixes.first)
        #expect(fix.latitude == 45.0701234 && fix.longitude == 7.6809876)
        #expect(fix.altitude == 243.2 && fix.ellipsoidalAltitude == 290.5)
        #expect(fix.horizontalAccuracy == 4.5 && fix.verticalAccuracy == 10, "gpsd's 95 % figures halved")
        #expect(fix.speed == 12.5 && fix.speedAccuracy == 0.6)
        #expect(fix.course == 87 && fix.courseAccuracy == 2)
        #expect(fix.timestamp == Date(timeIntervalSince1970: 1_749_895_201.5))
        #expect(!fix.isSimulated && fix.isProducedByAccessory)
    }

    @Test func survivesGarbageAndReassemblesLinesSplitAcrossReads() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        // Not a test of silence: a long limit keeps a busy machine's late sends from counting as one.
        let source = GPSDSource(host: "127.0.0.1", port: server.port, silenceTimeout: 60)
        let connection = try Self.connect(server, recorder, source)
        let garbage = [
            "not json at all\n",
            "{\"class\":\"TPV\",\"mode\":3,\"lat\":\n",                  // truncated JSON
            String(repeating: "x", count: 200_000) + "\n",              // overlong line
            "{" + String(repeating: "[", count: 5000) + "\n",            // deep nesting
            #"{"class":42}"# + "\n",                                      // class of the wrong type
            #"{"mode":3,"lat":1,"lon":2}"# + "\n",                        // no class
            #"{"class":"FROB","x":1}"# + "\n",                            // unknown class
            #"{"class":"TPV","mode":"3","lat":"45","lon":7}"# + "\n",     // wrong types
            #"{"class":"TPV","mode":3,"lat":200,"lon":7,"time":"2025-06-14T10:00:00Z"}"# + "\n", // out of range
            #"{"class":"ERROR","message":"Unrecognized request '?FOO'"}"# + "\n",
            #"{"class":"ERROR"}"# + "\n",
            "\u{0}\u{1}\u{FF}\n", "\r\n", "\n",
            #"[1,2,3]"# + "\n",
            #"{"class":"SKY","satellites":"many","hdop":"low"}"# + "\n",
        ]
        for line in garbage { connection.send(line) }
        // A valid report cut into pieces sent separately.
        let tpv = Array(Self.tpv("2025-06-14T10:00:03.000Z", lat: 45.1, lon: 7.7, extra: Self.full).utf8)
        for piece in stride(from: 0, to: tpv.count, by: 7) {
            connection.send(Array(tpv[piece..<min(piece + 7, tpv.count)]))
            try await Task.sleep(for: .milliseconds(2))
        }
        // A last report: once it is in, everything sent before it has been read.
        connection.send(Self.tpv("2025-06-14T10:00:04.000Z", lat: 45.2, extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 2 })
        recorder.stop(source)
        #expect(recorder.fixes.map(\.latitude) == [45.1, 45.2])
        #expect(recorder.noFixReasons.isEmpty, "garbage is ignored, not a loss of fix: \(recorder.noFixReasons)")
    }

    @Test func mergesSeveralTPVsOfOneEpoch() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port)
        let connection = try Self.connect(server, recorder, source)
        // What gpsd sends before it has learnt the receiver's cycle: one TPV per sentence.
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", mode: 2, extra: #""eph":12.0"#))
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: #""altMSL":240.0,"epv":30.0"#))
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: #""speed":3.0,"track":180.0"#))
        // The next epoch, complete in one TPV; then a late duplicate of the first.
        connection.send(Self.tpv("2025-06-14T10:00:02.000Z", lat: 45.08, extra: Self.full))
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", lat: 45.09, extra: Self.full))
        // A last complete epoch: once its fix is in, the duplicate before it has been dealt with.
        connection.send(Self.tpv("2025-06-14T10:00:03.000Z", lat: 45.10, extra: Self.full))
        #expect(await recorder.wait { $0.fixes.contains { $0.latitude == 45.10 } })
        recorder.stop(source)
        let fixes = recorder.fixes
        #expect(fixes.count == 3, "the late duplicate of the first epoch is dropped")
        let first = try #require(fixes.first)
        #expect(first.altitude == 240 && first.verticalAccuracy == 15 && first.horizontalAccuracy == 6)
        #expect(first.speed == 3 && first.course == 180)
        #expect(fixes.map(\.latitude) == [45.07, 45.08, 45.10])
    }

    @Test func incompleteEpochIsReportedAfterTheMergeWindow() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port)
        let connection = try Self.connect(server, recorder, source)
        let sent = Date()
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", mode: 2))
        #expect(await recorder.wait(timeout: 3) { $0.fixes.count == 1 })
        let delay = try #require(recorder.all.first?.time).timeIntervalSince(sent)
        recorder.stop(source)
        #expect(delay >= 0.25 && delay < 2, "waited \(delay) s")
        let fix = try #require(recorder.fixes.first)
        #expect(fix.horizontalAccuracy == ReceiverAccuracy.unknownHorizontal && fix.verticalAccuracy == -1)
        #expect(fix.speed == -1 && fix.course == -1)
    }

    @Test func modeOneIsNoFixAndErrorsNeverCrash() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port)
        let connection = try Self.connect(server, recorder, source)
        connection.send(Self.tpv("2025-06-14T10:00:00.000Z", mode: 1))
        connection.send(#"{"class":"ERROR","message":"can't open /dev/ttyUSB0"}"# + "\n")
        connection.send(Self.tpv(nil, mode: 0))
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 1 })
        recorder.stop(source)
        let events = recorder.events
        #expect(events.count == 3)
        #expect(recorder.noFixReasons.count == 2)
        if case .fix = events.last {} else { Issue.record("the fix comes last: \(events)") }
    }

    @Test func reportsAnOutageAndResumesWhenGpsdIsBack() async throws {
        var server = try LoopbackServer()
        let port = server.port
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: port)
        var connection = try Self.connect(server, recorder, source)
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 1 })

        // gpsd goes away: the connection drops and new ones are refused.
        connection.close()
        server.close()
        #expect(await recorder.wait { !$0.noFixReasons.isEmpty }, "an outage is reported")
        // Every failed attempt is reported: the drop, then a few refused reconnections.
        #expect(await recorder.wait { $0.noFixReasons.count >= 3 }, "a few refused attempts")
        let reasons = recorder.noFixReasons
        #expect(reasons.allSatisfy { $0.contains("gpsd at 127.0.0.1:\(port) unavailable") }, "\(reasons)")

        // gpsd is back on the same port: the source reconnects by itself and watches again.
        server = try LoopbackServer(port: port)
        let back = Date()
        connection = try #require(server.accept(timeout: 6), "reconnected")
        #expect(Date().timeIntervalSince(back) < 4.5, "within the maximum backoff")
        connection.send(Self.version)
        #expect(connection.readLine() == #"?WATCH={"enable":true,"json":true};"#)
        connection.send(Self.tpv("2025-06-14T10:00:05.000Z", lat: 45.2, extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 2 })
        recorder.stop(source)
        #expect(recorder.fixes.last?.latitude == 45.2)
        #expect(connection.secondsUntilClosed(timeout: 1) != nil)
        #expect(recorder.emissionsOutsideLoop == 0)
    }

    @Test func refusedAtStartIsNoFixNotAFailure() async throws {
        let server = try LoopbackServer()
        let port = server.port
        server.close()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: port)
        recorder.start(source)
        #expect(await recorder.wait { !$0.noFixReasons.isEmpty })
        recorder.stop(source)
        let reason = try #require(recorder.noFixReasons.first)
        #expect(reason.contains("Connection refused"), "\(reason)")
        let count = recorder.count
        #expect(await !recorder.wait(timeout: 1) { $0.count != count }, "no retries reported after stop")
    }

    @Test func triesEveryAddressOfAName() async throws {
        // "localhost" may resolve to ::1 first, where nothing listens: the IPv4 address must follow.
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "localhost", port: server.port)
        #expect(source.descriptor.name == "gpsd://localhost:\(server.port)")
        let connection = try Self.connect(server, recorder, source)
        connection.send(Self.tpv("2025-06-14T10:00:01.000Z", extra: Self.full))
        #expect(await recorder.wait { $0.fixes.count == 1 })
        recorder.stop(source)
    }

    @Test func silentGpsdIsNoFix() async throws {
        let server = try LoopbackServer()
        let recorder = LiveRecorder()
        let source = GPSDSource(host: "127.0.0.1", port: server.port, silenceTimeout: 0.5)
        let connection = try Self.connect(server, recorder, source)
        connection.send(#"{"class":"DEVICES","devices":[]}"# + "\n")
        #expect(await recorder.wait { $0.noFixReasons.contains("gpsd has no GPS device") })
        #expect(await recorder.wait { $0.noFixReasons.contains { $0.contains("sent no position") } })
        recorder.stop(source)
    }
}
