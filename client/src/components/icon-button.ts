import styled from 'styled-components';

/** The round, borderless button of the top bar (theme toggle, hamburger). */
export const StyledIconButton = styled.button`
  display: inline-grid;
  place-items: center;
  width: 44px;
  height: 44px;
  padding: 0;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  cursor: pointer;
  transition:
    background-color ${({ theme }) => theme.transition.quick},
    border-color ${({ theme }) => theme.transition.quick};

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    border-color: ${({ theme }) => theme.colors.accentStrong};
  }

  svg {
    width: 22px;
    height: 22px;
    /* Presses land on the button itself: an icon swapped under the pointer (the theme button's) then sends no
       pointerout / pointerover for the app to dispatch in the frame after the press. */
    pointer-events: none;
  }
`;
