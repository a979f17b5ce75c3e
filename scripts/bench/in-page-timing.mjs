// Timers that run inside the page (`page.evaluate` / `page.addInitScript` send each function's source, so each
// is whole on its own: no imports, no closures): what a visitor waits for, in the page's own clock.

/**
 * Records, in the page's own clock (ms since navigation start), when the first product card is in the DOM with
 * a size and a frame has been painted after it.
 */
export function recordFirstCard(cardSelector) {
  const observer = new MutationObserver(() => {
    const card = document.querySelector(cardSelector);
    if (card === null || card.getBoundingClientRect().height === 0) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => (window.__benchFirstCard = performance.now())));
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Sets a control of the toolbar to `value` the way a visitor does, with the one event React listens to (`input` for
 * a keystroke or a pasted word: one event carrying the whole value; `change` for a choice in a menu), and resolves
 * with the milliseconds until the grid shows what `until` names and a frame has been painted; null after 10 s.
 * - `{ cards, total }`: the grid shows `cards` products: that many cards are in the DOM, or (for a virtualised grid,
 *   which renders only what is on screen) the live count says so;
 * - `{ firstCardHref }`: the grid's first card is that link, on screen.
 */
export function setControlAndTime({ controlSelector, eventType, value, cardSelector, until }) {
  const control = document.querySelector(controlSelector);
  const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value').set;
  const liveCount = () => document.querySelector('[aria-live]')?.textContent ?? '';
  const shown = () => {
    if (until.firstCardHref !== undefined) {
      const card = document.querySelector(cardSelector);
      return card?.getAttribute('href') === until.firstCardHref && card.getBoundingClientRect().height > 0;
    }
    return (
      document.querySelectorAll(cardSelector).length === until.cards ||
      (until.cards === until.total ? /^\d+ products?$/.test(liveCount().trim()) : liveCount().startsWith(`${until.cards} of `))
    );
  };
  return new Promise((resolve) => {
    let finished = false;
    const started = performance.now();
    const finish = (result) => {
      if (finished) return;
      finished = true;
      observer.disconnect();
      clearTimeout(timer);
      if (result === null) resolve(null);
      else requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
    };
    const observer = new MutationObserver(() => shown() && finish(true));
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const timer = setTimeout(() => finish(null), 10_000);
    setValue.call(control, value);
    control.dispatchEvent(new Event(eventType, { bubbles: true }));
    if (shown()) finish(true);
  });
}
