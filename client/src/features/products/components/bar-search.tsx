import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { productsPagePath } from '@catalogue/shared/product-paging';
import { PAGE_PATHS, PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { StyledIconButton } from '../../../components/icon-button';
import { useAdoptedValue } from '../../../hooks/use-adopted-value';
import { useHydrated } from '../../../hooks/use-hydrated';
import { media } from '../../../styles/theme';
import { type Choice, pathOf } from './bar-choice';
import { BarSuggestions } from './bar-suggestions';
import { SearchIcon } from './search-icon';

/**
 * Below 1024 px a search button in the bar unfolds the box under it (a <details>, so it opens without scripts);
 * from 1024 px the box sits in the bar, the button hidden: `::details-content` is what a closed <details> hides.
 */
const StyledDisclosure = styled.details`
  > summary {
    list-style: none;
  }

  > summary::-webkit-details-marker {
    display: none;
  }

  ${media.lg} {
    flex: 0 1 340px;

    &::details-content {
      content-visibility: visible;
      block-size: auto;
    }

    > summary {
      display: none;
    }
  }
`;

/** On a phone the unfolded box spans the bar's width just below it; in the bar from 1024 px. */
const StyledForm = styled.form`
  position: absolute;
  inset: 100% 0 auto 0;
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.bar};

  ${media.lg} {
    position: relative;
    inset: auto;
    padding: 0;
    background: none;
    box-shadow: none;
  }
`;

const StyledInput = styled.input`
  width: 100%;
  min-height: 44px;
  padding: 0 ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font-size: ${({ theme }) => theme.font.sizeMd};

  &::placeholder {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 1;
  }
`;

/**
 * The search in the bar (docs/product.md, "Search in the bar"): a GET form of `/products?q=…` on every page. Once the
 * app runs, a WAI-ARIA 1.2 combobox: as the visitor types it suggests products and categories (a request per text,
 * the one before cancelled); ↑ and ↓ move through them, Enter opens the one chosen or, with none, the products list
 * searched for the text; Escape closes the list, focus staying in the box.
 */
export function BarSearch() {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const listboxId = useId();
  const optionId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  // The list asks for nothing until the box is first used (focused or typed in).
  const [used, setUsed] = useState(false);
  const [choices, setChoices] = useState<Choice[]>([]);
  const open = expanded && choices.length > 0;

  // Text typed in the server's page before the app took it over is the app's from then on (docs/pages.md, "Before
  // the app").
  useAdoptedValue(() => inputRef.current?.value ?? null, text, setText);

  function go(path: string) {
    setExpanded(false);
    setActive(-1);
    if (detailsRef.current) detailsRef.current.open = false;
    void navigate(path);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setExpanded(true);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Past either end, back to the box (no choice), as the APG's list autocomplete does.
      setActive((current) => {
        const next = current + step;
        return next < -1 ? choices.length - 1 : next >= choices.length ? -1 : next;
      });
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setExpanded(false);
      setActive(-1);
    } else if (event.key === 'Escape' && detailsRef.current?.open && summaryRef.current?.checkVisibility()) {
      // With the list closed, on a phone: the box folds away and focus returns to the button that unfolded it.
      event.preventDefault();
      detailsRef.current.open = false;
      summaryRef.current.focus();
    } else if (event.key === 'Enter' && open && active >= 0) {
      event.preventDefault();
      go(pathOf(choices[active]!));
    }
  }

  return (
    <StyledDisclosure
      ref={detailsRef}
      onToggle={(event) => {
        if (event.currentTarget.open) inputRef.current?.focus();
      }}
    >
      {/* The bar's round button look, on the disclosure's own button. */}
      <StyledIconButton as="summary" ref={summaryRef} aria-label="Search">
        <SearchIcon />
      </StyledIconButton>
      <StyledForm
        role="search"
        action={PAGE_PATHS.products}
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          const search = inputRef.current?.value ?? text;
          go(productsPagePath({ search, category: '', sort: 'none', page: 1 }));
        }}
      >
        <StyledInput
          ref={inputRef}
          type="search"
          name={PRODUCTS_PARAMS.search}
          aria-label="Search the catalogue"
          placeholder="Find a product or category"
          autoComplete="off"
          {...(hydrated && {
            role: 'combobox',
            'aria-autocomplete': 'list' as const,
            'aria-expanded': open,
            // The list exists once its module has loaded; it is named only while shown.
            'aria-controls': open ? listboxId : undefined,
            'aria-activedescendant': open && active >= 0 ? `${optionId}-${active}` : undefined,
          })}
          value={text}
          onChange={(event) => {
            setUsed(true);
            setText(event.target.value);
            setExpanded(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setExpanded(false)}
          onFocus={() => {
            setUsed(true);
            setExpanded(true);
          }}
        />
        {hydrated && used && (
          <BarSuggestions
            text={text}
            listboxId={listboxId}
            optionId={optionId}
            open={open}
            active={active}
            onChoices={setChoices}
            onChoose={(choice) => go(pathOf(choice))}
          />
        )}
      </StyledForm>
    </StyledDisclosure>
  );
}
