import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ThemeModeProvider } from '../lib/theme-mode';
import { ErrorBoundary } from './error-boundary';

function Broken(): never {
  throw new Error('boom');
}

describe('ErrorBoundary', () => {
  it('replaces a crashed page with a friendly message and a reload button', () => {
    // React and the boundary both report the error; keep the test output quiet.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ThemeModeProvider>
        <ErrorBoundary>
          <Broken />
        </ErrorBoundary>
      </ThemeModeProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
    consoleError.mockRestore();
  });
});
