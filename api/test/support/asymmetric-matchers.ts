/**
 * jest's asymmetric matchers typed as the values they stand for (jest types them `any`), so an
 * expected object built with them stays typed.
 */
export const anyString = (): string => expect.any(String) as string;
export const anyNumber = (): number => expect.any(Number) as number;
export const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
