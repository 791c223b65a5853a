import Logging

/// The one logger of this module.
let dbusLogger = Logger(label: "corelocation.dbus")
