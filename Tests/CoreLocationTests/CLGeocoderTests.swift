import CoreLocation
import Foundation
import LocationPlaces
import Testing

/// `CLGeocoder`'s threading, cancellation and error semantics, as Apple documents them,
/// with a scripted backend (one that blocks makes "pending" deterministic).
@Suite(.timeLimit(.minutes(2))) struct CLGeocoderTests {
    @Test func completionRunsOnTheMainThreadAndTheLookupOffTheCallersThread() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin])
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        let caller = pthread_self()
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 52.5, longitude: 13.4), completionHandler: outcomes.handler("a", geocoder))
        #expect(await outcomes.wait(for: 1))
        let outcome = try #require(outcomes.all.first?.outcome)
        #expect(outcome.onMainQueue)
        #expect(outcome.error == nil)
        #expect(outcome.placemarks?.map(\.locality) == ["Berlin"])
        #expect(backend.queries == [.reverse(latitude: 52.5, longitude: 13.4)])
        #expect(backend.threads.count == 1)
        #expect(pthread_equal(backend.threads[0], caller) == 0, "the lookup ran on another thread")
    }

    @Test func isGeocodingFromTheCallUntilTheHandlerIsAboutToRun() async throws {
        let backend = ScriptedGeocodingBackend(places: [.paris], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        #expect(!geocoder.isGeocoding)
        geocoder.geocodeAddressString("Paris", completionHandler: outcomes.handler("a", geocoder))
        #expect(geocoder.isGeocoding)
        #expect(await backend.waitUntilStarted())
        #expect(geocoder.isGeocoding, "still pending while the lookup runs")
        backend.release()
        #expect(await outcomes.wait(for: 1))
        let outcome = try #require(outcomes.all.first?.outcome)
        #expect(!outcome.isGeocodingInHandler)
        #expect(!geocoder.isGeocoding)
        #expect(outcome.placemarks?.first?.isoCountryCode == "FR")
    }

    @Test func cancelGeocodeCallsTheHandlerOnceWithGeocodeCanceled() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 52.5, longitude: 13.4), completionHandler: outcomes.handler("a", geocoder))
        #expect(await backend.waitUntilStarted())
        geocoder.cancelGeocode()
        #expect(!geocoder.isGeocoding)
        #expect(await outcomes.wait(for: 1))
        backend.release()
        // The lookup finishes after the cancellation: its result must not reach the handler.
        #expect(await backend.waitUntilReturned())
        #expect(await !outcomes.wait(for: 2, timeout: .milliseconds(200)), "the late result reached the handler")
        let calls = outcomes.all
        #expect(calls.count == 1)
        #expect(calls[0].outcome.code == .geocodeCanceled)
        #expect(calls[0].outcome.placemarks == nil)
        #expect(calls[0].outcome.onMainQueue)
    }

    @Test func cancelGeocodeWithNothingPendingDoesNothing() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin])
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        geocoder.cancelGeocode()
        #expect(!geocoder.isGeocoding)
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 52.5, longitude: 13.4), completionHandler: outcomes.handler("a", geocoder))
        #expect(await outcomes.wait(for: 1))
        geocoder.cancelGeocode()
        #expect(await !outcomes.wait(for: 2, timeout: .milliseconds(100)), "a second call")
        #expect(outcomes.all.count == 1)
        #expect(outcomes.all.first?.outcome.placemarks?.count == 1, "the finished request was not cancelled")
    }

    @Test func aSecondRequestCancelsThePendingOne() async throws {
        let backend = ScriptedGeocodingBackend(places: [.paris], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        geocoder.geocodeAddressString("Berlin", completionHandler: outcomes.handler("first", geocoder))
        #expect(await backend.waitUntilStarted())
        geocoder.geocodeAddressString("Paris", completionHandler: outcomes.handler("second", geocoder))
        #expect(geocoder.isGeocoding, "the second request is pending")
        #expect(await outcomes.wait(for: 1))
        #expect(outcomes.all.map(\.tag) == ["first"])
        #expect(outcomes.all[0].outcome.code == .geocodeCanceled)
        backend.release()
        #expect(await outcomes.wait(for: 2))
        #expect(await !outcomes.wait(for: 3, timeout: .milliseconds(100)), "a third call")
        let calls = outcomes.all
        #expect(calls.map(\.tag) == ["first", "second"], "each handler exactly once, cancellation first")
        #expect(calls[1].outcome.error == nil)
        #expect(calls[1].outcome.placemarks?.first?.locality == "Paris")
        #expect(!geocoder.isGeocoding)
    }

    @Test func noAnswerIsGeocodeFoundNoResult() async throws {
        let backend = ScriptedGeocodingBackend(places: [])
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        geocoder.geocodeAddressString("Atlantis", completionHandler: outcomes.handler("a", geocoder))
        #expect(await outcomes.wait(for: 1))
        #expect(outcomes.all[0].outcome.code == .geocodeFoundNoResult)
        #expect(outcomes.all[0].outcome.placemarks == nil)
        #expect(backend.queries == [.search(text: "Atlantis", region: nil, limit: 5)])
    }

    static let invalidCoordinates: [(Double, Double)] = [
        (.nan, 0), (0, .nan), (91, 0), (-90.5, 10), (0, 180.01), (.infinity, 0), (0, -.infinity),
    ]

    @Test(arguments: invalidCoordinates)
    func invalidCoordinatesFindNoResultWithoutALookup(latitude: Double, longitude: Double) async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin])
        let geocoder = CLGeocoder(backend: backend.provider)
        await #expect(throws: CLError(.geocodeFoundNoResult)) {
            try await geocoder.reverseGeocodeLocation(CLLocation(latitude: latitude, longitude: longitude))
        }
        #expect(backend.queries.isEmpty)
    }

    @Test func blankOrHugeTextFindsNoResultWithoutALookup() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin])
        let geocoder = CLGeocoder(backend: backend.provider)
        for text in ["", "   ", "\n\t ", String(repeating: "Berlin ", count: 100_000)] {
            await #expect(throws: CLError(.geocodeFoundNoResult), "\(text.prefix(20).debugDescription)") {
                try await geocoder.geocodeAddressString(text)
            }
        }
        #expect(backend.queries.isEmpty)
    }

    @Test func anUnavailableDatabaseIsANetworkErrorThatSaysWhy() async throws {
        let failure = PlacesDatabaseError.corrupt(path: "/tmp/x/places.bin", reason: "bad magic")
        let geocoder = CLGeocoder(backend: { .failure(failure) })
        let outcomes = GeocodeOutcomes()
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 52.5, longitude: 13.4), completionHandler: outcomes.handler("a", geocoder))
        #expect(await outcomes.wait(for: 1))
        let error = try #require(outcomes.all[0].outcome.error)
        #expect((error as? CLError)?.code == .network)
        #expect((error as NSError).domain == kCLErrorDomain)
        #expect((error as NSError).userInfo[NSLocalizedDescriptionKey] as? String == failure.description)
        #expect(error.localizedDescription == failure.description)
        #expect(outcomes.all[0].outcome.placemarks == nil)
    }

    @Test func countryNamesFollowThePreferredLocale() async throws {
        let geocoder = CLGeocoder(backend: ScriptedGeocodingBackend(places: [.berlin]).provider)
        let location = CLLocation(latitude: 52.5, longitude: 13.4)
        let german = try await geocoder.reverseGeocodeLocation(location, preferredLocale: Locale(identifier: "de_DE"))
        #expect(german.first?.country == "Deutschland")
        let french = try await geocoder.reverseGeocodeLocation(location, preferredLocale: Locale(identifier: "fr"))
        #expect(french.first?.country == "Allemagne")
        let english = try await geocoder.reverseGeocodeLocation(location, preferredLocale: Locale(identifier: "en_US"))
        #expect(english.first?.country == "Germany")
        // nil is the current locale, as Apple documents.
        let current = try await geocoder.reverseGeocodeLocation(location, preferredLocale: nil)
        #expect(current.first?.country == Locale.current.localizedString(forRegionCode: "DE"))
        // Names other than the country are the database's in every locale.
        #expect(german.first?.locality == "Berlin")
    }

    @Test func aCodeTheLocaleDoesNotKnowKeepsTheDatabasesName() async throws {
        var place = PlaceDescription.berlin
        place.isoCountryCode = "ZZ"
        place.country = "Nowhere Land"
        let geocoder = CLGeocoder(backend: ScriptedGeocodingBackend(places: [place]).provider)
        let placemarks = try await geocoder.reverseGeocodeLocation(
            CLLocation(latitude: 1, longitude: 1), preferredLocale: Locale(identifier: "de"))
        #expect(placemarks.first?.country == "Nowhere Land")
    }

    @Test func aCircularRegionIsTheSearchPreferenceAndOtherRegionsAreIgnored() async throws {
        let backend = ScriptedGeocodingBackend(places: [.paris])
        let geocoder = CLGeocoder(backend: backend.provider)
        let circle = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 33.66, longitude: -95.55), radius: 50_000, identifier: "texas")
        _ = try await geocoder.geocodeAddressString("Paris", in: circle)
        let beacons = CLBeaconRegion(uuid: UUID(), identifier: "b")
        _ = try await geocoder.geocodeAddressString("Paris", in: beacons)
        _ = try await geocoder.geocodeAddressString("Paris", in: nil, preferredLocale: nil)
        _ = try await geocoder.geocodeAddressString(
            "Paris", inRegionCenteredAt: CLLocationCoordinate2D(latitude: 48.8, longitude: 2.3), inRegionRadius: 10_000,
            preferredLocale: nil)
        _ = try await geocoder.geocodeAddressString(
            "Paris", inRegionCenteredAt: CLLocationCoordinate2D(latitude: 48.8, longitude: 2.3), inRegionRadius: .nan,
            preferredLocale: nil)
        #expect(backend.queries == [
            .search(text: "Paris", region: SearchRegion(latitude: 33.66, longitude: -95.55, radius: 50_000), limit: 5),
            .search(text: "Paris", region: nil, limit: 5),
            .search(text: "Paris", region: nil, limit: 5),
            .search(text: "Paris", region: SearchRegion(latitude: 48.8, longitude: 2.3, radius: 10_000), limit: 5),
            .search(text: "Paris", region: nil, limit: 5),
        ])
    }

    @Test func anAddressDictionaryIsSearchedAsCityStateCountry() async throws {
        let backend = ScriptedGeocodingBackend(places: [.paris])
        let geocoder = CLGeocoder(backend: backend.provider)
        let outcomes = GeocodeOutcomes()
        geocoder.geocodeAddressDictionary(
            ["Street": "1 Main St", "City": "Springfield", "State": "Illinois", "Country": "United States", "ZIP": 62701],
            completionHandler: outcomes.handler("a", geocoder))
        #expect(await outcomes.wait(for: 1))
        _ = try await geocoder.geocodeAddressDictionary(["Country": "France", "City": " Paris "])
        #expect(backend.queries == [
            .search(text: "Springfield, Illinois, United States", region: nil, limit: 5),
            .search(text: "Paris, France", region: nil, limit: 5),
        ])
    }

    /// Each request made both ways, through the same backend: the async form returns the placemarks
    /// the completion handler is given, or throws the error it is given.
    @Test func theAsyncFormsReturnOrThrowWhatTheHandlersGet() async throws {
        let geocoder = CLGeocoder(backend: ScriptedGeocodingBackend(places: [.berlin, .paris]).provider)
        let none = CLGeocoder(backend: ScriptedGeocodingBackend(places: []).provider)
        let outcomes = GeocodeOutcomes()
        let location = CLLocation(latitude: 52.5, longitude: 13.4)
        geocoder.geocodeAddressString("a", completionHandler: outcomes.handler("forward", geocoder))
        #expect(await outcomes.wait(for: 1))
        geocoder.reverseGeocodeLocation(location, completionHandler: outcomes.handler("reverse", geocoder))
        #expect(await outcomes.wait(for: 2))
        none.geocodeAddressString("x", in: nil, completionHandler: outcomes.handler("none", none))
        #expect(await outcomes.wait(for: 3))
        let handed = Dictionary(uniqueKeysWithValues: outcomes.all.map { ($0.tag, $0.outcome) })

        let forward = try await geocoder.geocodeAddressString("a")
        #expect(forward.map(\.description) == handed["forward"]?.placemarks?.map(\.description))
        #expect(forward.map(\.isoCountryCode) == ["DE", "FR"])
        let reverse = try await geocoder.reverseGeocodeLocation(location)
        #expect(reverse.map(\.description) == handed["reverse"]?.placemarks?.map(\.description))
        #expect(handed["none"]?.code == .geocodeFoundNoResult)
        await #expect(throws: CLError(.geocodeFoundNoResult)) { try await none.geocodeAddressString("x", in: nil) }
        #expect(!geocoder.isGeocoding && !none.isGeocoding)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let task = Task { try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 52.5, longitude: 13.4)) }
        #expect(await backend.waitUntilStarted())
        #expect(geocoder.isGeocoding)
        task.cancel()
        await #expect(throws: CLError(.geocodeCanceled)) { try await task.value }
        #expect(!geocoder.isGeocoding)
        backend.release()
    }

    @Test func aTaskCancelledBeforeTheCallGetsGeocodeCanceled() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await geocoder.geocodeAddressString("Berlin")
        }
        await #expect(throws: CLError(.geocodeCanceled)) { try await task.value }
        #expect(!geocoder.isGeocoding)
        backend.release()
    }

    @Test func cancelGeocodeEndsAnAwaitingCall() async throws {
        let backend = ScriptedGeocodingBackend(places: [.berlin], blocking: true)
        let geocoder = CLGeocoder(backend: backend.provider)
        let task = Task { try await geocoder.geocodeAddressString("Berlin") }
        #expect(await backend.waitUntilStarted())
        geocoder.cancelGeocode()
        await #expect(throws: CLError(.geocodeCanceled)) { try await task.value }
        backend.release()
    }
}
