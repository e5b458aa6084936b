package dev.bioverify.android.chip

import dev.bioverify.android.ChipReader
import dev.bioverify.capture.Capture
import dev.bioverify.capture.CaptureClient
import dev.bioverify.capture.CaptureSource
import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.ChipChallenge
import dev.bioverify.capture.ChipData
import dev.bioverify.capture.DocumentSide
import dev.bioverify.capture.DocumentType
import dev.bioverify.capture.JsonObject
import dev.bioverify.capture.VerificationListener
import dev.bioverify.capture.VerificationRunner
import dev.bioverify.capture.e2e.IntegratorServer
import dev.bioverify.capture.e2e.RecordedApplicant
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertTrue
import org.junit.Assume.assumeTrue
import org.junit.Before
import org.junit.Test
import java.awt.image.BufferedImage
import java.io.ByteArrayOutputStream
import java.io.File
import javax.imageio.IIOImage
import javax.imageio.ImageIO
import javax.imageio.ImageWriteParam

/**
 * The chip read by the SDK verifies on the server, end to end: against the real stack (API, worker,
 * inference on the real models, FerretDB, Redis) that sdk/android/android-sdk.test.ts starts, which
 * also checks these tests ran rather than being skipped. The SDK's [VerificationRunner] photographs
 * the chip's document, asks the server for a challenge, reads the chip with the SDK's [ChipReader]
 * over a [SimulatedChip] (BAC from the MRZ printed on the document, secure messaging, active
 * authentication over that challenge), uploads what it read, then performs the pinned challenge,
 * takes the selfie and waits for the decision, which the integrator's server reads over REST.
 */
class ChipDecisionEndToEndTest {
  private val baseUrl: String? = System.getenv("BIOVERIFY_E2E_BASE_URL")
  private val testdata by lazy { File(System.getenv("BIOVERIFY_E2E_TESTDATA")) }
  private val chips by lazy { ChipTestdata(File(System.getenv("BIOVERIFY_E2E_CHIP_TESTDATA"))) }
  private val integrator by lazy { IntegratorServer(baseUrl!!, System.getenv("BIOVERIFY_E2E_API_KEY"), System.getenv("BIOVERIFY_E2E_WEBHOOK_URL")) }

  @Before
  fun needsTheStack() = assumeTrue("needs the real stack (BIOVERIFY_E2E_BASE_URL): run sdk/android/android-sdk.test.ts", baseUrl?.matches(Regex("https?://.+")) == true)

  @Test
  fun `a genuine ID card's chip read through the SDK is VERIFIED with document_chip PASS, its AA PASSED and DG1, DG2 and DG15 verified`() {
    val decided = decide("chip-01-valid")

    assertEquals(DocumentType.ID_CARD, decided.holder.kind)
    assertEquals(listOf(DocumentSide.FRONT, DocumentSide.BACK), decided.holder.sides)
    assertEquals(listOf(CaptureStep.DOCUMENT_FRONT, CaptureStep.DOCUMENT_BACK, CaptureStep.CHIP, CaptureStep.LIVENESS, CaptureStep.SELFIE, CaptureStep.SUBMIT, CaptureStep.DECISION, CaptureStep.DONE), decided.steps)
    assertTrue("the SDK read the chip over BAC and secure messaging", decided.holder.card.log.containsAll(listOf("EXTERNAL AUTHENTICATE", "INTERNAL AUTHENTICATE")))
    assertEquals(decided.explained(), "VERIFIED", decided.status)
    assertEquals("VERIFIED", decided.result.string("status"))
    assertEquals("PASS", decided.result.obj("checks").string("document_chip"))
    val chip = decided.report.obj("checks").obj("document_chip")
    assertEquals("PASS", chip.string("verdict"))
    val evidence = chip.obj("evidence")
    assertEquals("PASSED", evidence.string("active_authentication"))
    val groups = (evidence.map["data_groups_verified"] as List<*>).map { (it as Number).toInt() }
    assertTrue("data groups verified: $groups", groups.containsAll(listOf(1, 2, 15)))
  }

  @Test
  fun `a cloned passport chip, whose AA key is the cloner's, read through the SDK is FAILED as CHIP_CLONE_SUSPECTED`() {
    val decided = decide("chip-12-cloned-without-aa-key")

    assertEquals(DocumentType.PASSPORT, decided.holder.kind)
    assertTrue(decided.holder.card.log.contains("INTERNAL AUTHENTICATE"))
    assertEquals(decided.explained(), "FAILED", decided.status)
    assertEquals(decided.explained(), "CHIP_CLONE_SUSPECTED", decided.result.stringOrNull("failure_reason"))
    assertEquals("FAIL", decided.result.obj("checks").string("document_chip"))
    val chip = decided.report.obj("checks").obj("document_chip")
    assertEquals("FAIL", chip.string("verdict"))
    assertEquals("CHIP_CLONE_SUSPECTED", chip.stringOrNull("reason"))
  }

  private class Decided(val holder: ChipHolder, val steps: List<CaptureStep>, val status: String, val result: JsonObject, val report: JsonObject) {
    /** What the server decided and why, check by check, for a failing assertion's message. */
    fun explained(): String {
      val checks = report.obj("checks")
      val verdicts = checks.map.keys.map { name -> checks.obj(name).let { "$name ${it.stringOrNull("verdict")} ${it.stringOrNull("reason")} ${it.objOrNull("evidence") ?: ""} ${if (it.stringOrNull("verdict") == "FAIL") it.map["scores"] else ""}" } }
      return "status $status, failure_reason ${result.stringOrNull("failure_reason")}, checks $verdicts"
    }
  }

  /** One sandbox session for the chip's document, run by the SDK from the document photo to the decision. */
  private fun decide(id: String): Decided {
    val chip = chips.chip(id)
    val document = chip.obj("document")
    val label = documentLabel(document.string("file"))
    val applicant = RecordedApplicant(testdata, document.string("portrait_identity"))
    val holder = ChipHolder(applicant, File(testdata, "documents/${label.string("file")}"), label.string("format"), chips.simulate(id), chips, id)
    val sessionId = integrator.createSession(label.obj("expected").obj("fields").string("name"), applicant.challenge)
    val steps = ArrayList<CaptureStep>()
    val listener =
      object : VerificationListener {
        override fun onStep(step: CaptureStep, retakeReason: String?, attemptsLeft: Int) {
          steps.add(step)
        }
      }

    val status = VerificationRunner(CaptureClient(baseUrl!!, sessionId), holder, listener, readChip = true, decisionTimeoutMs = 180_000).run()

    assertNotNull("the SDK read the chip", holder.read)
    return Decided(holder, steps, status.status, integrator.result(sessionId), integrator.report(sessionId))
  }

  private fun documentLabel(file: String): JsonObject =
    JsonObject.parse(File(testdata, "documents/labels.json").readText()).objects("documents").first { it.string("file") == file }

  /**
   * The document's holder with the phone: photographs the chip's own document (a TD1 card in two
   * halves, its front and its back, as the API's tests cut it), holds the simulated chip to the
   * reader when asked, and performs the challenge and the selfie as [RecordedApplicant].
   */
  private class ChipHolder(
    applicant: RecordedApplicant,
    private val photo: File,
    format: String,
    val card: SimulatedChip,
    private val chips: ChipTestdata,
    private val id: String,
  ) : CaptureSource by applicant {
    val kind = if (format == "TD1") DocumentType.ID_CARD else DocumentType.PASSPORT
    val sides = ArrayList<DocumentSide>()
    var read: ChipData? = null

    override fun documentType(offered: List<DocumentType>): DocumentType = kind.also { check(it in offered) }

    override fun document(side: DocumentSide, type: DocumentType, retakeReason: String?): Capture {
      sides.add(side)
      if (type == DocumentType.PASSPORT) return Capture(photo.readBytes())
      val image = ImageIO.read(photo)
      val half = Math.round(image.height / 2.0).toInt()
      val (top, height) = if (side == DocumentSide.FRONT) 0 to half else half to image.height - half
      val cut = BufferedImage(image.width, height, BufferedImage.TYPE_INT_RGB)
      cut.createGraphics().run {
        drawImage(image, 0, 0, image.width, height, 0, top, image.width, top + height, null)
        dispose()
      }
      return Capture(jpeg(cut))
    }

    override fun chip(challenge: ChipChallenge): ChipData = ChipReader(card).read(chips.accessKey(id), challenge).also { read = it }

    private fun jpeg(image: BufferedImage): ByteArray {
      val writer = ImageIO.getImageWritersByFormatName("jpeg").next()
      val out = ByteArrayOutputStream()
      ImageIO.createImageOutputStream(out).use { stream ->
        writer.output = stream
        val param = writer.defaultWriteParam.apply {
          compressionMode = ImageWriteParam.MODE_EXPLICIT
          compressionQuality = 0.92f
        }
        writer.write(null, IIOImage(image, null, null), param)
      }
      writer.dispose()
      return out.toByteArray()
    }
  }
}
