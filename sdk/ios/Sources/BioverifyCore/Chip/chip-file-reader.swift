import Foundation

/// A way to send ISO 7816-4 command APDUs to the chip and get each response (data followed by
/// SW1 SW2). BioverifyUI wraps CoreNFC's ISO 7816 tag in one; a secure-messaging layer (BAC/PACE)
/// wraps that one so the commands below travel protected.
public protocol ChipChannel: Sendable {
    func transmit(_ command: Data) async throws -> Data
}

/// Opens the secure-messaging session (BAC or PACE) with the chip's access key. It needs the
/// platform's crypto (3DES/AES, SHA, ECDH), which Foundation lacks on Linux, so the app plugs it in:
/// an adapter over the open-source NFCPassportReader (MIT) is the usual choice on iOS.
public protocol SecureMessagingEstablisher: Sendable {
    func establish(over channel: ChipChannel, accessKey: ChipAccessKey) async throws -> ChipChannel
}

/// Reads the eMRTD application's files over an (already secured) channel, as ICAO 9303 part 10
/// lays them out, and performs Active Authentication over the server's challenge.
public struct ChipFileReader: Sendable {
    /// The eMRTD application identifier (ICAO 9303 part 10).
    public static let applicationID = Data([0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])

    enum File: UInt16 {
        case dg1 = 0x0101, dg2 = 0x0102, dg14 = 0x010E, dg15 = 0x010F, sod = 0x011D
    }

    /// Bytes asked per READ BINARY: below 256 so secure messaging's padding and MAC still fit a
    /// short APDU, as most readers do.
    public let chunk: Int
    private let channel: ChipChannel

    public init(channel: ChipChannel, chunk: Int = 0xDF) {
        self.channel = channel
        self.chunk = chunk
    }

    public func selectApplication() async throws {
        _ = try await command([0x00, 0xA4, 0x04, 0x0C, UInt8(Self.applicationID.count)] + Self.applicationID)
    }

    /// Reads SOD, DG1, DG2, and DG14/DG15 when present; signs `challenge` when DG15 is present.
    public func readAll(activeAuthenticationChallenge challenge: Data?) async throws -> ChipReading {
        try await selectApplication()
        let sod = try await read(.sod)
        let dg1 = try await read(.dg1)
        let dg2 = try await read(.dg2)
        let dg14 = try await readIfPresent(.dg14)
        let dg15 = try await readIfPresent(.dg15)
        var aa: ChipReading.ActiveAuthentication?
        if let challenge, dg15 != nil {
            aa = .init(challenge: challenge, signature: try await internalAuthenticate(challenge))
        }
        return ChipReading(sod: sod, dg1: dg1, dg2: dg2, dg14: dg14, dg15: dg15, activeAuthentication: aa)
    }

    public func internalAuthenticate(_ challenge: Data) async throws -> Data {
        guard challenge.count == 8 else { throw BioverifyError.invalidInput("the challenge is 8 bytes") }
        // Le 00: the signature may take up to 256 bytes.
        return try await command([0x00, 0x88, 0x00, 0x00, 0x08] + challenge + [0x00])
    }

    func readIfPresent(_ file: File) async throws -> Data? {
        do {
            return try await read(file)
        } catch ChipError.status(0x6A82) {
            return nil
        }
    }

    /// SELECT the file, read its first bytes for the BER-TLV length, then the rest in chunks.
    func read(_ file: File) async throws -> Data {
        let fid = file.rawValue
        _ = try await command([0x00, 0xA4, 0x02, 0x0C, 0x02, UInt8(fid >> 8), UInt8(fid & 0xFF)])
        var data = try await readBinary(offset: 0, length: 4)
        let total = try Self.tlvTotalLength(data)
        while data.count < total {
            let part = try await readBinary(offset: data.count, length: min(chunk, total - data.count))
            guard !part.isEmpty else { throw BioverifyError.invalidInput("the chip returned no data at \(data.count)") }
            data.append(part)
        }
        return data.prefix(total)
    }

    func readBinary(offset: Int, length: Int) async throws -> Data {
        guard offset <= 0x7FFF else {
            throw BioverifyError.invalidInput("files past 32 KiB need extended READ BINARY, which this reader does not send")
        }
        return try await command([0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(length & 0xFF)])
    }

    /// Header plus value length of the BER-TLV at the start of `data` (one-byte tags, as every
    /// eMRTD file's outer tag is).
    static func tlvTotalLength(_ data: Data) throws -> Int {
        let b = [UInt8](data)
        guard b.count >= 2 else { throw BioverifyError.invalidInput("a chip file shorter than its header") }
        let first = b[1]
        if first < 0x80 { return 2 + Int(first) }
        let count = Int(first & 0x7F)
        guard (1...3).contains(count), b.count >= 2 + count else {
            throw BioverifyError.invalidInput("a chip file with an unsupported length form")
        }
        let length = b[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return 2 + count + length
    }

    private func command(_ bytes: [UInt8]) async throws -> Data {
        try await command(Data(bytes))
    }

    private func command(_ apdu: Data) async throws -> Data {
        let response = try await channel.transmit(apdu)
        guard response.count >= 2 else { throw BioverifyError.invalidInput("a chip response without a status word") }
        let sw = UInt16(response[response.endIndex - 2]) << 8 | UInt16(response[response.endIndex - 1])
        guard sw == 0x9000 else { throw ChipError.status(sw) }
        return response.dropLast(2)
    }
}

/// A status word other than 9000 from the chip (6A82: file not found; 6982: security status not
/// satisfied, i.e. no secure messaging).
public enum ChipError: Error, Equatable, Sendable {
    case status(UInt16)
}

/// A `PassportChipReader` from parts: something that opens the raw channel (CoreNFC on iOS), the
/// secure messaging the app plugs in, and the file reader above.
public struct APDUPassportChipReader: PassportChipReader {
    public typealias ChannelOpener = @Sendable () async throws -> ChipChannel
    private let open: ChannelOpener
    private let secureMessaging: SecureMessagingEstablisher

    public init(open: @escaping ChannelOpener, secureMessaging: SecureMessagingEstablisher) {
        self.open = open
        self.secureMessaging = secureMessaging
    }

    public func read(accessKey: ChipAccessKey, activeAuthenticationChallenge challenge: Data) async throws -> ChipReading {
        let raw = try await open()
        let secured = try await secureMessaging.establish(over: raw, accessKey: accessKey)
        return try await ChipFileReader(channel: secured).readAll(activeAuthenticationChallenge: challenge)
    }
}
