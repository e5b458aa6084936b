import type { EvalTask } from '../eval-task';
export const livenessEval: EvalTask = { name: 'liveness', usage: '', models: [], async run() { return {}; } };
