// Vitest set-up for every project whose tests start a test site (vitest.config.ts): an answer that breaks the OpenAPI
// document fails the test during which it was sent (answer-watch.ts, docs/testing.md).
import { afterAll, afterEach } from 'vitest';
import { takeUndocumentedAnswers } from './answer-watch.js';

function failOnUndocumentedAnswers(): void {
  const problems = takeUndocumentedAnswers();
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} answer(s) the OpenAPI document does not promise:\n${problems.slice(0, 10).join('\n')}${problems.length > 10 ? '\n…' : ''}`,
    );
  }
}

afterEach(failOnUndocumentedAnswers);
// Answers sent by a file's beforeAll or afterAll hooks after its last test.
afterAll(failOnUndocumentedAnswers);
