package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Platform facts as a test states them, so the JSON the core builds from them is exact. */
private class StatedDevice(
  private val emulator: Boolean?,
  private val debugger: Boolean? = false,
  private val rooted: Boolean? = false,
  private val hooking: Boolean? = false,
  override val appId: String? = "com.example.bank",
  override val osVersion: String? = "14",
) : DeviceFacts {
  override fun emulator() = emulator

  override fun debuggerAttached() = debugger

  override fun rootedOrJailbroken() = rooted

  override fun hookingFramework() = hooking
}

private class StatedCamera(private val timestampsNs: List<Long>) : CameraFacts {
  override val position = CameraPosition.FRONT
  override val deviceType = "full"
  override val virtual: Boolean? = null

  override fun sensorTimestampsNs() = timestampsNs
}

class IntegritySignalsTest {
  @Test
  fun `the device and camera facts become the route's body, web members null and the native block exact`() {
    val ns = listOf(0L, 33_000_000L, 66_500_000L, 100_000_000L)
    val json = IntegritySignals.collect(StatedDevice(emulator = true), StatedCamera(ns)).toJson()
    assertEquals(
      """{"client":"android","camera_label":null,"webdriver":null,"renderer":null,"constraint_probe":null,"frame_timing":null,""" +
        """"native":{"device":{"emulator":true,"debugger_attached":false,"rooted_or_jailbroken":false,"hooking_framework":false,""" +
        """"app_id":"com.example.bank","os_version":"14","sdk_version":"0.1.0"},""" +
        """"camera":{"position":"front","device_type":"full","virtual":null,""" +
        """"frame_timing":{"source":"sensor_timestamp","frames":4,"median_interval_ms":33.5,"jitter_ms":0.24}}}}""",
      json,
    )
  }

  @Test
  fun `a fact whose probe throws is sent as unknown, and no camera sends a null camera`() {
    val throwing =
      object : DeviceFacts by StatedDevice(emulator = false) {
        override fun rootedOrJailbroken(): Boolean? = throw SecurityException("no access to /system")
      }
    val body = JsonObject.parse(IntegritySignals.collect(throwing, null).toJson())
    val native = body.obj("native")
    assertEquals(null, native.obj("device").map["rooted_or_jailbroken"])
    assertEquals(false, native.obj("device").boolean("emulator"))
    assertTrue(native.has("camera") && native.map["camera"] == null)
  }

  @Test
  fun `sensor timing is the median interval and the standard deviation, even intervals giving zero jitter`() {
    assertEquals(SensorFrameTiming(5, 33.33, 0.0), SensorFrameTiming.of((0..4).map { it * 33_330_000L }))
    assertEquals(SensorFrameTiming(1, null, null), SensorFrameTiming.of(listOf(5L)))
    assertEquals(SensorFrameTiming(0, null, null), SensorFrameTiming.of(emptyList()))
  }

  @Test
  fun `the client PUTs the signals as JSON with the capture token and reads the receipt`() {
    val transport = ScriptedTransport(mutableListOf(json(200, """{"recorded":true}""")))
    val client = CaptureClient("http://h", "ses_9", transport, "tok")
    assertTrue(client.integrity(IntegritySignals.collect(StatedDevice(emulator = false), null)))
    assertEquals("PUT", transport.requests[0].method)
    assertEquals("http://h/v1/capture/ses_9/integrity", transport.requests[0].url)
    assertEquals("application/json", transport.requests[0].headers["Content-Type"])
    assertEquals("Bearer tok", transport.requests[0].headers["Authorization"])
  }
}
