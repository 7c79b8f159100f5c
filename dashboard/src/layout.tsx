import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, signOut } from './api.ts';
import { signedInPerson } from './casework-api.ts';
import { useAction } from './hooks.ts';
import { Link } from './router.tsx';
import { can, type Operation, type Role, type Session } from './session.ts';

interface Area {
  href: string;
  /** What the area reads first: a role that may not call it does not see the area at all. */
  needs: Operation;
}

type Section = Area & {
  label: string;
  /** Where the section starts for the caller, when not at `href`. */
  start?: () => string;
};

/** The cases assigned to the signed-in person (casework.md section 7), within the Cases section. */
export const MY_CASES = '/cases/mine';

/** The main navigation, in order; the first one the caller may read is where signing in lands. */
const SECTIONS: Section[] = [
  { href: '/workflows', label: 'Workflows', needs: 'listWorkflows' },
  // A person who works cases starts at theirs: where an agent (who reads no workflows) lands.
  { href: '/cases', label: 'Cases', needs: 'listCases', start: () => (can('workCase') && signedInPerson() ? MY_CASES : '/cases') },
  { href: '/reports', label: 'Reports', needs: 'getCaseReport' },
  { href: '/usage', label: 'Usage', needs: 'getUsage' },
  { href: '/subscriptions', label: 'Subscriptions', needs: 'listSubscriptions' },
];

/** The organization's settings, kept together in one menu so the bar stays one line. */
const SETTINGS: Section[] = [
  { href: '/tokens', label: 'Tokens', needs: 'listTokens' },
  { href: '/retention', label: 'Retention', needs: 'getRetention' },
  { href: '/users', label: 'Users', needs: 'listUsers' },
  { href: '/sso', label: 'Single sign-on', needs: 'getSso' },
  { href: '/audit', label: 'Audit', needs: 'listAuditEntries' },
];

/** Pages below a section that need more than the section does. */
const SUBAREAS: Area[] = [{ href: '/reports/digests', needs: 'listDigests' }];

const within = (path: string, href: string) => path === href || path.startsWith(`${href}/`);

/** The most specific area `path` belongs to, if any. */
export function sectionOf(path: string): Area | undefined {
  return [...SUBAREAS, ...SECTIONS, ...SETTINGS].find((area) => within(path, area.href));
}

/** Where a signed-in caller starts: the first section their role may read. */
export function landingPath(): string {
  const first = SECTIONS.find((section) => can(section.needs));
  return first?.start?.() ?? first?.href ?? '/cases';
}

/**
 * A disclosure menu of the bar: a button that shows and hides its panel. Escape closes it and
 * gives the keyboard back to the button; so does leaving it (a click or Tab elsewhere);
 * arrow keys move between its items.
 */
function NavMenu({ label, current, path, children }: { label: string; current: boolean; path: string; children: ComponentChildren }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const move = () => {
      const list = [...(panel.current?.querySelectorAll<HTMLElement>('a, button') ?? [])];
      const at = list.indexOf(document.activeElement as HTMLElement);
      const next = at === -1 ? (event.key === 'ArrowDown' ? 0 : list.length - 1) : (at + (event.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length;
      list[next]?.focus();
    };
    // An open panel takes the focus at once (a key pressed next acts on the item moved to); a closed one once it is drawn.
    if (open) return move();
    setOpen(true);
    requestAnimationFrame(move);
  };
  return (
    <div class="nav-menu" ref={root} onKeyDown={onKeyDown}>
      <button type="button" ref={button} class={`nav__link nav-menu__button${current ? ' nav__link--current' : ''}`} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {label}
        <span class="nav-menu__caret" aria-hidden="true" />
      </button>
      <div id={id} ref={panel} class="nav-menu__panel" hidden={!open}>
        {children}
      </div>
    </div>
  );
}

/** Who is signed in (the role is on the badge beside the product name), and signing out. */
function Account({ session }: { session: Extract<Session, { kind: 'person' | 'token' }> }) {
  const leave = useAction(signOut);
  const who = session.kind === 'person' ? session.email : 'Admin token';
  return (
    <div class="account">
      <p class="account__who">
        <span class="account__email" title={who}>
          {who}
        </span>
        {/* Seen on the badge beside the product name; said here too, beside who it is. */}
        {session.kind === 'person' && <span class="visually-hidden"> {session.role}</span>}
      </p>
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

const ROLE_LABELS: Record<Role, string> = { viewer: 'Viewer', agent: 'Agent', editor: 'Editor', admin: 'Admin', owner: 'Owner' };

function Brand({ role }: { role: Role | null }) {
  return (
    <Link href={landingPath()} class="brand">
      <img class="brand__mark" src="/dashboard/favicon.svg" alt="" width={28} height={28} />
      <span class="brand__name">Case Intake</span>
      {role && (
        <span class="brand__tag" title="Your role">
          {ROLE_LABELS[role]}
        </span>
      )}
    </Link>
  );
}

function NavLink({ section, path }: { section: Section; path: string }) {
  return (
    <Link href={section.href} class="nav__link" aria-current={within(path, section.href) ? 'page' : undefined}>
      {section.label}
    </Link>
  );
}

export function Layout({ path, session, children }: { path: string; session: Extract<Session, { kind: 'person' | 'token' }>; children: ComponentChildren }) {
  const [menuOpen, setMenuOpen] = useState(false);
  // A layout effect: the menu is closed in the same commit that shows the new page, never a frame later.
  useLayoutEffect(() => setMenuOpen(false), [path]);
  const settings = SETTINGS.filter((section) => can(section.needs));
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar__inner">
          <Brand role={session.role} />
          <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
            <span class="menu-toggle__icon" aria-hidden="true" />
            Menu
          </button>
          <nav id="main-nav" class={`nav ${menuOpen ? 'nav--open' : ''}`} aria-label="Main">
            <ul class="nav__list">
              {SECTIONS.filter((section) => can(section.needs)).map((section) => (
                <li key={section.href}>
                  <NavLink section={section} path={path} />
                </li>
              ))}
              {settings.length > 0 && (
                <li>
                  <NavMenu label="Settings" path={path} current={settings.some((section) => within(path, section.href))}>
                    <ul class="nav-menu__list">
                      {settings.map((section) => (
                        <li key={section.href}>
                          <NavLink section={section} path={path} />
                        </li>
                      ))}
                    </ul>
                  </NavMenu>
                </li>
              )}
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
