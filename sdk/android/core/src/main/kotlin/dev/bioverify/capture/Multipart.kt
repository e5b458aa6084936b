package dev.bioverify.capture

import java.io.ByteArrayOutputStream
import java.security.SecureRandom

/** One part of a `multipart/form-data` body. */
class Part(val name: String, val body: ByteArray, val contentType: String? = null, val filename: String? = null)

/**
 * `multipart/form-data` framing (RFC 7578) as the liveness upload needs it: CRLF line ends, a
 * random boundary that no part contains, `Content-Disposition` with the name and optional file name.
 */
class Multipart(val parts: List<Part>, val boundary: String = randomBoundary()) {
  init {
    require(boundary.isNotEmpty() && boundary.length <= 70) { "a boundary is 1 to 70 characters" }
    val marker = "--$boundary".toByteArray(Charsets.US_ASCII)
    require(parts.none { contains(it.body, marker) }) { "a part contains the boundary" }
  }

  val contentType: String
    get() = "multipart/form-data; boundary=$boundary"

  fun encode(): ByteArray {
    val out = ByteArrayOutputStream()
    fun line(s: String) = out.write((s + "\r\n").toByteArray(Charsets.UTF_8))
    for (part in parts) {
      line("--$boundary")
      val filename = part.filename?.let { "; filename=\"${escape(it)}\"" } ?: ""
      line("Content-Disposition: form-data; name=\"${escape(part.name)}\"$filename")
      if (part.contentType != null) line("Content-Type: ${part.contentType}")
      line("")
      out.write(part.body)
      line("")
    }
    line("--$boundary--")
    return out.toByteArray()
  }

  companion object {
    private val random = SecureRandom()
    private const val ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    fun randomBoundary(): String =
      "bioverify-" + (1..24).map { ALPHABET[random.nextInt(ALPHABET.length)] }.joinToString("")

    private fun escape(s: String) = s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "").replace("\n", "")

    private fun contains(haystack: ByteArray, needle: ByteArray): Boolean {
      outer@ for (i in 0..haystack.size - needle.size) {
        for (j in needle.indices) if (haystack[i + j] != needle[j]) continue@outer
        return true
      }
      return false
    }
  }
}
