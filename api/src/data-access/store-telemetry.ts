import { Connection } from 'mongoose';
import { storeRetryCounts } from './store-retry';

/** What the store's driver tells the API's /metrics: each command's time, and the busy-store retries. */
export interface StoreTelemetry {
  /** Called once per command the driver completes (name as sent: find, insert, update…), failed or not. */
  onCommand(listener: (command: string, seconds: number, ok: boolean) => void): void;
  retries(): { retried: number; exhausted: number };
}

interface CommandEvent {
  commandName: string;
  duration: number;
}

/**
 * The driver's command monitoring (the connection is opened with monitorCommands, see
 * mongo-connection.ts): the time of every store round trip, so a stall can be told apart from
 * the queueing in front of it. Only the command's name is read, never its documents.
 */
export function storeTelemetry(connection: Connection): StoreTelemetry {
  return {
    onCommand(listener) {
      const client = connection.getClient();
      client.on('commandSucceeded', (event: CommandEvent) => listener(event.commandName, event.duration / 1000, true));
      client.on('commandFailed', (event: CommandEvent) => listener(event.commandName, event.duration / 1000, false));
    },
    retries: () => ({ ...storeRetryCounts }),
  };
}
