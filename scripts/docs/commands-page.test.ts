import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** How a reader types a script: `npm start` and `npm test` have their own short form. */
function invocation(script: string): string {
  return script === 'start' || script === 'test' ? `npm ${script}` : `npm run ${script}`;
}

describe('docs/commands.md', () => {
  it('lists every npm script of package.json', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
    );
    const page = readFileSync(path.join(ROOT, 'docs', 'commands.md'), 'utf8');
    const written = new Set([...page.matchAll(/`(npm (?:run [\w:-]+|start|test))\b/g)].map((m) => m[1]));
    expect(scripts.map(invocation).filter((command) => !written.has(command))).toEqual([]);
  });

  it('names no npm script that package.json lacks', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
    );
    const page = readFileSync(path.join(ROOT, 'docs', 'commands.md'), 'utf8');
    const named = [...page.matchAll(/`npm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });
});
