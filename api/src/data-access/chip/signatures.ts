/**
 * X.509/CMS signature checks with node:crypto, which takes brainpool curves (named or explicit
 * parameters) where WebCrypto refuses them. Covers RSA PKCS#1 v1.5, RSA-PSS and ECDSA, with the
 * generic rsaEncryption / id-ecPublicKey identifiers some states write, taking the digest algorithm.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { hashOfOid } from './lds-parse';

const RSA_PKCS1: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};
const ECDSA: Record<string, string> = {
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const RSA_PSS = '1.2.840.113549.1.1.10';

export const ECDSA_HASHES = ECDSA;

/** A readable name for the report: "sha256WithRSAEncryption", "ecdsa-with-SHA256", "RSASSA-PSS". */
export function signatureAlgorithmName(algorithm: pkijs.AlgorithmIdentifier, digestOid?: string): string {
  const id = algorithm.algorithmId;
  if (RSA_PKCS1[id]) return `${RSA_PKCS1[id]}WithRSAEncryption`;
  if (ECDSA[id]) return `ecdsa-with-${ECDSA[id].toUpperCase()}`;
  if (id === RSA_PSS) return 'RSASSA-PSS';
  const digest = digestOid ? hashOfOid(digestOid) : undefined;
  if (id === RSA_ENCRYPTION) return `rsaEncryption (${digest ?? '?'})`;
  if (id === EC_PUBLIC_KEY) return `ecdsa (${digest ?? '?'})`;
  return id;
}

export function publicKeyOf(certificate: pkijs.Certificate): KeyObject {
  const spki = certificate.subjectPublicKeyInfo.toSchema().toBER(false);
  return createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
}

function pssParameters(algorithm: pkijs.AlgorithmIdentifier): { hash: string; saltLength: number } | null {
  try {
    const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams as asn1js.Sequence });
    const hash = hashOfOid(params.hashAlgorithm.algorithmId);
    return hash ? { hash, saltLength: params.saltLength } : null;
  } catch {
    return null;
  }
}

/** False for a bad signature and for an algorithm this verifier does not know: never throws. */
export function verifySignature(
  algorithm: pkijs.AlgorithmIdentifier,
  data: Uint8Array,
  signature: Uint8Array,
  key: KeyObject,
  digestOid?: string,
): boolean {
  const id = algorithm.algorithmId;
  try {
    if (RSA_PKCS1[id] || (id === RSA_ENCRYPTION && digestOid && hashOfOid(digestOid))) {
      if (key.asymmetricKeyType !== 'rsa') return false;
      return verify(RSA_PKCS1[id] ?? hashOfOid(digestOid!)!, data, key, signature);
    }
    if (ECDSA[id] || (id === EC_PUBLIC_KEY && digestOid && hashOfOid(digestOid))) {
      if (key.asymmetricKeyType !== 'ec') return false;
      return verify(ECDSA[id] ?? hashOfOid(digestOid!)!, data, { key, dsaEncoding: 'der' }, signature);
    }
    if (id === RSA_PSS) {
      const params = pssParameters(algorithm);
      if (!params || (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'rsa-pss')) return false;
      return verify(
        params.hash,
        data,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: params.saltLength },
        signature,
      );
    }
  } catch {
    return false;
  }
  return false;
}

/** A certificate's or CRL's own signature, checked with the issuer's key. */
export function verifySignedBy(
  item: { tbsView: Uint8Array; signatureAlgorithm: pkijs.AlgorithmIdentifier; signatureValue: asn1js.BitString },
  issuerKey: KeyObject,
): boolean {
  return verifySignature(item.signatureAlgorithm, item.tbsView, item.signatureValue.valueBlock.valueHexView, issuerKey);
}
