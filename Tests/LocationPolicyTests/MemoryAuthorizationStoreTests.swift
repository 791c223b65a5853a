import Foundation
import LocationPolicy
import LocationProtocol
import Testing

@Suite struct MemoryAuthorizationStoreTests {
    @Test func readUpdateAndToken() throws {
        let store = MemoryAuthorizationStore()
        #expect(try store.read() == AuthorizationDatabase())
        let token = store.changeToken()
        try store.update { $0.apps["x"] = record("x") }
        #expect(try store.read().apps["x"] == record("x"))
        let afterWrite = store.changeToken()
        #expect(afterWrite != token)
        try store.update { $0.apps["x"] = record("x") }
        #expect(store.changeToken() == afterWrite)
    }

    @Test func simulatedFailure() throws {
        struct Broken: Error {}
        let store = MemoryAuthorizationStore(AuthorizationDatabase(servicesEnabled: false))
        store.simulateFailure(Broken())
        #expect(throws: Broken.self) { try store.read() }
        #expect(throws: Broken.self) { try store.update { $0.servicesEnabled = true } }
        store.simulateFailure(nil)
        #expect(try store.read().servicesEnabled == false)
    }
}
