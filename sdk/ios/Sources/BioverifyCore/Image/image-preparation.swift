import Foundation

/// What the service accepts for one kind of upload, and the size the SDK aims for.
public struct ImageLimits: Equatable, Sendable {
    public let maxBytes: Int
    public let maxPixels: Int
    /// The longest side the SDK scales down to: enough detail for the reader, far below the limits.
    public let targetLongSide: Int
    public let formats: Set<ImageFormat>

    /// A document side or the selfie: 10 MiB and 40 megapixels; 2560 px keeps the MRZ sharp.
    public static let document = ImageLimits(
        maxBytes: 10 << 20, maxPixels: 40_000_000, targetLongSide: 2560, formats: [.jpeg, .png, .webp])
    public static let selfie = ImageLimits(
        maxBytes: 10 << 20, maxPixels: 40_000_000, targetLongSide: 1280, formats: [.jpeg, .png, .webp])
    /// A liveness frame: JPEG, 1 MiB and 2 megapixels.
    public static let livenessFrame = ImageLimits(
        maxBytes: 1 << 20, maxPixels: 2_000_000, targetLongSide: 720, formats: [.jpeg])
}

/// Turns a camera image into a JPEG of a given longest side and quality. On iOS, BioverifyUI's
/// adapter does it with Core Graphics; tests use already-encoded files.
public protocol ImageEncoder: Sendable {
    func jpeg(from source: Data, longSide: Int, quality: Double) throws -> Data
}

/// An image ready to upload: its bytes, type and size checked against the limits.
public struct PreparedImage: Equatable, Sendable {
    public let data: Data
    public let info: ImageInfo

    public var contentType: String { info.format.mimeType }
}

public enum ImagePreparation {
    /// The longest side to scale `info` to so that it fits `limits` (never up-scaling).
    public static func targetLongSide(for info: ImageInfo, limits: ImageLimits) -> Int {
        let long = max(info.width, info.height), short = min(info.width, info.height)
        var side = min(long, limits.targetLongSide)
        // Keep under the pixel limit whatever the aspect ratio.
        let pixelsAt = { (s: Int) in s * Int((Double(short) * Double(s) / Double(long)).rounded(.up)) }
        while side > 1 && pixelsAt(side) > limits.maxPixels { side = Int(Double(side) * 0.9) }
        return side
    }

    /// Checks `data` against `limits`, as is when it already fits and needs no scaling; otherwise
    /// re-encodes it with `encoder` at the target size, lowering the quality until it fits the bytes.
    public static func prepare(
        _ data: Data, limits: ImageLimits, encoder: ImageEncoder? = nil
    ) throws -> PreparedImage {
        let info = try ImageInspector.inspect(data)
        let side = targetLongSide(for: info, limits: limits)
        let fits = { (d: Data, i: ImageInfo) in
            d.count <= limits.maxBytes && i.pixels <= limits.maxPixels && limits.formats.contains(i.format)
        }
        if fits(data, info) && side >= max(info.width, info.height) {
            return PreparedImage(data: data, info: info)
        }
        guard let encoder else {
            if fits(data, info) { return PreparedImage(data: data, info: info) }
            throw BioverifyError.invalidInput(
                "a \(info.format.rawValue) of \(info.width)x\(info.height), \(data.count) bytes, exceeds "
                    + "\(limits.maxBytes) bytes / \(limits.maxPixels) pixels and no encoder was given")
        }
        for quality in [0.85, 0.75, 0.65, 0.5] {
            let encoded = try encoder.jpeg(from: data, longSide: side, quality: quality)
            let encodedInfo = try ImageInspector.inspect(encoded)
            if fits(encoded, encodedInfo) { return PreparedImage(data: encoded, info: encodedInfo) }
        }
        throw BioverifyError.invalidInput("the image does not fit \(limits.maxBytes) bytes even at low quality")
    }
}
