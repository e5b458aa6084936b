import { CheckRun, DocumentRead } from '../checks/check-results';
import { decideChecks } from './decide-checks';
import { DecisionInputs } from './decision-inputs';
import type { IntegritySignals } from '../capture/capture-integrity';

const model = { name: 'm', version: '1', sha256: 'a'.repeat(64) };
const pass = (name: string, value: number, threshold: number): CheckRun => ({
  verdict: 'PASS',
  reason: null,
  scores: [{ name, value, threshold, comparison: 'gte' }],
  models: [model],
  duration_ms: 5,
});
const failed = (reason: string, name: string, value: number, threshold: number): CheckRun => ({
  ...pass(name, value, threshold),
  verdict: 'FAIL',
  reason,
});

const document: DocumentRead = {
  ...pass('mrz_structure', 0.9, 0.5),
  format: 'TD3',
  person: {
    name: 'TOMAS OESTERGAARD',
    dob: '1958-12-21',
    document_type: 'passport',
    document_country: 'MA',
    document_number: 'EL9157721',
    expiry_date: '2032-01-09',
    nationality: 'MAR',
    address: null,
  },
  corrections: [],
  portrait: null,
};

function inputs(overrides: Partial<DecisionInputs> = {}): DecisionInputs {
  return {
    document,
    declaredType: 'passport',
    hasPortrait: true,
    expected: { name: 'Tomas Oestergaard', dob: '1958-12-21', address: null },
    liveness: { ...pass('steps_completed', 3, 3), failed_step: null, face_found: [true] },
    antispoof: pass('real_score', 0.9, 0.35),
    faceMatch: { ...pass('similarity', 0.9, 0.7), similarity: 0.9 },
    documentChip: null,
    reused: [],
    integrity: null,
    sanctions: null,
    now: new Date('2026-11-23T00:00:00Z'),
    ...overrides,
  };
}

describe('deciding from check outcomes', () => {
  it('verifies when every check passes, with the person from the document and a confidence of at least 0.5', () => {
    const { decision } = decideChecks(inputs());
    expect(decision).toMatchObject({
      status: 'VERIFIED',
      failure_reason: null,
      checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
    });
    expect(decision.person).toMatchObject({
      name: 'TOMAS OESTERGAARD',
      dob: '1958-12-21',
      document_country: 'MA',
      document_jurisdiction: null,
    });
    expect(decision.document_expiry).toBe('2032-01-09');
    expect(decision.confidence).toBeGreaterThanOrEqual(0.5);
    expect(decision.checks.sanctions).toBeUndefined();
  });

  it('names the first failing reason in the contract precedence when several checks fail', () => {
    const { decision } = decideChecks(
      inputs({
        expected: { name: 'Tomas Oestergaard', dob: '1970-01-01', address: null },
        faceMatch: { ...failed('FACE_MATCH_BELOW_THRESHOLD', 'similarity', 0.3, 0.7), similarity: 0.3 },
        antispoof: failed('SPOOF_DETECTED', 'real_score', 0.1, 0.35),
      }),
    );
    expect(decision).toMatchObject({
      status: 'FAILED',
      failure_reason: 'DOB_MISMATCH',
      checks: { document: 'FAIL', antispoof: 'FAIL', face_match: 'FAIL' },
    });
    expect(decision.confidence).toBeLessThan(0.5);
  });

  it('skips antispoof and face match when the selfie shows no face, failing liveness as FACE_NOT_DETECTED', () => {
    const { decision } = decideChecks(inputs({ antispoof: { ...failed('FACE_NOT_DETECTED', 'x', 0, 1), scores: [] } }));
    expect(decision).toMatchObject({
      failure_reason: 'FACE_NOT_DETECTED',
      checks: { liveness: 'FAIL', antispoof: 'SKIPPED', face_match: 'SKIPPED' },
    });
  });

  it('skips face match when the document gave no portrait', () => {
    const { decision } = decideChecks(inputs({ hasPortrait: false, faceMatch: null }));
    expect(decision).toMatchObject({ status: 'VERIFIED', checks: { face_match: 'SKIPPED' } });
  });

  it('fails an unreadable document with no person and a confidence of 0', () => {
    const { decision } = decideChecks(
      inputs({
        document: {
          ...document,
          verdict: 'FAIL',
          reason: 'DOCUMENT_UNREADABLE',
          scores: [],
          person: null,
          format: null,
        },
      }),
    );
    expect(decision).toMatchObject({
      status: 'FAILED',
      failure_reason: 'DOCUMENT_UNREADABLE',
      person: null,
      confidence: 0,
    });
  });

  it('fails the document check on an address that does not match the one on the document', () => {
    const withAddress = {
      ...document,
      person: {
        ...document.person!,
        address: {
          line1: '171 ULICA FLORIANSKA',
          line2: null,
          city: 'KRAKOW',
          region: null,
          postal_code: '31-042',
          country: 'PL',
        },
      },
    };
    expect(
      decideChecks(
        inputs({
          document: withAddress,
          expected: { name: 'Tomas Oestergaard', dob: null, address: '171 ulica Floriańska, 31-042 Kraków' },
        }),
      ).decision.status,
    ).toBe('VERIFIED');
    expect(
      decideChecks(
        inputs({
          document: withAddress,
          expected: { name: 'Tomas Oestergaard', dob: null, address: '12 rue de Rivoli, 75001 Paris' },
        }),
      ).decision,
    ).toMatchObject({ failure_reason: 'ADDRESS_MISMATCH', checks: { document: 'FAIL' } });
  });

  it('reports sanctions only for accounts with the add-on: SKIPPED without a list, MATCH failing the session', () => {
    const skipped = decideChecks(
      inputs({ sanctions: { verdict: 'SKIPPED', reason: 'NO_LIST_LOADED', duration_ms: 0 } }),
    );
    expect(skipped.decision).toMatchObject({ status: 'VERIFIED', checks: { sanctions: 'SKIPPED' } });
    const hit = { list: 'ofac-sdn', entry_id: '123', matched_name: 'TOMAS OESTERGAARD', score: 0.97 };
    const matched = decideChecks(
      inputs({
        sanctions: { verdict: 'MATCH', threshold: 0.9, score: 0.97, best: hit, lists: [], duration_ms: 2 },
      }),
    );
    expect(matched.decision).toMatchObject({
      status: 'FAILED',
      failure_reason: 'SANCTIONS_MATCH',
      checks: { sanctions: 'MATCH' },
    });
    expect(matched.report.sanctions).toMatchObject({ verdict: 'MATCH', match: hit });
  });

  describe('with the passport chip', () => {
    const evidence = {
      issuing_state: 'MAR',
      document_signer: { subject: 'CN=DS', serial: '01', country: 'MA' },
      csca: { subject: 'CN=CSCA' },
      hash_algorithm: 'SHA-256',
      signature_algorithm: 'RSASSA-PSS',
      data_groups_verified: [1, 2],
      active_authentication: 'PASSED' as const,
      chip_authentication: 'NOT_PRESENT' as const,
    };
    const chip = (
      overrides: Partial<NonNullable<DecisionInputs['documentChip']>> = {},
    ): DecisionInputs['documentChip'] => ({
      mode: 'optional',
      verification: { verdict: 'PASS', reason: null, detail: null, evidence },
      mrzMismatches: [],
      portraitMatch: { ...pass('similarity', 0.95, 0.7), similarity: 0.95 },
      duration_ms: 4,
      ...overrides,
    });

    it("verifies with a verified chip, its evidence in the report and its portrait the face-match reference beside the page's", () => {
      const { decision, report } = decideChecks(inputs({ documentChip: chip() }));
      expect(decision).toMatchObject({ status: 'VERIFIED', checks: { document_chip: 'PASS', face_match: 'PASS' } });
      expect(report.document_chip).toMatchObject({
        verdict: 'PASS',
        reason: null,
        evidence: { ...evidence, mrz_fields_mismatched: [] },
      });
      expect(report.face_match.scores.map((s) => [s.name, s.value])).toEqual([
        ['similarity', 0.95],
        ['page_portrait_similarity', 0.9],
      ]);
    });

    it('raises the confidence when the page read was the weakest score, since the chip proves what the page only suggests', () => {
      const weakPage = {
        ...document,
        scores: [{ name: 'mrz_min_row_confidence', value: 0.55, threshold: 0.5, comparison: 'gte' as const }],
      };
      const without = decideChecks(inputs({ document: weakPage })).decision.confidence;
      const withChip = decideChecks(inputs({ document: weakPage, documentChip: chip() })).decision.confidence;
      expect(without).toBeCloseTo(0.55, 4);
      expect(withChip).toBeGreaterThan(without);
    });

    it("fails the session with the chip's reason ahead of later checks' reasons", () => {
      const altered = chip({
        verification: { verdict: 'FAIL', reason: 'CHIP_DATA_ALTERED', detail: 'DG2', evidence },
        portraitMatch: null,
      });
      const { decision } = decideChecks(
        inputs({
          documentChip: altered,
          faceMatch: { ...failed('FACE_MATCH_BELOW_THRESHOLD', 'similarity', 0.2, 0.7), similarity: 0.2 },
        }),
      );
      expect(decision).toMatchObject({
        status: 'FAILED',
        failure_reason: 'CHIP_DATA_ALTERED',
        checks: { document_chip: 'FAIL', face_match: 'FAIL' },
      });
      expect(decision.confidence).toBeLessThan(0.5);
    });

    it('fails a chip from another document (CHIP_MRZ_MISMATCH), naming only the fields that differ', () => {
      const { decision, report } = decideChecks(
        inputs({ documentChip: chip({ mrzMismatches: ['document_number', 'name'], portraitMatch: null }) }),
      );
      expect(decision.failure_reason).toBe('CHIP_MRZ_MISMATCH');
      expect(report.document_chip.evidence?.mrz_fields_mismatched).toEqual(['document_number', 'name']);
    });

    it('fails a chip whose portrait is another person (CHIP_PORTRAIT_MISMATCH) and keeps the page portrait as the reference', () => {
      const other = { ...failed('FACE_MATCH_BELOW_THRESHOLD', 'similarity', 0.1, 0.7), similarity: 0.1 };
      const { decision, report } = decideChecks(inputs({ documentChip: chip({ portraitMatch: other }) }));
      expect(decision).toMatchObject({
        failure_reason: 'CHIP_PORTRAIT_MISMATCH',
        checks: { document_chip: 'FAIL', face_match: 'PASS' },
      });
      expect(report.face_match.scores.map((s) => s.name)).toEqual(['similarity']);
    });

    it('fails a required chip that was never sent with CHIP_REQUIRED, and leaves an optional one NOT_PERFORMED', () => {
      const none = { verification: null, portraitMatch: null };
      expect(decideChecks(inputs({ documentChip: chip({ ...none, mode: 'required' }) })).decision).toMatchObject({
        status: 'FAILED',
        failure_reason: 'CHIP_REQUIRED',
      });
      const optional = decideChecks(inputs({ documentChip: chip(none) }));
      expect(optional.decision).toMatchObject({ status: 'VERIFIED', checks: { document_chip: 'NOT_PERFORMED' } });
      expect(optional.report.document_chip).toMatchObject({ verdict: 'NOT_PERFORMED', reason: null });
    });

    it('ignores a chip when the session says off, even a failing one', () => {
      const altered = chip({
        mode: 'off',
        verification: { verdict: 'FAIL', reason: 'CHIP_DATA_ALTERED', detail: null, evidence },
      });
      expect(decideChecks(inputs({ documentChip: altered })).decision).toMatchObject({
        status: 'VERIFIED',
        checks: { document_chip: 'NOT_PERFORMED', face_match: 'PASS' },
      });
    });
  });

  it("fails a submission that presents another session's captures with CAPTURE_REUSED on the checks that judge them, keeping a check's own failure", () => {
    const { decision, report } = decideChecks(
      inputs({
        reused: [
          { kind: 'document', session_id: 'ses_a' },
          { kind: 'liveness', session_id: 'ses_a' },
          { kind: 'liveness', session_id: 'ses_a' },
        ],
        liveness: { ...failed('LIVENESS_FAILED', 'steps_completed', 1, 3), failed_step: 'BLINK', face_found: [true] },
      }),
    );
    expect(decision).toMatchObject({
      status: 'FAILED',
      failure_reason: 'CAPTURE_REUSED',
      checks: { document: 'FAIL', liveness: 'FAIL', antispoof: 'PASS' },
    });
    expect(report.document).toMatchObject({ reason: 'CAPTURE_REUSED' });
    expect(report.liveness).toMatchObject({ reason: 'LIVENESS_FAILED' });
    expect(report.liveness.scores).toContainEqual({
      name: 'captures_reused',
      value: 2,
      threshold: 0,
      comparison: 'lte',
    });
    expect(decision.confidence).toBeLessThan(0.5);
  });

  describe('capture integrity', () => {
    const clean: IntegritySignals = {
      client: 'web',
      camera_label: 'FaceTime HD Camera (1C1C:B782)',
      webdriver: false,
      renderer: 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)',
      constraint_probe: { supported: true, control: 'zoom', responded: true, change: 21.5, baseline: 1.2 },
      frame_timing: { api: 'rvfc', frames: 29, median_interval_ms: 33.3, jitter_ms: 2.1 },
    };
    const obs: IntegritySignals = { ...clean, camera_label: 'OBS Virtual Camera' };

    it('reports NOT_PERFORMED when the client sent nothing, and decides as before', () => {
      const { decision, report } = decideChecks(inputs());
      expect(decision.status).toBe('VERIFIED');
      expect(report.capture_integrity).toMatchObject({ verdict: 'NOT_PERFORMED', scores: [] });
    });

    it('passes clean signals with a zero score per flag, without the raw label or renderer string', () => {
      const { decision, report } = decideChecks(
        inputs({ integrity: { signals: clean, policy: 'fail', enforceable: true } }),
      );
      expect(decision.status).toBe('VERIFIED');
      expect(report.capture_integrity.verdict).toBe('PASS');
      expect(report.capture_integrity.scores.map((s) => [s.name, s.value])).toEqual([
        ['virtual_camera', 0],
        ['test_camera', 0],
        ['webdriver', 0],
        ['software_renderer', 0],
        ['probe_unresponsive', 0],
      ]);
      expect(report.capture_integrity.integrity?.signals?.camera).toEqual({ class: 'physical', product: null });
      expect(JSON.stringify(report.capture_integrity)).not.toMatch(/FaceTime|Apple M2/);
    });

    it("reports a virtual camera as FAIL under the 'report' policy without failing the session or moving its confidence", () => {
      const quiet = decideChecks(inputs());
      const { decision, report } = decideChecks(
        inputs({ integrity: { signals: obs, policy: 'report', enforceable: true } }),
      );
      expect(decision.status).toBe('VERIFIED');
      expect(decision.confidence).toBe(quiet.decision.confidence);
      expect(report.capture_integrity).toMatchObject({
        verdict: 'FAIL',
        reason: 'CAPTURE_TAMPERED',
        integrity: { policy: 'report', enforced: false, flags: ['virtual_camera'] },
      });
      expect(report.capture_integrity.integrity?.signals?.camera).toEqual({
        class: 'virtual',
        product: 'OBS Virtual Camera',
      });
    });

    it("fails a production session flagged under the 'fail' policy with CAPTURE_TAMPERED on liveness, after CAPTURE_REUSED", () => {
      const { decision, report } = decideChecks(
        inputs({ integrity: { signals: { ...obs, webdriver: true }, policy: 'fail', enforceable: true } }),
      );
      expect(decision).toMatchObject({
        status: 'FAILED',
        failure_reason: 'CAPTURE_TAMPERED',
        checks: { liveness: 'FAIL', document: 'PASS' },
      });
      expect(report.liveness).toMatchObject({ verdict: 'FAIL', reason: 'CAPTURE_TAMPERED' });
      expect(report.liveness.scores).toContainEqual({
        name: 'capture_integrity_flags',
        value: 2,
        threshold: 0,
        comparison: 'lte',
      });
      expect(decision.confidence).toBeLessThan(0.5);
      const both = decideChecks(
        inputs({
          integrity: { signals: obs, policy: 'fail', enforceable: true },
          reused: [{ kind: 'selfie', session_id: 'ses_a' }],
        }),
      );
      expect(both.decision.failure_reason).toBe('CAPTURE_REUSED');
    });

    it('never fails a sandbox session on its signals, whatever the policy (it says so: enforced false)', () => {
      const { decision, report } = decideChecks(
        inputs({ integrity: { signals: obs, policy: 'fail', enforceable: false } }),
      );
      expect(decision.status).toBe('VERIFIED');
      expect(report.capture_integrity).toMatchObject({ verdict: 'FAIL', integrity: { enforced: false } });
    });
  });
});
