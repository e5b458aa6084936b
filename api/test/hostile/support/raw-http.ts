import net from 'node:net';

/** What came back on one raw connection: the parsed head and body when an answer came, and when the socket closed. */
export interface RawAnswer {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** From the first byte sent to the first byte answered (or to the close, when nothing was answered). */
  ms: number;
  /** The server closed the connection (FIN or reset) before the client's own limit passed. */
  closed: boolean;
}

export interface RawRequest {
  /** The request bytes, sent in order; a number is a pause in milliseconds between pieces. */
  pieces: Array<Buffer | string | number>;
  /** End the client's side once everything is sent (a half-close, as a client that stops sending does). */
  end?: boolean;
  /** Destroy the socket once everything is sent (a client that goes away mid-upload). */
  abort?: boolean;
  /** How long the client waits for an answer or a close before giving up itself. */
  waitMs: number;
}

/**
 * A client that writes exactly the bytes it is given, at the pace it is given, over net.connect:
 * fetch and http.request would fix up what a hostile client sends. Resolves once the server has
 * answered and closed, the server has closed, or `waitMs` has passed.
 */
export function rawRequest(port: number, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const started = Date.now();
    let firstByteAt: number | null = null;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(received)), ms: (firstByteAt ?? Date.now()) - started, closed });
    };
    const giveUp = setTimeout(() => finish(false), request.waitMs);
    socket.on('data', (chunk) => {
      firstByteAt ??= Date.now();
      received.push(chunk);
      // A complete answer with a known length: no need to wait for the close on a kept-alive socket.
      if (answerComplete(Buffer.concat(received))) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    const send = async () => {
      for (const piece of request.pieces) {
        if (done) return;
        if (typeof piece === 'number') await new Promise((r) => setTimeout(r, piece));
        else if (!socket.destroyed) socket.write(piece);
      }
      if (request.abort) {
        socket.destroy();
        finish(false);
      } else if (request.end && !socket.destroyed) socket.end();
    };
    socket.once('connect', () => void send());
  });
}

function answerComplete(bytes: Buffer): boolean {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(bytes.subarray(0, split).toString('latin1'));
  return length !== null && bytes.length - split - 4 >= Number(length[1]);
}

function parse(bytes: Buffer): { status: number | null; headers: Record<string, string>; body: string } {
  const text = bytes.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: status ? Number(status[1]) : null, headers, body: split < 0 ? '' : text.slice(split + 4) };
}

/** An HTTP/1.1 request head (CRLF line ends, blank line included). */
export function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** One multipart part: its header block and content (no trailing CRLF; the next boundary line adds it). */
export function part(boundary: string, disposition: string, content: Buffer | string, contentType?: string): Buffer {
  const lines = [
    `--${boundary}`,
    `Content-Disposition: form-data; ${disposition}`,
    ...(contentType ? [`Content-Type: ${contentType}`] : []),
  ];
  return Buffer.concat([
    Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'latin1'),
    Buffer.from('\r\n'),
  ]);
}

export const closing = (boundary: string): string => `--${boundary}--\r\n`;
