// libFuzzer target for the plaintext of the daemon's last-location file (what LastLocationStore
// reads once the sealed file has opened): built by scripts/fuzz-last-location.sh with
// LastLocationFileFormat.swift and LocationProtocol (the Fix it decodes).
//
// Errors are fine; besides crashes and AddressSanitizer reports, it traps when a fix that decoded
// cannot be written back, its encoding does not decode, or decoding and encoding again gives other
// bytes (compared as bytes: a NaN a file may hold is never equal to itself). fatalError, not
// precondition, so that -O builds print what broke.

import Foundation
import LocationProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func lastLocationFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(bytes: data, count: size)
    let fix: Fix
    do {
        fix = try LastLocationFileFormat.decode(plaintext)
    } catch {
        if error.reason.isEmpty { fatalError("an error without a reason") }
        return 0
    }
    let bytes: Data
    do {
        bytes = try LastLocationFileFormat.encode(fix)
    } catch {
        fatalError("read but cannot be written: \(error): \(fix)")
    }
    do {
        let again = try LastLocationFileFormat.decode(bytes)
        guard let bytesAgain = try? LastLocationFileFormat.encode(again), bytesAgain == bytes else {
            fatalError("one fix, two encodings: \(String(decoding: bytes, as: UTF8.self))")
        }
    } catch {
        fatalError("written but cannot be read: \(error): \(String(decoding: bytes, as: UTF8.self))")
    }
    return 0
}
