package dev.bioverify.capture

/** The server's limits on one image. */
data class ImageLimits(val maxBytes: Int, val maxPixels: Long, val maxLongSide: Int) {
  companion object {
    /** A document side or the selfie: at most 10 MiB and 40 megapixels; 2,560 px is plenty for the MRZ and the portrait. */
    val DOCUMENT = ImageLimits(10 * 1024 * 1024, 40_000_000, 2_560)
    val SELFIE = ImageLimits(10 * 1024 * 1024, 40_000_000, 1_600)

    /** A liveness frame: at most 1 MiB and 2 megapixels; 640 px keeps 60 frames small on a phone's uplink. */
    val LIVENESS_FRAME = ImageLimits(1024 * 1024, 2_000_000, 640)
  }
}

data class Size(val width: Int, val height: Int)

/** How to turn a stored image upright: rotate clockwise by [degrees], then mirror horizontally if [mirror]. */
data class Upright(val degrees: Int, val mirror: Boolean)

/**
 * Image preparation within the server's limits, as pure arithmetic the platform layer applies
 * (Android's Bitmap in the AAR): the size to scale to, the rotation an EXIF orientation asks for,
 * and the JPEG quality that fits the byte limit.
 */
object ImagePreparation {
  /** The largest size of the same aspect that fits [limits]; the image is never enlarged. */
  fun targetSize(width: Int, height: Int, limits: ImageLimits): Size {
    require(width > 0 && height > 0) { "an image has a size" }
    var scale = 1.0
    val longSide = maxOf(width, height)
    if (longSide > limits.maxLongSide) scale = limits.maxLongSide.toDouble() / longSide
    val pixels = width.toLong() * height
    if (pixels * scale * scale > limits.maxPixels) scale = Math.sqrt(limits.maxPixels.toDouble() / pixels)
    return Size(maxOf(1, Math.floor(width * scale).toInt()), maxOf(1, Math.floor(height * scale).toInt()))
  }

  /** EXIF orientation (1 to 8) to the turn that makes the image upright. */
  fun upright(exifOrientation: Int): Upright =
    when (exifOrientation) {
      2 -> Upright(0, true)
      3 -> Upright(180, false)
      4 -> Upright(180, true)
      5 -> Upright(90, true)
      6 -> Upright(90, false)
      7 -> Upright(270, true)
      8 -> Upright(270, false)
      else -> Upright(0, false)
    }

  /** The size after [upright] turns an image of [width] x [height]. */
  fun turnedSize(width: Int, height: Int, upright: Upright): Size =
    if (upright.degrees % 180 == 90) Size(height, width) else Size(width, height)

  val QUALITIES = listOf(92, 85, 78, 70, 60, 50)

  /** Encodes with the highest quality of [QUALITIES] whose bytes fit [maxBytes]. */
  fun encodeWithin(maxBytes: Int, encode: (quality: Int) -> ByteArray): ByteArray {
    for (q in QUALITIES) {
      val bytes = encode(q)
      if (bytes.size <= maxBytes) return bytes
    }
    throw IllegalStateException("no JPEG quality down to ${QUALITIES.last()} fits $maxBytes bytes: scale the image down first")
  }
}
