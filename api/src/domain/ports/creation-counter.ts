/**
 * Session creations counted per API key and minute (the spec: recorded against the plan, not
 * enforced). Redis in production; a unit test may count in memory.
 */
export interface CreationCounter {
  recordSessionCreation(keyId: string, at: Date): Promise<void>;
}
