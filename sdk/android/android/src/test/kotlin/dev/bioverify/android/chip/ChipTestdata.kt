package dev.bioverify.android.chip

import dev.bioverify.android.ChipAccessKey
import dev.bioverify.capture.JsonObject
import org.jmrtd.PassportService
import org.jmrtd.Util
import org.jmrtd.lds.icao.COMFile
import java.io.File
import java.security.KeyFactory
import java.security.MessageDigest
import java.security.spec.PKCS8EncodedKeySpec
import java.util.Base64

/**
 * The project's synthetic chips (`npm run testdata:chip`, under .state/testdata/chip): the manifest,
 * each chip's files and AA key, and a [SimulatedChip] serving them behind the MRZ of its document.
 */
class ChipTestdata(val dir: File) {
  val available: Boolean
    get() = File(dir, "manifest.json").isFile

  val chips: List<JsonObject> by lazy { JsonObject.parse(File(dir, "manifest.json").readText()).objects("chips") }

  fun chip(id: String) = chips.first { it.string("id") == id }

  fun bytes(path: String) = File(dir, path).readBytes()

  /** The access key as the MRZ prints it, check digits included: document number, birth and expiry dates (TD1 or TD3). */
  fun mrzKey(chip: JsonObject): Triple<String, String, String> {
    val lines = chip.obj("document").strings("mrz_lines")
    return if (lines.size == 3) Triple(lines[0].substring(5, 15), lines[1].substring(0, 7), lines[1].substring(8, 15))
    else Triple(lines[1].substring(0, 10), lines[1].substring(13, 20), lines[1].substring(21, 28))
  }

  /** A simulated chip holding the files of [id]; its BAC key seed is computed from the MRZ here, not by JMRTD. */
  fun simulate(id: String): SimulatedChip {
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

  /** The key the SDK's reader is given, from the MRZ printed on the chip's document. */
  fun accessKey(id: String) =
    mrzKey(chip(id)).let { (number, birth, expiry) -> ChipAccessKey(number.dropLast(1).trimEnd('<'), birth.take(6), expiry.take(6)) }

  private fun privateKey(pem: ByteArray, type: String) =
    KeyFactory.getInstance(if (type == "rsa") "RSA" else "EC", Util.getBouncyCastleProvider())
      .generatePrivate(PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(String(pem).replace(Regex("-----[A-Z ]+-----"), ""))))

  private companion object {
    val LDS_TAGS = mapOf(PassportService.EF_DG1 to 0x61, PassportService.EF_DG2 to 0x75, PassportService.EF_DG14 to 0x6E, PassportService.EF_DG15 to 0x6F)
  }
}
