import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import AppLayout from '@cloudscape-design/components/app-layout';
import BreadcrumbGroup from '@cloudscape-design/components/breadcrumb-group';
import Flashbar, { type FlashbarProps } from '@cloudscape-design/components/flashbar';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import Spinner from '@cloudscape-design/components/spinner';
import TopNavigation from '@cloudscape-design/components/top-navigation';
import Box from '@cloudscape-design/components/box';
import type { MessagingClient } from '@messaging-platform/sdk';
import { AppContext, isSessionOver, type AppContextValue, type FlashInput, type UserCaller } from './context';
import { follow, navigate, useLocation } from './router';
import { persist, resumeSession } from './session';
import { realtimeFor } from './realtime';
import { SignInPage } from './pages/sign-in';
import { InboxPage } from './pages/inbox';
import { NotFoundPage } from './pages/not-found';
import { PageErrorBoundary } from './components/error-boundary';

interface Signed {
  client: MessagingClient;
  me: UserCaller;
}

const HOME = '/inbox';
/** How long a success message stays: long enough to read, then out of the way. */
const SUCCESS_FLASH_MS = 6000;
/**
 * A page loaded on its first visit, so signing in and the inbox download less. A failed download (a dropped
 * connection, or a newer deployment) is tried again on the next visit rather than remembered.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const attempt = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      load()
        .then((page) => ({ default: page }))
        .catch((error: unknown) => {
          current = attempt();
          throw error;
        }),
    );
  let current = attempt();
  return (props: P) => {
    const Page = current;
    return <Page {...props} />;
  };
}
const ApiKeysPage = lazyPage(() => import('./pages/api-keys').then((m) => m.ApiKeysPage));
const WebhooksPage = lazyPage(() => import('./pages/webhooks').then((m) => m.WebhooksPage));
const DeliveryPage = lazyPage(() => import('./pages/delivery').then((m) => m.DeliveryPage));
const EndpointPage = lazyPage(() => import('./pages/webhook-endpoint').then((m) => m.EndpointPage));
const TeamPage = lazyPage(() => import('./pages/team').then((m) => m.TeamPage));
const SavedRepliesPage = lazyPage(() => import('./pages/saved-replies').then((m) => m.SavedRepliesPage));
const PaymentsPage = lazyPage(() => import('./pages/payments').then((m) => m.PaymentsPage));
const PaymentSettingsPage = lazyPage(() => import('./pages/payment-settings').then((m) => m.PaymentSettingsPage));
const OpeningHoursPage = lazyPage(() => import('./pages/opening-hours').then((m) => m.OpeningHoursPage));
const BookingsPage = lazyPage(() => import('./pages/bookings').then((m) => m.BookingsPage));
const CustomersPage = lazyPage(() => import('./pages/customers').then((m) => m.CustomersPage));
const CustomerPage = lazyPage(() => import('./pages/customers').then((m) => m.CustomerPage));
const TenantSettingsPage = lazyPage(() => import('./pages/tenant-settings').then((m) => m.TenantSettingsPage));
const ChannelsPage = lazyPage(() => import('./pages/channels').then((m) => m.ChannelsPage));
const TemplatesPage = lazyPage(() => import('./pages/templates').then((m) => m.TemplatesPage));
const ReminderSettingsPage = lazyPage(() => import('./pages/reminder-settings').then((m) => m.ReminderSettingsPage));

/** The element that holds the current page (not the navigation or the breadcrumbs). */
const PAGE_ID = 'page';
/** Cloudscape's breakpoint below which the side navigation overlays the page. */
const NARROW = '(max-width: 688px)';

/**
 * Focuses the page's h1 once it is rendered (pages show theirs after loading, and a page's code may have to
 * download first); returns a cancel.
 */
function focusHeadingWhenShown(selector = 'h1'): () => void {
  let tries = 0;
  const timer = window.setInterval(() => {
    const page = document.getElementById(PAGE_ID);
    const heading = page?.querySelector<HTMLElement>(selector);
    // Someone already working in the page (a click into a field while it loaded) keeps their focus.
    const busy = page?.contains(document.activeElement) ?? false;
    if (heading || busy || ++tries > 300) window.clearInterval(timer);
    if (!heading || busy) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, 50);
  return () => window.clearInterval(timer);
}

export function App({ apiUrl }: { apiUrl: string }) {
  const location = useLocation();
  const [signed, setSigned] = useState<Signed | null>(null);
  const [resuming, setResuming] = useState(true);
  const [notice, setNotice] = useState<string | undefined>();

  // A reload: resume the tab's session (one refresh, then /auth/me).
  useEffect(() => {
    const client = resumeSession(apiUrl);
    if (!client) {
      setResuming(false);
      return;
    }
    client.auth
      .me()
      .then((me) => {
        if (me.kind === 'user') setSigned({ client, me });
      })
      .catch((error: unknown) => {
        persist(null);
        if (isSessionOver(error)) setNotice('Your session has ended. Sign in again.');
      })
      .finally(() => setResuming(false));
  }, [apiUrl]);

  const onSignedIn = useCallback((client: MessagingClient, me: UserCaller) => {
    setNotice(undefined);
    setSigned({ client, me });
    const next = new URLSearchParams(window.location.search).get('next');
    navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : HOME, { replace: true });
  }, []);

  if (resuming)
    return (
      <Box textAlign="center" padding="xxl">
        <Spinner size="large" /> <span>Loading…</span>
      </Box>
    );

  if (!signed) {
    if (location.pathname !== '/sign-in') {
      const next = location.pathname === '/' ? '' : `?next=${encodeURIComponent(location.href)}`;
      window.history.replaceState(null, '', `/sign-in${next}`);
    }
    return <SignInPage apiUrl={apiUrl} notice={notice} onSignedIn={onSignedIn} />;
  }
  return (
    <SignedIn
      signed={signed}
      onSignedOut={(message) => {
        setNotice(message);
        setSigned(null);
      }}
    />
  );
}

function SignedIn({ signed, onSignedOut }: { signed: Signed; onSignedOut: (notice?: string) => void }) {
  const { client, me } = signed;
  const location = useLocation();
  const [flashes, setFlashes] = useState<FlashbarProps.MessageDefinition[]>([]);
  const [navigationOpen, setNavigationOpen] = useState(true);
  const isAdmin = me.role === 'admin';

  const flash = useCallback((message: FlashInput) => {
    const id = `${Date.now()}-${Math.random()}`;
    // Success says what was just done and goes by itself; errors and warnings stay until dismissed.
    if (message.type === 'success')
      window.setTimeout(() => setFlashes((l) => l.filter((f) => f.id !== id)), SUCCESS_FLASH_MS);
    setFlashes((list) => [
      ...list.slice(-2),
      {
        ...message,
        id,
        dismissible: true,
        dismissLabel: 'Dismiss message',
        onDismiss: () => setFlashes((l) => l.filter((f) => f.id !== id)),
      },
    ]);
  }, []);

  const sessionEnded = useCallback(() => {
    realtimeFor(client).end();
    persist(null);
    const here = window.location.pathname + window.location.search;
    window.history.replaceState(null, '', `/sign-in?next=${encodeURIComponent(here)}`);
    onSignedOut('Your session has ended. Sign in again to continue where you were.');
  }, [client, onSignedOut]);

  const signOut = useCallback(async () => {
    // The tab's socket closes at once (not after the pages' linger), before the session is revoked.
    realtimeFor(client).end();
    try {
      await client.logout();
    } catch {
      // The session may already be over; the tab forgets it either way.
    }
    persist(null);
    window.history.replaceState(null, '', '/sign-in');
    onSignedOut('You have signed out.');
  }, [client, onSignedOut]);

  const value = useMemo<AppContextValue>(
    () => ({ client, me, isAdmin, sessionEnded, signOut, flash }),
    [client, me, isAdmin, sessionEnded, signOut, flash],
  );

  // Messages belong to the page they were raised on.
  useEffect(() => {
    setFlashes([]);
  }, [location.pathname]);

  // After moving to another page, focus goes to its heading (once it has loaded), as a screen reader or
  // keyboard user expects; not on the first page, where the browser starts at the top anyway.
  const firstPage = useRef(true);
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    // An opened conversation: its heading, in the thread beside the list.
    return focusHeadingWhenShown(location.pathname.startsWith('/inbox/') ? '#thread-heading' : 'h1');
  }, [location.pathname]);

  // The inbox needs the width for its three panes: entering it folds the side navigation away (its
  // button opens it again).
  const inInbox = location.pathname.startsWith('/inbox');
  useEffect(() => {
    if (inInbox) setNavigationOpen(false);
  }, [inInbox]);

  // Cloudscape's phone toolbar puts aria-orientation on a <nav>, where ARIA does not allow it (screen
  // readers may misread the landmark): the attribute is taken off whenever the toolbar renders.
  useEffect(() => {
    const strip = () =>
      document.querySelectorAll('nav[aria-orientation]').forEach((nav) => nav.removeAttribute('aria-orientation'));
    strip();
    const observer = new MutationObserver(strip);
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['aria-orientation'] });
    return () => observer.disconnect();
  }, []);

  // On a narrow screen the side navigation covers the page: Escape closes it.
  useEffect(() => {
    const close = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && window.matchMedia(NARROW).matches) setNavigationOpen(false);
    };
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, []);

  if (location.pathname === '/' || location.pathname === '/sign-in') {
    navigate(HOME, { replace: true });
    return null;
  }
  const page = route(location.pathname, isAdmin);

  const navItems: SideNavigationProps.Item[] = [
    { type: 'link', text: 'Inbox', href: '/inbox' },
    { type: 'link', text: 'Customers', href: '/customers' },
    { type: 'link', text: 'Bookings', href: '/bookings' },
    { type: 'link', text: 'Payments', href: '/payments' },
    { type: 'link', text: 'Templates', href: '/templates' },
    { type: 'divider' },
    {
      type: 'section-group',
      title: 'Settings',
      items: [
        ...(isAdmin
          ? [
              {
                type: 'link-group' as const,
                text: 'Developer',
                href: '/settings/developer/api-keys',
                items: [{ type: 'link' as const, text: 'API keys', href: '/settings/developer/api-keys' }],
              },
            ]
          : []),
        ...(isAdmin ? [{ type: 'link' as const, text: 'Tenant', href: '/settings/tenant' }] : []),
        { type: 'link', text: 'Channels', href: '/settings/channels' },
        { type: 'link', text: 'Opening hours', href: '/settings/opening-hours' },
        { type: 'link', text: 'Payments', href: '/settings/payments' },
        { type: 'link', text: 'Reminders', href: '/settings/reminders' },
        { type: 'link', text: 'Saved replies', href: '/settings/saved-replies' },
        { type: 'link', text: 'Webhooks', href: '/settings/webhooks' },
        ...(isAdmin ? [{ type: 'link' as const, text: 'Team', href: '/settings/team' }] : []),
      ],
    },
  ];
  const activeHref =
    [
      '/settings/developer/api-keys',
      '/settings/tenant',
      '/settings/channels',
      '/settings/opening-hours',
      '/settings/saved-replies',
      '/settings/payments',
      '/settings/reminders',
      '/settings/webhooks',
      '/settings/team',
      '/bookings',
      '/payments',
      '/templates',
      '/customers',
      '/inbox',
    ].find((p) => location.pathname.startsWith(p)) ?? location.pathname;

  return (
    <AppContext.Provider value={value}>
      <div id="top-nav">
        <TopNavigation
          identity={{ href: '/inbox', title: 'Messaging Platform', onFollow: follow }}
          utilities={[
            {
              type: 'menu-dropdown',
              text: me.tenant.name,
              description: `Tenant ID ${me.tenant.id}`,
              iconName: 'group',
              items: [{ id: 'copy-tenant-id', text: 'Copy tenant ID' }],
              onItemClick: (e) => {
                if (e.detail.id !== 'copy-tenant-id') return;
                void navigator.clipboard
                  .writeText(me.tenant.id)
                  .then(() => flash({ type: 'success', content: `Tenant ID ${me.tenant.id} copied.` }))
                  .catch(() => flash({ type: 'info', content: `Tenant ID: ${me.tenant.id}` }));
              },
            },
            {
              type: 'menu-dropdown',
              text: signed.client.tokens?.user.name ?? signed.client.tokens?.user.email ?? 'Account',
              description: `${signed.client.tokens?.user.email ?? ''} · ${me.role}`,
              iconName: 'user-profile',
              items: [{ id: 'sign-out', text: 'Sign out' }],
              onItemClick: (e) => {
                if (e.detail.id === 'sign-out') void signOut();
              },
            },
          ]}
        />
      </div>
      <AppLayout
        headerSelector="#top-nav"
        toolsHide
        navigationOpen={navigationOpen}
        onNavigationChange={(e) => setNavigationOpen(e.detail.open)}
        ariaLabels={{
          navigation: 'Side navigation',
          navigationClose: 'Close side navigation',
          navigationToggle: 'Open side navigation',
          notifications: 'Notifications',
        }}
        navigation={
          <SideNavigation
            header={{ text: me.tenant.name, href: '/inbox' }}
            activeHref={activeHref}
            onFollow={follow}
            items={navItems}
          />
        }
        notifications={<Flashbar items={flashes} />}
        breadcrumbs={<Breadcrumbs pathname={location.pathname} />}
        content={
          <div id={PAGE_ID}>
            <PageErrorBoundary key={location.pathname.startsWith('/inbox') ? '/inbox' : location.pathname}>
              <Suspense
                fallback={
                  <Box textAlign="center" padding="l">
                    <Spinner size="large" /> Loading…
                  </Box>
                }
              >
                {page}
              </Suspense>
            </PageErrorBoundary>
          </div>
        }
      />
    </AppContext.Provider>
  );
}

function route(pathname: string, isAdmin: boolean): React.ReactNode {
  // The inbox keeps its list while conversations open beside it: one page for both paths.
  const conversation = /^\/inbox\/(conv_[0-9A-Z]+)$/.exec(pathname);
  if (conversation) return <InboxPage key="inbox" selected={conversation[1]} />;
  const customer = /^\/customers\/(cus_[0-9A-Z]+)$/.exec(pathname);
  if (customer) return <CustomerPage key={customer[1]} id={customer[1]!} />;
  const delivery = /^\/settings\/webhooks\/deliveries\/(dlv_[0-9A-Z]+)$/.exec(pathname);
  if (delivery) return <DeliveryPage key={delivery[1]} id={delivery[1]!} />;
  const endpoint = /^\/settings\/webhooks\/endpoints\/(whk_[0-9A-Z]+)$/.exec(pathname);
  if (endpoint) return <EndpointPage key={endpoint[1]} id={endpoint[1]!} />;
  switch (pathname.replace(/\/+$/, '')) {
    case '/inbox':
      return <InboxPage key="inbox" />;
    case '/bookings':
      return <BookingsPage />;
    case '/customers':
      return <CustomersPage />;
    case '/payments':
      return <PaymentsPage />;
    case '/settings/payments':
      return <PaymentSettingsPage />;
    case '/templates':
      return <TemplatesPage />;
    case '/settings/reminders':
      return <ReminderSettingsPage />;
    case '/settings/developer/api-keys':
      return isAdmin ? <ApiKeysPage /> : <NotFoundPage adminOnly />;
    case '/settings/tenant':
      return isAdmin ? <TenantSettingsPage /> : <NotFoundPage adminOnly />;
    case '/settings/channels':
      return <ChannelsPage />;
    case '/settings/opening-hours':
      return <OpeningHoursPage />;
    case '/settings/saved-replies':
      return <SavedRepliesPage />;
    case '/settings/webhooks':
      return <WebhooksPage />;
    case '/settings/team':
      return isAdmin ? <TeamPage /> : <NotFoundPage adminOnly />;
    default:
      return <NotFoundPage />;
  }
}

const CRUMBS: [RegExp, { text: string; href: string }[]][] = [
  [
    /^\/inbox\/.+/,
    [
      { text: 'Inbox', href: '/inbox' },
      { text: 'Conversation', href: '#' },
    ],
  ],
  [/^\/inbox/, [{ text: 'Inbox', href: '/inbox' }]],
  [/^\/bookings/, [{ text: 'Bookings', href: '/bookings' }]],
  [/^\/templates/, [{ text: 'Templates', href: '/templates' }]],
  [
    /^\/customers\/.+/,
    [
      { text: 'Customers', href: '/customers' },
      { text: 'Customer', href: '#' },
    ],
  ],
  [/^\/customers/, [{ text: 'Customers', href: '/customers' }]],
  [
    /^\/settings\/developer\/api-keys/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Developer', href: '/settings/developer/api-keys' },
      { text: 'API keys', href: '/settings/developer/api-keys' },
    ],
  ],
  [
    /^\/settings\/webhooks\/deliveries\/.+/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Webhooks', href: '/settings/webhooks' },
      { text: 'Failed deliveries', href: '/settings/webhooks?tab=failed' },
      { text: 'Delivery', href: '#' },
    ],
  ],
  [
    /^\/settings\/webhooks\/endpoints\/.+/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Webhooks', href: '/settings/webhooks' },
      { text: 'Endpoint', href: '#' },
    ],
  ],
  [
    /^\/settings\/webhooks/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Webhooks', href: '/settings/webhooks' },
    ],
  ],
  [
    /^\/settings\/tenant/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Tenant', href: '/settings/tenant' },
    ],
  ],
  [
    /^\/settings\/channels/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Channels', href: '/settings/channels' },
    ],
  ],
  [
    /^\/settings\/opening-hours/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Opening hours', href: '/settings/opening-hours' },
    ],
  ],
  [
    /^\/settings\/payments/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Payments', href: '/settings/payments' },
    ],
  ],
  [
    /^\/settings\/reminders/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Reminders', href: '/settings/reminders' },
    ],
  ],
  [
    /^\/settings\/saved-replies/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Saved replies', href: '/settings/saved-replies' },
    ],
  ],
  [
    /^\/settings\/team/,
    [
      { text: 'Settings', href: '/settings/webhooks' },
      { text: 'Team', href: '/settings/team' },
    ],
  ],
];

function Breadcrumbs({ pathname }: { pathname: string }) {
  const items = CRUMBS.find(([pattern]) => pattern.test(pathname))?.[1] ?? [];
  return <BreadcrumbGroup items={items} ariaLabel="Breadcrumbs" onFollow={follow} />;
}
