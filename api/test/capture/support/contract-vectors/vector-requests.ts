import { readFileSync } from 'node:fs';
import path from 'node:path';
import { interpolate, Variables } from './vector-matcher';
import { Body, Json, VectorRequest } from './vector-types';
import { REPO_ROOT } from './vector-files';

const fileBytes = (file: string): Buffer => readFileSync(path.join(REPO_ROOT, file));

/**
 * The liveness upload's exact bytes (README, "multipart.json"): one part per frame in order, then
 * the timestamps field, CRLF line ends, the closing delimiter last.
 */
export function livenessMultipart(
  boundary: string,
  frames: Buffer[],
  timestamps: number[],
  options: { partNames?: string[]; closingDelimiter?: boolean } = {},
): Buffer {
  const parts = frames.flatMap((frame, i) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.partNames?.[i] ?? 'frame'}"; filename="frame-${i}.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    frame,
    Buffer.from('\r\n'),
  ]);
  const stamps = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="timestamps"\r\n\r\n${JSON.stringify(timestamps)}\r\n`,
  );
  const close = options.closingDelimiter === false ? [] : [Buffer.from(`--${boundary}--\r\n`)];
  return Buffer.concat([...parts, stamps, ...close]);
}

/** A JSON body's value with its strings interpolated and each `{"$file_base64": path}` read. */
function resolveJson(value: Json, vars: Variables): Json {
  if (typeof value === 'string') return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((v) => resolveJson(v, vars));
  if (value && typeof value === 'object') {
    if (typeof value.$file_base64 === 'string') return fileBytes(value.$file_base64).toString('base64');
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveJson(v, vars)]));
  }
  return value;
}

function bodyBytes(body: Body, vars: Variables): Buffer | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'file':
      return fileBytes(body.path);
    case 'bytes':
      return Buffer.from(body.base64, 'base64');
    case 'repeat':
      return Buffer.alloc(body.length, body.byte);
    case 'json':
      return Buffer.from(JSON.stringify(resolveJson(body.value, vars)));
    case 'liveness_multipart':
      return livenessMultipart(interpolate('${boundary}', vars), body.frames.map(fileBytes), body.timestamps);
  }
}

/** The request a vector describes, against `vars.base_url`. */
export function buildRequest(request: VectorRequest, vars: Variables): { url: string; init: RequestInit } {
  const pathname = request.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    if (!(name in request.params)) throw new Error(`the path ${request.path} has no value for {${name}}`);
    return encodeURIComponent(interpolate(request.params[name], vars));
  });
  const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, interpolate(v, vars)]));
  const body = bodyBytes(request.body, vars);
  return {
    url: `${interpolate('${base_url}', vars)}${pathname}${query}`,
    init: { method: request.method, headers, body: body ? new Uint8Array(body) : undefined },
  };
}
