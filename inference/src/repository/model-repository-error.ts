/**
 * A start-up failure that names the model and the problem, so an operator who swapped a model
 * reads which folder to fix without a stack trace.
 */
export class ModelRepositoryError extends Error {
  constructor(
    readonly model: string,
    readonly problem: string,
  ) {
    super(`model "${model}": ${problem}`);
    this.name = 'ModelRepositoryError';
  }
}
