@preconcurrency import Crypto
import Foundation

/// The name of an app's file in a per-app store: the SHA-256 of the app id's UTF-8 in lowercase hex,
/// then the store's extension. A hash because app ids are bundle ids or executable paths of any
/// length and any characters; the id itself is inside the file.
enum AppFileName {
    static func name(for appID: String, extension fileExtension: String) -> String {
        SHA256.hash(data: Data(appID.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + fileExtension
    }
}
