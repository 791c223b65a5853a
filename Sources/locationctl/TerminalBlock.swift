import Foundation

/// A block of lines redrawn in place on a terminal (`watch`, `beacons`): the cursor goes back up
/// over the last drawing, each line is cleared and written, and lines left over from a longer
/// drawing are cleared.
struct TerminalBlock {
    private var drawnLines = 0

    mutating func draw(_ lines: [String]) {
        var output = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { output += "\u{1B}[2K" + line + "\n" }
        if lines.count < drawnLines {
            for _ in lines.count..<drawnLines { output += "\u{1B}[2K\n" }
        }
        drawnLines = max(lines.count, drawnLines)
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
