import { act } from '@testing-library/react';
import { useRef, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAdoptedValue } from './use-adopted-value';

/** A box whose text is the app's state, started empty, as the server renders it; `adopted` is told what it took. */
function Box({ adopted }: { adopted: (text: string) => void }) {
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useAdoptedValue(
    () => inputRef.current?.value ?? null,
    text,
    (typed) => {
      adopted(typed);
      setText(typed);
    },
  );
  return (
    <>
      <input ref={inputRef} aria-label="Box" value={text} onChange={(event) => setText(event.target.value)} />
      <output>{text === '' ? 'nothing' : text}</output>
    </>
  );
}

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

/** The server's page, with `before` done to it (the visitor's doing), then hydrated by the app. */
async function takeOver(before: (input: HTMLInputElement) => void, adopted = vi.fn()) {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Box adopted={() => {}} />);
  document.body.append(container);
  const input = container.querySelector('input')!;
  before(input);
  await act(async () => {
    root = hydrateRoot(container!, <Box adopted={adopted} />);
    await Promise.resolve();
  });
  return { input, output: container.querySelector('output')!, adopted };
}

describe('useAdoptedValue (docs/pages.md, "Before the app")', () => {
  it('takes what the visitor typed before the app as the app’s state, in its first frame, focus and caret kept', async () => {
    const { input, output, adopted } = await takeOver((box) => {
      box.focus();
      box.value = 'jacket';
      box.setSelectionRange(2, 2);
    });
    expect(adopted).toHaveBeenCalledTimes(1);
    expect(adopted).toHaveBeenCalledWith('jacket');
    expect(output).toHaveTextContent('jacket');
    expect(input).toHaveValue('jacket');
    expect(input).toHaveFocus();
    expect([input.selectionStart, input.selectionEnd]).toEqual([2, 2]);
  });

  it('adopts nothing when the page holds what the app rendered', async () => {
    const { output, adopted } = await takeOver(() => {});
    expect(adopted).not.toHaveBeenCalled();
    expect(output).toHaveTextContent('nothing');
  });

  it('reads the page once, on mounting: the app’s own state is the control’s from then on', async () => {
    const { input, output, adopted } = await takeOver(() => {});
    // A change the app does not hear of (no input event) is not read by a later render.
    input.value = 'later';
    await act(async () => {
      root!.render(<Box adopted={adopted} />);
      await Promise.resolve();
    });
    expect(adopted).not.toHaveBeenCalled();
    expect(output).toHaveTextContent('nothing');
  });

  it('compares by `same` when one is given', () => {
    const adopt = vi.fn();
    function Menus({ held }: { held: { sort: string } }) {
      useAdoptedValue(
        () => held,
        { sort: 'none' },
        adopt,
        (a, b) => a.sort === b.sort,
      );
      return null;
    }
    container = document.createElement('div');
    document.body.append(container);
    act(() => {
      root = createRoot(container!);
      root.render(<Menus held={{ sort: 'none' }} />);
    });
    expect(adopt).not.toHaveBeenCalled();
  });
});
