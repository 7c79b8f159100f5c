import { PageHeader } from '../components.tsx';
import { useTitle } from '../hooks.ts';
import { landingPath } from '../layout.tsx';
import { Link } from '../router.tsx';
import type { Role } from '../session.ts';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. Go to the <Link href={landingPath()}>start page</Link>.
      </p>
    </>
  );
}

/** A page that exists, for a stronger role than the caller's: say which role opens it. */
export function NeedsRolePage({ role }: { role: Role }) {
  useTitle('Not allowed');
  return (
    <>
      <PageHeader title={`You need the ${role} role to see this`} />
      <p>
        Ask an owner of your organization for the {role} role if you need this page. Go to the <Link href={landingPath()}>start page</Link>.
      </p>
    </>
  );
}
