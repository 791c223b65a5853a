@preconcurrency import Crypto
import Foundation

extension SealingKey {
    /// A secret for another purpose, derived from this key with HKDF-SHA256 (`purpose` as the info):
    /// the same key gives the same secret, and the secret reveals neither the key nor what another
    /// purpose derives.
    public func derivedSecret(purpose: String, byteCount: Int = 32) -> [UInt8] {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(purpose.utf8), outputByteCount: byteCount)
        return derived.withUnsafeBytes { Array($0) }
    }
}
