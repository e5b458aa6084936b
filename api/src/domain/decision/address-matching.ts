import { Address } from '../session-status';

const tokens = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);

/** Share of the document address's tokens (street line and city) the expected address must contain. */
export const ADDRESS_TOKEN_LINE = 0.6;

/**
 * Compares an integrator's free-text expected address with the one read from the document, by
 * normalised tokens (case, accents, punctuation and order ignored) and the postal code. The read
 * is best effort, so the rule asks for most tokens rather than all, but the postal code exactly.
 * Returns the token score, or null when the document carries no address to compare.
 */
export function addressScore(
  expected: string,
  read: Address | null,
): { score: number; postalCodeMatches: boolean } | null {
  if (!read) return null;
  const readTokens = [read.line1, read.line2, read.city].flatMap((part) => (part ? tokens(part) : []));
  if (readTokens.length === 0 && !read.postal_code) return null;
  const expectedTokens = new Set(tokens(expected));
  const found = readTokens.filter((t) => expectedTokens.has(t)).length;
  const score = readTokens.length === 0 ? 1 : found / readTokens.length;
  const postal = read.postal_code ? tokens(read.postal_code).join('') : null;
  const expectedCompact = tokens(expected).join('');
  const postalCodeMatches = postal === null || expectedTokens.has(postal) || expectedCompact.includes(postal);
  return { score, postalCodeMatches };
}
