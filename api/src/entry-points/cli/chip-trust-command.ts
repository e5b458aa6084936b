/**
 * `npm run admin -- chip-trust list|import <file>`: the passport chip trust anchors an operator
 * manages. `list` shows what CHIP_TRUST_ANCHORS loads; `import` reads a CSCA certificate (PEM or
 * DER), a CRL or a CSCA Master List, refuses it unless it parses and (for a Master List) its
 * signature verifies, and copies it into the first folder CHIP_TRUST_ANCHORS names. The API reads
 * the anchors at start: restart it to use an import. These commands touch files only, no store.
 */
import { copyFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chipTrustAnchorPaths } from '../../config/env';
import { loadTrustAnchors, readAnchorFile, type TrustStore } from '../../data-access/chip-trust/trust-anchors';
import { AppError } from '../../shared/app-error';

export const CHIP_TRUST_USAGE = `  chip-trust list   (the CSCAs and CRLs CHIP_TRUST_ANCHORS loads)
  chip-trust import <file> [--into <folder>]   (a CSCA PEM/DER, a CRL or a CSCA Master List, verified, copied into the first folder of CHIP_TRUST_ANCHORS)`;

function describe(store: TrustStore) {
  return {
    anchors: store.anchors.map((a) => {
      const usage = a.certificate.extensions?.find((e) => e.extnID === '2.5.29.15');
      const bits = usage ? usage.extnValue.valueBlock.valueHexView[3] : undefined;
      return {
        country: a.country,
        subject: a.subject,
        serial: Buffer.from(a.certificate.serialNumber.valueBlock.valueHexView).toString('hex'),
        key_usage:
          bits === undefined
            ? []
            : [
                [0x80, 'digitalSignature'],
                [0x04, 'keyCertSign'],
                [0x02, 'cRLSign'],
              ]
                .filter(([bit]) => (bits & (bit as number)) !== 0)
                .map(([, name]) => name),
        not_before: a.certificate.notBefore.value.toISOString(),
        not_after: a.certificate.notAfter.value.toISOString(),
        source: a.source,
      };
    }),
    crls: store.crls.map((c) => ({
      issuer_country: String(c.issuer.typesAndValues.find((t) => t.type === '2.5.4.6')?.value.valueBlock.value ?? ''),
      revoked: c.revokedCertificates?.length ?? 0,
      next_update: c.nextUpdate?.value.toISOString() ?? null,
    })),
  };
}

function refuse(error: unknown): never {
  throw new AppError('VALIDATION_ERROR', (error as Error).message);
}

export function chipTrustCommand(args: string[], env: NodeJS.ProcessEnv = process.env): unknown {
  const [verb, ...rest] = args;
  const configured = chipTrustAnchorPaths(env.CHIP_TRUST_ANCHORS);
  if (verb === 'list') {
    try {
      return describe(loadTrustAnchors(configured));
    } catch (error) {
      refuse(error);
    }
  }
  if (verb === 'import') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { into: { type: 'string' } },
      allowPositionals: true,
    });
    const file = positionals[0];
    if (!file || !existsSync(file))
      throw new AppError('VALIDATION_ERROR', 'chip-trust import needs an existing <file>');
    const folder = values.into ?? configured.find((entry) => existsSync(entry) && statSync(entry).isDirectory());
    if (!folder || !existsSync(folder) || !statSync(folder).isDirectory())
      throw new AppError('VALIDATION_ERROR', 'no folder to import into: pass --into or name one in CHIP_TRUST_ANCHORS');
    let store: TrustStore;
    try {
      store = readAnchorFile(file);
    } catch (error) {
      refuse(error);
    }
    const target = path.join(folder, path.basename(file));
    if (existsSync(target)) throw new AppError('CONFLICT', `${target} exists already`);
    copyFileSync(file, target);
    return { imported: target, ...describe(store) };
  }
  throw new AppError('VALIDATION_ERROR', `usage:\n${CHIP_TRUST_USAGE}`);
}
