/**
 * The ICAO 9303-10 LDS files a chip holds: EF.DG1 (MRZ), EF.DG2 (portrait in an ISO/IEC 19794-5
 * record), EF.DG14 (security infos), EF.DG15 (AA public key) and EF.SOD (the signed hashes).
 */
import type { KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import { OID, digest, makeSignedData, type HashName, type Signer } from './test-pki';
import { tlv, u16, u32 } from './tlv';

export function makeDg1(mrzLines: string[]): Buffer {
  return tlv(0x61, tlv(0x5f1f, Buffer.from(mrzLines.join(''), 'ascii')));
}

export type ImageType = 'jpeg' | 'jpeg2000';

/** ISO/IEC 19794-5:2005 facial record with one full-frontal image and no feature points. */
function faceRecord(image: Buffer, imageType: ImageType, width: number, height: number): Buffer {
  const facialInformation = Buffer.concat([
    u16(0), // feature points
    Buffer.from([0, 0, 0]), // gender, eye colour, hair colour unspecified
    Buffer.from([0, 0, 0]), // feature mask
    u16(0), // expression unspecified
    Buffer.from([0, 0, 0, 0, 0, 0]), // pose angles and their uncertainty
  ]);
  const imageInformation = Buffer.concat([
    Buffer.from([1, imageType === 'jpeg' ? 0 : 1]), // full frontal; JPEG or JPEG 2000
    u16(width),
    u16(height),
    Buffer.from([1, 2]), // 24-bit RGB; digital still camera
    u16(0),
    u16(0),
  ]);
  const blockLength = 4 + facialInformation.length + imageInformation.length + image.length;
  const block = Buffer.concat([u32(blockLength), facialInformation, imageInformation, image]);
  const header = Buffer.concat([Buffer.from('FAC\x00010\x00', 'latin1'), u32(14 + block.length), u16(1)]);
  return Buffer.concat([header, block]);
}

export function makeDg2(image: Buffer, imageType: ImageType, width: number, height: number): Buffer {
  const biometricHeader = tlv(
    0xa1,
    tlv(0x80, Buffer.from([0x01, 0x01])), // ICAO header version
    tlv(0x87, Buffer.from([0x01, 0x01])), // format owner: ISO/IEC JTC 1/SC 37
    tlv(0x88, Buffer.from([0x00, 0x08])), // format type: face image
  );
  const template = tlv(0x7f60, biometricHeader, tlv(0x5f2e, faceRecord(image, imageType, width, height)));
  return tlv(0x75, tlv(0x7f61, tlv(0x02, Buffer.from([1])), template));
}

/** DG14 with ActiveAuthenticationInfo naming the ECDSA hash, as 9303-11 asks for EC AA keys. */
export function makeDg14(aaSignatureAlgorithm: string): Buffer {
  const info = new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: OID.activeAuthenticationInfo }),
      new asn1js.Integer({ value: 1 }),
      new asn1js.ObjectIdentifier({ value: aaSignatureAlgorithm }),
    ],
  });
  return tlv(0x6e, Buffer.from(new asn1js.Set({ value: [info] }).toBER(false)));
}

export function makeDg15(aaPublicKey: KeyObject): Buffer {
  return tlv(0x6f, aaPublicKey.export({ format: 'der', type: 'spki' }));
}

export function makeLdsSecurityObject(hash: HashName, dataGroups: Map<number, Buffer>): Buffer {
  const numbers = [...dataGroups.keys()].sort((a, b) => a - b);
  const lds = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 0 }),
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID[hash] })] }),
      new asn1js.Sequence({
        value: numbers.map(
          (n) =>
            new asn1js.Sequence({
              value: [
                new asn1js.Integer({ value: n }),
                new asn1js.OctetString({ valueHex: digest(hash, dataGroups.get(n)!) }),
              ],
            }),
        ),
      }),
    ],
  });
  return Buffer.from(lds.toBER(false));
}

export function makeSod(args: {
  ldsHash: HashName;
  dataGroups: Map<number, Buffer>;
  documentSignerDer: Buffer;
  signer: Signer;
  signingTime: Date;
}): Buffer {
  const signedData = makeSignedData({
    contentType: OID.ldsSecurityObject,
    content: makeLdsSecurityObject(args.ldsHash, args.dataGroups),
    certificateDer: args.documentSignerDer,
    signer: args.signer,
    signingTime: args.signingTime,
  });
  return tlv(0x77, signedData);
}
