package dev.bioverify.capture

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL

class HttpRequest(
  val method: String,
  val url: String,
  val headers: Map<String, String> = emptyMap(),
  val body: ByteArray? = null,
)

class HttpResponse(val status: Int, headers: Map<String, String>, val body: ByteArray) {
  private val lowerHeaders = headers.mapKeys { it.key.lowercase() }

  fun header(name: String): String? = lowerHeaders[name.lowercase()]

  fun bodyText(): String = String(body, Charsets.UTF_8)
}

/**
 * How the client reaches the server. [UrlConnectionTransport] is the default (in every JVM and
 * Android); an app that already has OkHttp can pass its own implementation and keep one connection pool.
 * An implementation throws [IOException] when no answer came; it never throws for an HTTP status.
 */
fun interface HttpTransport {
  @Throws(IOException::class)
  fun execute(request: HttpRequest): HttpResponse
}

/** [HttpTransport] over `HttpURLConnection`, with connect and read timeouts. */
class UrlConnectionTransport(
  private val connectTimeoutMs: Int = 15_000,
  private val readTimeoutMs: Int = 60_000,
) : HttpTransport {
  override fun execute(request: HttpRequest): HttpResponse {
    val connection = URL(request.url).openConnection() as HttpURLConnection
    try {
      connection.connectTimeout = connectTimeoutMs
      connection.readTimeout = readTimeoutMs
      connection.instanceFollowRedirects = false
      connection.requestMethod = request.method
      connection.useCaches = false
      for ((k, v) in request.headers) connection.setRequestProperty(k, v)
      val body = request.body
      if (body != null) {
        connection.doOutput = true
        connection.setFixedLengthStreamingMode(body.size)
        connection.outputStream.use { it.write(body) }
      }
      val status = connection.responseCode
      val headers = LinkedHashMap<String, String>()
      for ((k, v) in connection.headerFields) if (k != null && v != null && v.isNotEmpty()) headers[k] = v.joinToString(",")
      val stream: InputStream? = if (status >= 400) connection.errorStream else connection.inputStream
      return HttpResponse(status, headers, stream?.use { readAll(it) } ?: ByteArray(0))
    } finally {
      connection.disconnect()
    }
  }

  private fun readAll(input: InputStream): ByteArray {
    val out = ByteArrayOutputStream()
    val buffer = ByteArray(16 * 1024)
    while (true) {
      val n = input.read(buffer)
      if (n < 0) break
      out.write(buffer, 0, n)
    }
    return out.toByteArray()
  }
}
