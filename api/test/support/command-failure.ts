/** What a promisified execFile rejects with when the command exits non-zero: its code and both streams. */
export interface CommandFailure {
  code?: number | string;
  stdout: string;
  stderr: string;
}

/** The command's failure; a command that succeeds fails the test. */
export async function failureOf(command: Promise<unknown>): Promise<CommandFailure> {
  try {
    await command;
  } catch (err: unknown) {
    return err as CommandFailure;
  }
  throw new Error('the command succeeded where it should have failed');
}
