import LocationDBus
import Testing

/// Reading decoded values and standard signals: a shape other than the expected one is nil, never a trap.
struct DBusValueTests {
    @Test func signaturesOfNestedValues() {
        #expect(DBusValue.properties(["a": .int32(1)]).signature == "a{sv}")
        #expect(DBusValue.dictionary(keySignature: "q", valueSignature: "v", []).signature == "a{qv}")
        #expect(DBusValue.structure([.string("x"), .array(elementSignature: "y", [])]).signature == "(say)")
        #expect(DBusValue.variant(.variant(.boolean(true))).unwrapped == .boolean(true))
    }

    @Test func typedReadersRefuseOtherTypes() {
        #expect(DBusValue.int16(-60).integer == -60)
        #expect(DBusValue.variant(.uint64(UInt64.max)).integer == nil)
        #expect(DBusValue.double(1).integer == nil)
        #expect(DBusValue.string("1").double == nil)
        #expect(DBusValue.variant(.objectPath("/a")).string == "/a")
        #expect(DBusValue.array(elementSignature: "y", [.byte(1), .byte(2)]).bytes == [1, 2])
        #expect(DBusValue.array(elementSignature: "n", [.int16(1)]).bytes == nil)
        // An array claiming bytes but holding something else (only a hand-built value can).
        #expect(DBusValue.array(elementSignature: "y", [.byte(1), .int16(2)]).bytes == nil)
        #expect(DBusValue.array(elementSignature: "s", [.string("a"), .int32(1)]).strings == nil)
        // Found by the fuzzer: an empty array of another type is not an empty list of strings.
        #expect(DBusValue.array(elementSignature: "i", []).strings == nil)
        #expect(DBusValue.array(elementSignature: "s", []).strings == [])
        #expect(DBusValue.array(elementSignature: "v", [.variant(.string("a"))]).strings == ["a"])
        #expect(DBusValue.properties(["a": .int32(1)]).uint16Keyed == nil)
        #expect(DBusValue.dictionary(keySignature: "q", valueSignature: "v", [
            DBusDictEntry(key: .string("x"), value: .variant(.byte(1))),
        ]).uint16Keyed == nil)
        #expect(DBusValue.dictionary(keySignature: "i", valueSignature: "v", []).stringKeyed == nil)
        #expect(DBusValue.int32(1).elements == nil)
        #expect(DBusProperties.decode(.array(elementSignature: "s", [])) == nil)
        #expect(DBusProperties.decodeInterfaces(.properties(["a": .int32(1)])) == nil)
        #expect(DBusProperties.decodeInterfaces(.dictionary(keySignature: "s", valueSignature: "a{sv}", [
            DBusDictEntry(key: .string("org.bluez.Device1"), value: .properties(["RSSI": .int16(-50)])),
        ])) == ["org.bluez.Device1": ["RSSI": .int16(-50)]])
    }

    @Test func malformedStandardSignalsAreNil() {
        func signal(_ interface: String, _ member: String, sender: String = ":1.5", _ arguments: [DBusValue]) -> DBusSignal {
            DBusSignal(sender: sender, path: "/x", interface: interface, member: member, arguments: arguments)
        }
        let properties = DBusConnection.propertiesInterface
        let manager = DBusConnection.objectManagerInterface
        #expect(DBusPropertiesChanged(signal(properties, "PropertiesChanged", [.string("i"), .properties([:]), .array(elementSignature: "s", [])])) != nil)
        #expect(DBusPropertiesChanged(signal(properties, "PropertiesChanged", [.string("i"), .properties([:])])) == nil)
        #expect(DBusPropertiesChanged(signal(properties, "PropertiesChanged", [.int32(1), .properties([:]), .array(elementSignature: "s", [])])) == nil)
        #expect(DBusPropertiesChanged(signal(properties, "PropertiesChanged", [.string("i"), .array(elementSignature: "s", []), .array(elementSignature: "s", [])])) == nil)
        #expect(DBusPropertiesChanged(signal(properties, "Other", [.string("i"), .properties([:]), .array(elementSignature: "s", [])])) == nil)
        #expect(DBusInterfacesAdded(signal(manager, "InterfacesAdded", [.string("/not/a/path/type"), .properties([:])])) == nil)
        #expect(DBusInterfacesAdded(signal(manager, "InterfacesAdded", [.objectPath("/a"), .properties(["x": .int32(1)])])) == nil)
        #expect(DBusInterfacesRemoved(signal(manager, "InterfacesRemoved", [.objectPath("/a"), .array(elementSignature: "s", [.string("i")])]))?.interfaces == ["i"])
        #expect(DBusInterfacesRemoved(signal(manager, "InterfacesRemoved", [.objectPath("/a")])) == nil)
        let owner = [DBusValue.string("net.hadess.SensorProxy"), .string(":1.2"), .string("")]
        #expect(DBusNameOwnerChanged(signal(DBusConnection.busName, "NameOwnerChanged", sender: DBusConnection.busName, owner))?.newOwner == nil)
        // Only the bus itself may say who owns a name.
        #expect(DBusNameOwnerChanged(signal(DBusConnection.busName, "NameOwnerChanged", sender: ":1.66", owner)) == nil)
    }

    @Test func anyTimeoutIsOneTheConnectionCanCount() {
        #expect(DBusConnection.clamped(-1) == 0)
        #expect(DBusConnection.clamped(.infinity) == 86_400)
        #expect(DBusConnection.clamped(.nan) == DBusConnection.defaultTimeout)
        #expect(DBusConnection.clamped(2.5) == 2.5)
    }

    @Test func matchRulesQuoteTheirValues() {
        let rule = DBusMatchRule(sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                 pathNamespace: "/org/bluez", arg0: "it's")
        #expect(rule.description == #"type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez',arg0='it'\''s'"#)
    }
}
