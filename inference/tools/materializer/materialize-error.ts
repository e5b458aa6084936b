/** A materialize failure that names the model and version, so the operator knows which folder to fix. */
export class MaterializeError extends Error {
  constructor(
    readonly model: string,
    readonly version: number | null,
    readonly problem: string,
  ) {
    super(`model "${model}"${version === null ? '' : ` version ${version}`}: ${problem}`);
    this.name = 'MaterializeError';
  }
}
