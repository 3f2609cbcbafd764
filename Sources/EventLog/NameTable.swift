import EventModel

/// The cases of a string enum found by the bytes of their names, without making a `String`:
/// `init(rawValue:)` compares the string with each name in turn through the standard library's
/// generic switch.
struct NameTable<Name: RawRepresentable & CaseIterable> where Name.RawValue == String {
    private let entries: [(bytes: [UInt8], name: Name)]

    init() {
        entries = Name.allCases.map { (Array($0.rawValue.utf8), $0) }
    }

    /// The case spelt by the bytes, if any.
    func name(_ bytes: UnsafeRawBufferPointer) -> Name? {
        for entry in entries where entry.bytes.count == bytes.count {
            let same = entry.bytes.withUnsafeBytes { sameBytes($0, bytes) }
            if same { return entry.name }
        }
        return nil
    }
}
