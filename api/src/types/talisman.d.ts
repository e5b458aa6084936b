// talisman ships no type declarations; only the metric we use is declared.
declare module 'talisman/metrics/jaro-winkler' {
  const jaroWinkler: (a: string, b: string) => number;
  export default jaroWinkler;
}

declare module 'talisman/metrics/damerau-levenshtein' {
  /** Edit distance with transpositions; `limited` answers Infinity above `max`. */
  const damerauLevenshtein: ((a: string, b: string) => number) & {
    limited: (max: number, a: string, b: string) => number;
  };
  export default damerauLevenshtein;
}
