/** The landmarks of the lips and the jaw below them: what moves when the mouth opens. */
export const MOUTH_AND_JAW: readonly number[] = [
  13, 14, 17, 0, 37, 267, 61, 291, 78, 308, 81, 311, 84, 314, 87, 317, 95, 324, 146, 375, 152, 148, 377, 176, 400,
];
