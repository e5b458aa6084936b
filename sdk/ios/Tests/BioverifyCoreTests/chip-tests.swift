import XCTest

@testable import BioverifyCore

final class ChipTests: XCTestCase {
    func testTheAccessKeyIsTheIcao9303SpecimensMrzInformation() throws {
        // ICAO Doc 9303 part 11, appendix D: L898902C<, 690806, 940623.
        let key = try ChipAccessKey(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        XCTAssertEqual(key.mrzInformation, "L898902C<369080619406236")
        XCTAssertEqual(ChipAccessKey.checkDigit("520727"), 3)
    }

    func testAnAccessKeyWithBadDatesIsRefused() {
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try ChipAccessKey(documentNumber: "X1", dateOfBirth: "1969-08-06", dateOfExpiry: "940623")
        }
    }

    let reading = ChipReading(
        sod: Data([0x77, 1, 2]), dg1: Data([0x61, 3]), dg2: Data([0x75, 4]), dg15: Data([0x6F, 5]),
        activeAuthentication: .init(challenge: Data(repeating: 7, count: 8), signature: Data([0xAA, 0xBB])))

    func testTheUploadBodyCarriesEachFileInBase64AndTheActiveAuthentication() throws {
        let body = try JSONSerialization.jsonObject(with: reading.uploadBody()) as? [String: Any]
        XCTAssertEqual(body?["sod"] as? String, "dwEC")
        XCTAssertEqual(body?["dg1"] as? String, "YQM=")
        XCTAssertEqual(body?["dg2"] as? String, "dQQ=")
        XCTAssertEqual(body?["dg15"] as? String, "bwU=")
        XCTAssertNil(body?["dg14"])
        let aa = body?["active_authentication"] as? [String: String]
        XCTAssertEqual(aa, ["challenge": "BwcHBwcHBwc=", "signature": "qrs="])
    }

    func testAFileWithoutItsTagOrAnActiveAuthenticationWithoutDg15IsRefusedBeforeUploading() {
        assertThrows({ if case .invalidInput(let m) = $0 { return m.hasPrefix("sod") } else { return false } }) {
            try ChipReading(sod: Data([0x30]), dg1: Data([0x61]), dg2: Data([0x75])).uploadBody()
        }
        assertThrows({ if case .invalidInput(let m) = $0 { return m.contains("DG15") } else { return false } }) {
            try ChipReading(
                sod: Data([0x77]), dg1: Data([0x61]), dg2: Data([0x75]),
                activeAuthentication: .init(challenge: Data(count: 8), signature: Data([1]))
            ).uploadBody()
        }
    }
}
