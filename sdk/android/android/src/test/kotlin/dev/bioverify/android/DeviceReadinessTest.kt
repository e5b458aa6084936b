package dev.bioverify.android

import android.Manifest
import android.app.Application
import android.content.pm.PackageManager
import android.hardware.camera2.CameraCharacteristics
import android.hardware.camera2.CameraManager
import android.content.Context
import android.nfc.NfcAdapter
import org.robolectric.RuntimeEnvironment
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowCameraCharacteristics

@RunWith(RobolectricTestRunner::class)
class DeviceReadinessTest {
  private val app: Application = RuntimeEnvironment.getApplication()

  @Test
  fun `a device without NFC reports it absent, so the chip step is skipped`() {
    shadowOf(app.packageManager).setSystemFeature(PackageManager.FEATURE_NFC, false)
    assertEquals(NfcState.ABSENT, DeviceReadiness.of(app).nfc)
    assertFalse(DeviceReadiness.of(app).canReadChip)
  }

  @Test
  fun `NFC switched off is told apart from NFC on`() {
    shadowOf(app.packageManager).setSystemFeature(PackageManager.FEATURE_NFC, true)
    val adapter = NfcAdapter.getDefaultAdapter(app)
    shadowOf(adapter).setEnabled(false)
    assertEquals(NfcState.OFF, DeviceReadiness.of(app).nfc)
    shadowOf(adapter).setEnabled(true)
    assertEquals(NfcState.ON, DeviceReadiness.of(app).nfc)
    assertTrue(DeviceReadiness.of(app).canReadChip)
  }

  @Test
  fun `capture needs both a camera and the CAMERA permission`() {
    shadowOf(app.packageManager).setSystemFeature(PackageManager.FEATURE_CAMERA_ANY, true)
    shadowOf(app).denyPermissions(Manifest.permission.CAMERA)
    assertFalse(DeviceReadiness.of(app).canCapture)
    shadowOf(app).grantPermissions(Manifest.permission.CAMERA)
    assertTrue(DeviceReadiness.of(app).canCapture)
    shadowOf(app.packageManager).setSystemFeature(PackageManager.FEATURE_CAMERA_ANY, false)
    assertFalse(DeviceReadiness.of(app).canCapture)
  }

  @Test
  fun `the camera source picks the back camera for the document and the front one for the face`() {
    val manager = app.getSystemService(Context.CAMERA_SERVICE) as CameraManager
    val source = Camera2FrameSource(manager)
    assertNull(source.cameraFor(Lens.BACK))
    shadowOf(manager).addCamera("7", facing(CameraCharacteristics.LENS_FACING_FRONT))
    shadowOf(manager).addCamera("3", facing(CameraCharacteristics.LENS_FACING_BACK))
    assertEquals("3", source.cameraFor(Lens.BACK))
    assertEquals("7", source.cameraFor(Lens.FRONT))
  }

  private fun facing(lens: Int): CameraCharacteristics {
    val characteristics = ShadowCameraCharacteristics.newCameraCharacteristics()
    shadowOf(characteristics).set(CameraCharacteristics.LENS_FACING, lens)
    return characteristics
  }
}
