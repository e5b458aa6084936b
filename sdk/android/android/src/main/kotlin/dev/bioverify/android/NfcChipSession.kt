package dev.bioverify.android

import android.app.Activity
import android.nfc.NfcAdapter
import android.nfc.Tag
import android.nfc.tech.IsoDep

/**
 * NFC reader mode for the passport chip: while [enable]d, the Activity in front receives the first
 * ISO-DEP tag held to the phone (NDEF checks and platform sounds off, so the reading is not interrupted).
 */
class NfcChipSession(private val activity: Activity, private val onChip: (IsoDep) -> Unit) : NfcAdapter.ReaderCallback {
  private val adapter: NfcAdapter? = NfcAdapter.getDefaultAdapter(activity)

  fun enable(): Boolean {
    val nfc = adapter ?: return false
    if (!nfc.isEnabled) return false
    nfc.enableReaderMode(activity, this, FLAGS, null)
    return true
  }

  fun disable() {
    adapter?.disableReaderMode(activity)
  }

  override fun onTagDiscovered(tag: Tag) {
    if (tag.techList.contains(IsoDep::class.java.name)) IsoDep.get(tag)?.let(onChip)
  }

  companion object {
    const val FLAGS = NfcAdapter.FLAG_READER_NFC_A or NfcAdapter.FLAG_READER_NFC_B or NfcAdapter.FLAG_READER_SKIP_NDEF_CHECK
  }
}
