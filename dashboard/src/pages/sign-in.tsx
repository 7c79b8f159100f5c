import { useState } from 'preact/hooks';
import { ApiError, errorMessage, request, requestSignInLink } from '../api.ts';
import { Alert, Field } from '../components.tsx';
import { useAction, useTitle } from '../hooks.ts';
import { signedInWithToken } from '../session.ts';

/** Where single sign-on starts: the service shows the organization whose proven domain the address has, and its provider, with a button to go on. */
const singleSignOnUrl = (email: string) => `/auth/sso?email=${encodeURIComponent(email)}`;

/** A person's way in: a one-time link by mail, or the organization's identity provider. */
function PersonSignIn() {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useAction(requestSignInLink);

  const typed = (): string | null => {
    const address = email.trim();
    setProblem(address ? null : 'Enter your email address.');
    return address || null;
  };
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const address = typed();
    if (!address) return;
    setSentTo(null);
    await send.run(address);
    setSentTo(address);
  };
  const onSingleSignOn = () => {
    const address = typed();
    if (address) window.location.assign(singleSignOnUrl(address));
  };
  const refusal = send.error instanceof ApiError && send.error.validationErrors.length ? 'Enter a valid email address.' : send.error !== null ? errorMessage(send.error) : null;
  const error = problem ?? refusal;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Field label="Email address" id="sign-in-email">
        <input
          id="sign-in-email"
          name="email"
          class="input"
          type="email"
          autocomplete="email"
          spellcheck={false}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-email-error' : undefined}
        />
      </Field>
      {error && (
        <div id="sign-in-email-error">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      {sentTo && !send.pending && send.error === null && (
        <Alert tone="success" title="Check your mail">
          If {sentTo} may sign in here, a sign-in link is on its way to it. The link works once, within 15 minutes.
        </Alert>
      )}
      <button type="submit" class="button button--primary button--block" disabled={send.pending}>
        {send.pending ? 'Sending…' : 'Email me a sign-in link'}
      </button>
      <button type="button" class="button button--secondary button--block" onClick={onSingleSignOn}>
        Sign in with single sign-on
      </button>
    </form>
  );
}

/** Pasting an admin token: for the people who run the service, before anyone has an account. */
function TokenSignIn({ open }: { open: boolean }) {
  const [token, setToken] = useState('');
  const [missing, setMissing] = useState(false);
  const check = useAction(async (candidate: string) => {
    // Any admin call proves the token; a 401 here is a wrong token, not an expired session.
    await request('GET', '/workflows', { token: candidate, signOutOn401: false });
    signedInWithToken(candidate);
  });
  const candidate = token.trim();
  const refusal =
    check.error === null
      ? null
      : check.error instanceof ApiError && check.error.status === 401
        ? `This token was not accepted.${candidate.startsWith('adm_') ? '' : ' Admin tokens start with “adm_”.'}`
        : errorMessage(check.error);
  const error = missing ? 'Enter your admin token.' : refusal;

  const onSubmit = (event: Event) => {
    event.preventDefault();
    setMissing(!candidate);
    if (candidate) void check.run(candidate);
  };

  return (
    <details class="disclosure" open={open}>
      <summary>Advanced: sign in with an admin token</summary>
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Admin token"
          id="admin-token"
          hint={
            <>
              Starts with <code>adm_</code>. It is kept in this browser tab only and forgotten when you sign out or close the tab.
            </>
          }
        >
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
        </Field>
        {error && <Alert tone="error">{error}</Alert>}
        <button type="submit" class="button button--secondary button--block" disabled={check.pending}>
          {check.pending ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </details>
  );
}

export function SignInPage({ notice, tokenOpen }: { notice: string | null; tokenOpen: boolean }) {
  useTitle('Sign in');
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
        <PersonSignIn />
        <TokenSignIn open={tokenOpen} />
      </div>
    </main>
  );
}
