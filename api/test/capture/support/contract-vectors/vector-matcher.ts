import { isDeepStrictEqual } from 'node:util';
import { Json } from './vector-types';

export type Variables = Record<string, Json>;

/** `${name}` in a string, replaced by the variable's value (a missing variable is the vector's error). */
export function interpolate(text: string, vars: Variables): string {
  return text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`the vector uses \${${name}} before it is set`);
    const value = vars[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isMatcher = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).some((k) => k.startsWith('$'));

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value === 'number'
          ? 'number'
          : typeof value;

/**
 * Matches an answer against a vector's expectation (README, "Matching a response"); answers the
 * mismatches, each at its JSON path, and stores `$capture`d values in `vars`.
 */
export function match(expected: Json, actual: unknown, vars: Variables, at = '$'): string[] {
  if (isMatcher(expected)) return matchMatcher(expected, actual, vars, at);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length)
      return [`${at}: expected ${expected.length} items, got ${actual.length}: ${JSON.stringify(actual)}`];
    return expected.flatMap((e, i) => match(e, actual[i], vars, `${at}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeOf(actual) !== 'object') return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    const object = actual as Record<string, unknown>;
    const optional = (key: string) => isMatcher(expected[key]) && '$optional' in (expected[key] as object);
    const extra = Object.keys(object).filter((k) => !(k in expected));
    const missing = Object.keys(expected).filter((k) => !(k in object) && !optional(k));
    return [
      ...extra.map((k) => `${at}.${k}: not in the vector (the answer has a field the contract does not list)`),
      ...missing.map((k) => `${at}.${k}: missing from the answer`),
      ...Object.keys(expected)
        .filter((k) => k in object)
        .flatMap((k) => match(expected[k], object[k], vars, `${at}.${k}`)),
    ];
  }
  return isDeepStrictEqual(expected, actual)
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function matchMatcher(m: { [key: string]: Json }, actual: unknown, vars: Variables, at: string): string[] {
  const problems = matchKind(m, actual, vars, at);
  if (problems.length === 0 && typeof m.$capture === 'string') vars[m.$capture] = actual as Json;
  return problems;
}

function matchKind(m: { [key: string]: Json }, actual: unknown, vars: Variables, at: string): string[] {
  const got = JSON.stringify(actual);
  if ('$optional' in m) return match(m.$optional, actual, vars, at);
  if ('$nullable' in m) return actual === null ? [] : match(m.$nullable, actual, vars, at);
  if ('$var' in m) return match(vars[m.$var as string] ?? null, actual, vars, at);
  if ('$template' in m) return match(interpolate(m.$template as string, vars), actual, vars, at);
  if ('$enum' in m)
    return (m.$enum as Json[]).some((v) => isDeepStrictEqual(v, actual))
      ? []
      : [`${at}: expected one of ${JSON.stringify(m.$enum)}, got ${got}`];
  if ('$partial' in m) {
    if (typeOf(actual) !== 'object') return [`${at}: expected an object, got ${got}`];
    const object = actual as Record<string, unknown>;
    return Object.entries(m.$partial as Record<string, Json>).flatMap(([k, v]) =>
      k in object ? match(v, object[k], vars, `${at}.${k}`) : [`${at}.${k}: missing from the answer`],
    );
  }
  if ('$array' in m) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${got}`];
    const problems = actual.flatMap((item, i) => match(m.$array, item, vars, `${at}[${i}]`));
    if (typeof m.min_items === 'number' && actual.length < m.min_items)
      problems.push(`${at}: fewer than ${m.min_items} items`);
    if (typeof m.max_items === 'number' && actual.length > m.max_items)
      problems.push(`${at}: more than ${m.max_items} items`);
    if (m.distinct === true && new Set(actual.map((a) => JSON.stringify(a))).size !== actual.length)
      problems.push(`${at}: items are not distinct: ${got}`);
    return problems;
  }
  if ('$type' in m) {
    const type = typeOf(actual);
    const fits = type === m.$type || (m.$type === 'number' && type === 'integer');
    if (!fits) return [`${at}: expected a ${JSON.stringify(m.$type)}, got ${got}`];
    const problems: string[] = [];
    if (typeof m.pattern === 'string' && !new RegExp(m.pattern).test(actual as string))
      problems.push(`${at}: ${got} does not match ${m.pattern}`);
    if (m.format === 'date-time' && !(RFC3339.test(actual as string) && !Number.isNaN(Date.parse(actual as string))))
      problems.push(`${at}: ${got} is not an RFC 3339 date-time`);
    if (typeof m.min === 'number' && (actual as number) < m.min) problems.push(`${at}: ${got} is below ${m.min}`);
    if (typeof m.max === 'number' && (actual as number) > m.max) problems.push(`${at}: ${got} is above ${m.max}`);
    return problems;
  }
  throw new Error(`${at}: unknown matcher ${JSON.stringify(m)}`);
}

/** Headers: names case-insensitive; `{"$absent": true}` asserts the header is not sent. */
export function matchHeaders(expected: Record<string, Json>, headers: Headers, vars: Variables): string[] {
  return Object.entries(expected).flatMap(([name, m]) => {
    const value = headers.get(name);
    if (isMatcher(m) && m.$absent === true)
      return value === null ? [] : [`header ${name}: expected absent, got ${JSON.stringify(value)}`];
    if (value === null) return [`header ${name}: missing`];
    return match(m, value, vars, `header ${name}`);
  });
}
