/**
 * What a bare `npm run eval` runs: each entry is the argument list of one task run, in order, so
 * the headline figures (error rates at the served lines, with the counts behind them) come from one
 * command. Add a task's default run here.
 */
export const defaultSuite: string[][] = [['--task', 'face_line', '--also', '0.45,0.6']];
