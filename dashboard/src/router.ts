/** A small history-API router: the dashboard has a handful of routes and no nested layouts. */
import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function useLocation(): { pathname: string; search: URLSearchParams; href: string } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  const { pathname, search } = window.location;
  return { pathname, search: new URLSearchParams(search), href: pathname + search };
}

/** Follows a Cloudscape link or navigation item inside the app (plain clicks only). */
export function follow(event: CustomEvent<{ href?: string; external?: boolean }>): void {
  const href = event.detail.href;
  if (!href || event.detail.external || !href.startsWith('/')) return;
  event.preventDefault();
  navigate(href);
}

/** A customer's page. */
export const customerHref = (id: string) => `/customers/${id}`;
