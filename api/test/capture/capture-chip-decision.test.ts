/**
 * The passport chip decides with the rest of the capture, on the real stack (FerretDB, Redis, the
 * inference service on the real models, the API and a worker) over HTTP. The chips are the
 * project's test chips (`npm run testdata:chip`: a test PKI, LDS files of the synthetic documents,
 * an SOD signed over them, and the negative cases of issue 36); sandbox keys trust the test CSCA.
 * Each case photographs the chip's own document, performs the pinned challenge, takes a selfie and
 * sends the chip as a phone would, answering the server's challenge with the chip's AA key.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureStack } from './support/capture-stack';
import { cardSides, livenessOf, selfieOf, TESTDATA } from './support/applicant-files';
import { capture, reportOf, resultOf } from './support/captured-applicant';
import type { CaptureClient } from './support/capture-client';
import { internalAuthenticate } from '../../../inference/tools/testdata/chip/chip-simulator';

const CHIP_DIR = path.join(TESTDATA, 'chip');

interface ChipCase {
  id: string;
  case: string;
  document: { file: string; portrait_identity: string };
  files: Record<string, string>;
  active_authentication: { private_key: string; key_type: 'rsa' | 'ec'; hash: string } | null;
  expected: { document_chip: string | null; reason: string | null };
}
interface DocumentLabel {
  file: string;
  format: string;
  expected: { fields: { name: string } };
}

const chips = (JSON.parse(readFileSync(path.join(CHIP_DIR, 'manifest.json'), 'utf8')) as { chips: ChipCase[] }).chips;
const labels = (
  JSON.parse(readFileSync(path.join(TESTDATA, 'documents/labels.json'), 'utf8')) as { documents: DocumentLabel[] }
).documents;
const chipOf = (id: string) => chips.find((c) => c.id === id)!;

/** Identities with prerecorded challenge sequences; other documents' holders are played by the astronaut. */
const PERFORMERS = new Set(['astronaut', 'bearded-man']);

/** The chip's files as the phone sends them, with its answer to a freshly drawn challenge when it has an AA key. */
async function chipBody(client: CaptureClient, chip: ChipCase): Promise<Record<string, unknown>> {
  const file = (name: string) => readFileSync(path.join(CHIP_DIR, chip.files[name])).toString('base64');
  const body: Record<string, unknown> = Object.fromEntries(Object.keys(chip.files).map((name) => [name, file(name)]));
  if (chip.active_authentication) {
    const drawn = await client.chipChallenge();
    expect(drawn.status).toBe(200);
    const challenge = Buffer.from(drawn.body.challenge, 'base64');
    const key = createPrivateKey(readFileSync(path.join(CHIP_DIR, chip.active_authentication.private_key)));
    const signature = internalAuthenticate(key, challenge, {
      rsaHash: chip.active_authentication.hash as 'sha1',
    });
    body.active_authentication = { challenge: drawn.body.challenge, signature: signature.toString('base64') };
  }
  return body;
}

describe('the passport chip in the decision (test PKI, synthetic documents, real models)', () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  /**
   * One applicant with the chip's document through every capture to the decision. `send` puts the
   * chip (or not) once the document is read; the session is created with `documentChip`.
   */
  async function decide(
    chip: ChipCase,
    options: { documentChip?: string; send?: (client: CaptureClient) => Promise<void> } = {},
  ) {
    const label = labels.find((l) => l.file === chip.document.file)!;
    const image = readFileSync(path.join(TESTDATA, 'documents', label.file));
    const { id, client } = await capture(stack, {
      expected_name: label.expected.fields.name,
      ...(options.documentChip ? { document_chip: options.documentChip } : {}),
    });
    if (label.format === 'TD1') {
      const { front, back } = await cardSides(image);
      expect((await client.document('front', 'id_card', front)).status).toBe(200);
      expect((await client.document('back', 'id_card', back)).body).toMatchObject({ readable: true });
    } else {
      expect((await client.document('front', 'passport', image)).body).toMatchObject({ readable: true });
    }
    const holder = PERFORMERS.has(chip.document.portrait_identity) ? chip.document.portrait_identity : 'astronaut';
    const send =
      options.send ??
      (async (c: CaptureClient) => {
        const put = await c.chip(await chipBody(c, chip));
        expect(put.body).toMatchObject({ well_formed: true });
      });
    await send(client);
    await client.liveness(livenessOf(holder, 'synthetic-performs-challenge').frames);
    await client.selfie(selfieOf(holder));
    expect((await client.submit()).status).toBe(202);
    expect((await client.decided(180_000)).decision).toBe('done');
    return { result: await resultOf(stack, id), report: await reportOf(stack, id) };
  }

  it('verifies a genuine chip with active authentication, with its evidence in the report and its portrait the face-match reference', async () => {
    const { result, report } = await decide(chipOf('chip-01-valid'));
    expect(result).toMatchObject({
      status: 'VERIFIED',
      failure_reason: null,
      checks: { document: 'PASS', face_match: 'PASS', document_chip: 'PASS' },
    });
    expect(report.checks.document_chip).toMatchObject({
      verdict: 'PASS',
      reason: null,
      evidence: {
        issuing_state: 'PRT',
        document_signer: { country: 'PT' },
        hash_algorithm: expect.stringMatching(/SHA-?256/i) as unknown,
        data_groups_verified: [1, 2, 15],
        active_authentication: 'PASSED',
        mrz_fields_mismatched: [],
      },
    });
    const faceScores = report.checks.face_match.scores.map((s) => s.name);
    expect(faceScores.some((n) => n.startsWith('page_portrait_'))).toBe(true);
    expect(faceScores.some((n) => !n.startsWith('page_portrait_'))).toBe(true);
  }, 240_000);

  it('raises the confidence of the same capture when its genuine chip is read (the page read no longer bounds it)', async () => {
    const genuine = chipOf('chip-04-valid');
    const withChip = await decide(genuine);
    const without = await decide(genuine, { send: async () => {} });
    expect(withChip.result).toMatchObject({ status: 'VERIFIED', checks: { document_chip: 'PASS' } });
    expect(withChip.report.checks.document_chip.evidence).toMatchObject({ active_authentication: 'NOT_SUPPORTED' });
    expect(without.result).toMatchObject({ status: 'VERIFIED', checks: { document_chip: 'NOT_PERFORMED' } });
    expect(withChip.result.confidence).toBeGreaterThanOrEqual(without.result.confidence);
  }, 360_000);

  it.each(
    chips
      .filter((c) => c.expected.document_chip === 'FAIL' && c.case !== 'reused-challenge')
      .map((c) => [c.case, c.expected.reason, c.id] as const),
  )(
    'fails a chip with %s as %s',
    async (_case, reason, id) => {
      const { result, report } = await decide(chipOf(id));
      expect(result).toMatchObject({ status: 'FAILED', failure_reason: reason, checks: { document_chip: 'FAIL' } });
      expect(report.checks.document_chip).toMatchObject({ verdict: 'FAIL', reason });
      // A chip that answered the challenge and failed is reported as such, never as not performed.
      if (reason === 'CHIP_CLONE_SUSPECTED')
        expect(report.checks.document_chip.evidence?.active_authentication).toBe('FAILED');
    },
    240_000,
  );

  it('fails a chip answer replayed with a spent challenge as CHIP_CLONE_SUSPECTED', async () => {
    const chip = chipOf('chip-13-reused-challenge');
    const { result } = await decide(chip, {
      send: async (client) => {
        const body = await chipBody(client, chip);
        expect((await client.chip(body)).status).toBe(200);
        // The same challenge and signature again: the first upload spent the challenge.
        expect((await client.chip(body)).status).toBe(200);
      },
    });
    expect(result).toMatchObject({ status: 'FAILED', failure_reason: 'CHIP_CLONE_SUSPECTED' });
  }, 240_000);

  it('fails a session that requires the chip when none was sent (CHIP_REQUIRED), and ignores even a forged one when it is off', async () => {
    const required = await decide(chipOf('chip-04-valid'), { documentChip: 'required', send: async () => {} });
    expect(required.result).toMatchObject({ status: 'FAILED', failure_reason: 'CHIP_REQUIRED' });
    const off = await decide(chipOf('chip-07-altered-data-group'), { documentChip: 'off' });
    expect(off.result).toMatchObject({ status: 'VERIFIED', checks: { document_chip: 'NOT_PERFORMED' } });
    expect(off.report.checks.document_chip).toMatchObject({ verdict: 'NOT_PERFORMED', reason: null });
  }, 360_000);
});
