package dev.bioverify.android

import android.content.Context
import android.os.Build
import android.os.Debug
import dev.bioverify.capture.DeviceFacts
import java.io.File

/** What the build properties of an emulator (or a JVM simulating Android, as Robolectric does) say. */
data class BuildProperties(
  val fingerprint: String,
  val model: String,
  val manufacturer: String,
  val brand: String,
  val device: String,
  val product: String,
  val hardware: String,
  val tags: String,
) {
  /** The Android emulator (goldfish, ranchu, sdk_gphone), Genymotion, and Robolectric's own values. */
  fun looksLikeEmulator(): Boolean {
    val all = listOf(fingerprint, model, manufacturer, brand, device, product, hardware).map { it.lowercase() }
    return fingerprint.startsWith("generic") || fingerprint.startsWith("unknown") ||
      hardware in setOf("goldfish", "ranchu", "vbox86", "robolectric") ||
      all.any { p -> EMULATOR_WORDS.any { p.contains(it) } } ||
      (brand.startsWith("generic") && device.startsWith("generic"))
  }

  companion object {
    private val EMULATOR_WORDS = listOf("emulator", "android sdk built for", "sdk_gphone", "google_sdk", "genymotion", "vbox86p", "robolectric")

    fun current() = BuildProperties(
      Build.FINGERPRINT.orEmpty(), Build.MODEL.orEmpty(), Build.MANUFACTURER.orEmpty(), Build.BRAND.orEmpty(),
      Build.DEVICE.orEmpty(), Build.PRODUCT.orEmpty(), Build.HARDWARE.orEmpty(), Build.TAGS.orEmpty(),
    )
  }
}

/**
 * The device facts of [dev.bioverify.capture.IntegritySignals], read from Build, Debug, the file
 * system and this process's memory map. Each is a heuristic an app can be patched to defeat: the
 * server treats them as claims (docs/capture-integrity.md). No serial, IMEI or advertising id is read.
 */
class AndroidDeviceFacts(
  private val context: Context,
  private val build: () -> BuildProperties = BuildProperties::current,
  private val fileExists: (String) -> Boolean = { File(it).exists() },
  private val memoryMap: () -> String = { File("/proc/self/maps").readText() },
) : DeviceFacts {
  override fun emulator(): Boolean = build().looksLikeEmulator()

  override fun debuggerAttached(): Boolean = Debug.isDebuggerConnected() || Debug.waitingForDebugger()

  /** An `su` binary or Magisk where only a rooted system has them, or a build signed with test keys. */
  override fun rootedOrJailbroken(): Boolean = ROOT_PATHS.any(fileExists) || build().tags.contains("test-keys")

  /** Frida, Xposed (LSPosed) or Substrate mapped into this process, or Xposed's bridge on the class path. */
  override fun hookingFramework(): Boolean {
    val maps = memoryMap().lowercase()
    if (HOOK_LIBRARIES.any { maps.contains(it) }) return true
    return try {
      Class.forName("de.robv.android.xposed.XposedBridge", false, context.classLoader)
      true
    } catch (e: ClassNotFoundException) {
      false
    }
  }

  override val appId: String? get() = context.packageName

  override val osVersion: String? get() = Build.VERSION.RELEASE

  companion object {
    private val ROOT_PATHS =
      listOf("/system/bin/su", "/system/xbin/su", "/sbin/su", "/su/bin/su", "/system/sbin/su", "/vendor/bin/su", "/data/local/xbin/su", "/data/local/bin/su", "/data/adb/magisk", "/sbin/.magisk")
    private val HOOK_LIBRARIES = listOf("frida", "gum-js-loop", "xposed", "lsposed", "substrate")
  }
}
