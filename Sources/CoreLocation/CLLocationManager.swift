import Foundation
import LocationBootstrap
import LocationCore
import LocationProtocol
import Logging

/// The object you use to start and stop the delivery of location-related events to your app.
///
/// Callbacks arrive on the run loop of the thread that created the manager. A command-line app
/// that creates it on the main thread must keep the main thread serving: `RunLoop.main.run()`
/// or `dispatchMain()`.
open class CLLocationManager: NSObject {
    /// The delegate object to receive update events.
    open weak var delegate: (any CLLocationManagerDelegate)? {
        didSet { if delegate != nil, initialAuthorizationPending { scheduleInitialAuthorizationCallback() } }
    }

    // MARK: Configuration (Apple's iOS defaults)

    /// The accuracy of the location data that your app wants to receive.
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest { didSet { configurationChanged() } }
    /// The minimum distance in meters the device must move horizontally before an update event is generated.
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone { didSet { configurationChanged() } }
    /// The type of activity the app expects the user to typically perform while in the app's location session.
    open var activityType: CLActivityType = .other { didSet { configurationChanged() } }
    /// A Boolean value that indicates whether the location-manager object may pause location updates.
    open var pausesLocationUpdatesAutomatically = true { didSet { configurationChanged() } }
    /// A Boolean value that indicates whether the app receives location updates when running in the background.
    ///
    /// NOTE: Linux has no app suspension: a running process always counts as in use. On Apple
    /// platforms setting this without `UIBackgroundModes` containing `location` is a fatal error;
    /// here it is logged instead.
    open var allowsBackgroundLocationUpdates = false {
        didSet {
            if allowsBackgroundLocationUpdates, !system.info.backgroundModes.contains("location") {
                logger.warning("allowsBackgroundLocationUpdates set without UIBackgroundModes 'location' in Info.plist; Apple platforms terminate the app for this")
            }
        }
    }
    /// A Boolean value that indicates whether the status bar changes its appearance when an app uses location services in the background.
    open var showsBackgroundLocationIndicator = false

    // MARK: State

    /// The most recently retrieved user location.
    @NSCopying open private(set) var location: CLLocation?

    /// The current authorization status for the app.
    open var authorizationStatus: CLAuthorizationStatus { CLAuthorizationStatus(authorization.status) }

    /// A value that indicates the level of location accuracy the app has permission to use.
    open var accuracyAuthorization: CLAccuracyAuthorization {
        CLAccuracyAuthorization(rawValue: authorization.accuracy.rawValue) ?? .reducedAccuracy
    }

    /// NOTE: widgets do not exist on Linux; this follows Apple's rule for the Always case.
    open var isAuthorizedForWidgetUpdates: Bool { authorization.status == .authorizedAlways }

    /// Heading updates: configuration, stream and the last heading (see CLLocationManager+Heading).
    var headingState = HeadingState()
    /// The constraints and regions this manager ranges (see CLLocationManager+Ranging).
    var ranging = RangingState()
    private let system: LocationSystem
    /// Where this manager calls back: the thread or queue that created it.
    let context: CallbackContext
    /// The location before the one being delivered, for the deprecated
    /// `locationManager(_:didUpdateTo:from:)` (see the delegate's default `didUpdateLocations`).
    var locationBeforeDelivery: CLLocation?
    private(set) var connection: (any ClientConnection)?
    /// Region monitoring: the app's shared regions, and what this manager reported of them.
    let regionBook: RegionBook
    var regionStates: [String: FenceState] = [:]
    /// Regions this manager asked to monitor: its own start and failure callbacks name them.
    var ownRegions: [String: CLRegion] = [:]
    var awaitingStart: Set<String> = []
    private var translator: ServiceEventTranslator
    private var authorization: EffectiveAuthorization { translator.authorization }
    private var initialAuthorizationPending = true
    /// The transport did not know the authorization at `init`; until its first event brings it,
    /// `authorizationStatus` reads `.notDetermined` and the initial callback waits.
    private var awaitsInitialAuthorization = false
    private var standard: (stream: StreamID, paused: Bool)?
    private var single: StreamID?
    private var significant: StreamID?
    private var lastStreamID: StreamID = 0
    /// Completions of `requestTemporaryFullAccuracyAuthorization` calls waiting for their outcome.
    var accuracyCompletions: [AccuracyRequestID: @Sendable ((any Error)?) -> Void] = [:]
    var lastAccuracyRequest: AccuracyRequestID = 0
    private let logger = Logger(label: "corelocation.manager")

    public override init() {
        system = LocationSystem.current
        context = CallbackContext.current()
        translator = ServiceEventTranslator(authorization: .notDetermined)
        regionBook = RegionBook.book(for: system)
        super.init()
        let weakSelf = WeakManager(self)
        let context = self.context
        let book = regionBook
        let connection = system.provider.connect(app: system.app, info: system.info, process: system.process) { event in
            // The shared book learns at once, so `monitoredRegions` never waits for this run loop.
            if case .fences(.regions, let update) = event { book.apply(update) }
            context.perform { weakSelf.manager?.handle(event) }
        }
        self.connection = connection
        // Every manager sees the app's regions: the first one after a launch also receives the
        // crossings that happened while the app was not running.
        connection.send(.openFences(.regions))
        if let initial = connection.initialAuthorization {
            translator = ServiceEventTranslator(authorization: initial)
        } else {
            // locationd has not answered yet: its answer is the connection's first event.
            awaitsInitialAuthorization = true
        }
        scheduleInitialAuthorizationCallback()
    }

    deinit {
        connection?.close()
    }

    // MARK: Availability

    /// Returns a Boolean value indicating whether location services are enabled on the device.
    open class func locationServicesEnabled() -> Bool {
        LocationSystem.current.currentAuthorization().servicesEnabled
    }

    /// Returns the app's authorization status for using location services.
    @available(iOS, deprecated: 14.0, message: "Use the authorizationStatus instance property")
    @available(macOS, deprecated: 11.0, message: "Use the authorizationStatus instance property")
    open class func authorizationStatus() -> CLAuthorizationStatus {
        CLAuthorizationStatus(LocationSystem.current.currentAuthorization().status)
    }

    /// Whether heading updates can run: true when a heading source is configured (`compass:`, a
    /// simulated route, a magnetometer; with `locationd`, one of the daemon's, as its welcome says).
    /// Without one, as on Apple devices without a compass, `startUpdatingHeading()` has no effect.
    open class func headingAvailable() -> Bool {
        LocationSystem.current.provider.hasHeadingSources
    }
    /// Whether significant-change monitoring can run: true when a location source is configured
    /// (any source can tell 500 m; with `locationd`, one of the daemon's).
    open class func significantLocationChangeMonitoringAvailable() -> Bool {
        LocationSystem.current.provider.hasLocationSources
    }
    /// Whether the device can range beacons: true when a beacon source is configured (simulated
    /// beacons, `beacon:` specs); without one, false, as on a device without Bluetooth LE. With
    /// `locationd`, one of the daemon's (one that cannot be reached has none). Ranging without one
    /// fails with `CLError.rangingUnavailable`.
    open class func isRangingAvailable() -> Bool {
        LocationSystem.current.provider.hasBeaconSources
    }
    /// Deferred updates were retired by Apple in iOS 13; always `false`, as on Apple platforms.
    @available(iOS, deprecated: 13.0, message: "Deferred location updates are no longer supported")
    open class func deferredLocationUpdatesAvailable() -> Bool { false }

    // MARK: Authorization

    /// Requests the user's permission to use location services while the app is in use.
    open func requestWhenInUseAuthorization() {
        connection?.send(.requestAuthorization(.whenInUse))
    }

    /// Requests the user's permission to use location services regardless of whether the app is in use.
    open func requestAlwaysAuthorization() {
        connection?.send(.requestAuthorization(.always))
    }

    /// Requests permission to use location services with full accuracy, for a while, in an app the
    /// user gave approximate location.
    ///
    /// The prompt shows the purpose string under `purposeKey` in the app's
    /// `NSLocationTemporaryUsageDescriptionDictionary`. The user's answer arrives as
    /// `locationManagerDidChangeAuthorization(_:)`, with `accuracyAuthorization == .fullAccuracy`
    /// when granted.
    ///
    /// NOTE: Apple's grant ends when the app is no longer in use. On Linux a running process is
    /// always in use, so the grant lasts until the process that asked exits (like Allow Once).
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
        requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey, completion: nil)
    }

    /// Requests permission to use location services with full accuracy, for a while, and reports
    /// whether the user was asked.
    ///
    /// `completion` is always called, on the same run loop as the delegate's callbacks: with `nil`
    /// when the prompt was shown (whatever the answer), else with `CLError.promptDeclined` — the
    /// purpose key is missing from `NSLocationTemporaryUsageDescriptionDictionary`, the app already
    /// has full accuracy or is not authorized, or nobody can answer the prompt.
    open func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        lastAccuracyRequest &+= 1
        let request = lastAccuracyRequest
        accuracyCompletions[request] = completion ?? { _ in }
        connection?.send(.requestTemporaryFullAccuracy(request, purposeKey: purposeKey))
    }

    /// Requests permission to use location services with full accuracy, for a while.
    ///
    /// Returns once the user has answered (the authorization already reflects the answer); throws
    /// `CLError.promptDeclined` when the prompt was not shown.
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) async throws {
        let box = UncheckedManager(self)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            box.manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    // MARK: Standard location service

    /// Starts the generation of updates that report the user's current location.
    open func startUpdatingLocation() {
        if let single {
            connection?.send(.stopUpdates(single))
            self.single = nil
        }
        if let current = standard {
            // Repeated starts produce no new events; a start after an automatic pause resumes.
            guard current.paused else { return }
            standard = (current.stream, false)
            connection?.send(.resumeUpdates(current.stream))
            let weakSelf = WeakManager(self)
            context.perform {
                guard let manager = weakSelf.manager else { return }
                manager.delegate?.locationManagerDidResumeLocationUpdates(manager)
            }
            return
        }
        let stream = nextStreamID()
        standard = (stream, false)
        connection?.send(.startUpdates(stream, updateRequest(mode: .continuous)))
    }

    /// Stops the generation of location updates.
    open func stopUpdatingLocation() {
        if let current = standard { connection?.send(.stopUpdates(current.stream)) }
        if let single { connection?.send(.stopUpdates(single)) }
        standard = nil
        single = nil
    }

    /// Requests the one-time delivery of the user's current location.
    open func requestLocation() {
        guard standard == nil, single == nil else { return }
        let stream = nextStreamID()
        single = stream
        connection?.send(.startUpdates(stream, updateRequest(mode: .single)))
    }

    // MARK: Significant-change location service

    /// Starts the generation of updates based on significant location changes: a current
    /// location first, then one when the device has moved 500 metres or more, at most every five
    /// minutes, through `locationManager(_:didUpdateLocations:)`. The source runs only in short
    /// wakes, so it costs a fraction of the standard service. Independent of `startUpdatingLocation()`.
    open func startMonitoringSignificantLocationChanges() {
        guard significant == nil else { return }
        let stream = nextStreamID()
        significant = stream
        connection?.send(.startUpdates(stream, updateRequest(mode: .significantChange)))
    }

    /// Stops the delivery of location events based on significant location changes.
    open func stopMonitoringSignificantLocationChanges() {
        guard let significant else { return }
        connection?.send(.stopUpdates(significant))
        self.significant = nil
    }

    // MARK: Visits

    /// Starts the delivery of visit-related events: `locationManager(_:didVisit:)` when the
    /// device arrives at a place it stays at (departure `distantFuture`) and when it leaves (both
    /// dates; arrival `distantPast` when the stay began before monitoring). Visits are the app's:
    /// starting them on one manager starts them for every manager of the app, and they stay on
    /// after the app relaunches until `stopMonitoringVisits()`. Without full accuracy a visit
    /// carries the app's approximate location. The source runs only in short wakes.
    open func startMonitoringVisits() {
        connection?.send(.startVisits)
    }

    /// Stops the delivery of visit-related events (for every manager of the app).
    open func stopMonitoringVisits() {
        connection?.send(.stopVisits)
    }

    // MARK: Region monitoring

    /// Whether the device supports monitoring regions of this class: circular regions, yes;
    /// beacon regions when a beacon source is configured (as `isRangingAvailable()`).
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        guard let regionClass = regionClass as? CLRegion.Type else { return false }
        if regionClass is CLBeaconRegion.Type { return LocationSystem.current.provider.hasBeaconSources }
        return regionClass is CLCircularRegion.Type
    }

    /// Whether region monitoring is available: yes, for circular regions.
    @available(iOS, deprecated: 7.0, message: "Use isMonitoringAvailable(for:)")
    @available(macOS, deprecated: 10.10, message: "Use isMonitoringAvailable(for:)")
    open class func regionMonitoringAvailable() -> Bool { true }

    /// Whether region monitoring is available and enabled (location services on).
    @available(iOS, deprecated: 6.0, message: "Use isMonitoringAvailable(for:) and authorizationStatus")
    @available(macOS, deprecated: 10.8, message: "Use isMonitoringAvailable(for:) and authorizationStatus")
    open class func regionMonitoringEnabled() -> Bool { locationServicesEnabled() }

    /// The set of shared regions monitored by all location-manager objects of the app.
    open var monitoredRegions: Set<CLRegion> { regionBook.regions() }

    /// The largest boundary distance, in metres, that can be assigned to a region.
    open var maximumRegionMonitoringDistance: CLLocationDistance { Self.maximumRegionMonitoringDistance }

    /// The service's limit (`FenceLimits.defaultMaximumRadius`): 100 km.
    static let maximumRegionMonitoringDistance: CLLocationDistance = 100_000

    /// Starts monitoring the specified region. A region with the identifier of one already
    /// monitored replaces it.
    @available(iOS, deprecated: 17.0, message: "Use CLMonitor")
    @available(macOS, deprecated: 14.0, message: "Use CLMonitor")
    open func startMonitoring(for region: CLRegion) {
        guard let definition = region.fenceDefinition else {
            return reportRegionFailure(region, .regionMonitoringFailure)
        }
        ownRegions[region.identifier] = region
        awaitingStart.insert(region.identifier)
        regionStates[region.identifier] = .unknown
        regionBook.started(definition)
        connection?.send(.addFence(.regions, definition))
    }

    /// Starts monitoring the specified region; the accuracy is ignored, as Apple has since iOS 6.
    @available(iOS, deprecated: 6.0, message: "Use startMonitoring(for:)")
    @available(macOS, deprecated: 10.8, message: "Use startMonitoring(for:)")
    open func startMonitoring(for region: CLRegion, desiredAccuracy accuracy: CLLocationAccuracy) {
        startMonitoring(for: region)
    }

    /// Stops monitoring the specified region (for every manager of the app).
    @available(iOS, deprecated: 17.0, message: "Use CLMonitor")
    @available(macOS, deprecated: 14.0, message: "Use CLMonitor")
    open func stopMonitoring(for region: CLRegion) {
        ownRegions[region.identifier] = nil
        awaitingStart.remove(region.identifier)
        regionStates[region.identifier] = nil
        regionBook.stopped(region.identifier)
        connection?.send(.removeFence(.regions, identifier: region.identifier))
    }

    /// Retrieves the state of a monitored region; the answer arrives through
    /// `locationManager(_:didDetermineState:for:)`. A region that is not monitored gets no answer.
    @available(iOS, deprecated: 17.0, message: "Use CLMonitor")
    @available(macOS, deprecated: 14.0, message: "Use CLMonitor")
    open func requestState(for region: CLRegion) {
        guard regionBook.definition(region.identifier) != nil else { return }
        connection?.send(.requestFenceState(.regions, identifier: region.identifier))
    }

    // MARK: Heading

    /// The minimum angular change in degrees required to generate new heading events (default 1°;
    /// `kCLHeadingFilterNone` delivers every heading).
    open var headingFilter: CLLocationDegrees {
        get { headingState.filter }
        set {
            headingState.filter = newValue
            if let stream = headingState.stream { connection?.send(.startHeading(stream, headingRequest)) }
        }
    }

    /// The device orientation to use when computing heading values (default `.portrait`).
    /// `.unknown`, `.faceUp` and `.faceDown` are ignored, as on Apple platforms; a change affects
    /// the headings reported after it.
    open var headingOrientation: CLDeviceOrientation {
        get { headingState.orientation }
        set {
            guard newValue != .unknown, newValue != .faceUp, newValue != .faceDown else { return }
            headingState.orientation = newValue
        }
    }

    /// The most recently reported heading; nil until one is reported.
    open var heading: CLHeading? { headingState.last }

    /// Starts the generation of updates that report the user's current heading, delivered to
    /// `locationManager(_:didUpdateHeading:)` on the manager's run loop.
    ///
    /// Without a heading source (`headingAvailable()` false) it has no effect, as on Apple devices
    /// without a compass; calling it again while running changes nothing.
    open func startUpdatingHeading() {
        guard headingState.stream == nil, Self.headingAvailable() else { return }
        let stream = nextStreamID()
        headingState.stream = stream
        connection?.send(.startHeading(stream, headingRequest))
    }

    /// Stops the generation of heading updates.
    open func stopUpdatingHeading() {
        guard let stream = headingState.stream else { return }
        connection?.send(.stopHeading(stream))
        headingState.stream = nil
        headingState.askedCalibration = false
    }

    /// Dismisses the heading calibration display from the screen immediately.
    ///
    /// NOTE: Linux has no system calibration screen; the manager only notes (and logs) that the
    /// delegate asked for one, and this ends it.
    open func dismissHeadingCalibrationDisplay() {
        headingState.calibrationDisplayed = false
    }

    // MARK: Beacon ranging

    /// The constraints this manager ranges (`startRangingBeacons(satisfying:)`).
    open var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> { Set(ranging.constraints.keys) }

    /// The beacon regions this manager ranges (the deprecated `startRangingBeacons(in:)`).
    @available(iOS, deprecated: 13.0, message: "Use rangedBeaconConstraints")
    @available(macOS, deprecated: 10.15, message: "Use rangedBeaconConstraints")
    open var rangedRegions: Set<CLRegion> { Set(ranging.regions.values.map(\.region)) }

    /// Starts reporting the beacons that satisfy `constraint`: about once a second
    /// `locationManager(_:didRange:satisfying:)` with every such beacon in range (an empty array
    /// when there is none), on the manager's run loop.
    ///
    /// Ranging needs When In Use or Always authorization with full accuracy. Without it — or
    /// without a beacon source, with the adapter off or location services off —
    /// `locationManager(_:didFailRangingFor:error:)` reports `CLError.denied` (not authorized) or
    /// `.rangingUnavailable`; the constraint stays ranged, and scans follow once ranging can run.
    /// Starting a constraint already ranged changes nothing.
    open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        startRanging(.constraint(constraint))
    }

    /// Stops reporting the beacons that satisfy `constraint`.
    open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        stopRanging(constraint: constraint)
    }

    /// Starts reporting the beacons of `region` through `locationManager(_:didRangeBeacons:in:)`
    /// and `locationManager(_:rangingBeaconsDidFailFor:withError:)`, as
    /// `startRangingBeacons(satisfying:)` does for its constraint. A region with the identifier of
    /// one already ranged replaces it.
    @available(iOS, deprecated: 13.0, message: "Use startRangingBeacons(satisfying:)")
    @available(macOS, deprecated: 10.15, message: "Use startRangingBeacons(satisfying:)")
    open func startRangingBeacons(in region: CLBeaconRegion) {
        startRanging(.region(region))
    }

    /// Stops reporting the beacons of the region with `region`'s identifier.
    @available(iOS, deprecated: 13.0, message: "Use stopRangingBeacons(satisfying:)")
    @available(macOS, deprecated: 10.15, message: "Use stopRangingBeacons(satisfying:)")
    open func stopRangingBeacons(in region: CLBeaconRegion) {
        stopRanging(regionIdentifier: region.identifier)
    }

    // MARK: Deferred updates

    /// Apple retired deferred updates in iOS 13: this call has no effect, as there.
    @available(iOS, deprecated: 13.0, message: "Deferred location updates are no longer supported")
    open func allowDeferredLocationUpdates(untilTraveled distance: CLLocationDistance, timeout: TimeInterval) {}

    /// Apple retired deferred updates in iOS 13: this call has no effect, as there.
    @available(iOS, deprecated: 13.0, message: "Deferred location updates are no longer supported")
    open func disallowDeferredLocationUpdates() {}

    // MARK: Internals

    func nextStreamID() -> StreamID {
        lastStreamID &+= 1
        return lastStreamID
    }

    private func updateRequest(mode: UpdateRequest.Mode) -> UpdateRequest {
        UpdateRequest(
            mode: mode, desiredAccuracy: desiredAccuracy, distanceFilter: distanceFilter,
            activity: UpdateRequest.Activity(rawValue: activityType.rawValue) ?? .other,
            pausesAutomatically: pausesLocationUpdatesAutomatically)
    }

    private func configurationChanged() {
        guard let current = standard else { return }
        connection?.send(.changeUpdates(current.stream, updateRequest(mode: .continuous)))
    }

    /// Apple calls `locationManagerDidChangeAuthorization(_:)` right after creation; the call
    /// waits for the run loop so that a delegate assigned just after `init` receives it.
    private func scheduleInitialAuthorizationCallback() {
        let weakSelf = WeakManager(self)
        context.perform { weakSelf.manager?.deliverInitialAuthorizationCallback() }
    }

    /// Runs on the callback context.
    private func deliverInitialAuthorizationCallback() {
        guard initialAuthorizationPending, !awaitsInitialAuthorization, let delegate else { return }
        initialAuthorizationPending = false
        delegate.locationManagerDidChangeAuthorization(self)
        callDeprecatedAuthorizationCallback(delegate)
    }

    private func callDeprecatedAuthorizationCallback(_ delegate: any CLLocationManagerDelegate) {
        delegate.locationManager(self, didChangeAuthorization: authorizationStatus)
    }

    /// Runs on the callback context.
    private func handle(_ event: ServiceEvent) {
        if awaitsInitialAuthorization, case .authorizationChanged(let initial) = event {
            awaitsInitialAuthorization = false
            translator = ServiceEventTranslator(authorization: initial)
            deliverInitialAuthorizationCallback()
            return
        }
        guard let translated = translator.translate(event) else { return }
        switch translated {
        case let .authorizationChanged(old, new):
            // Only what the manager reports counts as a change (not, say, the global switch
            // flipping while the app is denied anyway).
            guard new.status != old.status || new.accuracy != old.accuracy else { return }
            initialAuthorizationPending = false
            delegate?.locationManagerDidChangeAuthorization(self)
            if new.status != old.status, let delegate { callDeprecatedAuthorizationCallback(delegate) }
        case .authorizationRequestInProgress:
            break
        case let .locations(stream, locations):
            guard stream == standard?.stream || stream == single || stream == significant else { return }
            locationBeforeDelivery = location
            location = locations.last
            delegate?.locationManager(self, didUpdateLocations: locations)
        case let .failed(stream, code) where isRangingStream(stream):
            deliverRangingFailure(code, stream: stream)
        case let .failed(stream, code):
            guard stream == standard?.stream || stream == single || stream == significant else { return }
            delegate?.locationManager(self, didFailWithError: CLError(code))
        case .paused(let stream):
            guard let current = standard, current.stream == stream else { return }
            standard = (stream, true)
            delegate?.locationManagerDidPauseLocationUpdates(self)
        case .completed(let stream):
            if stream == single { single = nil }
        case .stationary, .sourceFinished:
            break
        case let .heading(stream, sample):
            guard stream == headingState.stream else { return }
            deliverHeading(sample)
        case let .beacons(stream, beacons):
            deliverRanged(beacons, stream: stream)
        case let .fences(group, update):
            if group == .regions { handleRegions(update) }
        case let .temporaryFullAccuracy(request, outcome):
            completeTemporaryFullAccuracyRequest(request, outcome)
        case .visit(let visit):
            delegate?.locationManager(self, didVisit: visit)
        }
    }
}

/// A weak reference that may cross to the callback context (only dereferenced there).
private struct WeakManager: @unchecked Sendable {
    weak var manager: CLLocationManager?
    init(_ manager: CLLocationManager) { self.manager = manager }
}

extension CLAuthorizationStatus {
    init(_ status: AuthorizationStatus) {
        self = CLAuthorizationStatus(rawValue: status.rawValue) ?? .notDetermined
    }
}

/// A manager's heading configuration (with Apple's defaults), its stream and what it reported.
struct HeadingState {
    var filter: CLLocationDegrees = 1
    var orientation: CLDeviceOrientation = .portrait
    /// The heading stream while `startUpdatingHeading()` is in effect.
    var stream: StreamID?
    var last: CLHeading?
    /// The delegate was asked about calibration for the current spell of poor headings.
    var askedCalibration = false
    /// The delegate answered true and nothing dismissed the (notional) calibration display yet.
    var calibrationDisplayed = false
}
