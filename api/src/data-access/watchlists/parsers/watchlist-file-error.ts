import { AppError } from '../../../shared/app-error';

/** A list file refused before anything is written: the line (1-based) and why. */
export function watchlistFileError(line: number | null, reason: string): AppError {
  const where = line === null ? 'file' : `line ${line}`;
  return new AppError('VALIDATION_ERROR', `${where}: ${reason}`, [{ field: where, message: reason }]);
}

/** The 1-based line on which the n-th (0-based) `<tag` opens, for errors found after XML parsing. */
export function lineOfNthTag(text: string, tag: string, n: number): number {
  const pattern = new RegExp(`<(?:\\w+:)?${tag}[\\s>/]`, 'g');
  let match: RegExpExecArray | null = null;
  for (let i = 0; i <= n; i++) {
    match = pattern.exec(text);
    if (!match) return 1;
  }
  let line = 1;
  for (let i = 0; i < (match as RegExpExecArray).index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
