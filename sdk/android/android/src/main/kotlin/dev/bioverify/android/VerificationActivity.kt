package dev.bioverify.android

import android.app.Activity
import android.content.Context
import android.graphics.SurfaceTexture
import android.hardware.camera2.CameraManager
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import android.view.Gravity
import android.view.Surface
import android.view.TextureView
import android.widget.Button
import android.widget.LinearLayout
import android.widget.TextView
import dev.bioverify.capture.Capture
import dev.bioverify.capture.CaptureClient
import dev.bioverify.capture.CaptureException
import dev.bioverify.capture.CaptureSource
import dev.bioverify.capture.IntegritySignals
import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.ChipChallenge
import dev.bioverify.capture.ChipData
import dev.bioverify.capture.DocumentSide
import dev.bioverify.capture.DocumentType
import dev.bioverify.capture.ImageLimits
import dev.bioverify.capture.LivenessPlan
import dev.bioverify.capture.PacedFrameSource
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.TimedFrame
import dev.bioverify.capture.VerificationListener
import dev.bioverify.capture.VerificationRunner
import java.util.concurrent.SynchronousQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference

/**
 * The ready-made flow: one screen that prompts each step in the session's language, shows the
 * camera, and runs [VerificationRunner] on a worker thread. It finishes with a [VerificationResult].
 * Apps that draw their own screens use [CaptureSource], [Camera2FrameSource], [ChipReader] and the
 * core's [dev.bioverify.capture.CaptureFlow] directly.
 */
class VerificationActivity : Activity(), CaptureSource, VerificationListener {
  private val main = Handler(Looper.getMainLooper())
  private var strings = FlowStrings.forLocale(null)
  private lateinit var prompt: TextView
  private lateinit var preview: TextureView
  private lateinit var action: Button
  private lateinit var camera: Camera2FrameSource
  private val latestFrame = AtomicReference<ByteArray?>()
  private val taps = SynchronousQueue<Boolean>()
  private lateinit var sessionId: String

  override fun onCreate(savedInstanceState: Bundle?) {
    super.onCreate(savedInstanceState)
    sessionId = intent.getStringExtra(VerificationResult.EXTRA_SESSION_ID) ?: return finish()
    val baseUrl = intent.getStringExtra(BioverifyVerification.EXTRA_BASE_URL) ?: return finish()
    strings = FlowStrings.forLocale(resources.configuration.locales[0].language)
    prompt = TextView(this).apply { gravity = Gravity.CENTER; textSize = 20f }
    preview = TextureView(this)
    action = Button(this).apply { text = strings["action.capture"]; setOnClickListener { taps.offer(true) } }
    setContentView(
      LinearLayout(this).apply {
        orientation = LinearLayout.VERTICAL
        addView(prompt, LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT))
        addView(preview, LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, 0, 1f))
        addView(action, LinearLayout.LayoutParams(LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT))
      },
    )
    camera = Camera2FrameSource(getSystemService(Context.CAMERA_SERVICE) as CameraManager)
    val readChip = intent.getBooleanExtra(BioverifyVerification.EXTRA_READ_CHIP, true) && DeviceReadiness.of(this).canReadChip
    Thread {
      val result =
        try {
          val status = VerificationRunner(CaptureClient(baseUrl, sessionId), this, this, readChip = readChip).run()
          VerificationResult(sessionId, status.status, status.redirectUrl, null)
        } catch (e: CaptureException) {
          VerificationResult(sessionId, null, null, e.code.name)
        } catch (e: InterruptedException) {
          VerificationResult(sessionId, null, null, "CANCELLED")
        }
      main.post {
        setResult(if (result.error == null) RESULT_OK else RESULT_CANCELED, result.toIntent())
        finish()
      }
    }.apply { name = "bioverify-flow" }.start()
  }

  override fun onDestroy() {
    camera.close()
    super.onDestroy()
  }

  override fun onStep(step: CaptureStep, retakeReason: String?, attemptsLeft: Int) {
    main.post { prompt.text = if (retakeReason != null) strings.retake(retakeReason) + "\n" + strings.step(step) else strings.step(step) }
  }

  override fun documentType(offered: List<DocumentType>): DocumentType = if (DocumentType.PASSPORT in offered) DocumentType.PASSPORT else offered.first()

  override fun document(side: DocumentSide, type: DocumentType, retakeReason: String?): Capture = still(Lens.BACK, ImageLimits.DOCUMENT)

  override fun chip(challenge: ChipChallenge): ChipData? {
    // The access key comes from the MRZ; without one handed to the Activity the chip step is skipped.
    val number = intent.getStringExtra(EXTRA_CHIP_DOCUMENT_NUMBER) ?: return null
    val key = ChipAccessKey(number, intent.getStringExtra(EXTRA_CHIP_DATE_OF_BIRTH) ?: return null, intent.getStringExtra(EXTRA_CHIP_DATE_OF_EXPIRY) ?: return null)
    val found = SynchronousQueue<android.nfc.tech.IsoDep>()
    val nfc = NfcChipSession(this) { found.offer(it) }
    if (!nfc.enable()) return null
    try {
      val isoDep = found.poll(60, TimeUnit.SECONDS) ?: return null
      return IsoDepCardService(isoDep).let { card -> try { ChipReader(card).read(key, challenge) } finally { card.close() } }
    } finally {
      main.post { nfc.disable() }
    }
  }

  override fun liveness(plan: LivenessPlan, retakeReason: String?): List<TimedFrame> {
    val frames = ArrayList<TimedFrame>()
    openCamera(Lens.FRONT, ImageLimits.LIVENESS_FRAME) { jpeg, t -> synchronized(frames) { if (t <= plan.durationMs) frames.add(TimedFrame(jpeg, t)) } }
    val start = System.currentTimeMillis()
    while (System.currentTimeMillis() - start < plan.durationMs) {
      plan.stepAt(System.currentTimeMillis() - start)?.let { s -> main.post { prompt.text = strings.challenge(s) } }
      Thread.sleep(100)
    }
    camera.close()
    return synchronized(frames) { ArrayList(frames) }
  }

  /** The front camera for the whole paced challenge: each frame the driver asks for is the newest one, never sent twice. */
  override fun pacedFrames(): PacedFrameSource =
    object : PacedFrameSource {
      private var open = false

      override fun onStep(step: PacedStep) {
        if (!open) {
          latestFrame.set(null)
          openCamera(Lens.FRONT, ImageLimits.LIVENESS_FRAME) { jpeg, _ -> latestFrame.set(jpeg) }
          open = true
        }
        main.post { prompt.text = strings.paced(step) }
      }

      override fun frame(step: PacedStep, elapsedMs: Long): ByteArray? = latestFrame.getAndSet(null)

      override fun onFinished() {
        if (open) camera.close()
        open = false
      }
    }

  override fun selfie(retakeReason: String?): Capture = still(Lens.FRONT, ImageLimits.SELFIE)

  /** Read after the selfie, so the front camera's sensor timestamps are those of the liveness and selfie frames. */
  override fun integritySignals(): IntegritySignals = IntegritySignals.collect(AndroidDeviceFacts(this), camera.faceCameraFacts())

  private fun still(lens: Lens, limits: ImageLimits): Capture {
    openCamera(lens, limits) { jpeg, _ -> latestFrame.set(jpeg) }
    taps.take()
    val jpeg = latestFrame.getAndSet(null)
    camera.close()
    return Capture(jpeg ?: ByteArray(0))
  }

  private fun openCamera(lens: Lens, limits: ImageLimits, onFrame: (ByteArray, Long) -> Unit) {
    val size = dev.bioverify.capture.ImagePreparation.targetSize(1920, 1080, limits)
    val texture: SurfaceTexture? = preview.surfaceTexture
    camera.open(lens, size.width, size.height, texture?.let { Surface(it) }, onFrame = onFrame, onError = { e -> main.post { prompt.text = e } })
  }

  companion object {
    const val EXTRA_CHIP_DOCUMENT_NUMBER = "dev.bioverify.CHIP_DOCUMENT_NUMBER"
    const val EXTRA_CHIP_DATE_OF_BIRTH = "dev.bioverify.CHIP_DATE_OF_BIRTH"
    const val EXTRA_CHIP_DATE_OF_EXPIRY = "dev.bioverify.CHIP_DATE_OF_EXPIRY"
  }
}
