import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppLink, AppNavLink } from './app-link';

function Where() {
  const location = useLocation();
  return <output>{location.pathname + location.search}</output>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <AppLink to="/products?q=bag">Bags</AppLink>
      <nav>
        <AppNavLink to="/" end className="entry">
          Home
        </AppNavLink>
        <AppNavLink to="/products">Products</AppNavLink>
      </nav>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('AppLink and AppNavLink', () => {
  it('are plain links the app follows itself on a press of the main button', () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'Bags' });
    expect(link).toHaveAttribute('href', '/products?q=bag');
    fireEvent.click(link);
    expect(screen.getByRole('status')).toHaveTextContent('/products?q=bag');
  });

  it('leave a press with a modifier key (a new tab) to the browser', () => {
    renderAt('/');
    fireEvent.click(screen.getByRole('link', { name: 'Bags' }), { ctrlKey: true });
    expect(screen.getByRole('status')).toHaveTextContent(/^\/$/);
  });

  it('mark the entry of the page shown, its own path only when `end`', () => {
    renderAt('/products/');
    expect(screen.getByRole('link', { name: 'Products' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Products' })).toHaveClass('active');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveClass('entry');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveClass('active');
  });
});
