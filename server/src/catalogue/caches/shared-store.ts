/**
 * A store that several replicas of the server share (Redis, when `REDIS_URL` is set): copies of validated source
 * the source's values with the time they were fetched, and short claims that let one replica fill a key while the others wait
 * for its copy (docs/scaling.md).
 *
 * A shared store is an optimisation, never a dependency: every method settles within a bounded time and never
 * rejects. When the store does not respond (down, slow, full) reads find nothing, writes are dropped and claims say
 * `unavailable`, so the caller falls back to its own memory and the source.
 */
export interface SharedStore {
  /** The copy under `key`, or `undefined` when there is none or the store does not respond. */
  read(key: string): Promise<SharedCopy | undefined>;
  /** Keeps `copy` under `key` for `keepMs` milliseconds. */
  write(key: string, copy: SharedCopy, keepMs: number): Promise<void>;
  /** Forgets the copy under `key` (the source said it does not exist). */
  remove(key: string): Promise<void>;
  /**
   * Asks to be the one replica that fills `key` for the next `holdMs` milliseconds: `claimed` (then call
   * `releaseFill` when done), `taken` (another replica is filling it), or `unavailable`.
   */
  claimFill(key: string, holdMs: number): Promise<FillClaim>;
  /** Gives up this replica's claim on `key`, if it still holds it; another replica's claim is left alone. */
  releaseFill(key: string): Promise<void>;
  /** Whether the store responded to its last command (for /readyz); `true` until a command fails. */
  readonly available: boolean;
  close(): Promise<void>;
}

export type FillClaim = 'claimed' | 'taken' | 'unavailable';

/**
 * A source's validated value as replicas share it: the value's JSON (not prepared bodies) and when it was fetched.
 * Bytes, not a parsed value: a list's copy is parsed in a fill's own process (list-fills.ts), never by the server's
 * process.
 */
export interface SharedCopy {
  json: Buffer;
  /** Milliseconds since the epoch when the source responded; freshness and staleness count from here, fleet-wide. */
  storedAt: number;
}
