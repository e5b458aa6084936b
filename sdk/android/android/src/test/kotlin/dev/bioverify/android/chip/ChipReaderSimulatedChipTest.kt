package dev.bioverify.android.chip

import dev.bioverify.android.ChipAccessKey
import dev.bioverify.android.ChipReader
import dev.bioverify.capture.ChipChallenge
import dev.bioverify.capture.JsonObject
import net.sf.scuba.smartcards.CardServiceException
import org.bouncycastle.crypto.digests.SHA1Digest
import org.bouncycastle.crypto.digests.SHA256Digest
import org.bouncycastle.crypto.engines.RSABlindedEngine
import org.bouncycastle.crypto.signers.ISO9796d2Signer
import org.bouncycastle.crypto.util.PublicKeyFactory
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
import java.security.KeyFactory
import java.security.MessageDigest
import java.security.PublicKey
import java.security.SecureRandom
import java.security.Signature
import java.security.spec.PKCS8EncodedKeySpec
import java.util.Base64

/**
 * The SDK's ChipReader reads the project's synthetic chips (`npm run testdata:chip`) through a chip
 * simulator that speaks BAC and secure messaging, and active authentication signs the challenge
 * with the chip's own key. The jest test passes the folder as `bioverify.chip.testdata`.
 */
class ChipReaderSimulatedChipTest {
  private val dir = File(System.getProperty("bioverify.chip.testdata") ?: "../../../.state/testdata/chip")
  private val chips: List<JsonObject> by lazy {
    JsonObject.parse(File(dir, "manifest.json").readText()).objects("chips")
  }

  private fun chip(id: String) = chips.first { it.string("id") == id }

  private fun bytes(path: String) = File(dir, path).readBytes()

  /** The access key as the MRZ prints it: document number, birth and expiry dates (TD1 or TD3). */
  private fun mrzKey(chip: JsonObject): Triple<String, String, String> {
    val lines = chip.obj("document").strings("mrz_lines")
    return if (lines.size == 3) Triple(lines[0].substring(5, 15), lines[1].substring(0, 7), lines[1].substring(8, 15))
    else Triple(lines[1].substring(0, 10), lines[1].substring(13, 20), lines[1].substring(21, 28))
  }

  /** A simulated chip holding the files of [id]; its BAC key seed is computed from the MRZ here, not by JMRTD. */
  private fun simulate(id: String): SimulatedChip {
    val chip = chip(id)
    val files = chip.obj("files")
    val (number, birth, expiry) = mrzKey(chip)
    val seed = MessageDigest.getInstance("SHA-1").digest((number + birth + expiry).toByteArray()).copyOf(16)
    val fids = mapOf("sod" to PassportService.EF_SOD, "dg1" to PassportService.EF_DG1, "dg2" to PassportService.EF_DG2, "dg14" to PassportService.EF_DG14, "dg15" to PassportService.EF_DG15)
    val content = fids.filterKeys { files.stringOrNull(it) != null }.map { (name, fid) -> fid to bytes(files.string(name)) }.toMap().toMutableMap()
    val tags = content.keys.mapNotNull { LDS_TAGS[it] }.toIntArray()
    content[PassportService.EF_COM] = COMFile("1.7", "4.0.0", tags).encoded
    val aa = chip.objOrNull("active_authentication")
    val key = aa?.let { privateKey(bytes(it.string("private_key")), it.string("key_type")) }
    return SimulatedChip(seed, content, key, aa?.string("hash") ?: "sha256")
  }

  private fun privateKey(pem: ByteArray, type: String) =
    KeyFactory.getInstance(if (type == "rsa") "RSA" else "EC", Util.getBouncyCastleProvider())
      .generatePrivate(PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(String(pem).replace(Regex("-----[A-Z ]+-----"), ""))))

  private fun accessKey(id: String) =
    mrzKey(chip(id)).let { (number, birth, expiry) -> ChipAccessKey(number.dropLast(1).trimEnd('<'), birth.take(6), expiry.take(6)) }

  private fun challenge() = ChipChallenge(ByteArray(8).also(SecureRandom()::nextBytes), "2030-01-01T00:00:00Z")

  /** Verifies AA as the server does: ISO 9796-2 scheme 1 for RSA keys, plain r||s ECDSA-SHA256 for EC keys. */
  private fun aaVerifies(publicKey: PublicKey, hash: String, challenge: ByteArray, signature: ByteArray): Boolean =
    if (publicKey.algorithm == "RSA") {
      val verifier = ISO9796d2Signer(RSABlindedEngine(), if (hash == "sha1") SHA1Digest() else SHA256Digest(), hash == "sha1")
      verifier.init(false, PublicKeyFactory.createKey(publicKey.encoded))
      verifier.update(challenge, 0, challenge.size)
      verifier.verifySignature(signature)
    } else {
      Signature.getInstance("SHA256withPLAIN-ECDSA", Util.getBouncyCastleProvider()).run {
        initVerify(publicKey)
        update(challenge)
        verify(signature)
      }
    }

  private fun requireTestdata() = assumeTrue("no chip test data at $dir (npm run testdata:chip)", File(dir, "manifest.json").isFile)

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

  private companion object {
    val LDS_TAGS = mapOf(PassportService.EF_DG1 to 0x61, PassportService.EF_DG2 to 0x75, PassportService.EF_DG14 to 0x6E, PassportService.EF_DG15 to 0x6F)
  }
}
