package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** A monotonic clock that moves only when the code under test sleeps or the fake server takes time. */
class FakeClock {
  var now = 10_000L

  val read: () -> Long = { now }
  val sleep: (Long) -> Unit = { now += it }
}

fun stepJson(
  stepId: String,
  index: Int,
  kind: String = if (index == 2) "OPEN_MOUTH" else "HOLD_POSE",
  holdMs: Int = 1_000,
  limits: String = """{"max_frames_per_chunk":10,"max_frames_per_step":60,"max_chunks_per_step":12,"max_frame_age_ms":2500,"max_frame_gap_ms":600}""",
  attemptsLeft: Int = 2,
) = """{"challenge_id":"pch_1","step_id":"$stepId","index":$index,"count":4,"kind":"$kind","target":{"yaw":-21.4,"pitch":6.2},"tolerance_deg":8,""" +
  """"hold_ms":$holdMs,"revealed_at":"2026-11-27T05:40:01.120Z","deadline_at":"2026-11-27T05:40:06.750Z","deadline_ms":${3000 + holdMs + 1500},"limits":$limits,"attempts_left":$attemptsLeft}"""

/** One chunk as the fake server received it: its step, the frames' timestamps and its arrival in ms since the step's reveal. */
class ReceivedChunk(val stepId: String, val timestamps: List<Long>, val frames: Int, val arrivedMs: Long)

/**
 * The paced routes as the server keeps them, on the fake clock: each call takes [latencyMs]; each
 * reveal answers the next scripted step, each complete the next scripted `next`. It records what
 * the client sent and when, so the tests can hold the client to the server's rules.
 */
class FakePacedServer(
  private val clock: FakeClock,
  private val steps: MutableList<String>,
  private val nexts: MutableList<String>,
  private val latencyMs: Long = 40,
) : HttpTransport {
  val calls = ArrayList<String>()
  val chunks = ArrayList<ReceivedChunk>()
  val completedAtMs = ArrayList<Long>()
  private var revealedAt = 0L
  private var openStep = ""

  override fun execute(request: HttpRequest): HttpResponse {
    clock.now += latencyMs
    val path = request.url.substringAfter("/v1/capture/ses_p")
    calls.add("${request.method} $path")
    return when {
      path == "/liveness/steps" -> {
        val body = steps.removeAt(0)
        revealedAt = clock.now
        openStep = JsonObject.parse(body).string("step_id")
        json(201, body)
      }
      path.endsWith("/frames") -> {
        val form = String(request.body!!, Charsets.ISO_8859_1)
        val timestamps = (Json.parse(form.substringAfter("name=\"timestamps\"\r\n\r\n").substringBefore("\r\n")) as List<*>).map { (it as Number).toLong() }
        val frames = Regex("name=\"frame\"; filename=").findAll(form).count()
        chunks.add(ReceivedChunk(path.removePrefix("/liveness/steps/").removeSuffix("/frames"), timestamps, frames, clock.now - revealedAt))
        json(200, """{"step_id":"$openStep","received":$frames,"frames_total":${chunks.filter { it.stepId == openStep }.sumOf { it.frames }},"deadline_ms":1000}""")
      }
      path.endsWith("/complete") -> {
        completedAtMs.add(clock.now - revealedAt)
        json(200, """{"step_id":"$openStep","frames_total":20,"face_found_ratio":1,"next":"${nexts.removeAt(0)}","attempts_left":2}""")
      }
      else -> error("unexpected call $path")
    }
  }
}

/** A camera that always has a frame: a few bytes naming the step and the time it was asked for. */
class NumberedFrames : PacedFrameSource {
  val shown = ArrayList<String>()
  var finished = 0

  override fun onStep(step: PacedStep) {
    shown.add("${step.stepId}:${step.kind}")
  }

  override fun frame(step: PacedStep, elapsedMs: Long): ByteArray = "${step.stepId}@$elapsedMs".toByteArray()

  override fun onFinished() {
    finished++
  }
}

class PacedLivenessTest {
  private val clock = FakeClock()

  @Test
  fun `the paced routes are typed, reveal answers the step, a chunk goes as frame parts with their timestamps, complete answers next`() {
    val transport =
      ScriptedTransport(
        mutableListOf(
          json(201, stepJson("stp_a/1", 0)),
          json(200, """{"step_id":"stp_a/1","received":2,"frames_total":2,"deadline_ms":4800}"""),
          json(200, """{"step_id":"stp_a/1","frames_total":2,"face_found_ratio":0.5,"next":"restart","attempts_left":1}"""),
        ),
      )
    val client = CaptureClient("http://h", "ses_p", transport, "tok")

    val step = client.revealStep()
    val chunk = client.sendStepFrames(step.stepId, listOf(byteArrayOf(1), byteArrayOf(2)), listOf(0L, 210L), boundary = "b")
    val done = client.completeStep(step.stepId)

    assertEquals(
      PacedStep("pch_1", "stp_a/1", 0, 4, PacedStepKind.HOLD_POSE, -21.4, 6.2, 8.0, 1_000, "2026-11-27T05:40:01.120Z", "2026-11-27T05:40:06.750Z", 5_500, PacedLimits(10, 60, 12, 2500, 600), 2),
      step,
    )
    assertEquals(4_000L, step.captureWindowMs)
    assertEquals(PacedChunkAnswer("stp_a/1", 2, 2, 4800), chunk)
    assertEquals(PacedStepDone("stp_a/1", 2, 0.5, PacedNext.RESTART, 1), done)
    assertEquals(listOf("POST http://h/v1/capture/ses_p/liveness/steps", "POST http://h/v1/capture/ses_p/liveness/steps/stp_a%2F1/frames", "POST http://h/v1/capture/ses_p/liveness/steps/stp_a%2F1/complete"), transport.requests.map { "${it.method} ${it.url}" })
    assertTrue(transport.requests.all { it.headers["Authorization"] == "Bearer tok" })
    assertEquals("multipart/form-data; boundary=b", transport.requests[1].headers["Content-Type"])
    val form = String(transport.requests[1].body!!, Charsets.ISO_8859_1)
    assertEquals(
      "--b\r\nContent-Disposition: form-data; name=\"frame\"; filename=\"frame-0.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u0001\r\n" +
        "--b\r\nContent-Disposition: form-data; name=\"frame\"; filename=\"frame-1.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u0002\r\n" +
        "--b\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[0,210]\r\n--b--\r\n",
      form,
    )
  }

  @Test
  fun `start says whether liveness is paced, and a server that does not say has only the one-shot upload`() {
    val paced = START.replace("\"locale\":\"fr\"", "\"locale\":\"fr\",\"liveness_mode\":\"paced\"")
    val transport = ScriptedTransport(mutableListOf(json(200, paced), json(200, START)))
    assertEquals(LivenessMode.PACED, CaptureClient("http://h", "s", transport).start().livenessMode)
    assertEquals(LivenessMode.ONE_SHOT, CaptureClient("http://h", "s", transport).start().livenessMode)
  }

  @Test
  fun `a step of a kind this SDK does not know is refused as a malformed answer that asks for an update`() {
    val transport = ScriptedTransport(mutableListOf(json(201, stepJson("stp_x", 0, kind = "BLINK_TWICE"))))
    val error = assertThrows<CaptureException> { CaptureClient("http://h", "ses_p", transport, "tok").revealStep() }
    assertEquals(ErrorCode.MALFORMED_RESPONSE, error.code)
    assertTrue(error.message!!.contains("update"), error.message)
  }

  @Test
  fun `frames are taken 5 a second from the reveal, sent 5 a chunk as captured, and the step completed after its hold, before its deadline`() {
    val server = FakePacedServer(clock, mutableListOf(stepJson("stp_1", 0, holdMs = 1_000)), mutableListOf("selfie"))
    val camera = NumberedFrames()

    val done = PacedLivenessDriver(CaptureClient("http://h", "ses_p", server, "tok"), camera, clock = clock.read, sleep = clock.sleep).run()

    assertEquals(PacedNext.SELFIE, done.next)
    val timestamps = server.chunks.flatMap { it.timestamps }
    // 4 000 ms of window (3 000 to move + 1 000 held) at a frame every 200 ms, from 0 ms.
    assertEquals(21, timestamps.size)
    assertEquals(0L, timestamps.first())
    assertTrue(timestamps.last() in 3_800L..4_000L, "last frame at ${timestamps.last()}")
    assertTrue(timestamps.zipWithNext().all { (a, b) -> b > a && b - a <= 600 }, "increasing, no gap over 600 ms: $timestamps")
    assertEquals(listOf(5, 5, 5, 5, 1), server.chunks.map { it.frames })
    for (chunk in server.chunks) {
      assertTrue(chunk.timestamps.all { it <= chunk.arrivedMs + 150 && it >= chunk.arrivedMs - 2_500 }, "sent as captured: ${chunk.timestamps} at ${chunk.arrivedMs}")
    }
    assertTrue(server.completedAtMs.single() in 4_000L..(5_500L - 1_000L), "completed at ${server.completedAtMs}")
    assertEquals(listOf("stp_1:HOLD_POSE"), camera.shown)
    assertEquals(1, camera.finished)
  }

  @Test
  fun `the driver reveals the next step when told, starts a new challenge on restart, and stops at the selfie`() {
    val steps = mutableListOf(stepJson("stp_1", 0), stepJson("stp_2", 1), stepJson("stp_3", 0, attemptsLeft = 1), stepJson("stp_4", 1, attemptsLeft = 1), stepJson("stp_5", 2, attemptsLeft = 1), stepJson("stp_6", 3, attemptsLeft = 1))
    val server = FakePacedServer(clock, steps, mutableListOf("step", "restart", "step", "step", "step", "selfie"))
    val camera = NumberedFrames()
    val completed = ArrayList<String>()

    PacedLivenessDriver(CaptureClient("http://h", "ses_p", server, "tok"), camera, clock = clock.read, sleep = clock.sleep) { step, done -> completed.add("${step.stepId}->${done.next}") }.run()

    assertEquals(listOf("stp_1->STEP", "stp_2->RESTART", "stp_3->STEP", "stp_4->STEP", "stp_5->STEP", "stp_6->SELFIE"), completed)
    assertEquals(listOf("stp_1", "stp_2", "stp_3", "stp_4", "stp_5", "stp_6"), server.chunks.map { it.stepId }.distinct())
    assertEquals("stp_5:OPEN_MOUTH", camera.shown[4])
    // Each step's frames carry its own camera bytes and restart from 0 ms at its reveal.
    assertTrue(server.chunks.groupBy { it.stepId }.values.all { it.first().timestamps.first() == 0L })
    assertEquals(6, server.calls.count { it == "POST /liveness/steps" })
    assertEquals(1, camera.finished)
  }

  @Test
  fun `tighter limits from the server are kept, frames spaced to fit the step's bound, chunks within their size and count`() {
    val limits = """{"max_frames_per_chunk":4,"max_frames_per_step":12,"max_chunks_per_step":3,"max_frame_age_ms":2500,"max_frame_gap_ms":600}"""
    val server = FakePacedServer(clock, mutableListOf(stepJson("stp_1", 0, holdMs = 1_400, limits = limits)), mutableListOf("selfie"))

    PacedLivenessDriver(CaptureClient("http://h", "ses_p", server, "tok"), NumberedFrames(), clock = clock.read, sleep = clock.sleep).run()

    val timestamps = server.chunks.flatMap { it.timestamps }
    assertTrue(server.chunks.size <= 3, "${server.chunks.size} chunks")
    assertTrue(server.chunks.all { it.frames <= 4 })
    assertTrue(timestamps.size in 10..12, "${timestamps.size} frames")
    // 4 400 ms over 11 gaps: a frame every 400 ms, still under the 600 ms the server reads as a cut.
    assertTrue(timestamps.zipWithNext().all { (a, b) -> b - a in 400..600 }, "$timestamps")
    assertTrue(timestamps.last() >= 4_000, "the window is covered to its end: ${timestamps.last()}")
  }

  @Test
  fun `a slow camera drops frames rather than bursting them, and a frame it could not give is skipped`() {
    val server = FakePacedServer(clock, mutableListOf(stepJson("stp_1", 0)), mutableListOf("selfie"))
    val slow =
      object : PacedFrameSource {
        var asked = 0

        override fun frame(step: PacedStep, elapsedMs: Long): ByteArray? {
          asked++
          clock.now += 330
          return if (asked == 3) null else byteArrayOf(asked.toByte())
        }
      }

    PacedLivenessDriver(CaptureClient("http://h", "ses_p", server, "tok"), slow, clock = clock.read, sleep = clock.sleep).run()

    val timestamps = server.chunks.flatMap { it.timestamps }
    assertEquals(slow.asked - 1, timestamps.size)
    assertTrue(timestamps.zipWithNext().all { (a, b) -> b - a >= 100 }, "no burst of frames: $timestamps")
    for (chunk in server.chunks) assertTrue(chunk.timestamps.all { it >= chunk.arrivedMs - 2_500 }, "frames sent within the max_frame_age_ms: ${chunk.timestamps} at ${chunk.arrivedMs}")
  }

  @Test
  fun `a production session's liveness goes through the paced routes, then the selfie, and the flow tells each step`() {
    val paced = START.replace("\"locale\":\"fr\"", "\"locale\":\"fr\",\"liveness_mode\":\"paced\"")
    val scripted = ArrayList<HttpResponse>()
    scripted.add(json(200, paced))
    scripted.add(json(200, """{"side":"front","readable":true,"reason":null,"retake":false,"attempts_left":2,"next":"liveness"}"""))
    val server = FakePacedServer(clock, mutableListOf(stepJson("stp_1", 0), stepJson("stp_2", 2)), mutableListOf("step", "selfie"))
    val tail = mutableListOf(
      json(200, """{"face_found":true,"retake":false,"reason":null,"attempts_left":2}"""),
      json(202, """{"status":"IN_PROGRESS","decision":"pending"}"""),
      json(200, """{"status":"VERIFIED","decision":"done","redirect_url":"https://example.com/done"}"""),
    )
    val transport =
      HttpTransport { request ->
        when {
          request.url.contains("/liveness/") -> server.execute(request)
          scripted.isNotEmpty() -> scripted.removeAt(0)
          else -> tail.removeAt(0)
        }
      }
    val source =
      object : CaptureSource {
        val camera = NumberedFrames()

        override fun documentType(offered: List<DocumentType>) = DocumentType.PASSPORT

        override fun document(side: DocumentSide, type: DocumentType, retakeReason: String?) = Capture(byteArrayOf(1))

        override fun liveness(plan: LivenessPlan, retakeReason: String?): List<TimedFrame> = error("a paced session has no one-shot upload")

        override fun pacedFrames(): PacedFrameSource = camera

        override fun selfie(retakeReason: String?) = Capture(byteArrayOf(2))
      }
    val told = ArrayList<String>()
    val listener =
      object : VerificationListener {
        override fun onStep(step: CaptureStep, retakeReason: String?, attemptsLeft: Int) {
          told.add(step.name)
        }

        override fun onPacedStep(step: PacedStep, done: PacedStepDone) {
          told.add("${step.stepId}->${done.next}")
        }
      }

    val status = VerificationRunner(CaptureClient("http://h", "ses_p", transport), source, listener, clock = clock.read, sleep = clock.sleep).run()

    assertEquals("VERIFIED", status.status)
    assertEquals(listOf("DOCUMENT_FRONT", "LIVENESS", "stp_1->STEP", "stp_2->SELFIE", "SELFIE", "SUBMIT", "DECISION", "DONE"), told)
    assertEquals(listOf("stp_1:HOLD_POSE", "stp_2:OPEN_MOUTH"), source.camera.shown)
  }

  @Test
  fun `a paced session with a capture source that cannot follow it fails with CONFLICT rather than uploading one-shot`() {
    val paced = START.replace("\"locale\":\"fr\"", "\"locale\":\"fr\",\"liveness_mode\":\"paced\"")
    val transport =
      ScriptedTransport(mutableListOf(json(200, paced), json(200, """{"side":"front","readable":true,"reason":null,"retake":false,"attempts_left":2,"next":"liveness"}""")))
    val source =
      object : CaptureSource {
        override fun documentType(offered: List<DocumentType>) = DocumentType.PASSPORT

        override fun document(side: DocumentSide, type: DocumentType, retakeReason: String?) = Capture(byteArrayOf(1))

        override fun liveness(plan: LivenessPlan, retakeReason: String?): List<TimedFrame> = error("not called")

        override fun selfie(retakeReason: String?) = Capture(byteArrayOf(2))
      }

    val error = assertThrows<CaptureException> { VerificationRunner(CaptureClient("http://h", "ses_p", transport), source).run() }

    assertEquals(ErrorCode.CONFLICT, error.code)
    assertEquals(2, transport.requests.size)
  }
}
