import { useState } from 'preact/hooks';
import { ApiError, errorMessage, request } from '../api.ts';
import { Alert } from '../components.tsx';
import { useTitle } from '../hooks.ts';
import { signIn } from '../session.ts';

export function SignInPage({ notice }: { notice: string | null }) {
  useTitle('Sign in');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const candidate = token.trim();
    if (!candidate) return setError('Enter your admin token.');
    setPending(true);
    setError(null);
    try {
      // Any admin call proves the token; a 401 here is a wrong token, not an expired session.
      await request('GET', '/workflows', { token: candidate, signOutOn401: false });
      signIn(candidate);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? `This token was not accepted.${candidate.startsWith('adm_') ? '' : ' Admin tokens start with “adm_”.'}`
          : errorMessage(failure),
      );
    } finally {
      setPending(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <div class="sign-in__card">
        <div class="sign-in__brand">
          <img src="/dashboard/favicon.svg" alt="" width={40} height={40} />
          <div>
            <p class="sign-in__product">Case Intake</p>
            <h1 id="page-title" tabIndex={-1}>
              Sign in to the admin dashboard
            </h1>
          </div>
        </div>
        {notice && <Alert tone="info">{notice}</Alert>}
        <form onSubmit={onSubmit} noValidate>
          <div class="field">
            <label for="admin-token">Admin token</label>
            <input
              id="admin-token"
              name="admin-token"
              class="input input--mono"
              type="password"
              autocomplete="off"
              spellcheck={false}
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
              aria-describedby="admin-token-hint"
              aria-invalid={error ? true : undefined}
            />
            <p class="hint" id="admin-token-hint">
              Starts with <code>adm_</code>. It is kept in this browser tab only and forgotten when you sign out or close the tab.
            </p>
          </div>
          {error && <Alert tone="error">{error}</Alert>}
          <button type="submit" class="button button--primary button--block" disabled={pending}>
            {pending ? 'Checking…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
