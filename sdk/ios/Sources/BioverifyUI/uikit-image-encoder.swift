#if canImport(UIKit)
    import BioverifyCore
    import Foundation
    import UIKit

    /// The core's `ImageEncoder` with UIKit: decodes the camera's photo, draws it upright at the
    /// asked size (EXIF orientation applied) and encodes a JPEG.
    public struct UIKitImageEncoder: ImageEncoder {
        public init() {}

        public func jpeg(from source: Data, longSide: Int, quality: Double) throws -> Data {
            guard let image = UIImage(data: source) else {
                throw BioverifyError.invalidInput("an image UIKit cannot decode")
            }
            let pixelWidth = image.size.width * image.scale, pixelHeight = image.size.height * image.scale
            let factor = min(1, CGFloat(longSide) / max(pixelWidth, pixelHeight))
            let size = CGSize(width: (pixelWidth * factor).rounded(), height: (pixelHeight * factor).rounded())
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            format.opaque = true
            let drawn = UIGraphicsImageRenderer(size: size, format: format).image { _ in
                image.draw(in: CGRect(origin: .zero, size: size))
            }
            guard let jpeg = drawn.jpegData(compressionQuality: CGFloat(quality)) else {
                throw BioverifyError.invalidInput("the image could not be encoded as JPEG")
            }
            return jpeg
        }
    }
#endif
