package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class CaptureFlowTest {
  private val started = StartAnswer("t", listOf(ChallengeStep.BLINK, ChallengeStep.LOOK_UP, ChallengeStep.TURN_LEFT), listOf(DocumentType.PASSPORT), "e", "en")

  private fun doc(side: DocumentSide, retake: Boolean, left: Int, next: String?, reason: String? = null) = DocumentAnswer(side, !retake && reason == null, reason, retake, left, next)

  @Test
  fun `an ID card goes front, back, liveness, selfie, submit, decision`() {
    val flow = CaptureFlow()
    flow.onStarted(started)
    assertEquals(CaptureStep.DOCUMENT_FRONT, flow.step)
    flow.onDocument(DocumentType.ID_CARD, doc(DocumentSide.FRONT, false, 2, "back"))
    assertEquals(CaptureStep.DOCUMENT_BACK, flow.step)
    flow.onDocument(DocumentType.ID_CARD, doc(DocumentSide.BACK, false, 2, "liveness"))
    assertEquals(CaptureStep.LIVENESS, flow.step)
    assertEquals(started.challenge, flow.challenge)
    flow.onLiveness(LivenessAnswer(10, 1.0, false, 2))
    flow.onSelfie(SelfieAnswer(true, false, null, 2))
    assertEquals(CaptureStep.SUBMIT, flow.step)
    flow.onSubmitted()
    flow.onDecided(StatusAnswer("VERIFIED", "done", null, emptyMap()))
    assertEquals(CaptureStep.DONE, flow.step)
  }

  @Test
  fun `a retake keeps the step with the server's reason and attempts, and the last attempt moves on carrying the reason`() {
    val flow = CaptureFlow()
    flow.onStarted(started)
    flow.onDocument(DocumentType.PASSPORT, doc(DocumentSide.FRONT, true, 1, null, "DOCUMENT_UNREADABLE"))
    assertEquals(CaptureStep.DOCUMENT_FRONT, flow.step)
    assertEquals("DOCUMENT_UNREADABLE", flow.retakeReason)
    assertEquals(1, flow.attemptsLeft)
    flow.onDocument(DocumentType.PASSPORT, doc(DocumentSide.FRONT, false, 0, "liveness", "DOCUMENT_UNREADABLE"))
    assertEquals(CaptureStep.LIVENESS, flow.step)
    assertNull(flow.retakeReason)
    assertEquals(listOf("DOCUMENT_UNREADABLE"), flow.unresolved)
  }

  @Test
  fun `a passport goes to the chip when the device reads it, then to liveness`() {
    val flow = CaptureFlow(chip = true)
    flow.onStarted(started)
    flow.onDocument(DocumentType.PASSPORT, doc(DocumentSide.FRONT, false, 2, "liveness"))
    assertEquals(CaptureStep.CHIP, flow.step)
    flow.onChipDone()
    assertEquals(CaptureStep.LIVENESS, flow.step)
  }

  @Test
  fun `an ID card goes to its chip after its back side, and a driving licence, which has no ICAO chip, straight to liveness`() {
    val card = CaptureFlow(chip = true)
    card.onStarted(started)
    card.onDocument(DocumentType.ID_CARD, doc(DocumentSide.FRONT, false, 2, "back"))
    assertEquals(CaptureStep.DOCUMENT_BACK, card.step)
    card.onDocument(DocumentType.ID_CARD, doc(DocumentSide.BACK, false, 2, "liveness"))
    assertEquals(CaptureStep.CHIP, card.step)
    val licence = CaptureFlow(chip = true)
    licence.onStarted(started)
    licence.onDocument(DocumentType.DRIVING_LICENCE, doc(DocumentSide.FRONT, false, 2, "back"))
    licence.onDocument(DocumentType.DRIVING_LICENCE, doc(DocumentSide.BACK, false, 2, "liveness"))
    assertEquals(CaptureStep.LIVENESS, licence.step)
  }

  @Test
  fun `liveness and selfie retakes name why`() {
    val flow = CaptureFlow()
    flow.onStarted(started)
    flow.onDocument(DocumentType.PASSPORT, doc(DocumentSide.FRONT, false, 2, "liveness"))
    flow.onLiveness(LivenessAnswer(10, 0.5, true, 2))
    assertEquals(CaptureStep.LIVENESS, flow.step)
    assertEquals(CaptureFlow.LIVENESS_RETAKE, flow.retakeReason)
    flow.onLiveness(LivenessAnswer(10, 0.9, false, 1))
    flow.onSelfie(SelfieAnswer(true, true, "FACE_TOO_CLOSE", 2))
    assertEquals("FACE_TOO_CLOSE", flow.retakeReason)
  }

  @Test
  fun `an answer for another step than the current one is a programming error`() {
    val flow = CaptureFlow()
    assertThrows<IllegalStateException> { flow.onSelfie(SelfieAnswer(true, false, null, 2)) }
  }
}
