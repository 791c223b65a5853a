// libFuzzer target for the plaintext of a persisted fence file (what FenceStore reads once a sealed
// file has opened): built by scripts/fuzz-fences.sh together with the format's files of
// Sources/LocationPersistence (FenceFileFormat, FenceFileDTOs, FenceFileError, StoredFences, StrictDecoding: no
// crypto, no logging) against LocationProtocol built as its own module. The sealing is left out: a
// file that opens is exactly what reaches the decoder, and authentication is not what is fuzzed.
//
// Errors are fine; besides crashes and AddressSanitizer reports, it traps when a file that decoded
// breaks the format's promises: it holds an empty group or a value the encoder refuses (anything
// read can be written back), its encoding does not decode to the same app and fences, encoding
// those again gives other bytes (one value, one encoding), or reading it for another app is not
// refused as foreign. Those traps are fatalError, not precondition, so that -O builds print what broke.

import Foundation
import LocationProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fenceFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(bytes: data, count: size)
    let decoded: (appID: String, fences: StoredFences)
    do {
        decoded = try FenceFileFormat.decodeAnyApp(plaintext)
    } catch {
        // Every refusal has a message.
        if error.description.isEmpty { fatalError("an error without a description: \(error)") }
        return 0
    }
    let (appID, fences) = decoded
    if fences.groups.values.contains(where: \.isEmpty) { fatalError("an empty group was read: \(fences)") }

    let bytes: Data
    do {
        bytes = try FenceFileFormat.encode(fences, appID: appID)
    } catch {
        fatalError("read but cannot be written: \(error): \(fences)")
    }
    let again: StoredFences
    do {
        again = try FenceFileFormat.decode(bytes, appID: appID)
    } catch {
        fatalError("written but cannot be read: \(error): \(String(decoding: bytes, as: UTF8.self))")
    }
    if again != fences { fatalError("round trip changed \(fences) into \(again)") }
    guard let bytesAgain = try? FenceFileFormat.encode(again, appID: appID) else {
        fatalError("a round-tripped value cannot be written: \(again)")
    }
    if bytesAgain != bytes {
        fatalError("one value, two encodings: \(String(decoding: bytes, as: UTF8.self)) and \(String(decoding: bytesAgain, as: UTF8.self))")
    }

    do {
        _ = try FenceFileFormat.decode(plaintext, appID: appID + "/other")
        fatalError("a file of \(appID) was read for another app")
    } catch {
        guard case .foreign(appID, appID + "/other") = error else { fatalError("read for another app: \(error)") }
    }
    return 0
}
