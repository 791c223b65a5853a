import Logging

/// The one logger of this module. Sources log lifecycle and data problems at `debug`/`warning`; they never print.
let sourcesLogger = Logger(label: "corelocation.sources")
