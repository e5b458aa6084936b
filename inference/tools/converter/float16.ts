/**
 * IEEE 754 half → single precision. Every half value is exactly representable as a float32, so
 * this matches tfjs-core's table-based decoder bit for bit (subnormals, infinities and NaN included).
 */
function halfToFloatBits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exponent = (h >> 10) & 0x1f;
  let mantissa = h & 0x3ff;
  if (exponent === 0x1f) return sign | 0x7f800000 | (mantissa << 13); // Inf / NaN
  if (exponent !== 0) return sign | ((exponent + 112) << 23) | (mantissa << 13);
  if (mantissa === 0) return sign; // signed zero
  // Subnormal half: shift until the leading 1 reaches the implicit bit.
  let e = 113;
  while ((mantissa & 0x400) === 0) {
    mantissa <<= 1;
    e -= 1;
  }
  return sign | (e << 23) | ((mantissa & 0x3ff) << 13);
}

/** Writes bits, never numbers: a NaN passed through a JS number may lose its payload. */
export function float16ToFloat32(halves: Uint16Array): Float32Array {
  const bits = new Uint32Array(halves.length);
  for (let i = 0; i < halves.length; i++) bits[i] = halfToFloatBits(halves[i]) >>> 0;
  return new Float32Array(bits.buffer);
}
