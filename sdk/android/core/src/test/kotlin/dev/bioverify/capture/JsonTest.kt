package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class JsonTest {
  @Test
  fun `reads nested objects, arrays, escapes and numbers, and writes them back the same`() {
    val text = """{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"é\"\\\n\u0041"}}"""
    val parsed = Json.parse(text)
    assertEquals(mapOf("a" to listOf(1L, 2.5, -300.0, true, false, null), "b" to mapOf("c" to "é\"\\\nA")), parsed)
    assertEquals("""{"a":[1,2.5,-300,true,false,null],"b":{"c":"é\"\\\nA"}}""", Json.write(parsed))
  }

  @Test
  fun `refuses truncated or trailing text`() {
    assertThrows<IllegalArgumentException> { Json.parse("""{"a":1""") }
    assertThrows<IllegalArgumentException> { Json.parse("""{} x""") }
  }

  @Test
  fun `base64 round-trips every length and matches the standard alphabet`() {
    assertEquals("+/8=", Base64.encode(byteArrayOf(-5, -1)))
    for (n in 0..10) {
      val bytes = ByteArray(n) { (it * 37 - 100).toByte() }
      assertArrayEquals(bytes, Base64.decode(Base64.encode(bytes)))
      assertEquals(java.util.Base64.getEncoder().encodeToString(bytes), Base64.encode(bytes))
    }
  }
}
