import Foundation
import LocationCore
import LocationProtocol
import TestSupport
import Testing

/// Collects what a connection delivers, and checks that deliveries never overlap.
final class EventRecorder: Sendable {
    private let state = Locked((events: [ServiceEvent](), delivering: false, overlapped: false, firstDelivery: Date?.none))

    /// When the first event was delivered (on the connection's thread).
    var firstDelivery: Date? { state.withLock { $0.firstDelivery } }

    var events: [ServiceEvent] { state.withLock { $0.events } }

    /// Forgets what was delivered so far (after checking it).
    func removeAll() { state.withLock { $0.events.removeAll() } }

    /// Waits for a connection's first event, which is its initial authorization when `connect`
    /// did not know it, and forgets it.
    func expectInitial(_ authorization: EffectiveAuthorization, sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(await eventually { !events.isEmpty }, "an initial authorization arrives", sourceLocation: sourceLocation)
        #expect(events == [.authorizationChanged(authorization)], sourceLocation: sourceLocation)
        removeAll()
    }

    var overlapped: Bool { state.withLock { $0.overlapped } }

    var handler: @Sendable (ServiceEvent) -> Void {
        { event in
            self.state.withLock { state in
                if state.delivering { state.overlapped = true }
                state.delivering = true
                if state.firstDelivery == nil { state.firstDelivery = Date() }
            }
            self.state.withLock { state in
                state.events.append(event)
                state.delivering = false
            }
        }
    }

    /// Every fix delivered, in order.
    var fixes: [Fix] {
        events.flatMap { event -> [Fix] in
            if case let .stream(_, .locations(fixes)) = event { return fixes }
            return []
        }
    }

    var authorizationChanges: [EffectiveAuthorization] {
        events.compactMap { event in
            if case let .authorizationChanged(authorization) = event { return authorization }
            return nil
        }
    }
}

extension Fix {
    /// A fix at `seconds` past a fixed instant.
    static func at(_ seconds: TimeInterval, latitude: Double = 52.52) -> Fix {
        Fix(
            latitude: latitude, longitude: 13.405, altitude: 34, ellipsoidalAltitude: 78,
            horizontalAccuracy: 5, verticalAccuracy: 3, speed: 1.2, speedAccuracy: 0.3,
            course: 90, courseAccuracy: 5, timestamp: Date(timeIntervalSinceReferenceDate: 780_000_000 + seconds),
            isSimulated: false, isProducedByAccessory: false, floor: nil)
    }
}

extension EffectiveAuthorization {
    static let whenInUse = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .fullAccuracy, servicesEnabled: true)
    static let approximate = EffectiveAuthorization(status: .authorizedWhenInUse, accuracy: .reducedAccuracy, servicesEnabled: true)
    static let denied = EffectiveAuthorization(status: .denied, accuracy: .fullAccuracy, servicesEnabled: true)
}

/// The identity arguments `connect` takes (and the daemon client ignores).
enum Caller {
    static let app = AppIdentity(id: "com.example.claims", displayName: "Claims", executablePath: "/claims")
    static let info = AppInfo()
    static let process = ProcessStamp(pid: 1, startTime: 1)
}
