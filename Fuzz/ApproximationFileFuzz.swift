// libFuzzer target for the plaintext of a persisted approximate-location file (what
// ApproximationStore reads once a sealed file has opened): built by scripts/fuzz-approximate.sh
// with the format's files of Sources/LocationPersistence (ApproximationFileFormat,
// StoredApproximation, StrictDecoding: Foundation only). The sealing is left out: a file that opens is exactly what
// reaches the decoder.
//
// Errors are fine; besides crashes and AddressSanitizer reports, it traps when a file that decoded
// cannot be written back, its encoding does not decode to the same value, encoding that again gives
// other bytes, or reading it for another app is not refused as foreign. fatalError, not
// precondition, so that -O builds print what broke.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func approximationFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(bytes: data, count: size)
    let decoded: (appID: String, value: StoredApproximation)
    do {
        decoded = try ApproximationFileFormat.decodeAnyApp(plaintext)
    } catch {
        if error.description.isEmpty { fatalError("an error without a description: \(error)") }
        return 0
    }
    let (appID, value) = decoded
    let bytes: Data
    do {
        bytes = try ApproximationFileFormat.encode(value, appID: appID)
    } catch {
        fatalError("read but cannot be written: \(error): \(value)")
    }
    let again: StoredApproximation
    do {
        again = try ApproximationFileFormat.decode(bytes, appID: appID)
    } catch {
        fatalError("written but cannot be read: \(error): \(String(decoding: bytes, as: UTF8.self))")
    }
    if again != value { fatalError("round trip changed \(value) into \(again)") }
    guard let bytesAgain = try? ApproximationFileFormat.encode(again, appID: appID), bytesAgain == bytes else {
        fatalError("one value, two encodings: \(String(decoding: bytes, as: UTF8.self))")
    }
    do {
        _ = try ApproximationFileFormat.decode(plaintext, appID: appID + "/other")
        fatalError("a file of \(appID) was read for another app")
    } catch {
        guard case .foreign = error else { fatalError("read for another app: \(error)") }
    }
    return 0
}
