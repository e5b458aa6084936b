/**
 * proto/gen is committed so nothing needs protoc at build time; this holds it to what
 * `npm run proto:gen` (buf + the local ts-proto plugin) produces from the .proto files now.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const protoDir = join(__dirname, '../../proto');
const buf = join(__dirname, '../../node_modules/.bin/buf');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

it('regenerating the TypeScript from the .proto files gives exactly the committed proto/gen', () => {
  const out = mkdtempSync(join(tmpdir(), 'proto-gen-'));
  try {
    const template = readFileSync(join(protoDir, 'buf.gen.yaml'), 'utf8').replace(/out: gen/, `out: ${out}`);
    writeFileSync(
      join(out, 'buf.gen.yaml'),
      template.replace('local: ../node_modules', `local: ${join(protoDir, '../node_modules')}`),
    );
    execFileSync(buf, ['generate', '--template', join(out, 'buf.gen.yaml')], {
      cwd: protoDir,
      stdio: 'pipe',
    });
    const generated = files(out)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => relative(out, f))
      .sort();
    const committed = files(join(protoDir, 'gen'))
      .map((f) => relative(join(protoDir, 'gen'), f))
      .sort();
    expect(generated).toEqual(committed);
    for (const file of committed)
      expect(readFileSync(join(out, file), 'utf8')).toBe(readFileSync(join(protoDir, 'gen', file), 'utf8'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
