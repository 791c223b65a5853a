import Testing
@testable import LocationEngine

/// The ledger counts what demanding subscribers ask for, and forgets exactly what it was given back.
struct DemandLedgerTests {
    @Test func sharesAddUpAndComeOffAgain() {
        let ledger = DemandLedger()
        let mapsPrecise = DemandLedger.Share(service: "standard", account: "com.example.maps", requiredAccuracy: 10)
        let mapsAny = DemandLedger.Share(service: "standard", account: "com.example.maps", requiredAccuracy: 0)
        let runner = DemandLedger.Share(service: "significant-change", account: "com.example.runner", requiredAccuracy: 500)
        ledger.add(mapsPrecise)
        ledger.add(mapsAny)
        ledger.add(runner)
        #expect(ledger.count == 3)
        #expect(ledger.services == ["standard": 2, "significant-change": 1])
        #expect(ledger.accounts == ["com.example.maps": 2, "com.example.runner": 1])
        #expect(ledger.strictestRequiredAccuracy == 0)

        ledger.remove(mapsAny)
        #expect(ledger.strictestRequiredAccuracy == 10)
        ledger.remove(mapsPrecise)
        #expect(ledger.services == ["significant-change": 1])
        #expect(ledger.accounts == ["com.example.runner": 1])
        #expect(ledger.strictestRequiredAccuracy == 500)
        ledger.remove(runner)
        #expect(ledger.count == 0 && ledger.services.isEmpty && ledger.accounts.isEmpty)
        #expect(ledger.strictestRequiredAccuracy == nil)
    }
}
