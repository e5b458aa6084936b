package dev.bioverify.android

import dev.bioverify.capture.ActiveAuthentication
import dev.bioverify.capture.ChipChallenge
import dev.bioverify.capture.ChipData
import net.sf.scuba.smartcards.CardService
import net.sf.scuba.smartcards.CardServiceException
import org.jmrtd.BACKey
import org.jmrtd.PassportService
import org.jmrtd.lds.CardAccessFile
import org.jmrtd.lds.PACEInfo
import org.jmrtd.lds.icao.DG15File
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.io.InputStream

/**
 * The access key of a passport chip: document number, date of birth and date of expiry as the MRZ
 * prints them (YYMMDD). BAC and PACE both derive their keys from it.
 */
data class ChipAccessKey(val documentNumber: String, val dateOfBirth: String, val dateOfExpiry: String) {
  init {
    require(dateOfBirth.matches(Regex("\\d{6}")) && dateOfExpiry.matches(Regex("\\d{6}"))) { "dates are YYMMDD" }
  }
}

/**
 * Reads a passport chip with JMRTD over any [CardService] (the NFC radio's [IsoDepCardService] on a
 * device, a simulated chip in tests): PACE when EF.CardAccess offers it, else BAC; then EF.SOD, DG1,
 * DG2, DG14 and DG15 as read; then active authentication over the server's challenge when the chip
 * has an AA key (DG15). Nothing is verified here: the server checks the signatures and the AA.
 */
class ChipReader(private val card: CardService) {
  fun read(key: ChipAccessKey, challenge: ChipChallenge): ChipData {
    val service = PassportService(card, PassportService.NORMAL_MAX_TRANCEIVE_LENGTH, PassportService.DEFAULT_MAX_BLOCKSIZE, false, false)
    service.open()
    val bacKey = BACKey(key.documentNumber, key.dateOfBirth, key.dateOfExpiry)
    var paced = false
    try {
      val access = CardAccessFile(service.getInputStream(PassportService.EF_CARD_ACCESS, PassportService.DEFAULT_MAX_BLOCKSIZE))
      val pace = access.securityInfos.filterIsInstance<PACEInfo>().firstOrNull()
      if (pace != null) {
        service.doPACE(bacKey, pace.objectIdentifier, PACEInfo.toParameterSpec(pace.parameterId), null)
        paced = true
      }
    } catch (e: CardServiceException) {
      // No EF.CardAccess, or PACE refused: the chip speaks BAC (every ICAO chip does).
    }
    service.sendSelectApplet(paced)
    if (!paced) service.doBAC(bacKey)
    val sod = readFile(service, PassportService.EF_SOD)!!
    val dg1 = readFile(service, PassportService.EF_DG1)!!
    val dg2 = readFile(service, PassportService.EF_DG2)!!
    val dg14 = readFile(service, PassportService.EF_DG14, optional = true)
    val dg15 = readFile(service, PassportService.EF_DG15, optional = true)
    val aa =
      dg15?.let {
        val publicKey = DG15File(ByteArrayInputStream(it)).publicKey
        val signatureAlgorithm = if (publicKey.algorithm == "EC" || publicKey.algorithm == "ECDSA") "SHA256withECDSA" else "SHA1WithRSA/ISO9796-2"
        val result = service.doAA(publicKey, "SHA-256", signatureAlgorithm, challenge.challenge)
        ActiveAuthentication(challenge.challenge, result.response)
      }
    return ChipData(sod, dg1, dg2, dg14, dg15, aa)
  }

  private fun readFile(service: PassportService, fid: Short, optional: Boolean = false): ByteArray? =
    try {
      service.getInputStream(fid, PassportService.DEFAULT_MAX_BLOCKSIZE).use { readAll(it) }
    } catch (e: CardServiceException) {
      if (optional) null else throw e
    }

  private fun readAll(input: InputStream): ByteArray {
    val out = ByteArrayOutputStream()
    val buffer = ByteArray(4096)
    while (true) {
      val n = input.read(buffer)
      if (n < 0) return out.toByteArray()
      out.write(buffer, 0, n)
    }
  }
}
