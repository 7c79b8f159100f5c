import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { resumeSession } from './api.ts';
import { Loading } from './components.tsx';
import { Layout, landingPath, MY_CASES, sectionOf } from './layout.tsx';
import { AuditPage } from './pages/audit.tsx';
import { CasePage } from './pages/case.tsx';
import { CasesPage, MyCasesPage } from './pages/cases.tsx';
import { NeedsRolePage, NotFoundPage } from './pages/not-found.tsx';
import { RetentionPage } from './pages/retention.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { SsoPage } from './pages/sso.tsx';
import { SubscriptionPage } from './pages/subscription.tsx';
import { SubscriptionsPage } from './pages/subscriptions.tsx';
import { TokensPage } from './pages/tokens.tsx';
import { UsagePage } from './pages/usage.tsx';
import { UsersPage } from './pages/users.tsx';
import { ReportsPage } from './pages/reports.tsx';
import { DigestsPage } from './pages/digests.tsx';
import { NewWorkflowPage } from './pages/new-workflow.tsx';
import { WorkflowPage } from './pages/workflow.tsx';
import { WorkflowsPage } from './pages/workflows.tsx';
import { navigate, useLocation, type Location } from './router.tsx';
import { REQUIRED_ROLES } from './required-roles.generated.ts';
import { can, currentSession, onSessionChange } from './session.ts';

function useSession() {
  const [session, setSession] = useState(currentSession);
  useEffect(() => {
    const stop = onSessionChange(() => setSession(currentSession()));
    void resumeSession();
    return stop;
  }, []);
  return session;
}

function route(location: Location) {
  const { path, query } = location;
  let match: RegExpMatchArray | null;
  // A section the caller's role may not read is not linked for them; its address names the role it needs.
  const section = sectionOf(path);
  if (section && !can(section.needs)) return <NeedsRolePage role={REQUIRED_ROLES[section.needs]} />;
  if (path === '/workflows') return <WorkflowsPage />;
  if (path === '/workflows/new') return <NewWorkflowPage />;
  if ((match = path.match(/^\/workflows\/([1-9][0-9]*)$/))) return <WorkflowPage key={match[1]} id={Number(match[1])} tab={query.get('tab')} />;
  if (path === MY_CASES) return <MyCasesPage query={query} />;
  if (path === '/cases') return <CasesPage query={query} />;
  if ((match = path.match(/^\/cases\/([1-9][0-9]*)$/))) return <CasePage key={match[1]} id={Number(match[1])} />;
  if (path === '/usage') return <UsagePage />;
  if (path === '/reports') return <ReportsPage query={query} />;
  if (path === '/reports/digests') return <DigestsPage />;
  if (path === '/tokens') return <TokensPage />;
  if (path === '/subscriptions') return <SubscriptionsPage />;
  if ((match = path.match(/^\/subscriptions\/([1-9][0-9]*)$/))) return <SubscriptionPage key={match[1]} id={Number(match[1])} />;
  if (path === '/retention') return <RetentionPage />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/users') return <UsersPage />;
  if (path === '/sso') return <SsoPage />;
  return <NotFoundPage />;
}

export function App() {
  const session = useSession();
  const location = useLocation();
  const lastPath = useRef<string | null>(null);

  const signedIn = session.kind === 'person' || session.kind === 'token';
  useEffect(() => {
    if (signedIn && (location.path === '/' || location.path === '/sign-in')) navigate(landingPath(), { replace: true });
  }, [signedIn, session, location.path]);

  // After moving to another page, focus its heading so the change is announced (not on first load).
  useLayoutEffect(() => {
    const previous = lastPath.current;
    lastPath.current = location.path;
    if (previous === null || previous === location.path) return;
    window.scrollTo(0, 0);
    document.getElementById('page-title')?.focus({ preventScroll: true });
  }, [location.path]);

  if (session.kind === 'checking') {
    return (
      <main class="sign-in" id="main">
        <Loading />
      </main>
    );
  }
  if (session.kind === 'signed-out') return <SignInPage notice={session.notice} tokenOpen={session.hadToken} />;
  return (
    <Layout path={location.path} session={session}>
      {route(location)}
    </Layout>
  );
}
