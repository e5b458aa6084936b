/**
 * Keys derived from a seed, so the test PKI (and the committed test CSCA certificates) come out
 * the same on every run. node:crypto cannot generate from a seed, so RSA primes are searched here
 * with a seeded stream and Miller-Rabin, and EC private scalars are hashed from the seed. These are
 * TEST keys: anyone with this file can derive them, which is why only sandbox keys trust them.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** A byte stream from SHA-256 in counter mode over the seed label. */
export function seededBytes(label: string): (count: number) => Buffer {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (count) => {
    while (pool.length < count) {
      const block = createHash('sha256').update(`${label}/${counter++}`).digest();
      pool = Buffer.concat([pool, block]);
    }
    const out = pool.subarray(0, count);
    pool = pool.subarray(count);
    return Buffer.from(out);
  };
}

const toBig = (bytes: Buffer): bigint => BigInt(`0x${bytes.toString('hex') || '0'}`);

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

const SMALL_PRIMES = (() => {
  const primes: bigint[] = [];
  for (let n = 3; n < 2000; n += 2) if (primes.every((p) => BigInt(n) % p !== 0n)) primes.push(BigInt(n));
  return primes;
})();

function isProbablePrime(n: bigint, next: (count: number) => Buffer, bytes: number): boolean {
  if (SMALL_PRIMES.some((p) => n % p === 0n)) return false;
  let d = n - 1n;
  let r = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    r++;
  }
  for (let round = 0; round < 24; round++) {
    const a = (toBig(next(bytes)) % (n - 3n)) + 2n;
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let composite = true;
    for (let i = 1; i < r; i++) {
      x = (x * x) % n;
      if (x === n - 1n) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

function seededPrime(next: (count: number) => Buffer, bits: number, e: bigint): bigint {
  const bytes = bits / 8;
  for (;;) {
    const candidate = next(bytes);
    candidate[0] |= 0xc0; // top two bits set, so p*q has exactly 2*bits bits
    candidate[bytes - 1] |= 1;
    const p = toBig(candidate);
    if ((p - 1n) % e !== 0n && isProbablePrime(p, next, bytes)) return p;
  }
}

const b64url = (n: bigint): string => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64url');
};

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function seededRsaKey(label: string, modulusBits: number): KeyPair {
  const next = seededBytes(`rsa/${modulusBits}/${label}`);
  const e = 65537n;
  for (;;) {
    const p = seededPrime(next, modulusBits / 2, e);
    const q = seededPrime(next, modulusBits / 2, e);
    if (p === q) continue;
    const n = p * q;
    const phi = (p - 1n) * (q - 1n);
    const d = modInverse(e, phi);
    const privateKey = createPrivateKey({
      format: 'jwk',
      key: {
        kty: 'RSA',
        n: b64url(n),
        e: b64url(e),
        d: b64url(d),
        p: b64url(p),
        q: b64url(q),
        dp: b64url(d % (p - 1n)),
        dq: b64url(d % (q - 1n)),
        qi: b64url(modInverse(q, p)),
      },
    });
    return { privateKey, publicKey: createPublicKey(privateKey) };
  }
}

/** Curve OIDs and orders for the curves the test PKI uses. */
const CURVES = {
  brainpoolP256r1: {
    oid: '06092b2403030208010107',
    order: 0xa9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7n,
    bytes: 32,
  },
  brainpoolP384r1: {
    oid: '06092b240303020801010b',
    order: 0x8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565n,
    bytes: 48,
  },
  prime256v1: {
    oid: '06082a8648ce3d030107',
    order: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    bytes: 32,
  },
} as const;
export type CurveName = keyof typeof CURVES;

/** SEC1 ECPrivateKey without the public key: OpenSSL derives it on import. */
export function seededEcKey(label: string, curve: CurveName): KeyPair {
  const { oid, order, bytes } = CURVES[curve];
  const scalar = (toBig(seededBytes(`ec/${curve}/${label}`)(bytes + 16)) % (order - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(bytes * 2, '0'), 'hex');
  const oidBytes = Buffer.from(oid, 'hex');
  const body = Buffer.concat([
    Buffer.from([0x02, 0x01, 0x01, 0x04, bytes]),
    d,
    Buffer.from([0xa0, oidBytes.length]),
    oidBytes,
  ]);
  const der = Buffer.concat([Buffer.from([0x30, body.length]), body]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'sec1' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
