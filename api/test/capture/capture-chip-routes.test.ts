import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mongo } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import type { ApiError } from '../support/api-bodies';
import { call, validSession } from '../support/http';
import { IssuedAccount, startTestApi, TestApi } from '../support/test-api';

const CHIPS = path.resolve(__dirname, '../../../.state/testdata/chip/chips');
const file = (chip: string, name: string) => readFileSync(path.join(CHIPS, chip, name)).toString('base64');
const chipBody = (chip: string) => ({
  sod: file(chip, 'EF.SOD'),
  dg1: file(chip, 'EF.DG1'),
  dg2: file(chip, 'EF.DG2'),
});

interface Receipt {
  well_formed: boolean;
  received: string[];
}

describe('the chip capture routes (challenge and upload) on the real API and store', () => {
  let api: TestApi;
  let account: IssuedAccount;

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  /** A session whose capture has started on one device: its id and that device's token. */
  async function startedCapture(): Promise<{ id: string; token: string }> {
    const created = await call<{ session_id: string }>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      body: validSession({ document_chip: 'required' }),
    });
    const id = created.json.session_id;
    const started = await call<{ capture_token: string }>(api.baseUrl, 'POST', `/v1/capture/${id}/start`);
    expect(started.status).toBe(200);
    return { id, token: started.json.capture_token };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('draws an 8-byte challenge for at most 5 minutes, and only for the device holding the token', async () => {
    const { id, token } = await startedCapture();
    const before = Date.now();
    const res = await call<{ challenge: string; expires_at: string }>(
      api.baseUrl,
      'POST',
      `/v1/capture/${id}/chip/challenge`,
      { headers: bearer(token) },
    );
    expect(res.status).toBe(200);
    expect(Buffer.from(res.json.challenge, 'base64')).toHaveLength(8);
    const expires = Date.parse(res.json.expires_at);
    expect(expires).toBeGreaterThan(before);
    expect(expires - before).toBeLessThanOrEqual(5 * 60_000 + 1000);
    const again = await call<{ challenge: string }>(api.baseUrl, 'POST', `/v1/capture/${id}/chip/challenge`, {
      headers: bearer(token),
    });
    expect(again.json.challenge).not.toBe(res.json.challenge);
    const anonymous = await call(api.baseUrl, 'POST', `/v1/capture/${id}/chip/challenge`);
    expect(anonymous.status).toBe(401);
  });

  it('takes well-formed chip files, answers only what was received, and keeps them encrypted', async () => {
    const { id, token } = await startedCapture();
    const body = { ...chipBody('chip-01-valid'), dg15: file('chip-01-valid', 'EF.DG15') };
    const res = await call<Receipt>(api.baseUrl, 'PUT', `/v1/capture/${id}/document/chip`, {
      headers: bearer(token),
      body,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ well_formed: true, received: ['dg1', 'dg15', 'dg2', 'sod'] });
    const store = await connectMongo(api.config.MONGODB_URI);
    try {
      const state = await store.collection('capture_states').findOne({ _id: `${id}:1` as never });
      expect(state?.chip).toMatchObject({ uploads: 1, data_groups: [1, 2, 15], active_authentication: false });
      const blobId = new mongo.ObjectId(String((state?.chip as { blob_id: string }).blob_id));
      expect(await store.collection('capture_blobs.files').countDocuments({ _id: blobId })).toBe(1);
      const chunks = await store.collection('capture_blobs.chunks').find({ files_id: blobId }).toArray();
      const stored = Buffer.concat(chunks.map((chunk) => Buffer.from((chunk.data as mongo.Binary).buffer)));
      expect(stored.length).toBeGreaterThan(0);
      // Sealed at rest: neither the base64 sent nor DG1's MRZ bytes appear in what is stored.
      expect(stored.includes(Buffer.from(body.dg1.slice(0, 40)))).toBe(false);
      expect(stored.includes(Buffer.from(body.dg1, 'base64').subarray(5, 30))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('answers a malformed EF.SOD with 422 naming the field, never a 500', async () => {
    const { id, token } = await startedCapture();
    const res = await call<ApiError>(api.baseUrl, 'PUT', `/v1/capture/${id}/document/chip`, {
      headers: bearer(token),
      body: chipBody('chip-16-malformed-sod'),
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.json.error.details?.map((d) => d.field)).toEqual(['sod']);
  });

  it('answers missing, non-base64 or unknown members with 422 naming each', async () => {
    const { id, token } = await startedCapture();
    const res = await call<ApiError>(api.baseUrl, 'PUT', `/v1/capture/${id}/document/chip`, {
      headers: bearer(token),
      body: { sod: file('chip-01-valid', 'EF.SOD'), dg1: 'not base64!', colour: 'blue' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.details?.map((d) => d.field).sort()).toEqual(['colour', 'dg1', 'dg2']);
  });

  it('refuses chip files without the capture token', async () => {
    const { id } = await startedCapture();
    const res = await call(api.baseUrl, 'PUT', `/v1/capture/${id}/document/chip`, { body: chipBody('chip-01-valid') });
    expect(res.status).toBe(401);
  });
});
