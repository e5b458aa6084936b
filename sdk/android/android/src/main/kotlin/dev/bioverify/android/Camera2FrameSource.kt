package dev.bioverify.android

import android.annotation.SuppressLint
import android.graphics.ImageFormat
import android.graphics.Rect
import android.graphics.YuvImage
import android.hardware.camera2.CameraCaptureSession
import android.hardware.camera2.CameraCharacteristics
import android.hardware.camera2.CameraDevice
import android.hardware.camera2.CameraManager
import android.hardware.camera2.CaptureRequest
import android.media.ImageReader
import android.os.Handler
import android.os.HandlerThread
import android.view.Surface
import dev.bioverify.capture.CameraFacts
import dev.bioverify.capture.CameraPosition
import java.io.ByteArrayOutputStream

enum class Lens { BACK, FRONT }

/**
 * Frames from camera2 (CameraX is not on Maven Central, and the framework's camera2 needs no extra
 * dependency): the back camera for the document, the front one for the challenge and the selfie. Each
 * frame arrives as a JPEG with its time since [open], for [dev.bioverify.capture.FrameSelection].
 */
class Camera2FrameSource(private val manager: CameraManager) {
  private var thread: HandlerThread? = null
  private val frontTimestampsNs = java.util.concurrent.ConcurrentLinkedDeque<Long>()
  private var device: CameraDevice? = null
  private var session: CameraCaptureSession? = null
  private var reader: ImageReader? = null

  /** The id of the first camera facing [lens], or null when the device has none. */
  fun cameraFor(lens: Lens): String? {
    val facing = if (lens == Lens.BACK) CameraCharacteristics.LENS_FACING_BACK else CameraCharacteristics.LENS_FACING_FRONT
    return manager.cameraIdList.firstOrNull { manager.getCameraCharacteristics(it).get(CameraCharacteristics.LENS_FACING) == facing }
  }

  /**
   * Opens the camera facing [lens] and streams YUV frames of about [width] x [height], each handed to
   * [onFrame] as a JPEG with its timestamp in ms since the stream started. [preview] is the surface the
   * applicant sees, if any. Needs the CAMERA permission (checked by [DeviceReadiness]).
   */
  @SuppressLint("MissingPermission")
  fun open(lens: Lens, width: Int, height: Int, preview: Surface?, quality: Int = 85, onFrame: (jpeg: ByteArray, timestampMs: Long) -> Unit, onError: (String) -> Unit) {
    val id = cameraFor(lens) ?: return onError("no ${lens.name.lowercase()} camera")
    val worker = HandlerThread("bioverify-camera").also { it.start() }
    thread = worker
    val handler = Handler(worker.looper)
    val images = ImageReader.newInstance(width, height, ImageFormat.YUV_420_888, 3)
    reader = images
    var startNs = -1L
    images.setOnImageAvailableListener({ r ->
      val image = r.acquireLatestImage() ?: return@setOnImageAvailableListener
      try {
        if (startNs < 0) startNs = image.timestamp
        // An ImageReader's image carries the capture's SENSOR_TIMESTAMP: the sensor's clock, not the app's.
        if (lens == Lens.FRONT) recordFront(image.timestamp)
        onFrame(toJpeg(image, quality), (image.timestamp - startNs) / 1_000_000)
      } finally {
        image.close()
      }
    }, handler)
    manager.openCamera(
      id,
      object : CameraDevice.StateCallback() {
        override fun onOpened(camera: CameraDevice) {
          device = camera
          val targets = listOfNotNull(images.surface, preview)
          @Suppress("DEPRECATION")
          camera.createCaptureSession(
            targets,
            object : CameraCaptureSession.StateCallback() {
              override fun onConfigured(s: CameraCaptureSession) {
                session = s
                val request = camera.createCaptureRequest(CameraDevice.TEMPLATE_PREVIEW)
                targets.forEach { request.addTarget(it) }
                request.set(CaptureRequest.CONTROL_AF_MODE, CaptureRequest.CONTROL_AF_MODE_CONTINUOUS_PICTURE)
                s.setRepeatingRequest(request.build(), null, handler)
              }

              override fun onConfigureFailed(s: CameraCaptureSession) = onError("the camera refused the session")
            },
            handler,
          )
        }

        override fun onDisconnected(camera: CameraDevice) = close()

        override fun onError(camera: CameraDevice, error: Int) = onError("camera error $error")
      },
      handler,
    )
  }

  private fun recordFront(timestampNs: Long) {
    frontTimestampsNs.addLast(timestampNs)
    while (frontTimestampsNs.size > MAX_TIMESTAMPS) frontTimestampsNs.pollFirst()
  }

  /** The face camera as Camera2 describes it, with the sensor timestamps of its latest frames; null without one. */
  fun faceCameraFacts(): CameraFacts? {
    val id = cameraFor(Lens.FRONT) ?: return null
    val characteristics = manager.getCameraCharacteristics(id)
    val position =
      when (characteristics.get(CameraCharacteristics.LENS_FACING)) {
        CameraCharacteristics.LENS_FACING_FRONT -> CameraPosition.FRONT
        CameraCharacteristics.LENS_FACING_BACK -> CameraPosition.BACK
        CameraCharacteristics.LENS_FACING_EXTERNAL -> CameraPosition.EXTERNAL
        else -> CameraPosition.UNKNOWN
      }
    val level = characteristics.get(CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL)?.let { HARDWARE_LEVELS[it] }
    val timestamps = frontTimestampsNs.toList()
    return object : CameraFacts {
      override val position = position
      override val deviceType = level
      // Camera2 marks no camera as virtual; a USB capture card shows as LENS_FACING_EXTERNAL instead.
      override val virtual: Boolean? = null

      override fun sensorTimestampsNs() = timestamps
    }
  }

  fun close() {
    session?.close()
    device?.close()
    reader?.close()
    thread?.quitSafely()
    session = null
    device = null
    reader = null
    thread = null
  }

  companion object {
    private const val MAX_TIMESTAMPS = 120
    private val HARDWARE_LEVELS =
      mapOf(
        CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL_LEGACY to "legacy",
        CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL_LIMITED to "limited",
        CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL_FULL to "full",
        CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL_3 to "level_3",
        CameraCharacteristics.INFO_SUPPORTED_HARDWARE_LEVEL_EXTERNAL to "external",
      )

    /** YUV_420_888 to JPEG through NV21 and the framework's [YuvImage]. */
    fun toJpeg(image: android.media.Image, quality: Int): ByteArray {
      val nv21 = nv21Of(image)
      val out = ByteArrayOutputStream()
      YuvImage(nv21, ImageFormat.NV21, image.width, image.height, null).compressToJpeg(Rect(0, 0, image.width, image.height), quality, out)
      return out.toByteArray()
    }

    private fun nv21Of(image: android.media.Image): ByteArray {
      val w = image.width
      val h = image.height
      val out = ByteArray(w * h * 3 / 2)
      val y = image.planes[0]
      var pos = 0
      for (row in 0 until h) {
        // Through Buffer: ByteBuffer.position(int) exists only from Java 9, absent on Android 24.
        (y.buffer as java.nio.Buffer).position(row * y.rowStride)
        y.buffer.get(out, pos, w)
        pos += w
      }
      val u = image.planes[1]
      val v = image.planes[2]
      for (row in 0 until h / 2) {
        for (col in 0 until w / 2) {
          out[pos++] = v.buffer.get(row * v.rowStride + col * v.pixelStride)
          out[pos++] = u.buffer.get(row * u.rowStride + col * u.pixelStride)
        }
      }
      return out
    }
  }
}
