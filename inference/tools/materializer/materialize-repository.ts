/**
 * Materializes every version folder of the repository. One broken model does not stop the others,
 * but every failure is reported and the run as a whole fails.
 */
import { listVersionFolders } from './model-folders';
import { materializeVersion, type VersionReport } from './materialize-version';

export interface RepositoryReport {
  done: VersionReport[];
  failures: Error[];
}

export async function materializeRepository(
  modelsDir: string,
  packagesDir: string,
  only?: Set<string>,
): Promise<RepositoryReport> {
  const report: RepositoryReport = { done: [], failures: [] };
  const folders = (await listVersionFolders(modelsDir)).filter((f) => !only || only.has(f.name));
  for (const folder of folders) {
    try {
      report.done.push(await materializeVersion(folder, packagesDir));
    } catch (error) {
      report.failures.push(error as Error);
    }
  }
  return report;
}
