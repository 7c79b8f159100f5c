import { PageHeader } from '../components.tsx';
import { useTitle } from '../hooks.ts';
import { landingPath } from '../layout.tsx';
import { Link } from '../router.tsx';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address that your role may see. Go to the <Link href={landingPath()}>start page</Link>.
      </p>
    </>
  );
}
