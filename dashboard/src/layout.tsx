import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { errorMessage, signOut } from './api.ts';
import { useAction } from './hooks.ts';
import { Link } from './router.tsx';
import { can, type Operation, type Session } from './session.ts';

interface Area {
  href: string;
  /** What the area reads first: a role that may not call it does not see the area at all. */
  needs: Operation;
}

/** The main navigation, in order; the first one the caller may read is where signing in lands. */
const SECTIONS: (Area & { label: string })[] = [
  { href: '/workflows', label: 'Workflows', needs: 'listWorkflows' },
  { href: '/cases', label: 'Cases', needs: 'listCases' },
  { href: '/reports', label: 'Reports', needs: 'getCaseReport' },
  { href: '/usage', label: 'Usage', needs: 'getUsage' },
  { href: '/subscriptions', label: 'Subscriptions', needs: 'listSubscriptions' },
  { href: '/tokens', label: 'Tokens', needs: 'listTokens' },
  { href: '/retention', label: 'Retention', needs: 'getRetention' },
  { href: '/audit', label: 'Audit', needs: 'listAuditEntries' },
  { href: '/users', label: 'Users', needs: 'listUsers' },
  { href: '/sso', label: 'Single sign-on', needs: 'getSso' },
];

/** Pages below a section that need more than the section does. */
const SUBAREAS: Area[] = [{ href: '/reports/digests', needs: 'listDigests' }];

const within = (path: string, href: string) => path === href || path.startsWith(`${href}/`);

/** The most specific area `path` belongs to, if any. */
export function sectionOf(path: string): Area | undefined {
  return [...SUBAREAS, ...SECTIONS].find((area) => within(path, area.href));
}

/** Where a signed-in caller starts: the first section their role may read. */
export function landingPath(): string {
  return SECTIONS.find((section) => can(section.needs))?.href ?? '/cases';
}

/** Who is signed in, and signing out. */
function Account({ session }: { session: Extract<Session, { kind: 'person' | 'token' }> }) {
  const leave = useAction(signOut);
  return (
    <div class="account">
      {session.kind === 'person' ? (
        <p class="account__who">
          <span class="account__email">{session.email}</span>
          <span class="account__role">{session.role}</span>
        </p>
      ) : (
        <p class="account__who">Admin token</p>
      )}
      <button type="button" class="button button--ghost nav__signout" disabled={leave.pending} onClick={() => void leave.run()}>
        Sign out
      </button>
      {leave.error !== null && (
        <p class="account__error" role="alert">
          Not signed out: {errorMessage(leave.error)}
        </p>
      )}
    </div>
  );
}

function Brand() {
  return (
    <Link href={landingPath()} class="brand">
      <img class="brand__mark" src="/dashboard/favicon.svg" alt="" width={28} height={28} />
      <span class="brand__name">Case Intake</span>
      <span class="brand__tag">Admin</span>
    </Link>
  );
}

export function Layout({ path, session, children }: { path: string; session: Extract<Session, { kind: 'person' | 'token' }>; children: ComponentChildren }) {
  const [menuOpen, setMenuOpen] = useState(false);
  // A layout effect: the menu is closed in the same commit that shows the new page, never a frame later.
  useLayoutEffect(() => setMenuOpen(false), [path]);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar__inner">
          <Brand />
          <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
            <span class="menu-toggle__icon" aria-hidden="true" />
            Menu
          </button>
          <nav id="main-nav" class={`nav ${menuOpen ? 'nav--open' : ''}`} aria-label="Main">
            <ul class="nav__list">
              {SECTIONS.filter((section) => can(section.needs)).map((section) => {
                const current = within(path, section.href);
                return (
                  <li key={section.href}>
                    <Link href={section.href} class="nav__link" aria-current={current ? 'page' : undefined}>
                      {section.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
            <Account session={session} />
          </nav>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
