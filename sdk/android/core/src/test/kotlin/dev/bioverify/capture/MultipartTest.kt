package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class MultipartTest {
  @Test
  fun `frames and timestamps are framed with CRLF, names, file names and a closing boundary`() {
    val body = Multipart(listOf(Part("frame", "AB".toByteArray(), "image/jpeg", "frame.jpg"), Part("timestamps", "[0,150]".toByteArray())), "XyZ").encode()
    assertEquals(
      "--XyZ\r\nContent-Disposition: form-data; name=\"frame\"; filename=\"frame.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nAB\r\n" +
        "--XyZ\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[0,150]\r\n--XyZ--\r\n",
      String(body, Charsets.ISO_8859_1),
    )
  }

  @Test
  fun `a part that contains the boundary is refused rather than sent corrupt`() {
    assertThrows<IllegalArgumentException> { Multipart(listOf(Part("frame", "x--XyZ".toByteArray())), "XyZ") }
  }

  @Test
  fun `random boundaries differ and fit the RFC's 70 characters`() {
    val a = Multipart.randomBoundary()
    assertTrue(a.length <= 70)
    assertTrue(a != Multipart.randomBoundary())
  }
}
