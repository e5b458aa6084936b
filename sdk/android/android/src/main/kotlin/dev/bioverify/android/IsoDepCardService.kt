package dev.bioverify.android

import android.nfc.tech.IsoDep
import net.sf.scuba.smartcards.CardService
import net.sf.scuba.smartcards.CardServiceException
import net.sf.scuba.smartcards.CommandAPDU
import net.sf.scuba.smartcards.ResponseAPDU
import java.io.IOException

/** JMRTD's card transport over the NFC radio: each APDU goes through [IsoDep.transceive]. */
class IsoDepCardService(private val isoDep: IsoDep, private val timeoutMs: Int = 5_000) : CardService() {
  override fun open() {
    if (isOpen) return
    try {
      isoDep.connect()
      isoDep.timeout = timeoutMs
    } catch (e: IOException) {
      throw CardServiceException("could not connect to the chip: ${e.message}")
    }
  }

  override fun isOpen(): Boolean = isoDep.isConnected

  override fun transmit(command: CommandAPDU): ResponseAPDU =
    try {
      ResponseAPDU(isoDep.transceive(command.bytes))
    } catch (e: IOException) {
      throw CardServiceException("the chip did not answer: ${e.message}")
    }

  override fun getATR(): ByteArray? = isoDep.historicalBytes ?: isoDep.hiLayerResponse

  override fun close() {
    try {
      isoDep.close()
    } catch (ignored: IOException) {
      // Closing a tag that has left the field fails; there is nothing left to release.
    }
  }

  override fun isConnectionLost(e: Exception?): Boolean = e is CardServiceException && !isoDep.isConnected
}
