/**
 * Jest's asymmetric matchers. @types/jest declares them as returning `any`, which switches type
 * checking off for the expected object they are written into; these hand them back as the matchers
 * they are. Same matching, same failure messages.
 */
export type Matcher = jest.AsymmetricMatcher;

/** expect.any: an instance of the constructor (String and Number match primitives too). */
export const anyOf = (type: unknown): Matcher => expect.any(type) as Matcher;
export const stringMatching = (pattern: string | RegExp): Matcher => expect.stringMatching(pattern) as Matcher;
export const stringContaining = (text: string): Matcher => expect.stringContaining(text) as Matcher;
/** expect.closeTo: a number within 10^-digits / 2 of the expected one. */
export const closeTo = (expected: number, digits?: number): Matcher => expect.closeTo(expected, digits) as Matcher;
export const objectContaining = (expected: object): Matcher => expect.objectContaining(expected) as Matcher;
export const arrayContaining = (expected: readonly unknown[]): Matcher => expect.arrayContaining(expected) as Matcher;

/**
 * The same matchers typed as the values they stand for, for an expected object whose type is the
 * value's own (a typed response body).
 */
export const anyString = (): string => expect.any(String) as string;
export const anyNumber = (): number => expect.any(Number) as number;
export const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
