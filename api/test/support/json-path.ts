/**
 * A JSON document (the OpenAPI document, a parsed body) walked one key at a time; a missing step
 * throws, naming the path, so the test that walked it fails where it went wrong.
 */
export function at(node: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((value, key) => {
    if (typeof value !== 'object' || value === null || !(key in value))
      throw new Error(`no ${keys.join('.')} in the document (stopped at ${key})`);
    return (value as Record<string, unknown>)[key];
  }, node);
}
