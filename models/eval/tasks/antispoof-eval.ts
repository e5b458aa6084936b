import type { EvalTask } from '../eval-task';
export const antispoofEval: EvalTask = { name: 'antispoof', usage: '', models: [], async run() { return {}; } };
