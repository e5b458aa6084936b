import Foundation

/// `POST …/chip/challenge`: 8 random bytes the chip signs in Active Authentication (single use).
public struct ChipChallenge: Codable, Equatable, Sendable {
    /// Base64 of the 8 bytes.
    public let challenge: String
    public let expiresAt: String

    enum CodingKeys: String, CodingKey { case challenge, expiresAt = "expires_at" }

    public var bytes: Data? { Data(base64Encoded: challenge) }
}

/// What the chip upload answers: only whether the data was well-formed and what was received.
public struct ChipAnswer: Codable, Equatable, Sendable {
    public let wellFormed: Bool?
    public let received: [String]?

    enum CodingKeys: String, CodingKey { case wellFormed = "well_formed", received }
}

/// The files a passport reader read from the chip, as read (tags included), and the Active
/// Authentication signature over the server's challenge when the chip has DG15.
public struct ChipReading: Equatable, Sendable {
    public struct ActiveAuthentication: Equatable, Sendable {
        public let challenge: Data
        public let signature: Data

        public init(challenge: Data, signature: Data) {
            self.challenge = challenge
            self.signature = signature
        }
    }

    public let sod: Data
    public let dg1: Data
    public let dg2: Data
    public let dg14: Data?
    public let dg15: Data?
    public let activeAuthentication: ActiveAuthentication?

    public init(
        sod: Data, dg1: Data, dg2: Data, dg14: Data? = nil, dg15: Data? = nil,
        activeAuthentication: ActiveAuthentication? = nil
    ) {
        self.sod = sod
        self.dg1 = dg1
        self.dg2 = dg2
        self.dg14 = dg14
        self.dg15 = dg15
        self.activeAuthentication = activeAuthentication
    }

    /// Each file's first byte is its ICAO 9303 tag; a reader that hands over the wrong file, or the
    /// file without its tag, is caught here rather than as a refused upload.
    public func validate() throws {
        let expected: [(String, Data?, UInt8)] = [
            ("sod", sod, 0x77), ("dg1", dg1, 0x61), ("dg2", dg2, 0x75), ("dg14", dg14, 0x6E), ("dg15", dg15, 0x6F),
        ]
        for (name, file, tag) in expected {
            guard let file else { continue }
            guard file.first == tag else {
                throw BioverifyError.invalidInput(
                    "\(name) must start with its tag 0x\(String(tag, radix: 16)) (the file as read from the chip)")
            }
        }
        if let aa = activeAuthentication {
            guard aa.challenge.count == 8, !aa.signature.isEmpty else {
                throw BioverifyError.invalidInput("active authentication needs the 8-byte challenge and a signature")
            }
            guard dg15 != nil else {
                throw BioverifyError.invalidInput("active authentication needs DG15 (the chip's public key)")
            }
        }
    }

    /// The JSON body of `PUT …/document/chip`: each file in base64, keys in a fixed order.
    public func uploadBody() throws -> Data {
        try validate()
        var fields = [
            "\"sod\":\"\(sod.base64EncodedString())\"", "\"dg1\":\"\(dg1.base64EncodedString())\"",
            "\"dg2\":\"\(dg2.base64EncodedString())\"",
        ]
        if let dg14 { fields.append("\"dg14\":\"\(dg14.base64EncodedString())\"") }
        if let dg15 { fields.append("\"dg15\":\"\(dg15.base64EncodedString())\"") }
        if let aa = activeAuthentication {
            fields.append(
                "\"active_authentication\":{\"challenge\":\"\(aa.challenge.base64EncodedString())\","
                    + "\"signature\":\"\(aa.signature.base64EncodedString())\"}")
        }
        return Data(("{" + fields.joined(separator: ",") + "}").utf8)
    }
}

/// The key a reader derives BAC/PACE keys from: document number, date of birth and date of expiry,
/// each with its ICAO 9303 check digit (the "MRZ information"). On device it comes from the
/// applicant's document, read by the camera or typed; it never goes to the service.
public struct ChipAccessKey: Equatable, Sendable {
    public let documentNumber: String
    /// YYMMDD
    public let dateOfBirth: String
    /// YYMMDD
    public let dateOfExpiry: String

    public init(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) throws {
        let number = documentNumber.uppercased().replacingOccurrences(of: " ", with: "")
        guard !number.isEmpty, number.count <= 22,
            number.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "<") })
        else { throw BioverifyError.invalidInput("document number must be letters and digits") }
        for date in [dateOfBirth, dateOfExpiry] where date.count != 6 || !date.allSatisfy(\.isASCII) || Int(date) == nil {
            throw BioverifyError.invalidInput("dates are YYMMDD")
        }
        self.documentNumber = number
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
    }

    /// Document number padded to 9 with `<`, then dates, each followed by its check digit.
    public var mrzInformation: String {
        let number = documentNumber.count < 9
            ? documentNumber + String(repeating: "<", count: 9 - documentNumber.count) : documentNumber
        return [number, dateOfBirth, dateOfExpiry].map { $0 + String(Self.checkDigit($0)) }.joined()
    }

    /// ICAO 9303 part 3 check digit: weights 7, 3, 1; digits as themselves, A-Z as 10-35, `<` as 0.
    public static func checkDigit(_ field: String) -> Int {
        let weights = [7, 3, 1]
        var sum = 0
        for (i, scalar) in field.unicodeScalars.enumerated() {
            let v = scalar.value
            let value: Int
            switch v {
            case 48...57: value = Int(v - 48)
            case 65...90: value = Int(v - 55)
            default: value = 0
            }
            sum += value * weights[i % 3]
        }
        return sum % 10
    }
}

/// Reads a passport chip on the device. The secure messaging (BAC/PACE) needs the platform's
/// crypto and NFC, so it lives behind this protocol: BioverifyUI's CoreNFC adapter, or an adapter
/// over the open-source NFCPassportReader, implements it.
public protocol PassportChipReader: Sendable {
    /// Reads SOD, DG1, DG2 (and DG14/DG15 when present) and, when the chip supports Active
    /// Authentication, signs `challenge` with it.
    func read(accessKey: ChipAccessKey, activeAuthenticationChallenge challenge: Data) async throws -> ChipReading
}
