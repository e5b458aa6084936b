/** Time is a dependency like any other: use cases take a Clock so tests can pin "now". */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
