import XCTest

@testable import BioverifyCore

/// A chip that answers like an eMRTD once secure messaging is up: files by identifier, READ BINARY by
/// offset, INTERNAL AUTHENTICATE by a signature over the challenge. It records every command.
actor SimulatedChip: ChipChannel {
    var files: [UInt16: Data]
    var selected: UInt16?
    var applicationSelected = false
    private(set) var commands: [Data] = []

    init(files: [UInt16: Data]) {
        self.files = files
    }

    func transmit(_ command: Data) async throws -> Data {
        commands.append(command)
        let c = [UInt8](command)
        let ok: [UInt8] = [0x90, 0x00]
        switch (c[1], c[2]) {
        case (0xA4, 0x04):
            applicationSelected = Data(c[5..<(5 + Int(c[4]))]) == ChipFileReader.applicationID
            return Data(applicationSelected ? ok : [0x6A, 0x82])
        case (0xA4, 0x02):
            let fid = UInt16(c[5]) << 8 | UInt16(c[6])
            guard applicationSelected, files[fid] != nil else { return Data([0x6A, 0x82]) }
            selected = fid
            return Data(ok)
        case (0xB0, _):
            guard let fid = selected, let file = files[fid] else { return Data([0x69, 0x86]) }
            let offset = Int(c[2]) << 8 | Int(c[3])
            let end = min(file.count, offset + Int(c[4]))
            return file.subdata(in: offset..<end) + Data(ok)
        case (0x88, _):
            return Data(c[5..<13].reversed()) + Data([0xAA]) + Data(ok)
        default:
            return Data([0x6D, 0x00])
        }
    }
}

final class ChipFileReaderTests: XCTestCase {
    /// A file with a one-byte tag and a long-form length, `size` value bytes.
    func file(tag: UInt8, size: Int) -> Data {
        let length: [UInt8] = size < 0x80 ? [UInt8(size)] : size < 0x100 ? [0x81, UInt8(size)] : [0x82, UInt8(size >> 8), UInt8(size & 0xFF)]
        return Data([tag] + length) + Data((0..<size).map { UInt8($0 % 251) })
    }

    func testEveryFileIsReadWholeInChunksAndActiveAuthenticationSignsTheServersChallenge() async throws {
        let files: [UInt16: Data] = [
            0x011D: file(tag: 0x77, size: 1500), 0x0101: file(tag: 0x61, size: 91), 0x0102: file(tag: 0x75, size: 12_000),
            0x010F: file(tag: 0x6F, size: 300),
        ]
        let chip = SimulatedChip(files: files)
        let challenge = Data([1, 2, 3, 4, 5, 6, 7, 8])
        let reading = try await ChipFileReader(channel: chip).readAll(activeAuthenticationChallenge: challenge)
        XCTAssertEqual(reading.sod, files[0x011D])
        XCTAssertEqual(reading.dg1, files[0x0101])
        XCTAssertEqual(reading.dg2, files[0x0102])
        XCTAssertNil(reading.dg14)
        XCTAssertEqual(reading.dg15, files[0x010F])
        XCTAssertEqual(reading.activeAuthentication?.signature, Data([8, 7, 6, 5, 4, 3, 2, 1, 0xAA]))
        XCTAssertNoThrow(try reading.uploadBody())
        let commands = await chip.commands
        XCTAssertEqual([UInt8](commands[0]), [0x00, 0xA4, 0x04, 0x0C, 0x07, 0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
        XCTAssertTrue(commands.filter { $0[1] == 0xB0 }.allSatisfy { $0[4] <= 0xDF })
    }

    func testAChipWithoutDg15IsReadWithoutActiveAuthentication() async throws {
        let chip = SimulatedChip(files: [0x011D: file(tag: 0x77, size: 10), 0x0101: file(tag: 0x61, size: 10), 0x0102: file(tag: 0x75, size: 10)])
        let reading = try await ChipFileReader(channel: chip).readAll(activeAuthenticationChallenge: Data(count: 8))
        XCTAssertNil(reading.dg15)
        XCTAssertNil(reading.activeAuthentication)
        let internalAuthenticates = await chip.commands.filter { $0[1] == 0x88 }
        XCTAssertTrue(internalAuthenticates.isEmpty)
    }

    func testAMissingMandatoryFileFailsWithTheChipsStatusWord() async {
        let chip = SimulatedChip(files: [0x0101: file(tag: 0x61, size: 10)])
        do {
            _ = try await ChipFileReader(channel: chip).readAll(activeAuthenticationChallenge: nil)
            XCTFail("read a chip without SOD")
        } catch {
            XCTAssertEqual(error as? ChipError, .status(0x6A82))
        }
    }

    func testTlvLengthsInShortAndLongForm() throws {
        XCTAssertEqual(try ChipFileReader.tlvTotalLength(Data([0x61, 0x5B])), 93)
        XCTAssertEqual(try ChipFileReader.tlvTotalLength(Data([0x77, 0x81, 0xF0])), 243)
        XCTAssertEqual(try ChipFileReader.tlvTotalLength(Data([0x75, 0x82, 0x2E, 0xE0])), 12_004)
    }
}
