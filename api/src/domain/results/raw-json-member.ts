/**
 * Finds the raw text of one top-level member of a JSON object document, so a value can be echoed
 * byte for byte (number spellings, key order, escapes and whitespace all kept). Assumes `text` is
 * valid JSON (it has already been parsed); the last occurrence wins, as with JSON.parse.
 */
export function rawJsonMember(text: string, member: string): string | null {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return null;
  i += 1;
  let found: string | null = null;
  for (;;) {
    i = skipWs(text, i);
    if (text[i] === '}') return found;
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd) + 1; // past ':'
    const valueStart = skipWs(text, i);
    const valueEnd = skipValue(text, valueStart);
    if (key === member) found = text.slice(valueStart, valueEnd);
    i = skipWs(text, valueEnd);
    if (text[i] === ',') i += 1;
  }
}

function skipWs(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i])) i += 1;
  return i;
}

function skipString(text: string, i: number): number {
  i += 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (;;) {
      const ch = text[i];
      if (ch === '"') {
        i = skipString(text, i);
        continue;
      }
      if (ch === '{' || ch === '[') depth += 1;
      if (ch === '}' || ch === ']') depth -= 1;
      i += 1;
      if (depth === 0) return i;
    }
  }
  while (i < text.length && !',}] \t\n\r'.includes(text[i])) i += 1;
  return i;
}
