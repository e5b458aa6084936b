import XCTest

@testable import BioverifyCore

final class ImagePreparationTests: XCTestCase {
    func testJpegPngAndWebpHeadersGiveFormatAndSize() throws {
        XCTAssertEqual(try ImageInspector.inspect(jpegHeader(width: 1920, height: 1080)), ImageInfo(format: .jpeg, width: 1920, height: 1080))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 2, 0, 0, 0]
        XCTAssertEqual(try ImageInspector.inspect(Data(png)), ImageInfo(format: .png, width: 640, height: 480))
        var webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array("VP8X".utf8)
        webp += [10, 0, 0, 0, 0, 0, 0, 0] + [0x7F, 0x02, 0x00] + [0xDF, 0x01, 0x00]
        XCTAssertEqual(try ImageInspector.inspect(Data(webp)), ImageInfo(format: .webp, width: 640, height: 480))
    }

    func testSomethingThatIsNotAnImageIsRefusedBeforeUploading() {
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try ImageInspector.inspect(Data("%PDF-1.7".utf8))
        }
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try ImageInspector.inspect(Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]))
        }
    }

    func testTheTargetSideNeverUpscalesAndKeepsUnderThePixelLimit() {
        let small = ImageInfo(format: .jpeg, width: 800, height: 600)
        XCTAssertEqual(ImagePreparation.targetLongSide(for: small, limits: .document), 800)
        let phone = ImageInfo(format: .jpeg, width: 4032, height: 3024)
        XCTAssertEqual(ImagePreparation.targetLongSide(for: phone, limits: .document), 2560)
        XCTAssertEqual(ImagePreparation.targetLongSide(for: phone, limits: .livenessFrame), 720)
        let square = ImageInfo(format: .jpeg, width: 3000, height: 3000)
        let tight = ImageLimits(maxBytes: 1 << 20, maxPixels: 1_000_000, targetLongSide: 3000, formats: [.jpeg])
        let side = ImagePreparation.targetLongSide(for: square, limits: tight)
        XCTAssertLessThanOrEqual(side * side, 1_000_000)
        XCTAssertGreaterThan(side, 800)
    }

    struct ScriptedEncoder: ImageEncoder {
        /// Answers a JPEG of the asked side whose size shrinks with the quality.
        func jpeg(from source: Data, longSide: Int, quality: Double) throws -> Data {
            jpegHeader(width: longSide, height: longSide * 3 / 4, padding: Int(quality * 2_000_000))
        }
    }

    func testALargePhotoIsReencodedAtTheTargetSizeAndTheQualityLoweredUntilItFits() throws {
        let prepared = try ImagePreparation.prepare(
            jpegHeader(width: 4032, height: 3024), limits: .livenessFrame, encoder: ScriptedEncoder())
        XCTAssertEqual(prepared.info.width, 720)
        XCTAssertLessThanOrEqual(prepared.data.count, ImageLimits.livenessFrame.maxBytes)
        XCTAssertEqual(prepared.contentType, "image/jpeg")
    }

    func testAnImageThatFitsGoesAsIsAndOneThatDoesNotWithoutAnEncoderIsRefused() throws {
        let fits = jpegHeader(width: 640, height: 480)
        XCTAssertEqual(try ImagePreparation.prepare(fits, limits: .livenessFrame).data, fits)
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try ImagePreparation.prepare(jpegHeader(width: 2000, height: 1500), limits: .livenessFrame)
        }
    }
}
