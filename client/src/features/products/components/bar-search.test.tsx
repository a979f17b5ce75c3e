import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { renderApp } from '../../../testing/render-app';
import { startClientTestSite, type TestSite } from '../../../testing/test-site';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

/** The fixture's titles holding "mens", as the search compares them, in catalogue order: the first 6. */
const MENS = FIXTURE_PRODUCTS.filter(({ title }) => title.toLowerCase().includes('mens')).map(({ title }) => title);

async function typeInBar(text: string) {
  const app = renderApp('/', { site });
  const box = screen.getByRole('combobox', { name: 'Search the catalogue' });
  await app.user.type(box, text);
  const listbox = await screen.findByRole('listbox', { name: 'Suggestions' });
  await waitFor(() => expect(within(listbox).getAllByRole('option').length).toBeGreaterThan(0));
  return { ...app, box, listbox };
}

describe('the search in the bar', () => {
  it('is a combobox listing up to 6 products by title, the matched text marked', async () => {
    const { box, listbox } = await typeInBar('mens');
    const options = within(listbox).getAllByRole('option');
    // No category's name holds "mens" ("men's clothing" has an apostrophe): only products.
    expect(options.map((option) => option.getAttribute('aria-label'))).toEqual(MENS.slice(0, 6));
    expect(options[0]!.querySelector('mark')?.textContent?.toLowerCase()).toBe('mens');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box).toHaveAttribute('aria-controls', listbox.id);
    expect(box).not.toHaveAttribute('aria-activedescendant');
  });

  it('moves with ↓ and ↑, wrapping through the box, and Enter opens the product chosen', async () => {
    const { box, listbox, user, router } = await typeInBar('mens');
    const options = within(listbox).getAllByRole('option');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    // Above the first: back in the box, no choice; above that, the last.
    expect(box).not.toHaveAttribute('aria-activedescendant');
    await user.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options.at(-1)!.id);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    const first = FIXTURE_PRODUCTS.find(({ title }) => title === MENS[0])!;
    await waitFor(() => expect(router.location.pathname).toBe(`/productdetails/${first.id}`));
  });

  it('opens the category chosen as the products list narrowed to it', async () => {
    const { listbox, user, router } = await typeInBar('jewel');
    const options = within(listbox).getAllByRole('option');
    expect(options.at(-1)).toHaveAttribute('aria-label', 'jewelery, category');
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(`${router.location.pathname}${router.location.search}`).toBe('/products?category=jewelery'));
  });

  it('opens the products list searched for the text on Enter with no choice', async () => {
    const { user, router } = await typeInBar('mens');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(`${router.location.pathname}${router.location.search}`).toBe('/products?q=mens'));
  });

  it('closes on Escape, focus staying in the box, and ↓ opens it again', async () => {
    const { box, listbox, user } = await typeInBar('mens');
    await user.keyboard('{ArrowDown}{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).not.toHaveAttribute('aria-activedescendant');
    expect(listbox).not.toBeVisible();
    expect(box).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-expanded', 'true');
  });
});
