import Foundation

/// A `multipart/form-data` body (RFC 7578), built in memory: liveness uploads are at most 60 frames
/// of at most 1 MiB each.
public struct MultipartBody: Sendable {
    public let boundary: String
    private var data = Data()

    /// The boundary is random unless given (tests and vectors pin it to compare bytes).
    public init(boundary: String? = nil) {
        self.boundary = boundary ?? Self.randomBoundary()
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    public mutating func addFile(name: String, filename: String, contentType: String, content: Data) {
        append("--\(boundary)\r\n")
        append("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n")
        append("Content-Type: \(contentType)\r\n\r\n")
        data.append(content)
        append("\r\n")
    }

    public mutating func addField(name: String, value: String) {
        append("--\(boundary)\r\n")
        append("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n")
        append(value)
        append("\r\n")
    }

    /// The body with its closing delimiter.
    public func finished() -> Data {
        var closed = data
        closed.append(Data("--\(boundary)--\r\n".utf8))
        return closed
    }

    private mutating func append(_ text: String) { data.append(Data(text.utf8)) }

    private static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return "bioverify-" + String((0..<24).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
}
