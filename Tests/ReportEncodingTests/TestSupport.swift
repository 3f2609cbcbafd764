/// The bytes as text, for comparing with expected string literals.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
