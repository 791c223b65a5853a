#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LocationAccess
import LocationCore
import LocationNMEA
import LocationProtocol
import LocationWire
import NIOCore

// `corelocation-bench fanout-floor --socket PATH --feed PORT --clients N`
// The cheapest possible locationd, to calibrate the fan-out benchmark: it welcomes N clients as
// authorized, then reads the NMEA feeder on 127.0.0.1:PORT and writes each fix — one frame, encoded
// once — to every client with one write(2) each, from one thread, in connection order. No policy, no
// engine. What `locationd-clients` measures against it is the cost of the kernel and of the clients
// themselves; the rest of locationd's latency is locationd's. Runs until killed.

func runFanOutFloor(_ arguments: [String]) -> Never {
    var socketPath = "", feedPort = 0, clients = 0
    var it = arguments.makeIterator()
    while let flag = it.next() {
        let value = it.next() ?? ""
        switch flag {
        case "--socket": socketPath = value
        case "--feed": feedPort = Int(value) ?? 0
        case "--clients": clients = Int(value) ?? 0
        default: floorUsage("unknown option \(flag)")
        }
    }
    guard !socketPath.isEmpty, feedPort > 0, clients > 0 else { floorUsage("--socket, --feed and --clients are required") }

    let listener = listenUnix(socketPath)
    print("fanout-floor: listening on \(socketPath)")
    fflush(nil)
    var descriptors: [Int32] = []
    for _ in 0..<clients {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { floorFail("accept: \(String(cString: strerror(errno)))") }
        guard case .hello = readClientMessage(client) else { floorFail("a client did not say hello") }
        writeAll(client, encode(.welcome(
            identity: .init(id: "fanout-floor", displayName: "fanout-floor", executablePath: ""),
            authorization: .init(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true),
            capabilities: [.locations])))
        guard case .request(.startUpdates) = readClientMessage(client) else { floorFail("a client did not start updates") }
        descriptors.append(client)
    }

    let feed = connectTCP(port: feedPort)
    var decoder = NMEADecoder()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(feed, $0.baseAddress, $0.count) }
        guard count > 0 else { floorFail("the feeder closed the connection") }
        var frames: [[UInt8]] = []
        chunk.withUnsafeBytes { bytes in
            decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { event in
                guard case let .fix(nmea) = event, let time = nmea.time else { return }
                let fix = Fix(latitude: nmea.latitude, longitude: nmea.longitude, horizontalAccuracy: 5,
                              timestamp: Date(timeIntervalSince1970: time))
                frames.append(encode(.event(.stream(1, .locations([fix])))))
            }
        }
        for frame in frames {
            for client in descriptors { writeAll(client, frame) }
        }
    }
}

private func floorUsage(_ message: String) -> Never {
    print("corelocation-bench: \(message)\nusage: corelocation-bench fanout-floor --socket PATH --feed PORT --clients N")
    exit(2)
}

private func floorFail(_ message: String) -> Never {
    print("corelocation-bench fanout-floor: \(message)")
    exit(1)
}

private func encode(_ message: DaemonMessage) -> [UInt8] {
    var buffer = ByteBuffer()
    do { try WireCodec.encode(message, into: &buffer) } catch { floorFail("cannot encode \(message): \(error)") }
    return Array(buffer.readableBytesView)
}

private func readExactly(_ descriptor: Int32, _ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
        let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + offset, count - offset) }
        guard got > 0 else { floorFail("a client closed the connection during the handshake") }
        offset += got
    }
    return bytes
}

private func readClientMessage(_ descriptor: Int32) -> ClientMessage? {
    var buffer = ByteBuffer(bytes: readExactly(descriptor, 4))
    let length = Int(buffer.getInteger(at: 0, as: UInt32.self)!)
    guard length > 0, length <= WireProtocol.maximumFrameLength else { return nil }
    buffer.writeBytes(readExactly(descriptor, length))
    guard let frame = try? WireFrameDecoder.nextFrame(from: &buffer) else { return nil }
    return try? WireCodec.decodeClientMessage(frame)
}

private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
        guard written > 0 else { floorFail("write to a client: \(String(cString: strerror(errno)))") }
        offset += written
    }
}

private func listenUnix(_ path: String) -> Int32 {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.utf8.count < capacity else { floorFail("socket path longer than \(capacity - 1) bytes") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: path.utf8)
    }
    unlink(path)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard listener >= 0, bound == 0, listen(listener, 1024) == 0 else {
        floorFail("cannot listen on \(path): \(String(cString: strerror(errno)))")
    }
    return listener
}

private func connectTCP(port: Int) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard descriptor >= 0, connected == 0 else { floorFail("cannot connect to the feeder on port \(port)") }
    return descriptor
}
