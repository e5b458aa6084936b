/**
 * `npm run testdata:chip`: the project's test PKI (a CSCA per test country, Document Signers, a
 * CRL, a CSCA Master List) and eMRTD chip files (EF.SOD, EF.DG1, EF.DG2, EF.DG14, EF.DG15 plus the
 * AA private key a chip simulator needs) for synthetic documents of `testdata:documents`, with the
 * negative cases of issue 36, to .state/testdata/chip/ with manifest.json. Keys come from seeds, so
 * the output is the same on every run (except ECDSA and AA signature bytes, which are randomised
 * and verify alike); it does nothing when manifest.json already comes from this generator version.
 * The test CSCA certificates are also committed (api/src/data-access/chip-trust/test-csca/): the
 * generator refuses to run when the committed ones differ from the seeds.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { faceSources } from '../faces/face-sources';
import { loadPortrait } from '../faces/augment-face';
import type { DocumentLabel, DocumentLabels } from '../documents/document-labels';
import { generateDocumentTestdata } from '../documents/generate-documents';
import { CHIP_PLANS, type ChipPlan } from './chip-cases';
import { makeDg1, makeDg14, makeDg15, makeDg2, makeSod } from './lds-files';
import { PORTRAIT_SIZE, encodePortrait } from './portrait-images';
import { seededEcKey, seededRsaKey, type KeyPair } from './seeded-keys';
import { OID, makeCertificate, makeCrl, makeSignedData, type Name, type Signer } from './test-pki';
import * as asn1js from 'asn1js';

/** Bump when the output would change, so stale sets are rebuilt. */
const GENERATOR_VERSION = '1';
const repoRoot = path.resolve(__dirname, '../../../..');
export const chipTestdataDir = path.join(repoRoot, '.state/testdata/chip');
export const committedTestCscaDir = path.join(repoRoot, 'api/src/data-access/chip-trust/test-csca');
const assetsDir = path.join(repoRoot, '.state/assets/debian');

/** Countries of the test PKI: each has enough clean synthetic passports and ID cards. */
export const TEST_COUNTRIES = ['PT', 'HU', 'FI', 'US'] as const;
const ORGANIZATION = 'bioverify test PKI (not a real issuer)';
const SOD_SIGNING_TIME = new Date('2026-01-15T09:00:00Z');
const EXPIRED_SIGNING_TIME = new Date('2019-06-01T09:00:00Z');

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
const privatePem = (key: KeyObject): string => key.export({ format: 'pem', type: 'pkcs8' }).toString();

interface Authority {
  name: Name;
  key: KeyPair;
  der: Buffer;
}

interface CountryPki {
  csca: Authority;
  dsRsa: Authority;
  dsEc: Authority;
  dsExpired: Authority;
  dsRevoked: Authority;
  untrustedCsca: Authority;
  dsUntrusted: Authority;
  crl: Buffer;
}

const rsaSigner = (key: KeyPair, scheme: 'rsa-pkcs1' | 'rsa-pss' = 'rsa-pkcs1'): Signer => ({
  privateKey: key.privateKey,
  scheme,
  hash: 'sha256',
});
const ecSigner = (key: KeyPair): Signer => ({ privateKey: key.privateKey, scheme: 'ecdsa', hash: 'sha256' });

function makeCsca(country: string, label: string, commonName: string): Authority {
  const name = { country, organization: ORGANIZATION, commonName };
  const key = seededRsaKey(`csca/${label}/${country}`, 2048);
  const der = makeCertificate({
    subject: name,
    issuer: name,
    serial: 1,
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2045-01-01T00:00:00Z'),
    publicKey: key.publicKey,
    issuerPublicKey: key.publicKey,
    signer: rsaSigner(key),
    ca: true,
  });
  return { name, key, der };
}

function makeSigner(
  issuer: Authority,
  commonName: string,
  serial: number,
  key: KeyPair,
  validity: [string, string],
  extendedKeyUsage?: string,
): Authority {
  const name = { country: issuer.name.country, organization: ORGANIZATION, commonName };
  const der = makeCertificate({
    subject: name,
    issuer: issuer.name,
    serial,
    notBefore: new Date(validity[0]),
    notAfter: new Date(validity[1]),
    publicKey: key.publicKey,
    issuerPublicKey: issuer.key.publicKey,
    signer: rsaSigner(issuer.key),
    ca: false,
    extendedKeyUsage,
  });
  return { name, key, der };
}

const CURRENT: [string, string] = ['2025-01-01T00:00:00Z', '2036-01-01T00:00:00Z'];

function makeCountryPki(country: string): CountryPki {
  const csca = makeCsca(country, 'test', `bioverify Test CSCA ${country}`);
  const untrustedCsca = makeCsca(country, 'untrusted', `Untrusted CSCA ${country}`);
  const dsRevoked = makeSigner(
    csca,
    `Document Signer ${country} revoked`,
    104,
    seededRsaKey(`ds-revoked/${country}`, 2048),
    CURRENT,
  );
  return {
    csca,
    untrustedCsca,
    dsRsa: makeSigner(csca, `Document Signer ${country} RSA`, 101, seededRsaKey(`ds-rsa/${country}`, 2048), CURRENT),
    dsEc: makeSigner(
      csca,
      `Document Signer ${country} EC`,
      102,
      seededEcKey(`ds-ec/${country}`, 'brainpoolP256r1'),
      CURRENT,
    ),
    dsExpired: makeSigner(
      csca,
      `Document Signer ${country} expired`,
      103,
      seededEcKey(`ds-expired/${country}`, 'brainpoolP256r1'),
      ['2014-01-01T00:00:00Z', '2024-01-01T00:00:00Z'],
    ),
    dsRevoked,
    dsUntrusted: makeSigner(
      untrustedCsca,
      `Document Signer ${country} (untrusted chain)`,
      201,
      seededRsaKey(`ds-untrusted/${country}`, 2048),
      CURRENT,
    ),
    crl: makeCrl(
      csca.name,
      rsaSigner(csca.key),
      [104],
      new Date('2026-01-01T00:00:00Z'),
      new Date('2046-01-01T00:00:00Z'),
    ),
  };
}

/** CscaMasterList ::= SEQUENCE { version INTEGER, certList SET OF Certificate } (ICAO 9303-12 §9). */
function makeMasterList(cscas: Buffer[], signer: Authority): Buffer {
  const list = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 0 }),
      new asn1js.Set({ value: cscas.map((der) => asn1js.fromBER(der).result) }),
    ],
  });
  return makeSignedData({
    contentType: OID.cscaMasterList,
    content: Buffer.from(list.toBER(false)),
    certificateDer: signer.der,
    signer: ecSigner(signer.key),
    signingTime: SOD_SIGNING_TIME,
  });
}

/** The committed test CSCA must be what the seeds make: otherwise sandbox trust and test data part. */
async function checkCommittedCsca(country: string, certPem: string): Promise<void> {
  const file = path.join(committedTestCscaDir, `csca-${country}.pem`);
  if (!existsSync(file)) {
    await mkdir(committedTestCscaDir, { recursive: true });
    await writeFile(file, certPem);
    console.log(`chip: wrote the committed test CSCA ${path.relative(repoRoot, file)}`);
    return;
  }
  const committed = new X509Certificate(await readFile(file));
  if (!committed.raw.equals(new X509Certificate(certPem).raw))
    throw new Error(`${file} is not the CSCA the test PKI seeds make: regenerate it and commit it`);
}

/** The test CSCA's CRL is committed beside it, so sandbox sessions honour revocation as an operator's CRL would be. */
async function checkCommittedCrl(country: string, der: Buffer): Promise<void> {
  const file = path.join(committedTestCscaDir, `crl-${country}.crl`);
  if (!existsSync(file)) {
    await writeFile(file, der);
    console.log(`chip: wrote the committed test CRL ${path.relative(repoRoot, file)}`);
    return;
  }
  if (!(await readFile(file)).equals(der))
    throw new Error(`${file} is not the CRL the test PKI seeds make: regenerate it and commit it`);
}

interface ChipFiles {
  dataGroups: Map<number, Buffer>;
  sod: Buffer;
  aaKey: KeyPair | null;
}

async function makeChip(plan: ChipPlan, label: DocumentLabel, pki: CountryPki, portrait: Buffer): Promise<ChipFiles> {
  const dataGroups = new Map<number, Buffer>();
  dataGroups.set(1, makeDg1(label.mrz_lines));
  const { width, height } = PORTRAIT_SIZE;
  dataGroups.set(2, makeDg2(await encodePortrait(portrait, plan.portrait), plan.portrait, width, height));
  let aaKey: KeyPair | null = null;
  if (plan.aa?.type === 'rsa') aaKey = seededRsaKey(`aa/${label.file}`, 1024);
  if (plan.aa?.type === 'ec') {
    aaKey = seededEcKey(`aa/${label.file}`, plan.aa.curve);
    dataGroups.set(14, makeDg14(OID.ecdsaSha256));
  }
  if (aaKey) dataGroups.set(15, makeDg15(aaKey.publicKey));
  let ds: Authority = plan.sodSigner === 'ecdsa' ? pki.dsEc : pki.dsRsa;
  if (plan.case === 'untrusted-csca') ds = pki.dsUntrusted;
  if (plan.case === 'expired-document-signer') ds = pki.dsExpired;
  if (plan.case === 'revoked-document-signer') ds = pki.dsRevoked;
  const signer: Signer =
    ds.key.publicKey.asymmetricKeyType === 'ec'
      ? ecSigner(ds.key)
      : rsaSigner(ds.key, plan.sodSigner === 'rsa-pss' ? 'rsa-pss' : 'rsa-pkcs1');
  let sod = makeSod({
    ldsHash: plan.ldsHash,
    dataGroups,
    documentSignerDer: ds.der,
    signer,
    signingTime: plan.case === 'expired-document-signer' ? EXPIRED_SIGNING_TIME : SOD_SIGNING_TIME,
  });
  if (plan.case === 'altered-data-group') {
    // One pixel byte of the portrait changed after the state signed: a hash no longer matches.
    const dg2 = Buffer.from(dataGroups.get(2)!);
    dg2[dg2.length - 40] ^= 0x01;
    dataGroups.set(2, dg2);
  }
  if (plan.case === 'bad-sod-signature') {
    // The last byte of the ECDSA signature value (the end of the SignerInfo) flipped.
    sod = Buffer.from(sod);
    sod[sod.length - 1] ^= 0x01;
  }
  if (plan.case === 'malformed-sod') sod = sod.subarray(0, Math.floor(sod.length / 2));
  if (plan.case === 'cloned-without-aa-key') {
    // The clone copies every file but cannot read the AA private key out: it answers with its own.
    aaKey = seededRsaKey(`clone/${label.file}`, 1024);
  }
  return { dataGroups, sod, aaKey };
}

const portraitIdentityOf = (d: DocumentLabel): string =>
  typeof d.generation?.portrait === 'string' ? d.generation.portrait : '';

function pickDocuments(labels: DocumentLabels): DocumentLabel[] {
  const eligible = labels.documents
    .filter(
      (d) =>
        d.variant === 'clean' &&
        d.format !== 'TD2' &&
        portraitIdentityOf(d) &&
        (TEST_COUNTRIES as readonly string[]).includes(d.expected.fields?.document_country ?? ''),
    )
    .sort((a, b) => a.file.localeCompare(b.file));
  if (eligible.length < CHIP_PLANS.length + 1)
    throw new Error(
      `chip: only ${eligible.length} documents from ${TEST_COUNTRIES.join(', ')}; need ${CHIP_PLANS.length + 1}`,
    );
  return eligible;
}

export interface ChipManifestEntry {
  id: string;
  case: ChipPlan['case'];
  document: { file: string; mrz_lines: string[]; country: string; portrait_identity: string };
  files: { sod: string; dg1: string; dg2: string; dg14?: string; dg15?: string };
  active_authentication: { private_key: string; key_type: 'rsa' | 'ec'; hash: string } | null;
  sod: { signature: ChipPlan['sodSigner']; lds_hash: string; document_signer: string };
  portrait: { encoding: 'jpeg' | 'jpeg2000'; identity: string };
  expected: ChipPlan['expected'];
  note: string;
}

export interface ChipManifest {
  generator_version: string;
  documents_dir: string;
  trust: {
    csca: string[];
    crl: string[];
    master_list: string;
    master_list_bad_signature: string;
    master_list_signer: string;
    untrusted_csca: string[];
  };
  chips: ChipManifestEntry[];
}

const NOTES: Record<ChipPlan['case'], string> = {
  valid: 'genuine chip of the photographed document',
  'altered-data-group': 'DG2 changed by one byte after the SOD was signed',
  'untrusted-csca': "SOD signed by a Document Signer of a CSCA no anchor holds ('Untrusted CSCA')",
  'expired-document-signer': 'Document Signer certificate expired on 2024-01-01',
  'revoked-document-signer': 'Document Signer serial 104 is on the country CRL (trust.crl)',
  'bad-sod-signature': "the SOD signature's last byte flipped",
  'cloned-without-aa-key':
    "files copied from the genuine chip; private_key is the cloner's own key, not the one in DG15",
  'reused-challenge': 'genuine chip: submit it twice with the same challenge and signature; the second must fail',
  'dg1-from-other-document':
    "a genuine chip of another document of the same country, presented with this document's page",
  'dg2-other-person': "DG2 holds another person's portrait, signed by the Document Signer; MRZ matches the page",
  'malformed-sod': 'EF.SOD cut in half: the PUT must answer 422',
};

export async function generateChipTestdata(): Promise<ChipManifest> {
  const manifestPath = path.join(chipTestdataDir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const existing = JSON.parse(await readFile(manifestPath, 'utf8')) as ChipManifest;
    if (existing.generator_version === GENERATOR_VERSION) return existing;
  }
  const labels = await generateDocumentTestdata();
  await rm(chipTestdataDir, { recursive: true, force: true });
  await mkdir(path.join(chipTestdataDir, 'pki'), { recursive: true });
  const write = async (relative: string, data: Buffer | string): Promise<string> => {
    await mkdir(path.dirname(path.join(chipTestdataDir, relative)), { recursive: true });
    await writeFile(path.join(chipTestdataDir, relative), data);
    return relative;
  };

  const pkis = new Map<string, CountryPki>();
  const trust: ChipManifest['trust'] = {
    csca: [],
    crl: [],
    untrusted_csca: [],
    master_list: '',
    master_list_bad_signature: '',
    master_list_signer: '',
  };
  for (const country of TEST_COUNTRIES) {
    const pki = makeCountryPki(country);
    pkis.set(country, pki);
    const cscaPem = pem('CERTIFICATE', pki.csca.der);
    await checkCommittedCsca(country, cscaPem);
    trust.csca.push(await write(`pki/csca-${country}.pem`, cscaPem));
    trust.untrusted_csca.push(
      await write(`pki/untrusted-csca-${country}.pem`, pem('CERTIFICATE', pki.untrustedCsca.der)),
    );
    trust.crl.push(await write(`pki/crl-${country}.crl`, pki.crl));
    await checkCommittedCrl(country, pki.crl);
    for (const [file, ds] of [
      ['ds-rsa', pki.dsRsa],
      ['ds-ec', pki.dsEc],
      ['ds-expired', pki.dsExpired],
      ['ds-revoked', pki.dsRevoked],
      ['ds-untrusted', pki.dsUntrusted],
    ] as const)
      await write(`pki/${file}-${country}.pem`, pem('CERTIFICATE', ds.der));
  }
  const first = pkis.get(TEST_COUNTRIES[0])!;
  const mlSigner = makeSigner(
    first.csca,
    `Master List Signer ${TEST_COUNTRIES[0]}`,
    301,
    seededEcKey('master-list-signer', 'brainpoolP256r1'),
    CURRENT,
    OID.masterListSigner,
  );
  trust.master_list_signer = await write('pki/master-list-signer.pem', pem('CERTIFICATE', mlSigner.der));
  const masterList = makeMasterList(
    TEST_COUNTRIES.map((c) => pkis.get(c)!.csca.der),
    mlSigner,
  );
  trust.master_list = await write('pki/test-master-list.ml', masterList);
  const badList = Buffer.from(masterList);
  badList[badList.length - 1] ^= 0x01;
  trust.master_list_bad_signature = await write('pki/test-master-list-bad-signature.ml', badList);

  const documents = pickDocuments(labels);
  const portraits = new Map<string, Buffer>();
  const portraitOf = async (identity: string): Promise<Buffer> => {
    if (!portraits.has(identity)) {
      const source = faceSources.find((s) => s.identity === identity);
      if (!source) throw new Error(`chip: no face source "${identity}"`);
      portraits.set(identity, await loadPortrait(assetsDir, source));
    }
    return portraits.get(identity)!;
  };
  const chips: ChipManifestEntry[] = [];
  for (const [index, plan] of CHIP_PLANS.entries()) {
    const page = documents[index];
    const country = page.expected.fields!.document_country;
    // The chip's own document: the page's, except where a chip of another document is presented.
    let chipDocument = page;
    if (plan.case === 'dg1-from-other-document') {
      chipDocument =
        documents.slice(CHIP_PLANS.length).find((d) => d.expected.fields!.document_country === country) ??
        documents[CHIP_PLANS.length];
    }
    const pageIdentity = portraitIdentityOf(page);
    let portraitIdentity = portraitIdentityOf(chipDocument);
    if (plan.case === 'dg2-other-person') {
      const others = ['grace-hopper', 'astronaut', 'messi'].filter((id) => id !== pageIdentity);
      portraitIdentity = others[0];
    }
    const chipPki = pkis.get(chipDocument.expected.fields!.document_country)!;
    const chip = await makeChip(plan, chipDocument, chipPki, await portraitOf(portraitIdentity));
    const id = `chip-${String(index + 1).padStart(2, '0')}-${plan.case}`;
    const files: ChipManifestEntry['files'] = {
      sod: await write(`chips/${id}/EF.SOD`, chip.sod),
      dg1: await write(`chips/${id}/EF.DG1`, chip.dataGroups.get(1)!),
      dg2: await write(`chips/${id}/EF.DG2`, chip.dataGroups.get(2)!),
    };
    if (chip.dataGroups.has(14)) files.dg14 = await write(`chips/${id}/EF.DG14`, chip.dataGroups.get(14)!);
    if (chip.dataGroups.has(15)) files.dg15 = await write(`chips/${id}/EF.DG15`, chip.dataGroups.get(15)!);
    const aa =
      plan.aa && chip.aaKey
        ? {
            private_key: await write(`chips/${id}/aa-private-key.pem`, privatePem(chip.aaKey.privateKey)),
            key_type: plan.aa.type,
            hash: plan.aa.type === 'rsa' ? plan.aa.hash : 'sha256',
          }
        : null;
    const dsName =
      plan.case === 'untrusted-csca'
        ? 'ds-untrusted'
        : plan.case === 'expired-document-signer'
          ? 'ds-expired'
          : plan.case === 'revoked-document-signer'
            ? 'ds-revoked'
            : plan.sodSigner === 'ecdsa'
              ? 'ds-ec'
              : 'ds-rsa';
    chips.push({
      id,
      case: plan.case,
      document: { file: page.file, mrz_lines: page.mrz_lines, country, portrait_identity: pageIdentity },
      files,
      active_authentication: aa,
      sod: {
        signature: plan.sodSigner,
        lds_hash: plan.ldsHash,
        document_signer: `pki/${dsName}-${chipDocument.expected.fields!.document_country}.pem`,
      },
      portrait: { encoding: plan.portrait, identity: portraitIdentity },
      expected: plan.expected,
      note: NOTES[plan.case],
    });
  }
  const manifest: ChipManifest = {
    generator_version: GENERATOR_VERSION,
    documents_dir: '.state/testdata/documents',
    trust,
    chips,
  };
  await copyFile(path.join(__dirname, 'README.md'), path.join(chipTestdataDir, 'README.md'));
  // manifest.json is written last: its presence marks a complete set.
  await writeFile(manifestPath, JSON.stringify(manifest, null, 1) + '\n');
  console.log(`chip: ${chips.length} chips (${TEST_COUNTRIES.length} test countries) in ${chipTestdataDir}`);
  return manifest;
}

if (require.main === module) {
  generateChipTestdata().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
