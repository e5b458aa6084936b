import { Redis } from 'ioredis';
import { AccountChanges } from '../domain/ports/account-changes';

/**
 * The accounts' generation: one Redis counter that every change to an existing account or key
 * advances. API processes tag what they cache with the generation read before the store read, and
 * use it only while the counter still holds that value. A missing counter (Redis flushed) starts
 * from the server's clock in microseconds, so a value seen before a flush never comes back.
 */
export const generationKey = (prefix: string): string => `${prefix}:accounts:generation`;

const CURRENT = `local g = redis.call('get', KEYS[1])
if not g then
  local t = redis.call('time')
  g = t[1] .. string.format('%06d', tonumber(t[2]))
  redis.call('set', KEYS[1], g)
end`;

/** Advances the generation; answers the new value. */
const ADVANCE = `${CURRENT}
return redis.call('incr', KEYS[1])`;

/**
 * KEYS: generation, rate counter. ARGV: the caller's cached generation ('' for none: count
 * regardless), window seconds. Counts one request in the fixed window (the same counter and
 * semantics as rate-limiter-flexible's RateLimiterRedis) unless the caller's generation is stale.
 * Answers {generation} when stale, else {generation, consumed, pttl}.
 */
const GATE = `${CURRENT}
if ARGV[1] ~= '' and ARGV[1] ~= g then return {g} end
redis.call('set', KEYS[2], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[2], 1)
local ttl = redis.call('pttl', KEYS[2])
if ttl == -1 then
  redis.call('expire', KEYS[2], ARGV[2])
  ttl = 1000 * tonumber(ARGV[2])
end
return {g, consumed, ttl}`;

/** KEYS: generation. Answers the current generation (read-only unless it had to start it). */
const READ = `${CURRENT}
return g`;

interface GenerationCommands {
  bvAccountsAdvance(key: string): Promise<number>;
  bvAccountsGate(generation: string, counter: string, cached: string, windowSeconds: number): Promise<unknown[]>;
  bvAccountsRead(key: string): Promise<string>;
}

/** The scripts as ioredis commands on this connection (EVALSHA, loading the script on first use). */
export function generationCommands(redis: Redis): GenerationCommands {
  const commands = redis as unknown as Partial<GenerationCommands>;
  if (!commands.bvAccountsGate) {
    redis.defineCommand('bvAccountsAdvance', { numberOfKeys: 1, lua: ADVANCE });
    redis.defineCommand('bvAccountsGate', { numberOfKeys: 2, lua: GATE });
    redis.defineCommand('bvAccountsRead', { numberOfKeys: 1, lua: READ });
  }
  return commands as GenerationCommands;
}

/** Announces account changes by advancing the Redis generation. */
export class RedisAccountChanges implements AccountChanges {
  readonly canAnnounce = true;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async announce(): Promise<void> {
    await generationCommands(this.redis).bvAccountsAdvance(generationKey(this.prefix));
  }
}
