package dev.bioverify.android.chip

import net.sf.scuba.smartcards.CardService
import net.sf.scuba.smartcards.CommandAPDU
import net.sf.scuba.smartcards.ResponseAPDU
import org.jmrtd.Util
import java.io.ByteArrayOutputStream
import java.math.BigInteger
import java.security.MessageDigest
import java.security.PrivateKey
import java.security.SecureRandom
import java.security.Signature
import java.security.interfaces.RSAPrivateKey
import javax.crypto.Cipher
import javax.crypto.Mac
import javax.crypto.SecretKey
import javax.crypto.spec.IvParameterSpec

/**
 * A passport chip in software that answers the APDUs a reader sends over ISO-DEP, as ICAO 9303-11
 * specifies them: SELECT of the eMRTD applet, BAC (GET CHALLENGE, EXTERNAL AUTHENTICATE checked
 * against the keys derived from the MRZ), then only secure-messaging APDUs (3DES, SSC, retail MACs)
 * for SELECT FILE, READ BINARY (even and odd INS) and INTERNAL AUTHENTICATE signed with the chip's
 * AA key (ISO/IEC 9796-2 scheme 1 with partial recovery for RSA, plain r||s ECDSA for EC). It has
 * no EF.CardAccess, so it speaks BAC only, like a pre-2014 passport.
 */
class SimulatedChip(
  private val keySeed: ByteArray,
  private val files: Map<Short, ByteArray>,
  private val aaKey: PrivateKey?,
  private val aaHash: String,
) : CardService() {
  private val random = SecureRandom()
  private val kEnc = Util.deriveKey(keySeed, Util.ENC_MODE)
  private val kMac = Util.deriveKey(keySeed, Util.MAC_MODE)
  private var open = false
  private var appletSelected = false
  private var rndIc: ByteArray? = null
  private var session: Session? = null
  private var selected: ByteArray? = null

  /** APDUs answered, by kind, so a test can see the reader really went through secure messaging. */
  val log = mutableListOf<String>()

  private class Session(val ksEnc: SecretKey, val ksMac: SecretKey, var ssc: Long)

  override fun open() {
    open = true
  }

  override fun isOpen() = open

  override fun getATR(): ByteArray? = null

  override fun close() {
    open = false
  }

  override fun isConnectionLost(e: Exception?) = false

  override fun transmit(command: CommandAPDU): ResponseAPDU = ResponseAPDU(answer(command.bytes))

  private fun answer(apdu: ByteArray): ByteArray {
    val cla = apdu[0].toInt() and 0xFF
    val ins = apdu[1].toInt() and 0xFF
    if (cla and 0x0C == 0x0C) return secure(apdu)
    // Any plain APDU after BAC ends the session, as on a real chip.
    session = null
    return when {
      ins == 0xA4 && apdu[2].toInt() == 0x04 && aid(apdu).contentEquals(EMRTD_AID) -> {
        appletSelected = true
        log += "SELECT applet"
        sw(0x9000)
      }
      ins == 0xA4 -> sw(0x6A82) // no EF.CardAccess, nothing outside the applet
      ins == 0x84 && appletSelected -> {
        rndIc = ByteArray(8).also(random::nextBytes)
        log += "GET CHALLENGE"
        rndIc!! + sw(0x9000)
      }
      ins == 0x82 && appletSelected -> externalAuthenticate(apdu.copyOfRange(5, 5 + (apdu[4].toInt() and 0xFF)))
      else -> sw(0x6D00)
    }
  }

  private fun aid(apdu: ByteArray) = apdu.copyOfRange(5, 5 + (apdu[4].toInt() and 0xFF))

  private fun externalAuthenticate(data: ByteArray): ByteArray {
    val challenge = rndIc ?: return sw(0x6985)
    rndIc = null
    if (data.size != 40) return sw(0x6700)
    val eIfd = data.copyOfRange(0, 32)
    if (!mac(kMac, Util.pad(eIfd, 8)).contentEquals(data.copyOfRange(32, 40))) return sw(0x6300)
    val s = des(Cipher.DECRYPT_MODE, kEnc, eIfd)
    val rndIfd = s.copyOfRange(0, 8)
    if (!s.copyOfRange(8, 16).contentEquals(challenge)) return sw(0x6300)
    val kIfd = s.copyOfRange(16, 32)
    val kIc = ByteArray(16).also(random::nextBytes)
    val eIc = des(Cipher.ENCRYPT_MODE, kEnc, challenge + rndIfd + kIc)
    val seed = ByteArray(16) { (kIfd[it].toInt() xor kIc[it].toInt()).toByte() }
    val ssc = (challenge.copyOfRange(4, 8) + rndIfd.copyOfRange(4, 8)).fold(0L) { acc, b -> (acc shl 8) or (b.toLong() and 0xFF) }
    session = Session(Util.deriveKey(seed, Util.ENC_MODE), Util.deriveKey(seed, Util.MAC_MODE), ssc)
    log += "EXTERNAL AUTHENTICATE"
    return eIc + mac(kMac, Util.pad(eIc, 8)) + sw(0x9000)
  }

  /** Unwraps a protected command, checks its MAC, runs it and wraps the answer. */
  private fun secure(apdu: ByteArray): ByteArray {
    val s = session ?: return sw(0x6982)
    s.ssc++
    val header = byteArrayOf((apdu[0].toInt() or 0x0C).toByte(), apdu[1], apdu[2], apdu[3])
    val (body, _) = commandBody(apdu)
    val objects = tlvs(body)
    val do8e = objects.lastOrNull()?.takeIf { it.first == 0x8E } ?: return dropSession()
    // The MAC covers SSC, the padded header and the data objects, padded once as a whole.
    val covered = objects.dropLast(1).fold(ByteArray(0)) { acc, o -> acc + o.third }
    val macInput = counter(s.ssc) + Util.pad(header, 8) + covered
    if (!mac(s.ksMac, Util.pad(macInput, 8)).contentEquals(do8e.second)) return dropSession()
    var data = ByteArray(0)
    var le = 0
    for ((tag, value) in objects.dropLast(1).map { it.first to it.second }) {
      when (tag) {
        0x87 -> data = Util.unpad(des(Cipher.DECRYPT_MODE, s.ksEnc, value.copyOfRange(1, value.size)))
        0x85 -> data = Util.unpad(des(Cipher.DECRYPT_MODE, s.ksEnc, value))
        0x97 -> le = value.fold(0) { acc, b -> (acc shl 8) or (b.toInt() and 0xFF) }.let { if (it == 0) if (value.size == 1) 256 else 65536 else it }
      }
    }
    val (plain, status) = run(apdu[1].toInt() and 0xFF, apdu[2].toInt() and 0xFF, apdu[3].toInt() and 0xFF, data, le)
    s.ssc++
    val response = ByteArrayOutputStream()
    if (plain.isNotEmpty()) response.write(tlv(0x87, byteArrayOf(1) + des(Cipher.ENCRYPT_MODE, s.ksEnc, Util.pad(plain, 8))))
    response.write(tlv(0x99, byteArrayOf((status shr 8).toByte(), status.toByte())))
    val macced = response.toByteArray()
    return macced + tlv(0x8E, mac(s.ksMac, Util.pad(counter(s.ssc) + macced, 8))) + sw(status)
  }

  private fun dropSession(): ByteArray {
    session = null
    return sw(0x6988)
  }

  private fun run(ins: Int, p1: Int, p2: Int, data: ByteArray, le: Int): Pair<ByteArray, Int> =
    when (ins) {
      0xA4 -> {
        val fid = ((data[0].toInt() and 0xFF) shl 8 or (data[1].toInt() and 0xFF)).toShort()
        selected = files[fid]
        log += "SELECT FILE %04X".format(fid)
        if (selected == null) ByteArray(0) to 0x6A82 else ByteArray(0) to 0x9000
      }
      0xB0 -> read((p1 shl 8) or p2, le, extended = false)
      0xB1 -> read(tlvs(data).first { it.first == 0x54 }.second.fold(0) { acc, b -> (acc shl 8) or (b.toInt() and 0xFF) }, le, extended = true)
      0x88 -> internalAuthenticate(data)
      else -> ByteArray(0) to 0x6D00
    }

  private fun read(offset: Int, le: Int, extended: Boolean): Pair<ByteArray, Int> {
    val file = selected ?: return ByteArray(0) to 0x6986
    if (offset >= file.size) return ByteArray(0) to 0x6B00
    log += if (extended) "READ BINARY (odd)" else "READ BINARY"
    if (!extended) return file.copyOfRange(offset, minOf(file.size, offset + le)) to 0x9000
    // The odd INS answers in a DO53, whose header counts in the reader's Le.
    val n = minOf(file.size - offset, if (le <= 129) le - 2 else le - 3)
    return tlv(0x53, file.copyOfRange(offset, offset + n)) to 0x9000
  }

  private fun internalAuthenticate(challenge: ByteArray): Pair<ByteArray, Int> {
    val key = aaKey ?: return ByteArray(0) to 0x6D00
    log += "INTERNAL AUTHENTICATE"
    val signature =
      if (key is RSAPrivateKey) {
        // ICAO 9303-11 §6.1, ISO/IEC 9796-2 scheme 1 with partial recovery: the chip's own random M1
        // is the recoverable part, the challenge the non-recoverable M2; trailer 0xBC for SHA-1, 0x34CC for SHA-256.
        val digest = MessageDigest.getInstance(if (aaHash == "sha1") "SHA-1" else "SHA-256")
        val trailer = if (aaHash == "sha1") byteArrayOf(0xBC.toByte()) else byteArrayOf(0x34, 0xCC.toByte())
        val k = (key.modulus.bitLength() + 7) / 8
        val m1 = ByteArray(k - 1 - digest.digestLength - trailer.size).also(random::nextBytes)
        digest.update(m1)
        val representative = BigInteger(1, byteArrayOf(0x6A) + m1 + digest.digest(challenge) + trailer)
        unsigned(representative.modPow(key.privateExponent, key.modulus), k)
      } else {
        Signature.getInstance("SHA256withPLAIN-ECDSA", Util.getBouncyCastleProvider()).run {
          initSign(key)
          update(challenge)
          sign()
        }
      }
    return signature to 0x9000
  }

  private fun unsigned(n: BigInteger, size: Int): ByteArray {
    val bytes = n.toByteArray()
    return if (bytes.size >= size) bytes.copyOfRange(bytes.size - size, bytes.size) else ByteArray(size - bytes.size) + bytes
  }

  companion object {
    val EMRTD_AID = byteArrayOf(0xA0.toByte(), 0x00, 0x00, 0x02, 0x47, 0x10, 0x01)

    private fun sw(sw: Int) = byteArrayOf((sw shr 8).toByte(), sw.toByte())

    private fun counter(ssc: Long) = ByteArray(8) { (ssc shr (56 - 8 * it)).toByte() }

    private fun des(mode: Int, key: SecretKey, data: ByteArray): ByteArray =
      Cipher.getInstance("DESede/CBC/NoPadding").run {
        init(mode, key, IvParameterSpec(ByteArray(8)))
        doFinal(data)
      }

    private fun mac(key: SecretKey, paddedData: ByteArray): ByteArray =
      Mac.getInstance("ISO9797Alg3Mac", Util.getBouncyCastleProvider()).run {
        init(key)
        doFinal(paddedData)
      }

    /** The data field of a command APDU, short or extended length. */
    private fun commandBody(apdu: ByteArray): Pair<ByteArray, Int> {
      if (apdu.size <= 5) return ByteArray(0) to 0
      if (apdu[4].toInt() != 0) return apdu.copyOfRange(5, 5 + (apdu[4].toInt() and 0xFF)) to 5
      val lc = ((apdu[5].toInt() and 0xFF) shl 8) or (apdu[6].toInt() and 0xFF)
      return apdu.copyOfRange(7, 7 + lc) to 7
    }

    fun tlv(tag: Int, value: ByteArray): ByteArray {
      val length =
        when {
          value.size < 0x80 -> byteArrayOf(value.size.toByte())
          value.size < 0x100 -> byteArrayOf(0x81.toByte(), value.size.toByte())
          else -> byteArrayOf(0x82.toByte(), (value.size shr 8).toByte(), value.size.toByte())
        }
      return byteArrayOf(tag.toByte()) + length + value
    }

    /** One-byte-tag TLVs: (tag, value, the whole encoding). */
    private fun tlvs(data: ByteArray): List<Triple<Int, ByteArray, ByteArray>> {
      val out = mutableListOf<Triple<Int, ByteArray, ByteArray>>()
      var i = 0
      while (i < data.size) {
        val start = i
        val tag = data[i++].toInt() and 0xFF
        var length = data[i++].toInt() and 0xFF
        if (length == 0x81) length = data[i++].toInt() and 0xFF
        else if (length == 0x82) length = ((data[i++].toInt() and 0xFF) shl 8) or (data[i++].toInt() and 0xFF)
        out += Triple(tag, data.copyOfRange(i, i + length), data.copyOfRange(start, i + length))
        i += length
      }
      return out
    }
  }
}
