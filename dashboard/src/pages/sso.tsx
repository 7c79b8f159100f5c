import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, api, errorMessage, type SsoConfiguration } from '../api.ts';
import { Alert, Badge, CopyField, DateTime, Field, Loading, PageHeader, Select, TableScroll } from '../components.tsx';
import { DeleteDialog } from '../crud-parts.tsx';
import { FieldError, FormError, formProblems, useFocusFirstProblem } from '../form-problems.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { currentSession } from '../session.ts';

const FIELDS = ['issuer', 'client_id', 'client_secret', 'email_domains', 'default_role', 'required'] as const;
type FieldName = (typeof FIELDS)[number];
const ROLE_OPTIONS: [SsoConfiguration['default_role'], string][] = [
  ['viewer', 'Viewer: reads cases, runs and reports'],
  ['agent', 'Agent: also works cases: assigns, comments, replies, changes and exports them'],
  ['editor', 'Editor: also edits workflow drafts'],
  ['admin', 'Admin: also publishes, and manages tokens and secrets'],
];

const inputId = (name: FieldName) => `sso-${name}`;

/** The hint, then the error when there is one: what a field's `aria-describedby` names. */
function describedBy(name: FieldName, error: string | undefined): string {
  return error ? `${inputId(name)}-error ${inputId(name)}-hint` : `${inputId(name)}-hint`;
}

/** Domains typed one per line, or separated by commas or spaces, as the API takes them. */
function domainsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== '');
}

function TextField(props: { name: FieldName; label: string; hint: ComponentChildren; value: string; onInput: (value: string) => void; error: string | undefined; type?: string; placeholder?: string }) {
  const id = inputId(props.name);
  return (
    <Field label={props.label} id={id} hint={props.hint}>
      <input
        id={id}
        class={props.type === 'password' ? 'input input--mono' : 'input'}
        type={props.type ?? 'text'}
        autocomplete="off"
        spellcheck={false}
        value={props.value}
        placeholder={props.placeholder}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.name, props.error)}
      />
      <FieldError id={id} error={props.error} />
    </Field>
  );
}

/** Sets or replaces the provider. The API takes the whole setting each time, the secret included (it is never shown back). */
function SsoForm({ existing, onSaved, onEdit }: { existing: SsoConfiguration | null; onSaved: (saved: SsoConfiguration) => void; onEdit: () => void }) {
  const [issuer, setIssuer] = useState(existing?.issuer ?? '');
  const [clientId, setClientId] = useState(existing?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(existing?.email_domains.join('\n') ?? '');
  const [defaultRole, setDefaultRole] = useState<SsoConfiguration['default_role']>(existing?.default_role ?? 'viewer');
  const [required, setRequired] = useState(existing?.required ?? false);
  const save = useAction(async () => {
    const body = { issuer: issuer.trim(), client_id: clientId.trim(), client_secret: clientSecret, email_domains: domainsOf(domains), default_role: defaultRole, required };
    const answer = await api.put<{ sso: SsoConfiguration }>('/sso', { body });
    setClientSecret('');
    onSaved(answer.sso);
  });
  const problems = formProblems(save.error, FIELDS);
  useFocusFirstProblem(save.error, problems, 'sso', FIELDS);
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    onEdit();
  };

  return (
    <form
      class="card stack"
      aria-labelledby="sso-form-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h2 id="sso-form-title" class="card__title">
        {existing ? 'Change the provider' : 'Set up single sign-on'}
      </h2>
      <TextField name="issuer" label="Issuer" value={issuer} onInput={edited(setIssuer)} error={problems.fields.issuer} placeholder="https://login.example.com" hint="The provider's issuer identifier, exactly as its discovery document states it: an https URL." />
      <TextField name="client_id" label="Client ID" value={clientId} onInput={edited(setClientId)} error={problems.fields.client_id} hint="The client id the provider gave this service." />
      <TextField
        name="client_secret"
        label="Client secret"
        type="password"
        value={clientSecret}
        onInput={edited(setClientSecret)}
        error={problems.fields.client_secret}
        hint={existing ? 'Enter it again to save any change: it is stored encrypted and never shown.' : 'Stored encrypted; never shown or logged.'}
      />
      <Field
        label="Email domains"
        id={inputId('email_domains')}
        hint="One per line, lower case (example.com). Only a verified address of one of these signs in. Typing such an address on the sign-in page leads here once the domain is verified (below)."
      >
        <textarea
          id={inputId('email_domains')}
          class="input"
          rows={3}
          spellcheck={false}
          value={domains}
          onInput={(e) => edited(setDomains)(e.currentTarget.value)}
          aria-invalid={problems.fields.email_domains ? true : undefined}
          aria-describedby={describedBy('email_domains', problems.fields.email_domains)}
        />
        <FieldError id={inputId('email_domains')} error={problems.fields.email_domains} />
      </Field>
      <Field label="Role of a person signing in for the first time" id={inputId('default_role')} hint="People who already have a user keep their role.">
        <Select id={inputId('default_role')} value={defaultRole} onChange={(value) => edited(setDefaultRole)(value as SsoConfiguration['default_role'])} options={ROLE_OPTIONS} aria-describedby={describedBy('default_role', problems.fields.default_role)} />
        <FieldError id={inputId('default_role')} error={problems.fields.default_role} />
      </Field>
      <div class="field">
        <label class="checkbox">
          <input id={inputId('required')} type="checkbox" checked={required} onChange={(e) => edited(setRequired)(e.currentTarget.checked)} aria-describedby={describedBy('required', problems.fields.required)} /> Require single sign-on
        </label>
        <p class="hint" id={`${inputId('required')}-hint`}>
          Sign-in links (invitations included) are then refused for this organization's people: they sign in at the provider only. Admin tokens are not affected.
        </p>
        <FieldError id={inputId('required')} error={problems.fields.required} />
      </div>
      <FormError error={problems.error} what="settings" />
      <div>
        <button type="submit" class="button button--primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : existing ? 'Save changes' : 'Set up single sign-on'}
        </button>
      </div>
    </form>
  );
}

/**
 * The DNS proof of each listed domain: without it, a typed address of the domain is not sent to
 * this provider (any organization could list a domain it does not own).
 */
function DomainVerification({ sso, onVerified }: { sso: SsoConfiguration; onVerified: (sso: SsoConfiguration) => void }) {
  const [verified, setVerified] = useState<number | null>(null);
  const check = useAction(async () => {
    const unverifiedBefore = sso.domain_verifications.filter((d) => !d.verified).length;
    const answer = await api.post<{ sso: SsoConfiguration }>('/sso/verify_domains');
    setVerified(unverifiedBefore - answer.sso.domain_verifications.filter((d) => !d.verified).length);
    onVerified(answer.sso);
  });
  const waiting = sso.domain_verifications.filter((d) => !d.verified);
  return (
    <section class="card stack" aria-labelledby="sso-domains-title">
      <h2 id="sso-domains-title" class="card__title">
        Domain verification
      </h2>
      <p>
        A person who types an address of a domain on the sign-in page is sent here only once the domain is verified. To verify one, add a TXT record at its record name with this value in the domain's DNS, then check.
      </p>
      <CopyField label="TXT record value" value={sso.domain_verifications[0]?.record_value ?? ''} hint="The same value for every domain of this organization." copyLabel="Copy TXT record value" />
      <TableScroll label="Email domains">
        <table class="table table--compact">
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">TXT record name</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {sso.domain_verifications.map((d) => (
              <tr key={d.domain}>
                <th scope="row">{d.domain}</th>
                <td>
                  <code>{d.record_name}</code>
                </td>
                <td>{d.verified ? <Badge tone="green">Verified</Badge> : <Badge tone="amber">Not verified</Badge>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {check.error ? (
        <Alert tone="error">{errorMessage(check.error)}</Alert>
      ) : verified === null ? null : verified > 0 ? (
        <Alert tone="success">{`Verified ${verified} ${verified === 1 ? 'domain' : 'domains'}.`}</Alert>
      ) : (
        <Alert tone="info">No record found yet. DNS changes can take a while to show; check again later.</Alert>
      )}
      {waiting.length > 0 && (
        <div>
          <button type="button" class="button" disabled={check.pending} onClick={() => void check.run()}>
            {check.pending ? 'Checking…' : 'Check DNS records'}
          </button>
        </div>
      )}
    </section>
  );
}

/** Where people sign in, and what to register at the provider. */
function SignInAddresses({ organizationId }: { organizationId: number }) {
  const origin = window.location.origin;
  return (
    <section class="card stack" aria-labelledby="sso-addresses-title">
      <h2 id="sso-addresses-title" class="card__title">
        Addresses
      </h2>
      <CopyField label="Redirect URI to register at the provider" value={`${origin}/auth/sso/callback`} hint="The provider sends people back here after they sign in." copyLabel="Copy redirect URI" />
      <CopyField label="Sign-in address for your people" value={`${origin}/auth/sso?organization=${organizationId}`} hint="Or, once their domain is verified, they type their work address on the sign-in page and choose single sign-on." copyLabel="Copy sign-in address" />
    </section>
  );
}

/** An owner's page: the organization's OpenID Connect provider (people.md, section 2). */
export function SsoPage() {
  useTitle('Single sign-on');
  const session = currentSession();
  const loaded = useLoad(async () => {
    try {
      return { sso: (await api.get<{ sso: SsoConfiguration }>('/sso')).sso };
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) return { sso: null };
      throw failure;
    }
  }, []);
  const [removing, setRemoving] = useState<SsoConfiguration | null>(null);
  // On the page, not the form: the form starts anew when single sign-on is set up or turned off.
  const [notice, setNotice] = useState<string | null>(null);
  const data = loaded.data;

  return (
    <>
      <PageHeader
        title="Single sign-on"
        actions={
          data?.sso && (
            <button type="button" class="button button--danger" onClick={() => setRemoving(data.sso)}>
              Turn off single sign-on
            </button>
          )
        }
      >
        People of this organization sign in at its OpenID Connect provider (authorization code flow with PKCE). A verified address of a listed domain with no user yet becomes one.
      </PageHeader>
      {loaded.loading && !data && <Loading />}
      {loaded.error && <Alert tone="error">{loaded.error}</Alert>}
      {data && (
        <div class="stack">
          {data.sso ? (
            <p>
              {data.sso.required ? <Badge tone="blue">Required</Badge> : <Badge tone="green">On</Badge>} {data.sso.issuer}, last changed <DateTime iso={data.sso.updated_at} />.
            </p>
          ) : (
            <p>Not set up: people sign in by email link.</p>
          )}
          {notice && <Alert tone="success">{notice}</Alert>}
          <SsoForm
            key={data.sso ? 'set' : 'unset'}
            existing={data.sso}
            onEdit={() => setNotice(null)}
            onSaved={(sso) => {
              loaded.setData({ ...data, sso });
              setNotice('Single sign-on saved.');
            }}
          />
          {data.sso && <DomainVerification key={data.sso.updated_at} sso={data.sso} onVerified={(sso) => loaded.setData({ ...data, sso })} />}
          {session.kind === 'person' && <SignInAddresses organizationId={session.organizationId} />}
        </div>
      )}
      <DeleteDialog
        target={removing}
        title="Turn off single sign-on?"
        confirmLabel="Turn off"
        remove={async () => {
          await api.delete('/sso');
          if (data) loaded.setData({ ...data, sso: null });
          setNotice('Single sign-on turned off: people sign in by email link.');
        }}
        onClose={() => setRemoving(null)}
      >
        <p>People sign in by email link again. Their users and sessions stay.</p>
      </DeleteDialog>
    </>
  );
}
