package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class LivenessAndImagesTest {
  @Test
  fun `the plan prompts each step in turn after the lead-in`() {
    val plan = LivenessPlan(listOf(ChallengeStep.TURN_LEFT, ChallengeStep.BLINK, ChallengeStep.LOOK_UP), leadInMs = 500, stepMs = 1000)
    assertEquals(3_500, plan.durationMs)
    assertNull(plan.stepAt(100))
    assertEquals(ChallengeStep.TURN_LEFT, plan.stepAt(500))
    assertEquals(ChallengeStep.BLINK, plan.stepAt(1_600))
    assertEquals(ChallengeStep.LOOK_UP, plan.stepAt(3_499))
    assertNull(plan.stepAt(3_500))
  }

  @Test
  fun `frame selection keeps 60 evenly spread frames with increasing times, first and last included`() {
    val frames = (0 until 150).map { TimedFrame(byteArrayOf(it.toByte()), it * 33L) }
    val picked = FrameSelection.select(frames)
    assertEquals(60, picked.size)
    assertEquals(0L, picked.first().timestampMs)
    assertEquals(149 * 33L, picked.last().timestampMs)
    assertTrue(picked.zipWithNext().all { (a, b) -> b.timestampMs > a.timestampMs })
  }

  @Test
  fun `frame selection drops repeated times and oversize frames, and refuses fewer than 8`() {
    val frames = (0 until 9).map { TimedFrame(ByteArray(10), it * 100L) } + TimedFrame(ByteArray(10), 800L) + TimedFrame(ByteArray(2 * 1024 * 1024), 900L)
    assertEquals(9, FrameSelection.select(frames).size)
    assertThrows<IllegalStateException> { FrameSelection.select(frames.take(7)) }
  }

  @Test
  fun `the framing gate asks to come closer, move back, centre, or show one face`() {
    val gate = FramingGate()
    assertEquals(Framing.NO_FACE, gate.judge(emptyList(), 640, 480))
    assertEquals(Framing.SEVERAL_FACES, gate.judge(listOf(FaceBox(0f, 0f, 10f, 10f), FaceBox(20f, 20f, 30f, 30f)), 640, 480))
    assertEquals(Framing.TOO_FAR, gate.judge(listOf(FaceBox(300f, 220f, 340f, 260f)), 640, 480))
    assertEquals(Framing.TOO_CLOSE, gate.judge(listOf(FaceBox(20f, 0f, 620f, 480f)), 640, 480))
    assertEquals(Framing.OFF_CENTRE, gate.judge(listOf(FaceBox(0f, 100f, 200f, 300f)), 640, 480))
    assertEquals(Framing.OK, gate.judge(listOf(FaceBox(220f, 140f, 420f, 340f)), 640, 480))
  }

  @Test
  fun `the tally mirrors the server's 80 percent one-face gate`() {
    val tally = FramingTally()
    repeat(8) { tally.add(1) }
    tally.add(0)
    tally.add(2)
    assertEquals(0.8, tally.ratio, 1e-9)
    assertTrue(tally.passes)
    tally.add(0)
    assertFalse(tally.passes)
  }

  @Test
  fun `images are scaled within the long side and pixel limits, never enlarged`() {
    assertEquals(Size(2560, 1920), ImagePreparation.targetSize(4000, 3000, ImageLimits.DOCUMENT))
    assertEquals(Size(640, 480), ImagePreparation.targetSize(1920, 1440, ImageLimits.LIVENESS_FRAME))
    assertEquals(Size(800, 600), ImagePreparation.targetSize(800, 600, ImageLimits.DOCUMENT))
    val capped = ImagePreparation.targetSize(10_000, 10_000, ImageLimits(1 shl 20, 1_000_000, 100_000))
    assertTrue(capped.width.toLong() * capped.height <= 1_000_000)
  }

  @Test
  fun `EXIF orientations turn the image upright, swapping sides on quarter turns`() {
    assertEquals(Upright(90, false), ImagePreparation.upright(6))
    assertEquals(Upright(270, false), ImagePreparation.upright(8))
    assertEquals(Upright(0, true), ImagePreparation.upright(2))
    assertEquals(Size(3000, 4000), ImagePreparation.turnedSize(4000, 3000, ImagePreparation.upright(6)))
  }

  @Test
  fun `the JPEG quality steps down until the bytes fit`() {
    val tried = ArrayList<Int>()
    val bytes = ImagePreparation.encodeWithin(700) { q -> tried.add(q); ByteArray(q * 10) }
    assertArrayEquals(ByteArray(700), bytes)
    assertEquals(listOf(92, 85, 78, 70), tried)
    assertThrows<IllegalStateException> { ImagePreparation.encodeWithin(10) { ByteArray(100) } }
  }
}
