package dev.bioverify.android

import android.Manifest
import android.content.Context
import android.content.pm.PackageManager
import android.nfc.NfcAdapter

enum class NfcState { ABSENT, OFF, ON }

/** What the device offers the flow: the camera permission and hardware, and NFC for the chip. */
data class DeviceReadiness(val hasCamera: Boolean, val cameraPermitted: Boolean, val nfc: NfcState) {
  /** The native flow needs a camera it may use; otherwise the app asks for the permission or falls back to the WebView. */
  val canCapture: Boolean
    get() = hasCamera && cameraPermitted

  /** The chip step runs only with NFC on; with NFC off the app may send the applicant to the settings. */
  val canReadChip: Boolean
    get() = nfc == NfcState.ON

  companion object {
    fun of(context: Context): DeviceReadiness {
      val pm = context.packageManager
      val hasCamera = pm.hasSystemFeature(PackageManager.FEATURE_CAMERA_ANY)
      val permitted = context.checkSelfPermission(Manifest.permission.CAMERA) == PackageManager.PERMISSION_GRANTED
      val nfc =
        if (!pm.hasSystemFeature(PackageManager.FEATURE_NFC)) {
          NfcState.ABSENT
        } else {
          when (NfcAdapter.getDefaultAdapter(context)?.isEnabled) {
            null -> NfcState.ABSENT
            true -> NfcState.ON
            false -> NfcState.OFF
          }
        }
      return DeviceReadiness(hasCamera, permitted, nfc)
    }
  }
}
