import EventModel
import Testing

@testable import EventLog

@Suite struct NameTableTests {
    private func name<Name>(_ table: NameTable<Name>, _ text: String) -> Name? {
        Array(text.utf8).withUnsafeBytes { table.name($0) }
    }

    @Test func everyCaseIsFoundByItsBytes() {
        let table = NameTable<MarconiEventKind>()
        for kind in MarconiEventKind.allCases {
            #expect(name(table, kind.rawValue) == kind)
        }
    }

    /// Names of a case's length but other bytes, prefixes and other cases are nothing.
    @Test func otherBytesAreNoName() {
        let table = NameTable<VPAction>()
        #expect(name(table, "open") == .open)
        #expect(name(table, "opeN") == nil)
        #expect(name(table, "Open") == nil)
        #expect(name(table, "ope") == nil)
        #expect(name(table, "opened") == nil)
        #expect(name(table, "") == nil)
    }
}
