// libFuzzer target for D-Bus messages as they arrive from the bus: built by scripts/fuzz-dbus.sh
// together with the libdbus-facing files of Sources/LocationDBus (outside Sources/, so SwiftPM ignores it).
//
// An input is a marshalled D-Bus message. libdbus validates it (`dbus_message_demarshal`, the same
// loader that reads the bus socket); whatever it accepts is read into `DBusValue`s by
// `DBusArgumentReader`, as every reply and signal is. Besides crashes and AddressSanitizer reports, it
// traps when the values' signatures differ from the message's, when a decoded value is refused by the
// writer's checks or does not survive encoding and decoding again, or when a typed reader disagrees
// with the value's type.
//
// With DBUS_FUZZ_SEEDS=DIR in the environment, initialization writes a seed corpus of marshalled
// messages (properties, BlueZ's managed objects and manufacturer data, nested containers) into DIR.

import CDBus
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func dbusFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["DBUS_FUZZ_SEEDS"] else { return 0 }
    for (index, arguments) in seedArguments().enumerated() {
        guard let message = dbus_message_new_method_call("org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1", "Seed") else { continue }
        defer { dbus_message_unref(message) }
        guard (try? DBusArgumentWriter.append(arguments, to: message)) != nil else { preconditionFailure("seed \(index) refused") }
        // A message on the wire has a serial; 0 is invalid, and the loader refuses it.
        dbus_message_set_serial(message, dbus_uint32_t(index + 1))
        var buffer: UnsafeMutablePointer<CChar>?
        var length: CInt = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else { continue }
        let data = Data(bytes: buffer, count: Int(length))
        dbus_free(buffer)
        _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: data)
    }
    return 0
}

/// The seeds' arguments, made when needed. (Not a global: LeakSanitizer cannot see through the tagged
/// pointers of indirect enum payloads held by a global, and would report them as leaked.)
func seedArguments() -> [[DBusValue]] {
    let ibeacon: [UInt8] = [0x02, 0x15] + Array(0..<16) + [0x00, 0x01, 0x00, 0x02, 0xC5]
    let manufacturer = DBusValue.dictionary(keySignature: "q", valueSignature: "v", [
        DBusDictEntry(key: .uint16(0x004C), value: .variant(.array(elementSignature: "y", ibeacon.map { .byte($0) }))),
    ])
    func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }
    let device = properties([("RSSI", .int16(-60)), ("ManufacturerData", manufacturer), ("Address", .string("AA:BB:CC:DD:EE:FF"))])
    let interfaces = DBusValue.dictionary(keySignature: "s", valueSignature: "a{sv}", [
        DBusDictEntry(key: .string("org.bluez.Device1"), value: device),
    ])
    let objects = DBusValue.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [
        DBusDictEntry(key: .objectPath("/org/bluez/hci0/dev_AA"), value: interfaces),
    ])
    return [
        [.string("org.bluez.Device1"), device, .array(elementSignature: "s", [.string("TxPower")])],
        [.string("net.hadess.SensorProxy.Compass"), properties([("HasCompass", .boolean(true)), ("CompassHeading", .double(12.5))]),
         .array(elementSignature: "s", [])],
        [objects],
        [.objectPath("/org/bluez/hci0/dev_AA"), interfaces],
        [.string("net.hadess.SensorProxy"), .string(":1.2"), .string("")],
        [.structure([.byte(1), .int32(-2), .uint64(3), .signature("a{sv}")]), .variant(.variant(.array(elementSignature: "d", [.double(1)])))],
    ]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func dbusMessageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0, size < Int(CInt.max) else { return 0 }
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let received = data.withMemoryRebound(to: CChar.self, capacity: size) { dbus_message_demarshal($0, CInt(size), &error) }
    guard let received else { return 0 }
    defer { dbus_message_unref(received) }
    guard let values = try? DBusArgumentReader.arguments(of: received) else { return 0 }

    let signature = dbus_message_get_signature(received).map { String(cString: $0) } ?? ""
    precondition(values.map(\.signature).joined() == signature, "decoded types differ from the message's signature")

    // What was read can be written back (the writer's checks accept it) and reads back the same.
    // Compared as text: a NaN is not equal to itself.
    guard let copy = dbus_message_new_method_call("a.b", "/a", "a.b", "C") else { return 0 }
    defer { dbus_message_unref(copy) }
    do {
        try DBusArgumentWriter.append(values, to: copy)
    } catch {
        preconditionFailure("a value read from a message was refused: \(error)")
    }
    guard let again = try? DBusArgumentReader.arguments(of: copy) else { preconditionFailure("a written message did not read back") }
    precondition("\(again)" == "\(values)", "values changed through writing and reading")

    for value in values { exercise(value) }
    return 0
}

/// Every typed reader on `value` and what it contains; each answer must agree with the value's type.
func exercise(_ value: DBusValue) {
    let plain = value.unwrapped
    if let bytes = value.bytes { precondition(plain.signature == "ay" && bytes.count == plain.elements?.count) }
    if value.stringKeyed != nil { precondition(plain.signature.hasPrefix("a{s") || plain.signature.hasPrefix("a{o")) }
    if value.uint16Keyed != nil { precondition(plain.signature.hasPrefix("a{q")) }
    if value.strings != nil { precondition(["as", "ao", "ag", "av"].contains(plain.signature)) }
    _ = DBusProperties.decode(value)
    _ = DBusProperties.decodeInterfaces(value)
    _ = (value.bool, value.double, value.integer, value.string)
    switch plain {
    case .array(_, let elements): elements.forEach(exercise)
    case .structure(let fields): fields.forEach(exercise)
    case .dictionary(_, _, let entries):
        for entry in entries {
            exercise(entry.key)
            exercise(entry.value)
        }
    default: break
    }
}
