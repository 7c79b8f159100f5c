import { useState } from 'preact/hooks';
import { api, errorMessage, type Token } from '../api.ts';
import { Alert, Badge, ConfirmDialog, CopyField, DateTime, EmptyState, Field, ItemTable, Loading, PageHeader, Select } from '../components.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';

const SCOPES: [Token['scope'], string][] = [
  ['api', 'API: the cases API (api_…)'],
  ['admin', 'Admin: this dashboard and the admin API (adm_…)'],
];

function NewSecret({ token, secret, onDone }: { token: Token; secret: string; onDone: () => void }) {
  return (
    <section class="card card--highlight" aria-labelledby="new-secret">
      <h2 id="new-secret" class="card__title">
        Token “{token.name}” created
      </h2>
      <Alert tone="warning" title="Copy the secret now">
        It will not be shown again: the service keeps only a hash of it. If you lose it, delete the token and create a new one.
      </Alert>
      <CopyField label="Secret" value={secret} copyLabel="Copy secret" hint={token.scope === 'api' ? 'Send it as “Authorization: Bearer …” to the cases API.' : 'Sign in to this dashboard with it, or send it to the admin API.'} />
      <div>
        <button type="button" class="button button--secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: { token: Token; secret: string }) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Token['scope']>('api');
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useAction(async () => {
    const created = await api.post<{ token: Token; secret: string }>('/tokens', { body: { name: name.trim(), scope } });
    setName('');
    onCreated(created);
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setNameError('Give the token a name, for example the system that will use it.');
    setNameError(null);
    void create.run();
  };
  return (
    <section class="card" aria-labelledby="create-token">
      <h2 id="create-token" class="card__title">
        Create a token
      </h2>
      <form class="form-row" onSubmit={onSubmit} noValidate>
        <Field label="Name" id="token-name">
          <input
            id="token-name"
            class="input"
            type="text"
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            placeholder="CRM sync"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'token-name-error' : undefined}
          />
        </Field>
        <Field label="Scope" id="token-scope">
          <Select id="token-scope" value={scope} onChange={(value) => setScope(value as Token['scope'])} options={SCOPES} />
        </Field>
        <div class="form-row__submit">
          <button type="submit" class="button button--primary" disabled={create.pending}>
            {create.pending ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </form>
      {nameError && (
        <p class="field-error" id="token-name-error" role="alert">
          {nameError}
        </p>
      )}
      {create.error !== null && <Alert tone="error">{errorMessage(create.error)}</Alert>}
    </section>
  );
}

export function TokensPage() {
  useTitle('Tokens');
  const tokens = useLoad(() => api.get<{ tokens: Token[] }>('/tokens').then((r) => r.tokens), []);
  const [created, setCreated] = useState<{ token: Token; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const remove = useAction(async (token: Token) => {
    await api.delete(`/tokens/${token.id}`);
    setDeleting(null);
    setDeleted(`Token “${token.name}” was deleted. It is refused from now on.`);
    tokens.change((list) => list.filter((t) => t.id !== token.id));
  });

  return (
    <>
      <PageHeader title="Tokens">
        <p class="page-header__lead">API tokens let your systems use the cases API; admin tokens open this dashboard and the admin API. Secrets are shown once, when created.</p>
      </PageHeader>
      <div class="stack">
        {created ? (
          <NewSecret token={created.token} secret={created.secret} onDone={() => setCreated(null)} />
        ) : (
          <CreateTokenForm
            onCreated={(result) => {
              setCreated(result);
              setDeleted(null);
              tokens.change((list) => [...list, result.token]);
            }}
          />
        )}
        {deleted && <Alert tone="success">{deleted}</Alert>}
        <section aria-labelledby="token-list">
          <h2 id="token-list" class="section-title">
            Active tokens
          </h2>
          {tokens.error && <Alert tone="error">{tokens.error}</Alert>}
          {tokens.loading && !tokens.data && <Loading />}
          {tokens.data?.length === 0 && <EmptyState title="No tokens" />}
          {tokens.data && tokens.data.length > 0 && (
            <ItemTable label="Active tokens" columns={['Name', 'Scope', 'Created', 'Last used']}>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{token.scope === 'admin' ? <Badge tone="violet">Admin</Badge> : <Badge tone="blue">API</Badge>}</td>
                  <td>
                    <DateTime iso={token.created_at} />
                  </td>
                  <td>
                    <DateTime iso={token.last_used_at} />
                  </td>
                  <td class="actions">
                    <button type="button" class="button button--danger-ghost button--small" onClick={() => setDeleting(token)}>
                      Delete<span class="visually-hidden"> token {token.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </ItemTable>
          )}
          <p class="hint">“Last used” is updated at most once a minute.</p>
        </section>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this token?"
        confirmLabel="Delete token"
        danger
        pending={remove.pending}
        error={remove.error !== null ? errorMessage(remove.error) : null}
        onConfirm={() => deleting && remove.run(deleting)}
        onCancel={() => {
          setDeleting(null);
          remove.clearError();
        }}
      >
        <p>
          <strong>{deleting?.name}</strong> ({deleting?.scope === 'admin' ? 'admin' : 'API'} token) will be refused at once by every request that uses it. This cannot be undone.
        </p>
        {deleting?.scope === 'admin' && <p>If it is the token you signed in with, you will be signed out.</p>}
      </ConfirmDialog>
    </>
  );
}
