import { PageHeader } from '../components.tsx';
import { useTitle } from '../hooks.ts';
import { Link } from '../router.tsx';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. Go to the <Link href="/workflows">workflows</Link>.
      </p>
    </>
  );
}
