import CoreLocation
import Testing

@Suite struct CLLocationSourceInformationTests {
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func flags(simulated: Bool, accessory: Bool) throws {
        let info = CLLocationSourceInformation(softwareSimulationState: simulated, andExternalAccessoryState: accessory)
        #expect(info.isSimulatedBySoftware == simulated)
        #expect(info.isProducedByAccessory == accessory)
        let decoded = try #require(try archiveRoundTrip(info))
        #expect(decoded.isSimulatedBySoftware == simulated)
        #expect(decoded.isProducedByAccessory == accessory)
    }

    @Test func defaultInitializerIsNeither() {
        let info = CLLocationSourceInformation()
        #expect(!info.isSimulatedBySoftware && !info.isProducedByAccessory)
    }
}
