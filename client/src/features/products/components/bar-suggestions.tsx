import { useEffect } from 'react';
import styled from 'styled-components';
import { searchNeedle } from '@catalogue/shared/sort';
import { formatPrice } from '../../../lib/format-price';
import { media } from '../../../styles/theme';
import { useSuggestions } from '../api/get-suggestions';
import type { Choice } from './bar-choice';

// The bar search's list of suggestions (bar-search.tsx), mounted once the box is first used.

const StyledListbox = styled.ul`
  position: absolute;
  inset: calc(100% + 4px) 0 auto 0;
  max-height: 70vh;
  margin: 0;
  padding: ${({ theme }) => theme.space.xs};
  overflow-y: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.cardHover};
  list-style: none;

  ${media.lg} {
    inset: calc(100% + 4px) auto auto 0;
    width: max(100%, 420px);
  }
`;

const StyledOption = styled.li`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  align-items: center;
  min-height: 44px;
  padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radius.sm};
  color: ${({ theme }) => theme.colors.text};
  cursor: pointer;

  &[aria-selected='true'] {
    background: ${({ theme }) => theme.colors.badgeBackground};
    color: ${({ theme }) => theme.colors.badgeText};
  }

  img {
    flex: none;
    width: 40px;
    height: 40px;
    object-fit: contain;
    border-radius: ${({ theme }) => theme.radius.sm};
    background: ${({ theme }) => theme.colors.imageWell};
  }

  mark {
    background: none;
    color: inherit;
    font-weight: 700;
  }
`;

const StyledTitle = styled.span`
  flex: 1;
  min-width: 0;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

const StyledAside = styled.span`
  flex: none;
  font-size: ${({ theme }) => theme.font.sizeSm};
`;

/** The title with the first place it holds the text marked; unmarked where lower case changes its length. */
export function MarkedTitle({ title, search }: { title: string; search: string }) {
  const needle = searchNeedle(search);
  const lower = title.toLocaleLowerCase();
  const at = lower.length === title.length ? lower.indexOf(needle) : -1;
  if (needle === '' || at === -1) return <>{title}</>;
  return (
    <>
      {title.slice(0, at)}
      <mark>{title.slice(at, at + needle.length)}</mark>
      {title.slice(at + needle.length)}
    </>
  );
}

interface BarSuggestionsProps {
  text: string;
  listboxId: string;
  /** The options' ids are `${optionId}-${index}`, for the box's aria-activedescendant. */
  optionId: string;
  open: boolean;
  active: number;
  /** Told the choices each time the suggestions for the box's text arrive. */
  onChoices: (choices: Choice[]) => void;
  onChoose: (choice: Choice) => void;
}

/** Asks for the suggestions of the box's text (a request per text, the one before cancelled) and lists them. */
export function BarSuggestions({ text, listboxId, optionId, open, active, onChoices, onChoose }: BarSuggestionsProps) {
  const asking = searchNeedle(text) !== '';
  const { data } = useSuggestions(text, asking);
  const shown = asking ? data : undefined;
  useEffect(() => {
    onChoices(
      shown
        ? [
            ...shown.products.map((product): Choice => ({ kind: 'product', product })),
            ...shown.categories.map((name): Choice => ({ kind: 'category', name })),
          ]
        : [],
    );
  }, [shown, onChoices]);
  const choices = shown
    ? [
        ...shown.products.map((product): Choice => ({ kind: 'product', product })),
        ...shown.categories.map((name): Choice => ({ kind: 'category', name })),
      ]
    : [];
  return (
    <StyledListbox id={listboxId} role="listbox" aria-label="Suggestions" hidden={!open}>
      {choices.map((choice, index) => (
        <StyledOption
          key={choice.kind === 'product' ? `p${choice.product.id}` : `c${choice.name}`}
          id={`${optionId}-${index}`}
          role="option"
          aria-selected={index === active}
          aria-label={choice.kind === 'product' ? choice.product.title : `${choice.name}, category`}
          // The box keeps focus: a press chooses without blurring it first.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChoose(choice)}
        >
          {choice.kind === 'product' ? (
            <>
              <img src={`${choice.product.image}?w=160`} alt="" width={40} height={40} loading="lazy" />
              <StyledTitle>
                <MarkedTitle title={choice.product.title} search={text} />
              </StyledTitle>
              <StyledAside>{formatPrice(choice.product.price)}</StyledAside>
            </>
          ) : (
            <>
              <StyledTitle>
                <MarkedTitle title={choice.name} search={text} />
              </StyledTitle>
              <StyledAside>Category</StyledAside>
            </>
          )}
        </StyledOption>
      ))}
    </StyledListbox>
  );
}
