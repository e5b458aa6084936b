import { RankedSerialQueue } from './ranked-serial-queue';

/** A queue whose picks the test releases one at a time, and jobs that record when they ran. */
function harness() {
  const picks: Array<() => void> = [];
  const queue = new RankedSerialQueue((pick) => picks.push(pick));
  const ran: string[] = [];
  const job = (name: string) => () => {
    ran.push(name);
    return Promise.resolve();
  };
  const step = async () => {
    picks.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, ran, job, step, picks };
}

describe('RankedSerialQueue', () => {
  it('runs the lowest rank first among the jobs waiting when it picks', async () => {
    const { queue, ran, job, step } = harness();
    queue.push(30, job('late call'));
    queue.push(10, job('early call'));
    queue.push(20, job('middle call'));
    for (let i = 0; i < 4; i++) await step();
    expect(ran).toEqual(['early call', 'middle call', 'late call']);
  });

  it('keeps arrival order among equal ranks', async () => {
    const { queue, ran, job, step } = harness();
    for (const name of ['a', 'b', 'c']) queue.push(5, job(name));
    for (let i = 0; i < 4; i++) await step();
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('runs one job at a time: a job pushed while another runs waits for it to finish', async () => {
    const { queue, step, picks } = harness();
    let finish!: () => void;
    const events: string[] = [];
    queue.push(1, () => {
      events.push('first started');
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await step();
    queue.push(0, () => {
      events.push('urgent ran');
      return Promise.resolve();
    });
    expect(picks).toHaveLength(0);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    await step();
    expect(events).toEqual(['first started', 'urgent ran']);
  });

  it('goes on after a job that failed', async () => {
    const { queue, ran, job, step } = harness();
    queue.push(1, () => Promise.reject(new Error('run failed')));
    queue.push(2, job('next'));
    for (let i = 0; i < 3; i++) await step();
    expect(ran).toEqual(['next']);
  });
});
