import { type Failure, FailureError } from '../../outcomes/failure.js';

/** The source failed: refused, reset, 5xx, not JSON, wrong shape, or too slow (`timedOut`). */
export class UpstreamError extends FailureError {
  readonly timedOut: boolean;
  readonly failure: Failure;

  constructor(message: string, options: { timedOut?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'UpstreamError';
    this.timedOut = options.timedOut ?? false;
    this.failure = this.timedOut ? 'timed-out' : 'unavailable';
  }
}
