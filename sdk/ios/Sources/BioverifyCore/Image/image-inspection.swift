import Foundation

public enum ImageFormat: String, Sendable {
    case jpeg, png, webp

    public var mimeType: String { "image/\(rawValue)" }
}

public struct ImageInfo: Equatable, Sendable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    public var pixels: Int { width * height }
}

/// Reads an image's format and size from its header, without decoding it (Foundation has no codecs
/// on Linux, and the check must be cheap on a phone too).
public enum ImageInspector {
    public static func inspect(_ data: Data) throws -> ImageInfo {
        let bytes = [UInt8](data.prefix(256 * 1024))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(bytes) }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return try webp(bytes)
        }
        throw BioverifyError.invalidInput("not a JPEG, PNG or WebP image")
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }

    private static func jpeg(_ b: [UInt8]) throws -> ImageInfo {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { break }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = be16(b, i + 2)
            // SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = be16(b, i + 5), width = be16(b, i + 7)
                guard width > 0, height > 0 else { break }
                return ImageInfo(format: .jpeg, width: width, height: height)
            }
            if marker == 0xDA || length < 2 { break }  // image data before any frame header
            i += 2 + length
        }
        throw BioverifyError.invalidInput("a JPEG without a readable frame header")
    }

    private static func png(_ b: [UInt8]) throws -> ImageInfo {
        guard b.count >= 24, b[12..<16].elementsEqual("IHDR".utf8) else {
            throw BioverifyError.invalidInput("a PNG without its IHDR header")
        }
        let be32 = { (i: Int) in (be16(b, i) << 16) | be16(b, i + 2) }
        return ImageInfo(format: .png, width: be32(16), height: be32(20))
    }

    private static func webp(_ b: [UInt8]) throws -> ImageInfo {
        guard b.count >= 30 else { throw BioverifyError.invalidInput("a truncated WebP header") }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            return ImageInfo(format: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return ImageInfo(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageInfo(format: .webp, width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            throw BioverifyError.invalidInput("a WebP image of unknown kind \(chunk)")
        }
    }
}
