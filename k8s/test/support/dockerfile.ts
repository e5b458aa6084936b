import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface CopyInstruction {
  from?: string;
  sources: string[];
  destination: string;
}

export interface Stage {
  name?: string;
  base: string;
  workdir: string;
  env: Record<string, string>;
  copies: CopyInstruction[];
  runs: string[];
  cmd?: string[];
}

export interface Dockerfile {
  file: string;
  /** The tag its `docker build ... -t <tag>` comment names (the manifests' image). */
  tag: string;
  stages: Stage[];
  final: Stage;
}

/** Joins continuation lines and drops comments: one instruction per entry. */
function instructions(text: string): string[] {
  const lines = text.split('\n').filter((line) => !/^\s*#/.test(line));
  return lines
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function parseEnv(args: string): Record<string, string> {
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(([, key, value]) => [key, value.replace(/^"|"$/g, '')]),
  );
}

function parseCopy(args: string): CopyInstruction {
  const words = args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith('--'));
  const paths = words.filter((word) => !word.startsWith('--'));
  const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: paths.slice(0, -1), destination: paths[paths.length - 1] };
}

/** The subset of Dockerfile syntax our images use: FROM … AS, WORKDIR, ENV k=v, COPY [--from], RUN, CMD [json]. */
export function readDockerfile(file: string): Dockerfile {
  const text = readFileSync(file, 'utf8');
  const tag = /docker build -f \S+ -t (\S+)/.exec(text)?.[1];
  if (!tag) throw new Error(`${file}: no "docker build -f … -t <tag>" comment naming its image`);
  const stages: Stage[] = [];
  for (const line of instructions(text)) {
    const [, keyword, args = ''] = /^(\w+)\s*(.*)$/.exec(line)!;
    const stage = stages[stages.length - 1];
    switch (keyword.toUpperCase()) {
      case 'FROM': {
        const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
        stages.push({ base: base, name, workdir: '/', env: {}, copies: [], runs: [] });
        break;
      }
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, args);
        break;
      case 'ENV':
        Object.assign(stage.env, parseEnv(args));
        break;
      case 'COPY':
        stage.copies.push(parseCopy(args));
        break;
      case 'RUN':
        stage.runs.push(args);
        break;
      case 'CMD':
        stage.cmd = JSON.parse(args) as string[];
        break;
      default:
        break; // EXPOSE, USER, LABEL: nothing a file set depends on
    }
  }
  return { file, tag, stages, final: stages[stages.length - 1] };
}
