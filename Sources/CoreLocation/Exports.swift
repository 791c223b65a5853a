// Apple's CoreLocation module re-exports Foundation: code that says only `import CoreLocation`
// still sees `Date`, `UUID`, `NSObject`, `TimeInterval`. Libraries rely on that, and would not
// compile here without it, so we do the same.
@_exported import Foundation
