import { screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientTestSite, type TestSite } from '../testing/test-site';
import { renderApp } from '../testing/render-app';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

describe('not-found page', () => {
  it.each(['/nope', '/products/1', '/productdetails'])('answers %s with a 404 page and a way home', async (path) => {
    renderApp(path, { site });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for doesn’t exist or has been moved.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Back Home' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page Not Found · Catalogue');
  });

  it('takes the visitor home', async () => {
    const { user, router } = renderApp('/nope', { site });
    await user.click(await screen.findByRole('link', { name: 'Go Back Home' }));
    expect(router.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Products Gallery' })).toBeInTheDocument();
  });
});
