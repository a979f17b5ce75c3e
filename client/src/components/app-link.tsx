import type { AnchorHTMLAttributes, Ref } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type To } from 'react-router-dom';

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  /** Replace the history entry rather than add one (by default, only a link to where the app already is replaces). */
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

/**
 * A link within the site: a plain `<a href>` the browser follows without scripts, which the app follows itself once
 * it runs (React Router's `useLinkClickHandler`: the main button, no modifier key, no other target). React Router's
 * own `<Link>` does the same and also carries its framework mode's prefetching and route discovery, which this
 * declarative app never uses but every page downloaded (docs/performance.md, "Filters and the search in the bar").
 */
export function AppLink({ to, replace, target, onClick, ref, children, ...props }: AppLinkProps) {
  const href = useHref(to);
  const follow = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  return (
    <a
      {...props}
      ref={ref}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) follow(event);
      }}
    >
      {children}
    </a>
  );
}

interface AppNavLinkProps extends AppLinkProps {
  /** Active only on its own path, not on the paths below it. */
  end?: boolean;
}

/**
 * A link of the site's navigation: `aria-current="page"` and the class `active` while the app is on its path (or
 * below it, unless `end`), compared as React Router's `<NavLink>` compares them (case aside).
 */
export function AppNavLink({ end = false, className, ...props }: AppNavLinkProps) {
  const target = useResolvedPath(props.to).pathname.toLowerCase();
  const here = useLocation().pathname.toLowerCase();
  const endSlash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const active = here === target || (!end && here.startsWith(target) && here.charAt(endSlash) === '/');
  return (
    <AppLink {...props} className={[className, active && 'active'].filter(Boolean).join(' ')} aria-current={active ? 'page' : undefined} />
  );
}
