/**
 * `npm run models:convert-fp16 -- <model> [--version N]`: writes the half-precision variant of a
 * model version (`model.fp16.onnx` beside `model.onnx`) with onnxconverter-common in a throwaway
 * venv (.state/fp16-venv, versions pinned in requirements.txt), prints the `fp16` block its
 * config.json pins, and builds a check repository (.state/fp16-check/) in which that version serves
 * the fp16 file, so `npm run eval` can compare its verdicts with fp32. Never part of set-up: fp16
 * is opt-in, per model, for CUDA only (see models/README.md).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseModelConfig } from '../../src/repository/model-config-schema';
import { chooseServedVersion } from '../../src/repository/served-version';

const root = path.resolve(__dirname, '../../..');
const venv = path.join(root, '.state', 'fp16-venv');
const requirements = path.join(__dirname, 'requirements.txt');

function ensureVenv(): string {
  const python = path.join(venv, 'bin', 'python');
  const wanted = readFileSync(requirements, 'utf8');
  const stamp = path.join(venv, 'requirements.txt');
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return python;
  console.log(
    `creating ${venv} (PyPI: ${wanted
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .join(', ')})`,
  );
  execFileSync('python3', ['-m', 'venv', '--clear', venv], { stdio: 'inherit' });
  execFileSync(
    path.join(venv, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', '-r', requirements],
    { stdio: 'inherit' },
  );
  writeFileSync(stamp, wanted);
  return python;
}

/** A repository beside the real one in which `name` serves `version` from its fp16 file, declared fp32 so ORT CPU runs it. */
function checkRepository(
  models: string,
  name: string,
  version: number,
  fp16: { file: string; sha256: string },
): string {
  const dir = path.join(root, '.state', 'fp16-check');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(models, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== name)
      symlinkSync(path.join(models, entry.name), path.join(dir, entry.name));
  }
  const from = path.join(models, name, String(version));
  const to = path.join(dir, name, String(version));
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from))
    if (file !== 'config.json') linkSync(path.join(from, file), path.join(to, file));
  const config = JSON.parse(readFileSync(path.join(from, 'config.json'), 'utf8')) as Record<string, unknown>;
  delete config.precision;
  delete config.fp16;
  writeFileSync(
    path.join(to, 'config.json'),
    JSON.stringify({ ...config, file: fp16.file, sha256: fp16.sha256 }, null, 2),
  );
  writeFileSync(path.join(dir, name, 'version-policy.json'), JSON.stringify({ serve: version }));
  return dir;
}

function main(): number {
  const [name, flag, value] = process.argv.slice(2);
  if (!name || (flag && flag !== '--version')) {
    console.error('usage: npm run models:convert-fp16 -- <model> [--version N]');
    return 2;
  }
  const models = path.join(root, 'models');
  const version = flag ? Number(value) : chooseServedVersion(name, path.join(models, name));
  const versionDir = path.join(models, name, String(version));
  const config = parseModelConfig(JSON.parse(readFileSync(path.join(versionDir, 'config.json'), 'utf8')));
  const file = config.fp16?.file ?? config.file.replace(/\.onnx$/, '.fp16.onnx');
  const python = ensureVenv();
  const report = JSON.parse(
    execFileSync(
      python,
      [
        '-W',
        'ignore',
        path.join(__dirname, 'convert_fp16.py'),
        '--in',
        path.join(versionDir, config.file),
        '--out',
        path.join(versionDir, file),
      ],
      { encoding: 'utf8' },
    ),
  ) as { sha256: string; bytes: number; source_bytes: number };
  console.log(`${name} v${version}: ${file} written, ${report.bytes} bytes (fp32 ${report.source_bytes})`);
  console.log(`config.json block: "fp16": { "file": "${file}", "sha256": "${report.sha256}" }`);
  const check = checkRepository(models, name, version, { file, sha256: report.sha256 });
  console.log(`check repository (this version serves the fp16 file): ${path.relative(root, check)}`);
  console.log(
    `compare verdicts: MODEL_REPOSITORY=${path.relative(root, check)} npm run eval -- --task <task> --models ${path.relative(root, check)} --out .state/eval/<task>-fp16`,
  );
  if (config.fp16 && config.fp16.sha256 !== report.sha256) {
    console.error(`FAILED ${file} has sha256 ${report.sha256} but config.json pins ${config.fp16.sha256}`);
    return 1;
  }
  return 0;
}

process.exit(main());
