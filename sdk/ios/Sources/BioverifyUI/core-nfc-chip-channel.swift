#if canImport(CoreNFC)
    import BioverifyCore
    import CoreNFC
    import Foundation

    /// Opens CoreNFC's ISO 7816 connection to a passport chip and hands it to the core as a
    /// `ChipChannel`. Secure messaging (BAC/PACE) is the app's `SecureMessagingEstablisher`, and the
    /// files are read by the core's `ChipFileReader`:
    ///
    ///     let nfc = CoreNFCChipSession()
    ///     let reader = APDUPassportChipReader(open: { try await nfc.open() }, secureMessaging: mySecureMessaging)
    ///     try await session.readChip(with: reader, accessKey: key)
    ///     nfc.finish(message: "Done")
    ///
    /// Needs the NFC capability (`com.apple.developer.nfc.readersession.formats` with `TAG`) and
    /// `com.apple.developer.nfc.readersession.iso7816.select-identifiers` listing A0000002471001.
    public final class CoreNFCChipSession: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var session: NFCTagReaderSession?
        private var pending: CheckedContinuation<ChipChannel, Error>?
        public var alertMessage: String

        public init(alertMessage: String = "Hold your iPhone near the photo page of your passport.") {
            self.alertMessage = alertMessage
        }

        public static var isAvailable: Bool { NFCTagReaderSession.readingAvailable }

        /// Starts the system NFC sheet and answers once a passport chip is connected.
        public func open() async throws -> ChipChannel {
            guard Self.isAvailable else { throw BioverifyError.invalidState("this device cannot read NFC chips") }
            return try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                pending = continuation
                lock.unlock()
                DispatchQueue.main.async {
                    guard let session = NFCTagReaderSession(pollingOption: .iso14443, delegate: self, queue: nil) else {
                        self.resume(.failure(BioverifyError.invalidState("the NFC reader session could not start")))
                        return
                    }
                    session.alertMessage = self.alertMessage
                    self.session = session
                    session.begin()
                }
            }
        }

        /// Closes the NFC sheet, with a success message or an error message.
        public func finish(message: String? = nil, errorMessage: String? = nil) {
            if let errorMessage { session?.invalidate(errorMessage: errorMessage) } else {
                if let message { session?.alertMessage = message }
                session?.invalidate()
            }
            session = nil
        }

        public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

        public func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
            let code = (error as? NFCReaderError)?.code
            resume(.failure(code == .readerSessionInvalidationErrorUserCanceled
                ? BioverifyError.cancelled : BioverifyError.network("NFC: \(error.localizedDescription)")))
        }

        public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
            guard let tag = tags.first, case .iso7816(let chip) = tag else {
                session.invalidate(errorMessage: "This is not a passport chip.")
                return
            }
            session.connect(to: tag) { error in
                if let error {
                    self.resume(.failure(BioverifyError.network("NFC connect: \(error.localizedDescription)")))
                } else {
                    self.resume(.success(ISO7816ChipChannel(tag: chip)))
                }
            }
        }

        private func resume(_ result: Result<ChipChannel, Error>) {
            lock.lock()
            let continuation = pending
            pending = nil
            lock.unlock()
            continuation?.resume(with: result)
        }
    }

    /// CoreNFC's ISO 7816 tag as raw APDUs in, response data plus SW1 SW2 out.
    struct ISO7816ChipChannel: ChipChannel, @unchecked Sendable {
        let tag: NFCISO7816Tag

        func transmit(_ command: Data) async throws -> Data {
            guard let apdu = NFCISO7816APDU(data: command) else {
                throw BioverifyError.invalidInput("not a well-formed command APDU")
            }
            do {
                let (data, sw1, sw2) = try await tag.sendCommand(apdu: apdu)
                return data + Data([sw1, sw2])
            } catch {
                throw BioverifyError.network("NFC: \(error.localizedDescription)")
            }
        }
    }
#endif
