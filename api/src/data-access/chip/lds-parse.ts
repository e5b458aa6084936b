/**
 * Parsing of the LDS files a client sends (ICAO 9303-10): DG1's MRZ, DG2's face record, DG14's
 * security infos, DG15's AA key and EF.SOD's CMS SignedData with the LDS security object. Every
 * failure is a ChipFormatError naming the field, so the capture route answers 422, never 500.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { ChipMrzFields } from '../../domain/chip/chip-verification';
import { ChipFormatError } from '../../domain/ports/chip-verifier';
import { children, readFile } from './tlv';

export const LDS_SECURITY_OBJECT = '2.23.136.1.1.1';
const ACTIVE_AUTHENTICATION_INFO = '2.23.136.1.1.5';
/** id-CA (BSI TR-03110): chip authentication infos and public keys start with this arc. */
const CHIP_AUTHENTICATION_ARC = '0.4.0.127.0.7.2.2.';

const HASH_BY_OID: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
export const hashOfOid = (oid: string): string | undefined => HASH_BY_OID[oid];

export function parseDg1(dg1: Buffer): ChipMrzFields {
  const mrzElement = children(readFile(dg1, 0x61, 'dg1'), 'dg1').find((c) => c.tag === 0x5f1f);
  if (!mrzElement) throw new ChipFormatError('dg1', 'DG1 has no MRZ (tag 5F1F)');
  const mrz = mrzElement.value.toString('latin1');
  if (!/^[A-Z0-9<]+$/.test(mrz)) throw new ChipFormatError('dg1', 'DG1 MRZ has characters outside A-Z, 0-9, <');
  const clean = (s: string): string => s.replace(/<+$/, '').replace(/</g, ' ').trim();
  const names = (field: string): { surname: string; given_names: string } => {
    const [surname, ...given] = field.split('<<');
    return { surname: clean(surname), given_names: clean(given.join(' ')) };
  };
  const fields = (lines: string[], number: string, birth: string, expiry: string, nameField: string) => ({
    lines,
    document_number: clean(number),
    birth_date: birth,
    expiry_date: expiry,
    issuing_state: clean(lines[0].slice(2, 5)),
    ...names(nameField),
  });
  if (mrz.length === 88) {
    const lines = [mrz.slice(0, 44), mrz.slice(44)];
    return fields(lines, lines[1].slice(0, 9), lines[1].slice(13, 19), lines[1].slice(21, 27), lines[0].slice(5));
  }
  if (mrz.length === 90) {
    const lines = [mrz.slice(0, 30), mrz.slice(30, 60), mrz.slice(60)];
    return fields(lines, lines[0].slice(5, 14), lines[1].slice(0, 6), lines[1].slice(8, 14), lines[2]);
  }
  if (mrz.length === 72) {
    const lines = [mrz.slice(0, 36), mrz.slice(36)];
    return fields(lines, lines[1].slice(0, 9), lines[1].slice(13, 19), lines[1].slice(21, 27), lines[0].slice(5));
  }
  throw new ChipFormatError('dg1', `DG1 MRZ has ${mrz.length} characters (TD1 90, TD2 72, TD3 88)`);
}

export type PortraitEncoding = 'jpeg' | 'jpeg2000';

/** The first face image of DG2 (ISO/IEC 19794-5 record in a biometric information template). */
export function parseDg2(dg2: Buffer): { image: Buffer; encoding: PortraitEncoding } {
  const group = children(readFile(dg2, 0x75, 'dg2'), 'dg2').find((c) => c.tag === 0x7f61);
  const template = group && children(group.value, 'dg2').find((c) => c.tag === 0x7f60);
  const block = template && children(template.value, 'dg2').find((c) => c.tag === 0x5f2e || c.tag === 0x7f2e);
  if (!block) throw new ChipFormatError('dg2', 'DG2 has no biometric data block (7F61/7F60/5F2E)');
  const record = block.value;
  if (record.length < 14 + 32 || record.toString('latin1', 0, 4) !== 'FAC\0')
    throw new ChipFormatError('dg2', 'DG2 holds no ISO/IEC 19794-5 facial record');
  const featurePoints = record.readUInt16BE(18);
  const imageInfo = 14 + 20 + 8 * featurePoints;
  const blockLength = record.readUInt32BE(14);
  const imageStart = imageInfo + 12;
  const imageEnd = 14 + blockLength;
  if (imageEnd > record.length || imageStart >= imageEnd)
    throw new ChipFormatError('dg2', 'DG2 facial record lengths run past the data');
  const image = record.subarray(imageStart, imageEnd);
  // The magic bytes decide, not the header's data type: a reader cannot be made to mis-decode.
  if (image[0] === 0xff && image[1] === 0xd8) return { image, encoding: 'jpeg' };
  const jp2 = image.readUInt32BE(0) === 12 && image.toString('latin1', 4, 8) === 'jP  ';
  const j2k = image[0] === 0xff && image[1] === 0x4f && image[2] === 0xff && image[3] === 0x51;
  if (jp2 || j2k) return { image, encoding: 'jpeg2000' };
  throw new ChipFormatError('dg2', 'DG2 image is neither JPEG nor JPEG 2000');
}

function parseDer(data: Buffer | Uint8Array, field: string, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(new Uint8Array(data));
  if (parsed.offset === -1) throw new ChipFormatError(field, `${what} is not valid ASN.1: ${parsed.result.error}`);
  return parsed.result;
}

export interface Dg14Infos {
  aaSignatureAlgorithm: string | null;
  chipAuthentication: boolean;
}

export function parseDg14(dg14: Buffer): Dg14Infos {
  const set = parseDer(readFile(dg14, 0x6e, 'dg14'), 'dg14', 'DG14');
  if (!(set instanceof asn1js.Set)) throw new ChipFormatError('dg14', 'DG14 is not a SET of SecurityInfo');
  const infos: Dg14Infos = { aaSignatureAlgorithm: null, chipAuthentication: false };
  for (const info of set.valueBlock.value) {
    const parts = info instanceof asn1js.Sequence ? info.valueBlock.value : [];
    const protocol = parts[0] instanceof asn1js.ObjectIdentifier ? parts[0].valueBlock.toString() : null;
    if (!protocol) throw new ChipFormatError('dg14', 'DG14 SecurityInfo without a protocol OID');
    if (protocol === ACTIVE_AUTHENTICATION_INFO && parts[2] instanceof asn1js.ObjectIdentifier)
      infos.aaSignatureAlgorithm = parts[2].valueBlock.toString();
    if (protocol.startsWith(CHIP_AUTHENTICATION_ARC)) infos.chipAuthentication = true;
  }
  return infos;
}

export function parseDg15(dg15: Buffer): KeyObject {
  const spki = readFile(dg15, 0x6f, 'dg15');
  try {
    return createPublicKey({ key: spki, format: 'der', type: 'spki' });
  } catch {
    throw new ChipFormatError('dg15', 'DG15 does not hold a public key (SubjectPublicKeyInfo)');
  }
}

export interface ParsedSod {
  signedData: pkijs.SignedData;
  signerInfo: pkijs.SignerInfo;
  documentSigner: pkijs.Certificate;
  eContent: Buffer;
  ldsHash: string;
  hashes: Map<number, Buffer>;
}

export function parseSod(sod: Buffer): ParsedSod {
  const schema = parseDer(readFile(sod, 0x77, 'sod'), 'sod', 'EF.SOD');
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = new pkijs.ContentInfo({ schema });
    if (contentInfo.contentType !== '1.2.840.113549.1.7.2') throw new Error('not SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    throw new ChipFormatError('sod', `EF.SOD is not a CMS SignedData: ${(error as Error).message}`);
  }
  const encap = signedData.encapContentInfo;
  if (encap.eContentType !== LDS_SECURITY_OBJECT || !encap.eContent)
    throw new ChipFormatError('sod', 'EF.SOD does not carry an LDS security object');
  const eContent = Buffer.from(encap.eContent.getValue());
  const [signerInfo] = signedData.signerInfos;
  const documentSigner = (signedData.certificates ?? []).find(
    (c): c is pkijs.Certificate =>
      c instanceof pkijs.Certificate &&
      signerInfo?.sid instanceof pkijs.IssuerAndSerialNumber &&
      c.serialNumber.isEqual(signerInfo.sid.serialNumber) &&
      c.issuer.isEqual(signerInfo.sid.issuer),
  );
  if (!signerInfo || !documentSigner)
    throw new ChipFormatError('sod', 'EF.SOD has no signer with its Document Signer certificate');
  const lds = parseDer(eContent, 'sod', 'LDS security object');
  const [, algorithm, values] = lds instanceof asn1js.Sequence ? lds.valueBlock.value : [];
  const algorithmOid =
    algorithm instanceof asn1js.Sequence && algorithm.valueBlock.value[0] instanceof asn1js.ObjectIdentifier
      ? algorithm.valueBlock.value[0].valueBlock.toString()
      : '';
  const ldsHash = hashOfOid(algorithmOid);
  if (!ldsHash || !(values instanceof asn1js.Sequence))
    throw new ChipFormatError('sod', 'LDS security object: unknown hash algorithm or no hash values');
  const hashes = new Map<number, Buffer>();
  for (const entry of values.valueBlock.value) {
    const [number, hash] = entry instanceof asn1js.Sequence ? entry.valueBlock.value : [];
    if (!(number instanceof asn1js.Integer) || !(hash instanceof asn1js.OctetString))
      throw new ChipFormatError('sod', 'LDS security object: malformed data group hash');
    hashes.set(number.valueBlock.valueDec, Buffer.from(hash.valueBlock.valueHexView));
  }
  return { signedData, signerInfo, documentSigner, eContent, ldsHash, hashes };
}
