/// The floor of a building on which the device is located.
///
/// Apps receive floors on `CLLocation.floor`; they do not create them. It is `open` and has
/// `init()` as on Apple platforms, where tests mock floors by subclassing and overriding `level`.
open class CLFloor: NSObject, NSCopying, NSSecureCoding {
    private let _level: Int

    /// The logical floor: 0 is the ground floor, negative values are below ground.
    open var level: Int { _level }

    /// A floor at level 0.
    public override init() {
        self._level = 0
        super.init()
    }

    /// The floor Core Location reports; used by the service to build locations.
    package init(level: Int) {
        self._level = level
        super.init()
    }

    // MARK: NSCopying, NSSecureCoding

    /// Immutable, so a copy is the object itself (as Foundation does for immutable values).
    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    public required init?(coder: NSCoder) {
        self._level = coder.decodeInteger(forKey: CodingKey.level)
        super.init()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(_level, forKey: CodingKey.level)
    }

    private enum CodingKey {
        static let level = "level"
    }

    open override var description: String { "CLFloor (level:\(level))" }
}
