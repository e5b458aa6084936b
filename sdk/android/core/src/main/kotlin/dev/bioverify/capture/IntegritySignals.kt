package dev.bioverify.capture

/**
 * The device facts a platform adapter reads (on Android: Build, Debug, the file system, the loaded
 * libraries). Each answers null when it cannot tell. Nothing here may identify the applicant: no
 * serial, no IMEI, no advertising id.
 */
interface DeviceFacts {
  fun emulator(): Boolean?

  fun debuggerAttached(): Boolean?

  fun rootedOrJailbroken(): Boolean?

  fun hookingFramework(): Boolean?

  /** The integrating app's package name. */
  val appId: String?

  val osVersion: String?
}

/** Where the face camera faces (Camera2 LENS_FACING); [EXTERNAL] is a USB camera. */
enum class CameraPosition(val wire: String) { FRONT("front"), BACK("back"), EXTERNAL("external"), UNKNOWN("unknown") }

/** The face camera as the camera stack describes it, and the sensor's own timestamps of its frames. */
interface CameraFacts {
  val position: CameraPosition

  /** Camera2's INFO_SUPPORTED_HARDWARE_LEVEL (`legacy`, `limited`, `full`, `level_3`, `external`). */
  val deviceType: String?

  /** Whether the platform says the camera is no physical sensor of this device (Camera2 cannot say: null). */
  val virtual: Boolean?

  /** SENSOR_TIMESTAMP of the frames seen, in ns, in arrival order. */
  fun sensorTimestampsNs(): List<Long>
}

/** Frame delivery as the sensor's own timestamps measured it. */
data class SensorFrameTiming(val frames: Int, val medianIntervalMs: Double?, val jitterMs: Double?) {
  companion object {
    /** Median interval and standard deviation of the intervals, in ms rounded to 0.01. */
    fun of(timestampsNs: List<Long>): SensorFrameTiming {
      val intervals = timestampsNs.zipWithNext { a, b -> (b - a) / 1_000_000.0 }.filter { it >= 0 }
      if (intervals.isEmpty()) return SensorFrameTiming(timestampsNs.size, null, null)
      val sorted = intervals.sorted()
      val median = if (sorted.size % 2 == 1) sorted[sorted.size / 2] else (sorted[sorted.size / 2 - 1] + sorted[sorted.size / 2]) / 2
      val mean = intervals.average()
      val jitter = Math.sqrt(intervals.sumOf { (it - mean) * (it - mean) } / intervals.size)
      return SensorFrameTiming(timestampsNs.size, round2(median), round2(jitter))
    }

    private fun round2(v: Double) = Math.round(v * 100) / 100.0
  }
}

/**
 * What the SDK tells the server about its device and face camera (`PUT /v1/capture/{id}/integrity`,
 * client `android`; docs/capture-integrity.md). These are the app's own claims: on a rooted phone a
 * patched app can answer anything. Platform attestation (Play Integrity) would back them; it needs
 * Google's servers and is not sent yet.
 */
class IntegritySignals(
  val emulator: Boolean?,
  val debuggerAttached: Boolean?,
  val rootedOrJailbroken: Boolean?,
  val hookingFramework: Boolean?,
  val appId: String?,
  val osVersion: String?,
  val sdkVersion: String,
  val camera: CameraFacts?,
  val timing: SensorFrameTiming?,
) {
  /** The route's body: the web members null (a native app has no label, webdriver or WebGL), then the native block. */
  fun toJson(): String {
    val device =
      linkedMapOf(
        "emulator" to emulator,
        "debugger_attached" to debuggerAttached,
        "rooted_or_jailbroken" to rootedOrJailbroken,
        "hooking_framework" to hookingFramework,
        "app_id" to appId?.take(128),
        "os_version" to osVersion?.take(32),
        "sdk_version" to sdkVersion.take(32),
      )
    val cameraJson =
      camera?.let {
        linkedMapOf(
          "position" to it.position.wire,
          "device_type" to it.deviceType?.take(64),
          "virtual" to it.virtual,
          "frame_timing" to
            timing?.let { t ->
              linkedMapOf("source" to "sensor_timestamp", "frames" to t.frames, "median_interval_ms" to t.medianIntervalMs, "jitter_ms" to t.jitterMs)
            },
        )
      }
    return Json.write(
      linkedMapOf(
        "client" to "android",
        "camera_label" to null,
        "webdriver" to null,
        "renderer" to null,
        "constraint_probe" to null,
        "frame_timing" to null,
        "native" to linkedMapOf("device" to device, "camera" to cameraJson),
      ),
    )
  }

  companion object {
    const val SDK_VERSION = "0.1.0"

    /** Reads the facts once; a fact whose probe throws is unknown (null), never a guess. */
    fun collect(device: DeviceFacts, camera: CameraFacts?, sdkVersion: String = SDK_VERSION): IntegritySignals {
      fun fact(read: () -> Boolean?): Boolean? = try { read() } catch (e: RuntimeException) { null }
      return IntegritySignals(
        emulator = fact(device::emulator),
        debuggerAttached = fact(device::debuggerAttached),
        rootedOrJailbroken = fact(device::rootedOrJailbroken),
        hookingFramework = fact(device::hookingFramework),
        appId = device.appId,
        osVersion = device.osVersion,
        sdkVersion = sdkVersion,
        camera = camera,
        timing = camera?.let { SensorFrameTiming.of(it.sensorTimestampsNs()) },
      )
    }
  }
}
