package dev.bioverify.capture

/**
 * A small JSON reader and writer, so the core depends on nothing but kotlin-stdlib (org.json is an
 * Android class, absent on the JVM where the core is tested; a JSON library would be one more
 * dependency for every integrating app). Objects keep their key order; numbers are Double or Long.
 */
object Json {
  fun parse(text: String): Any? {
    val reader = Reader(text)
    reader.skipSpace()
    val value = reader.value()
    reader.skipSpace()
    if (!reader.atEnd()) throw IllegalArgumentException("trailing characters at ${reader.pos}")
    return value
  }

  fun write(value: Any?): String = StringBuilder().also { append(it, value) }.toString()

  private fun append(out: StringBuilder, value: Any?) {
    when (value) {
      null -> out.append("null")
      is String -> quote(out, value)
      is Boolean -> out.append(value)
      is Int, is Long -> out.append(value)
      is Number -> {
        val d = value.toDouble()
        require(!d.isNaN() && !d.isInfinite()) { "JSON has no $d" }
        if (d == Math.floor(d) && Math.abs(d) < 1e15) out.append(d.toLong()) else out.append(d)
      }
      is Map<*, *> -> {
        out.append('{')
        var first = true
        for ((k, v) in value) {
          if (!first) out.append(',')
          first = false
          quote(out, k.toString())
          out.append(':')
          append(out, v)
        }
        out.append('}')
      }
      is Iterable<*> -> {
        out.append('[')
        var first = true
        for (v in value) {
          if (!first) out.append(',')
          first = false
          append(out, v)
        }
        out.append(']')
      }
      else -> throw IllegalArgumentException("cannot write ${value::class.java.name} as JSON")
    }
  }

  private fun quote(out: StringBuilder, s: String) {
    out.append('"')
    for (c in s) {
      when {
        c == '"' -> out.append("\\\"")
        c == '\\' -> out.append("\\\\")
        c == '\n' -> out.append("\\n")
        c == '\r' -> out.append("\\r")
        c == '\t' -> out.append("\\t")
        c < ' ' -> out.append(String.format("\\u%04x", c.code))
        else -> out.append(c)
      }
    }
    out.append('"')
  }

  private class Reader(val s: String) {
    var pos = 0

    fun atEnd() = pos >= s.length

    fun skipSpace() {
      while (pos < s.length && s[pos].isWhitespace()) pos++
    }

    private fun fail(what: String): Nothing = throw IllegalArgumentException("bad JSON: $what at $pos")

    fun value(): Any? {
      if (atEnd()) fail("unexpected end")
      return when (val c = s[pos]) {
        '{' -> obj()
        '[' -> arr()
        '"' -> str()
        't' -> literal("true", true)
        'f' -> literal("false", false)
        'n' -> literal("null", null)
        else -> if (c == '-' || c.isDigit()) num() else fail("unexpected '$c'")
      }
    }

    private fun literal(word: String, v: Any?): Any? {
      if (!s.startsWith(word, pos)) fail("expected $word")
      pos += word.length
      return v
    }

    private fun obj(): Map<String, Any?> {
      val m = LinkedHashMap<String, Any?>()
      pos++
      skipSpace()
      if (s.getOrNull(pos) == '}') {
        pos++
        return m
      }
      while (true) {
        skipSpace()
        if (s.getOrNull(pos) != '"') fail("expected a key")
        val k = str()
        skipSpace()
        if (s.getOrNull(pos) != ':') fail("expected ':'")
        pos++
        skipSpace()
        m[k] = value()
        skipSpace()
        when (s.getOrNull(pos)) {
          ',' -> pos++
          '}' -> {
            pos++
            return m
          }
          else -> fail("expected ',' or '}'")
        }
      }
    }

    private fun arr(): List<Any?> {
      val l = ArrayList<Any?>()
      pos++
      skipSpace()
      if (s.getOrNull(pos) == ']') {
        pos++
        return l
      }
      while (true) {
        skipSpace()
        l.add(value())
        skipSpace()
        when (s.getOrNull(pos)) {
          ',' -> pos++
          ']' -> {
            pos++
            return l
          }
          else -> fail("expected ',' or ']'")
        }
      }
    }

    private fun str(): String {
      val out = StringBuilder()
      pos++
      while (true) {
        if (atEnd()) fail("unterminated string")
        val c = s[pos++]
        when (c) {
          '"' -> return out.toString()
          '\\' -> {
            if (atEnd()) fail("unterminated escape")
            when (val e = s[pos++]) {
              '"', '\\', '/' -> out.append(e)
              'b' -> out.append('\b')
              'f' -> out.append('\u000c')
              'n' -> out.append('\n')
              'r' -> out.append('\r')
              't' -> out.append('\t')
              'u' -> {
                if (pos + 4 > s.length) fail("short \\u escape")
                out.append(s.substring(pos, pos + 4).toInt(16).toChar())
                pos += 4
              }
              else -> fail("bad escape '\\$e'")
            }
          }
          else -> out.append(c)
        }
      }
    }

    private fun num(): Number {
      val start = pos
      if (s[pos] == '-') pos++
      while (pos < s.length && (s[pos].isDigit() || s[pos] in ".eE+-")) pos++
      val text = s.substring(start, pos)
      return text.toLongOrNull() ?: text.toDoubleOrNull() ?: fail("bad number '$text'")
    }
  }
}

/** Typed reads of a parsed JSON object, failing with the field's name when the server's answer is not the contract's. */
class JsonObject(val map: Map<String, Any?>) {
  fun has(key: String) = map.containsKey(key)

  fun string(key: String): String = map[key] as? String ?: throw malformed(key, "a string")

  fun stringOrNull(key: String): String? = map[key] as? String

  fun boolean(key: String): Boolean = map[key] as? Boolean ?: throw malformed(key, "a boolean")

  fun int(key: String): Int = (map[key] as? Number)?.toInt() ?: throw malformed(key, "a number")

  fun double(key: String): Double = (map[key] as? Number)?.toDouble() ?: throw malformed(key, "a number")

  fun doubleOrNull(key: String): Double? = (map[key] as? Number)?.toDouble()

  fun strings(key: String): List<String> =
    (map[key] as? List<*>)?.map { it as? String ?: throw malformed(key, "an array of strings") }
      ?: throw malformed(key, "an array")

  fun obj(key: String): JsonObject = objOrNull(key) ?: throw malformed(key, "an object")

  @Suppress("UNCHECKED_CAST")
  fun objOrNull(key: String): JsonObject? = (map[key] as? Map<String, Any?>)?.let { JsonObject(it) }

  @Suppress("UNCHECKED_CAST")
  fun objects(key: String): List<JsonObject> =
    (map[key] as? List<*>)?.map { JsonObject(it as? Map<String, Any?> ?: throw malformed(key, "an array of objects")) }
      ?: emptyList()

  private fun malformed(key: String, what: String) =
    CaptureException.malformed("the answer's \"$key\" is not $what")

  override fun toString(): String = Json.write(map)

  companion object {
    @Suppress("UNCHECKED_CAST")
    fun parse(text: String): JsonObject =
      JsonObject(
        try {
          Json.parse(text) as? Map<String, Any?>
        } catch (e: IllegalArgumentException) {
          null
        } ?: throw CaptureException.malformed("the answer is not a JSON object"),
      )
  }
}
