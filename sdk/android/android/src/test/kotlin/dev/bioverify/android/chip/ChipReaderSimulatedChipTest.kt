package dev.bioverify.android.chip

import dev.bioverify.android.ChipAccessKey
import dev.bioverify.android.ChipReader
import dev.bioverify.capture.ChipChallenge
import dev.bioverify.capture.JsonObject
import net.sf.scuba.smartcards.CardServiceException
import org.jmrtd.BACKey
import org.jmrtd.PassportService
import org.jmrtd.Util
import org.jmrtd.lds.icao.COMFile
import org.jmrtd.lds.icao.DG15File
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertThrows
import org.junit.Assert.assertTrue
import org.junit.Assume.assumeTrue
import org.junit.Test
import java.io.ByteArrayInputStream
import java.io.File
import java.math.BigInteger
import java.security.MessageDigest
import java.security.PublicKey
import java.security.SecureRandom
import java.security.Signature
import java.security.interfaces.RSAPublicKey

/**
 * The SDK's ChipReader reads the project's synthetic chips (`npm run testdata:chip`) through a chip
 * simulator that speaks BAC and secure messaging, and active authentication signs the challenge
 * with the chip's own key. The jest test passes the folder as `bioverify.chip.testdata`.
 */
class ChipReaderSimulatedChipTest {
  private val testdata = ChipTestdata(File(System.getProperty("bioverify.chip.testdata") ?: "../../../.state/testdata/chip"))
  private val dir = testdata.dir
  private val chips: List<JsonObject> by lazy { testdata.chips }

  private fun chip(id: String) = testdata.chip(id)

  private fun bytes(path: String) = testdata.bytes(path)

  private fun simulate(id: String) = testdata.simulate(id)

  private fun accessKey(id: String) = testdata.accessKey(id)

  private fun challenge() = ChipChallenge(ByteArray(8).also(SecureRandom()::nextBytes), "2030-01-01T00:00:00Z")

  /**
   * Verifies AA as the server does (api/src/data-access/chip/active-authentication.ts): for RSA keys,
   * ISO/IEC 9796-2 scheme 1 with partial recovery (header 0x6A, the chip's M1, H(M1 || challenge),
   * trailer 0xBC for SHA-1 or 0x34CC for SHA-256); for EC keys, plain r||s ECDSA-SHA256.
   */
  private fun aaVerifies(publicKey: PublicKey, hash: String, challenge: ByteArray, signature: ByteArray): Boolean {
    if (publicKey !is RSAPublicKey) {
      return Signature.getInstance("SHA256withPLAIN-ECDSA", Util.getBouncyCastleProvider()).run {
        initVerify(publicKey)
        update(challenge)
        verify(signature)
      }
    }
    val k = (publicKey.modulus.bitLength() + 7) / 8
    if (signature.size != k) return false
    val recovered = BigInteger(1, signature).modPow(publicKey.publicExponent, publicKey.modulus).toByteArray()
    val f = if (recovered.size >= k) recovered.copyOfRange(recovered.size - k, recovered.size) else ByteArray(k - recovered.size) + recovered
    val digest = MessageDigest.getInstance(if (hash == "sha1") "SHA-1" else "SHA-256")
    val trailer = if (hash == "sha1") byteArrayOf(0xBC.toByte()) else byteArrayOf(0x34, 0xCC.toByte())
    if (f[0] != 0x6A.toByte() || !f.copyOfRange(k - trailer.size, k).contentEquals(trailer)) return false
    val m1 = f.copyOfRange(1, k - trailer.size - digest.digestLength)
    digest.update(m1)
    return MessageDigest.isEqual(f.copyOfRange(k - trailer.size - digest.digestLength, k - trailer.size), digest.digest(challenge))
  }

  private fun requireTestdata() = assumeTrue("no chip test data at $dir (npm run testdata:chip)", testdata.available)

  @Test
  fun `every valid chip is read byte for byte over BAC and secure messaging, and its AA signature verifies with DG15's key`() {
    requireTestdata()
    val valid = chips.filter { it.string("case") == "valid" }
    assertEquals(6, valid.size)
    for (chip in valid) {
      val id = chip.string("id")
      val card = simulate(id)
      val challenge = challenge()
      val data = ChipReader(card).read(accessKey(id), challenge)
      val files = chip.obj("files")
      assertArrayEquals(id, bytes(files.string("sod")), data.sod)
      assertArrayEquals(id, bytes(files.string("dg1")), data.dg1)
      assertArrayEquals(id, bytes(files.string("dg2")), data.dg2)
      assertArrayEquals(id, files.stringOrNull("dg14")?.let(::bytes), data.dg14)
      assertArrayEquals(id, files.stringOrNull("dg15")?.let(::bytes), data.dg15)
      assertTrue(id, card.log.containsAll(listOf("GET CHALLENGE", "EXTERNAL AUTHENTICATE", "SELECT FILE 011D", "READ BINARY")))
      val aa = chip.objOrNull("active_authentication")
      if (aa == null) {
        assertEquals(id, null, data.activeAuthentication)
        continue
      }
      val signature = data.activeAuthentication!!.signature
      assertArrayEquals(id, challenge.challenge, data.activeAuthentication!!.challenge)
      val publicKey = DG15File(ByteArrayInputStream(data.dg15!!)).publicKey
      assertTrue("$id: AA verifies", aaVerifies(publicKey, aa.string("hash"), challenge.challenge, signature))
      assertFalse("$id: AA is bound to the challenge", aaVerifies(publicKey, aa.string("hash"), challenge().challenge, signature))
    }
  }

  @Test
  fun `a DG2 larger than 32 KiB is read past offset 32767 with the odd READ BINARY`() {
    requireTestdata()
    val big = chips.first { bytes(it.obj("files").string("dg2")).size > 0x8000 }.string("id")
    val card = simulate(big)
    val data = ChipReader(card).read(accessKey(big), challenge())
    assertArrayEquals(bytes(chip(big).obj("files").string("dg2")), data.dg2)
    assertTrue(card.log.contains("READ BINARY (odd)"))
  }

  @Test
  fun `EF_COM read over secure messaging lists the chip's data groups`() {
    requireTestdata()
    val service = PassportService(simulate("chip-02-valid"), 256, 223, false, false)
    service.open()
    service.sendSelectApplet(false)
    val (number, birth, expiry) = accessKey("chip-02-valid")
    service.doBAC(BACKey(number, birth, expiry))
    val com = COMFile(service.getInputStream(PassportService.EF_COM, 223))
    assertEquals(listOf(0x61, 0x75, 0x6E, 0x6F), com.tagList.toList())
  }

  @Test
  fun `a cloned chip without its AA key answers the challenge with a signature DG15's key rejects`() {
    requireTestdata()
    val id = "chip-12-cloned-without-aa-key"
    val challenge = challenge()
    val data = ChipReader(simulate(id)).read(accessKey(id), challenge)
    val files = chip(id).obj("files")
    assertArrayEquals(bytes(files.string("dg15")), data.dg15)
    val publicKey = DG15File(ByteArrayInputStream(data.dg15!!)).publicKey
    val hash = chip(id).obj("active_authentication").string("hash")
    assertFalse(aaVerifies(publicKey, hash, challenge.challenge, data.activeAuthentication!!.signature))
  }

  @Test
  fun `a wrong MRZ key fails BAC, so nothing is read`() {
    requireTestdata()
    val (number, birth, expiry) = accessKey("chip-01-valid")
    val wrong = ChipAccessKey(number, birth, if (expiry == "991231") "991230" else "991231")
    assertThrows(CardServiceException::class.java) { ChipReader(simulate("chip-01-valid")).read(wrong, challenge()) }
  }
}
