import { ZodType } from 'zod';
import { AppError, ErrorDetail } from '../../shared/app-error';

/** Turns zod's issues into the contract's details: one entry per bad field, unknown fields included. */
export function issuesToDetails(
  issues: ReadonlyArray<{ code: string; path: PropertyKey[]; message: string; keys?: string[] }>,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = jsonPath(issue.path);
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) details.push({ field: base ? `${base}.${key}` : key, message: 'unknown field' });
    } else if (!details.some((d) => d.field === (base || 'body'))) {
      // One entry per field: the first problem found is the one worth fixing first.
      details.push({ field: base || 'body', message: issue.message });
    }
  }
  return details;
}

function jsonPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    '',
  );
}

/** Validates `value` against `schema`, adding `extra` problems found outside the schema, all at once. */
export function validate<T>(schema: ZodType<T>, value: unknown, extra: ErrorDetail[] = []): T {
  const parsed = schema.safeParse(value);
  const details = [...(parsed.success ? [] : issuesToDetails(parsed.error.issues)), ...extra];
  if (details.length > 0 || !parsed.success) {
    throw new AppError('VALIDATION_ERROR', 'The request has invalid fields.', details);
  }
  return parsed.data;
}
