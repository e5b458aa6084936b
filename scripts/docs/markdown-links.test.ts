import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anchorsOf, brokenLinksIn, brokenLinksInRepository, githubSlug, linksOf } from './markdown-links';

const ROOT = path.resolve(__dirname, '../..');

describe('the Markdown files of the repository', () => {
  it('have no relative link or anchor that fails to resolve', () => {
    const broken = brokenLinksInRepository(ROOT).map((b) => `${b.file}:${b.line} ${b.target} (${b.problem})`);
    expect(broken).toEqual([]);
  });
});

describe('GitHub anchors', () => {
  it('lower-case a heading, drop punctuation and turn spaces into hyphens', () => {
    expect(githubSlug('The contract is checked on every response, and fuzzed')).toBe(
      'the-contract-is-checked-on-every-response-and-fuzzed',
    );
    expect(githubSlug('Personal data: encryption at rest, redaction, retention, audit, billing')).toBe(
      'personal-data-encryption-at-rest-redaction-retention-audit-billing',
    );
    expect(githubSlug('Devices, batch profiles and the GPU route')).toBe('devices-batch-profiles-and-the-gpu-route');
  });

  it('keep hyphens, underscores and accented letters', () => {
    expect(githubSlug('bench:inference — full_run, vérifié')).toBe('benchinference--full_run-vérifié');
  });

  it('read headings as rendered: code, emphasis and links reduced to their words, repeats numbered', () => {
    const anchors = anchorsOf(
      ['# `npm run eval` and **what** it measures', '## [Webhooks](api/WEBHOOKS.md)', '## Notes', '## Notes'].join(
        '\n',
      ),
    );
    expect([...anchors]).toEqual(['npm-run-eval-and-what-it-measures', 'webhooks', 'notes', 'notes-1']);
  });

  it('ignore headings and links inside fenced code', () => {
    const markdown = ['```sh', '# not a heading', '[x](missing.md)', '```', '# Real'].join('\n');
    expect([...anchorsOf(markdown)]).toEqual(['real']);
    expect(linksOf(markdown)).toEqual([]);
  });
});

describe('the link check', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'md-links-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\n\n## Keys and reseal\n');
    writeFileSync(path.join(root, 'tool.ts'), '');
    writeFileSync(path.join(root, 'README.md'), '# Top\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function check(markdown: string) {
    const file = path.join(root, 'README.md');
    const anchorsFor = (f: string) => anchorsOf(f === file ? markdown : '# Guide\n\n## Keys and reseal\n');
    return brokenLinksIn(file, markdown, root, anchorsFor).map((b) => `${b.target}: ${b.problem}`);
  }

  it('accepts files, folders, anchors in another file and in the same file, and external links', () => {
    expect(
      check(
        '# Top\n[a](docs/guide.md) [b](docs/) [c](docs/guide.md#keys-and-reseal) [d](#top) [e](tool.ts) [f](https://example.com/x.md)',
      ),
    ).toEqual([]);
  });

  it('reports a missing file, a missing anchor and a path that leaves the repository', () => {
    expect(check('# Top\n[a](docs/gone.md) [b](docs/guide.md#keys) [c](#bottom) [d](../outside.md)')).toEqual([
      'docs/gone.md: no such file or folder',
      'docs/guide.md#keys: no heading with anchor #keys',
      '#bottom: no heading with anchor #bottom',
      '../outside.md: points outside the repository',
    ]);
  });

  it('reads reference definitions and HTML sources, but not inline code', () => {
    expect(check('`[x](nowhere.md)`\n\n[ref]: docs/missing.md\n<img src="docs/arch.svg">')).toEqual([
      'docs/missing.md: no such file or folder',
      'docs/arch.svg: no such file or folder',
    ]);
  });
});
