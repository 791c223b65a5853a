import Foundation

/// The methods for receiving events from a `CLLocationManager`.
///
/// NOTE: on Apple platforms every requirement is an Objective-C `optional` method. Linux has no
/// Objective-C runtime, so each is a requirement with a default no-op implementation below; a
/// conforming type implements only what it needs, exactly as on Apple platforms. Deprecations are
/// declared for Apple's platforms, as Apple does, so ported code builds here without new warnings.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    @available(iOS, deprecated: 14.0, message: "Use locationManagerDidChangeAuthorization(_:)")
    @available(macOS, deprecated: 11.0, message: "Use locationManagerDidChangeAuthorization(_:)")
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    @available(iOS, deprecated: 6.0, message: "Use locationManager(_:didUpdateLocations:)")
    @available(macOS, deprecated: 10.12, message: "Use locationManager(_:didUpdateLocations:)")
    func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation)
    func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?)
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)
    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)
    @available(iOS, deprecated: 13.0, message: "Use locationManager(_:didRange:satisfying:)")
    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
    @available(iOS, deprecated: 13.0, message: "Use locationManager(_:didFailRangingFor:error:)")
    func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
}

extension CLLocationManagerDelegate {
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    /// A delegate that does not implement this method gets each location through the deprecated
    /// `locationManager(_:didUpdateTo:from:)` instead, as Apple does for delegates that implement
    /// only that one. Its first `oldLocation` — nil in Objective-C — is an invalid location here
    /// (`kCLLocationCoordinate2DInvalid`, negative accuracies, `Date.distantPast`).
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        var previous = manager.locationBeforeDelivery ?? CLLocation(
            coordinate: kCLLocationCoordinate2DInvalid, altitude: 0, horizontalAccuracy: -1, verticalAccuracy: -1,
            timestamp: .distantPast)
        for location in locations {
            locationManager(manager, didUpdateTo: location, from: previous)
            previous = location
        }
    }
    public func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation) {}
    public func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?) {}
    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
    public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {}
    public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
    public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}
    /// Apple's documented default when the method is not implemented: no calibration display.
    public func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool { false }
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {}
    public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {}
    public func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {}
    public func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {}
    public func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {}
}
