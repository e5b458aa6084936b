import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One relative link that does not resolve: where it is written, what it points at, and why it fails. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/**
 * GitHub's heading anchor (github-slugger): lower case, every character that is not a letter, mark,
 * number, connector, space or hyphen dropped, spaces turned into hyphens. Repeats of one slug in a
 * file get -1, -2… in order, which `anchorsOf` applies.
 */
export function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as GitHub renders it before slugging: inline code, emphasis and links reduced to their words. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_]+)[*_](?=[^\w*]|$)/g, '$1$2')
    .trim();
}

/** The lines outside fenced code blocks, with their 1-based numbers: links inside code are not links. */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (marker) {
      if (fence === null) fence = marker[1][0];
      else if (marker[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** Every anchor a Markdown file offers: its headings' slugs (numbered when repeated) and explicit HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const slug = githubSlug(renderedText(heading[1]));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** The link targets written in a Markdown file (inline, images, reference definitions, HTML href/src), code left out. */
export function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: match[1].replace(/^<|>$/g, ''), line });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition) links.push({ target: definition[1], line });
    for (const match of prose.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push({ target: match[1], line });
  }
  return links;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The broken relative links of one file, given how to read the anchors of another Markdown file. */
export function brokenLinksIn(
  file: string,
  markdown: string,
  root: string,
  anchorsFor: (markdownFile: string) => Set<string>,
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (EXTERNAL.test(target)) continue;
    const [rawPath, anchor] = target.split('#', 2);
    const relativePath = decodeURIComponent(rawPath);
    const resolved = relativePath === '' ? file : path.resolve(path.dirname(file), relativePath);
    const report = (problem: string) => broken.push({ file: path.relative(root, file), line, target, problem });
    if (!resolved.startsWith(root + path.sep) && resolved !== root) {
      report('points outside the repository');
      continue;
    }
    if (!existsSync(resolved)) {
      report('no such file or folder');
      continue;
    }
    if (anchor === undefined || anchor === '' || !resolved.endsWith('.md') || !statSync(resolved).isFile()) continue;
    if (!anchorsFor(resolved).has(decodeURIComponent(anchor).toLowerCase()))
      report(`no heading with anchor #${anchor}`);
  }
  return broken;
}

/** The repository's Markdown files: tracked or new, as git sees them, so ignored folders (node_modules, .state, builds) stay out. */
export function markdownFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !file.split('/').some((part) => part === 'node_modules' || part === '.state'))
    .map((file) => path.join(root, file))
    .filter((file) => existsSync(file));
}

/** Every broken relative link and anchor in the repository's Markdown files. */
export function brokenLinksInRepository(root: string): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsFor = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(file, 'utf8'));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  return markdownFiles(root).flatMap((file) => brokenLinksIn(file, readFileSync(file, 'utf8'), root, anchorsFor));
}
