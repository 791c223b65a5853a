import ArgumentParser
import Foundation
import LocationCore
import LocationNMEA
import LocationSources

extension LocationCtl {
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Decode NMEA 0183 from a file or standard input: one line per fix.",
            discussion: """
                Reads FILE (or standard input when FILE is - or absent) and prints one line per epoch \
                with a fix; epochs without a fix print nothing. Damaged input (bad checksums, \
                truncated or overlong lines, binary data) is skipped: --stats counts it.

                Values NMEA does not carry use Core Location's sentinels: -1 for an unknown \
                accuracy, speed or course. Without a date (no RMC or ZDA yet) the timestamp is the \
                time of day on 1970-01-01, and with no time at all 1970-01-01T00:00:00.000Z. \
                horizontalAccuracy is 1σ from GST, else HDOP × 5 m, else 10 m; verticalAccuracy \
                likewise from GST or VDOP (3D fixes only); speed and course accuracies are \
                estimated from HDOP (0.1 m/s per unit). Without a geoid separation, \
                ellipsoidalAltitude repeats the altitude.
                """)

        @Flag(name: .long, help: "Print one JSON object per fix (the keys of locate --json).")
        var json = false

        @Flag(name: .long, help: "Print a one-line summary of what was decoded and rejected to standard error.")
        var stats = false

        @Flag(name: .long, help: "Accept sentences without a *hh checksum.")
        var allowMissingChecksum = false

        @Argument(help: "The NMEA file (default: standard input).")
        var file: String?

        /// Input is decoded in steps of this size (read(2) blocks for pipes).
        static let blockSize = 4 << 20
        /// Files are mapped this much at a time (a multiple of the page size).
        static let windowSize = 64 << 20

        func run() throws {
            let fd: Int32
            if let file, file != "-" {
                fd = open(file, O_RDONLY)
                guard fd >= 0 else { throw CommandFailure("cannot open \(file): \(String(cString: strerror(errno)))") }
            } else {
                fd = STDIN_FILENO
            }
            defer { if fd != STDIN_FILENO { close(fd) } }

            var decoder = NMEADecoder(options: .init(allowMissingChecksum: allowMissingChecksum))
            let output = OutputBuffer(fd: STDOUT_FILENO)
            let json = self.json
            var fixes = 0
            let handle: (NMEAEvent) -> Void = { event in
                // No date in the log: the time of day on 1970-01-01 (see the discussion above).
                guard case .fix(let nmea) = event, let fix = NMEAFixConversion.fix(
                    from: nmea, timestamp: Date(timeIntervalSince1970: nmea.time ?? nmea.timeOfDay ?? 0),
                    isSimulated: false) else { return }
                fixes += 1
                if json {
                    output.commit(JSONFixWriter.write(fix, to: output.reserve(JSONFixWriter.maximumLineLength)))
                } else {
                    output.append(FixFormatting.line(fix) + "\n")
                }
            }

            var info = stat()
            if fd != STDIN_FILENO, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
                // A regular file: decode it in place, mapped (and pre-faulted) one window at a time;
                // a line across two windows is the decoder's ordinary split-input case.
                let size = Int(info.st_size)
                var windowStart = 0
                while windowStart < size {
                    let windowSize = min(Self.windowSize, size - windowStart)
                    guard let window = mmap(nil, windowSize, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, off_t(windowStart)),
                          window != MAP_FAILED
                    else { throw CommandFailure("cannot read \(file ?? ""): \(String(cString: strerror(errno)))") }
                    defer { munmap(window, windowSize) }
                    var offset = 0
                    while offset < windowSize {
                        let count = min(Self.blockSize, windowSize - offset)
                        decoder.feed(UnsafeRawBufferPointer(start: window + offset, count: count), onEvent: handle)
                        offset += count
                    }
                    windowStart += windowSize
                }
            } else {
                let block = UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: 16)
                defer { block.deallocate() }
                while true {
                    let count = read(fd, block, Self.blockSize)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw CommandFailure("cannot read \(file ?? "standard input"): \(String(cString: strerror(errno)))")
                    }
                    if count == 0 { break }
                    decoder.feed(UnsafeRawBufferPointer(start: block, count: count), onEvent: handle)
                    // Timely output when the input is a live stream.
                    output.flush()
                }
            }
            decoder.finish(onEvent: handle)
            output.flush()
            if stats {
                let s = decoder.statistics
                FileHandle.standardError.write(Data((
                    "locationctl: decode: \(s.sentences) sentences, \(s.epochs) epochs (\(fixes) fixes), "
                    + "\(s.badChecksum) bad checksum, \(s.missingChecksum) missing checksum, \(s.malformed) malformed, "
                    + "\(s.overlong) overlong, \(s.unsupported) unsupported, \(s.lateSentences) late, "
                    + "\(s.skippedBytes) bytes skipped\n").utf8))
            }
        }
    }
}
