import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Tests import the shared rules from source, so `npm test` needs no build first.
const sharedSource = fileURLToPath(new URL('./shared/src/', import.meta.url));
const alias = [{ find: /^@catalogue\/shared\/(.*)$/, replacement: `${sharedSource}$1.ts` }];

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'shared', environment: 'node', include: ['shared/src/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: { name: 'server', environment: 'node', include: ['server/src/**/*.test.ts'] },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/src/**/*.test.{ts,tsx}'],
          setupFiles: ['client/src/testing/setup-tests.ts'],
        },
      },
    ],
  },
});
