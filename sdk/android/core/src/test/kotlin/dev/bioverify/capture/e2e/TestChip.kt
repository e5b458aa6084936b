package dev.bioverify.capture.e2e

import dev.bioverify.capture.ActiveAuthentication
import dev.bioverify.capture.ChipData
import dev.bioverify.capture.JsonObject
import org.bouncycastle.jce.provider.BouncyCastleProvider
import java.io.File
import java.math.BigInteger
import java.security.KeyFactory
import java.security.MessageDigest
import java.security.PrivateKey
import java.security.PublicKey
import java.security.SecureRandom
import java.security.Signature
import java.security.interfaces.RSAPrivateKey
import java.security.interfaces.RSAPublicKey
import java.security.spec.PKCS8EncodedKeySpec
import java.security.spec.X509EncodedKeySpec
import java.util.Base64

/**
 * One synthetic chip of `npm run testdata:chip` (.state/testdata/chip/manifest.json): its files as
 * a reader gets them, and its answer to INTERNAL AUTHENTICATE, ported from the chip simulator
 * (inference/tools/testdata/chip/chip-simulator.ts) to the JDK's crypto. In the app, the AAR's
 * `ChipReader` reads the same files over NFC and the chip itself signs.
 */
class TestChip(private val dir: File, val id: String) {
  private val entry: JsonObject =
    JsonObject.parse(File(dir, "manifest.json").readText()).objects("chips").first { it.string("id") == id }
  private val files = entry.obj("files")
  private val aa = entry.objOrNull("active_authentication")

  /** The status the generator expects the upload to answer (422 for a malformed chip). */
  val expectedPutStatus: Int
    get() = entry.obj("expected").int("put_status")

  fun file(name: String): ByteArray? = files.stringOrNull(name)?.let { File(dir, it).readBytes() }

  /** What the SDK uploads: the files read, and the chip's signature over [challenge] when it has an AA key. */
  fun read(challenge: ByteArray): ChipData =
    ChipData(
      sod = file("sod")!!,
      dg1 = file("dg1")!!,
      dg2 = file("dg2")!!,
      dg14 = file("dg14"),
      dg15 = file("dg15"),
      activeAuthentication = aa?.let { ActiveAuthentication(challenge, internalAuthenticate(challenge)) },
    )

  /**
   * ICAO 9303-11 §6.1: RSA keys sign with ISO/IEC 9796-2 scheme 1 (a random recoverable part M1,
   * the challenge as the non-recoverable M2, trailer 0xBC for SHA-1 or hash id + 0xCC), EC keys
   * with plain ECDSA (r || s) over the challenge.
   */
  fun internalAuthenticate(challenge: ByteArray): ByteArray {
    val key = privateKey()
    if (key !is RSAPrivateKey) return Signature.getInstance(PLAIN_ECDSA, BC).run {
      initSign(key)
      update(challenge)
      sign()
    }
    val hash = aa!!.string("hash")
    val digest = MessageDigest.getInstance(if (hash == "sha1") "SHA-1" else "SHA-256")
    require(hash == "sha1" || hash == "sha256") { "hash $hash is not ported" }
    val trailer = if (hash == "sha1") byteArrayOf(0xBC.toByte()) else byteArrayOf(0x34, 0xCC.toByte())
    val k = (key.modulus.bitLength() + 7) / 8
    val m1 = ByteArray(k - 1 - digest.digestLength - trailer.size).also(SecureRandom()::nextBytes)
    digest.update(m1)
    val h = digest.digest(challenge)
    val representative = BigInteger(1, byteArrayOf(0x6A) + m1 + h + trailer)
    return unsigned(representative.modPow(key.privateExponent, key.modulus), k)
  }

  /**
   * Checks [signature] with EF.DG15's public key the way a verifier does (RSA: recover the message
   * representative, re-hash M1 || challenge), so this port is held to the chip's real key.
   */
  fun verifies(challenge: ByteArray, signature: ByteArray): Boolean {
    val key = dg15PublicKey()
    if (key !is RSAPublicKey) return Signature.getInstance(PLAIN_ECDSA, BC).run {
      initVerify(key)
      update(challenge)
      verify(signature)
    }
    val k = (key.modulus.bitLength() + 7) / 8
    val f = unsigned(BigInteger(1, signature).modPow(key.publicExponent, key.modulus), k)
    val sha1 = f.last() == 0xBC.toByte()
    val digest = MessageDigest.getInstance(if (sha1) "SHA-1" else "SHA-256")
    val trailerSize = if (sha1) 1 else 2
    if (f[0] != 0x6A.toByte()) return false
    val m1 = f.copyOfRange(1, k - trailerSize - digest.digestLength)
    val h = f.copyOfRange(k - trailerSize - digest.digestLength, k - trailerSize)
    digest.update(m1)
    return MessageDigest.isEqual(h, digest.digest(challenge))
  }

  private fun privateKey(): PrivateKey {
    val pem = File(dir, aa!!.string("private_key")).readText()
    val der = Base64.getMimeDecoder().decode(pem.replace(Regex("-----[A-Z ]+-----"), ""))
    return KeyFactory.getInstance(if (aa.string("key_type") == "rsa") "RSA" else "EC", BC).generatePrivate(PKCS8EncodedKeySpec(der))
  }

  /** EF.DG15 is tag 0x6F around the SubjectPublicKeyInfo. */
  private fun dg15PublicKey(): PublicKey {
    val dg15 = file("dg15")!!
    check(dg15[0] == 0x6F.toByte()) { "EF.DG15 starts with 0x6F" }
    val first = dg15[1].toInt() and 0xFF
    val offset = if (first < 0x80) 2 else 2 + (first and 0x7F)
    val spki = dg15.copyOfRange(offset, dg15.size)
    val type = if (aa!!.string("key_type") == "rsa") "RSA" else "EC"
    return KeyFactory.getInstance(type, BC).generatePublic(X509EncodedKeySpec(spki))
  }

  private fun unsigned(n: BigInteger, size: Int): ByteArray {
    val bytes = n.toByteArray()
    return when {
      bytes.size == size -> bytes
      bytes.size > size -> bytes.copyOfRange(bytes.size - size, bytes.size)
      else -> ByteArray(size - bytes.size) + bytes
    }
  }

  private companion object {
    /** BouncyCastle has the brainpool curves the test chips use (the JDK 17 provider dropped them). */
    val BC = BouncyCastleProvider()

    /** ECDSA over SHA-256 with the signature as r || s, as BSI TR-03111 and ICAO 9303-11 have it. */
    const val PLAIN_ECDSA = "SHA256withPLAIN-ECDSA"
  }
}
