import CoreLocation
import Testing

@Suite struct CLVisitTests {
    let place = CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)

    @Test func unknownTimesUseTheDocumentedSentinels() {
        let visit = CLVisit(coordinate: place, horizontalAccuracy: 30)
        #expect(visit.arrivalDate == Date.distantPast)
        #expect(visit.departureDate == Date.distantFuture)
        #expect(visit.coordinate.latitude == 52.52 && visit.coordinate.longitude == 13.405)
        #expect(visit.horizontalAccuracy == 30)
    }

    @Test func knownTimes() throws {
        let arrival = Date(timeIntervalSince1970: 1_000)
        let departure = Date(timeIntervalSince1970: 5_000)
        let visit = CLVisit(arrivalDate: arrival, departureDate: departure, coordinate: place, horizontalAccuracy: 10)
        #expect(visit.arrivalDate == arrival && visit.departureDate == departure)

        let decoded = try #require(try archiveRoundTrip(visit))
        #expect(decoded.arrivalDate == arrival && decoded.departureDate == departure)
        #expect(decoded.coordinate.latitude == place.latitude && decoded.coordinate.longitude == place.longitude)
        #expect(decoded.horizontalAccuracy == 10)
    }

    @Test func defaultInitializer() {
        let visit = CLVisit()
        #expect(visit.arrivalDate == .distantPast && visit.departureDate == .distantFuture)
        #expect(!CLLocationCoordinate2DIsValid(visit.coordinate))
        #expect(visit.horizontalAccuracy < 0)
    }
}
