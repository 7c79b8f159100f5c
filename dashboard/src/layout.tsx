import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { Link } from './router.tsx';
import { signOut } from './session.ts';

const SECTIONS = [
  { href: '/workflows', label: 'Workflows' },
  { href: '/cases', label: 'Cases' },
  { href: '/reports', label: 'Reports' },
  { href: '/usage', label: 'Usage' },
  { href: '/subscriptions', label: 'Subscriptions' },
  { href: '/tokens', label: 'Tokens' },
  { href: '/retention', label: 'Retention' },
  { href: '/audit', label: 'Audit' },
];

function Brand() {
  return (
    <Link href="/workflows" class="brand">
      <img class="brand__mark" src="/dashboard/favicon.svg" alt="" width={28} height={28} />
      <span class="brand__name">Case Intake</span>
      <span class="brand__tag">Admin</span>
    </Link>
  );
}

export function Layout({ path, children }: { path: string; children: ComponentChildren }) {
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
              {SECTIONS.map((section) => {
                const current = path === section.href || path.startsWith(`${section.href}/`);
                return (
                  <li key={section.href}>
                    <Link href={section.href} class="nav__link" aria-current={current ? 'page' : undefined}>
                      {section.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
            <button type="button" class="button button--ghost nav__signout" onClick={() => signOut('You signed out.')}>
              Sign out
            </button>
          </nav>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
