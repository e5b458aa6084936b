package dev.bioverify.android

import android.app.Application
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.shadows.ShadowBuild

@RunWith(RobolectricTestRunner::class)
class AndroidDeviceFactsTest {
  private val app: Application = RuntimeEnvironment.getApplication()
  private val pixel = BuildProperties("google/husky/husky:14/UQ1A.240205.004/11269751:user/release-keys", "Pixel 8 Pro", "Google", "google", "husky", "husky", "husky", "release-keys")

  @Test
  fun `Robolectric's own Build values read as an emulator, as no phone's hardware is robolectric`() {
    assertEquals("robolectric", android.os.Build.HARDWARE)
    assertTrue(AndroidDeviceFacts(app).emulator())
  }

  @Test
  fun `the Android emulator's Build values read as an emulator, set through Robolectric's ShadowBuild`() {
    ShadowBuild.setFingerprint("google/sdk_gphone64_x86_64/emu64xa:14/UE1A.230829.036/10841539:userdebug/dev-keys")
    ShadowBuild.setHardware("ranchu")
    ShadowBuild.setModel("sdk_gphone64_x86_64")
    assertTrue(AndroidDeviceFacts(app).emulator())
  }

  @Test
  fun `a Pixel's Build values do not`() {
    assertFalse(AndroidDeviceFacts(app, build = { pixel }).emulator())
  }

  @Test
  fun `an su binary or test keys read as rooted, a clean system does not`() {
    assertFalse(AndroidDeviceFacts(app, build = { pixel }, fileExists = { false }).rootedOrJailbroken())
    assertTrue(AndroidDeviceFacts(app, build = { pixel }, fileExists = { it == "/system/xbin/su" }).rootedOrJailbroken())
    assertTrue(AndroidDeviceFacts(app, build = { pixel.copy(tags = "test-keys") }, fileExists = { false }).rootedOrJailbroken())
  }

  @Test
  fun `frida's agent in the memory map reads as a hooking framework, and this JVM's own map does not`() {
    val frida = "7a1c000000-7a1c100000 r-xp 00000000 fd:05 123 /data/local/tmp/re.frida.server/frida-agent-64.so\n"
    assertTrue(AndroidDeviceFacts(app, memoryMap = { frida }).hookingFramework())
    assertFalse(AndroidDeviceFacts(app).hookingFramework())
  }

  @Test
  fun `no debugger is attached under test, and the app id is the package name`() {
    assertFalse(AndroidDeviceFacts(app).debuggerAttached())
    assertEquals(app.packageName, AndroidDeviceFacts(app).appId)
  }
}
