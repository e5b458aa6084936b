package dev.bioverify.capture

/** Standard base64 with padding; java.util.Base64 arrives only in Android API 26, above the minimum SDK. */
object Base64 {
  private const val ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

  fun encode(data: ByteArray): String {
    val out = StringBuilder((data.size + 2) / 3 * 4)
    var i = 0
    while (i < data.size) {
      val b0 = data[i].toInt() and 0xff
      val b1 = if (i + 1 < data.size) data[i + 1].toInt() and 0xff else 0
      val b2 = if (i + 2 < data.size) data[i + 2].toInt() and 0xff else 0
      out.append(ALPHABET[b0 shr 2])
      out.append(ALPHABET[((b0 and 3) shl 4) or (b1 shr 4)])
      out.append(if (i + 1 < data.size) ALPHABET[((b1 and 15) shl 2) or (b2 shr 6)] else '=')
      out.append(if (i + 2 < data.size) ALPHABET[b2 and 63] else '=')
      i += 3
    }
    return out.toString()
  }

  fun decode(text: String): ByteArray {
    val clean = text.filter { !it.isWhitespace() }.trimEnd('=')
    val out = java.io.ByteArrayOutputStream(clean.length * 3 / 4)
    var buffer = 0
    var bits = 0
    for (c in clean) {
      val v = ALPHABET.indexOf(c)
      require(v >= 0) { "not base64: '$c'" }
      buffer = (buffer shl 6) or v
      bits += 6
      if (bits >= 8) {
        bits -= 8
        out.write((buffer shr bits) and 0xff)
      }
    }
    return out.toByteArray()
  }
}
