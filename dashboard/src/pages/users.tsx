import { useState } from 'preact/hooks';
import { api, errorMessage, type User } from '../api.ts';
import { Alert, Badge, ConfirmDialog, DateTime, EmptyState, Field, ItemTable, Loading, PageHeader, Select } from '../components.tsx';
import { DeleteDialog } from '../crud-parts.tsx';
import { FieldError } from '../form-problems.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { ROLES, type Role } from '../session.ts';

const ROLE_NAMES: Record<Role, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', agent: 'Agent', viewer: 'Viewer' };
/** What each role may do (people.md, section 1). */
const ROLE_SCOPES: Record<Role, string> = {
  owner: 'everything, users included',
  admin: 'all but users',
  editor: 'drafts, test runs and versions; no publishing',
  agent: 'works cases: assigns, comments, replies, changes and exports them',
  viewer: 'reads cases, reports and usage',
};
/** Strongest first. */
const ROLE_OPTIONS: [Role, string][] = [...ROLES].reverse().map((role) => [role, `${ROLE_NAMES[role]}: ${ROLE_SCOPES[role]}`]);

function InviteForm({ onInvited }: { onInvited: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [emailError, setEmailError] = useState<string | null>(null);
  const invite = useAction(async () => {
    const { user } = await api.post<{ user: User }>('/users', { body: { email: email.trim(), role } });
    setEmail('');
    onInvited(user);
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (!email.trim()) return setEmailError('Enter the email address of the person to invite.');
    setEmailError(null);
    void invite.run();
  };
  return (
    <section class="card" aria-labelledby="invite-user">
      <h2 id="invite-user" class="card__title">
        Invite a user
      </h2>
      <form class="form-row" onSubmit={onSubmit} noValidate>
        <Field label="Email address" id="invite-email">
          <input
            id="invite-email"
            class="input"
            type="email"
            autocomplete="off"
            spellcheck={false}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? 'invite-email-error' : undefined}
          />
        </Field>
        <Field label="Role" id="invite-role">
          <Select id="invite-role" value={role} onChange={(value) => setRole(value as Role)} options={ROLE_OPTIONS} />
        </Field>
        <div class="form-row__submit">
          <button type="submit" class="button button--primary" disabled={invite.pending}>
            {invite.pending ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </form>
      <FieldError id="invite-email" error={emailError ?? undefined} />
      {invite.error !== null && <Alert tone="error">{errorMessage(invite.error)}</Alert>}
    </section>
  );
}

/** Choosing another role for `user`; the service's refusal (the last owner) shows in the dialog. */
function RoleDialog({ user, onChanged, onClose }: { user: User | null; onChanged: (user: User) => void; onClose: () => void }) {
  const [role, setRole] = useState<Role>(user?.role ?? 'viewer');
  const [shownFor, setShownFor] = useState<User | null>(null);
  if (user !== shownFor) {
    setShownFor(user);
    if (user) setRole(user.role);
  }
  const change = useAction(async (target: User) => {
    const { user: changed } = await api.patch<{ user: User }>(`/users/${target.id}`, { body: { role } });
    onChanged(changed);
    onClose();
  });
  return (
    <ConfirmDialog
      open={user !== null}
      title="Change role"
      confirmLabel="Change role"
      pending={change.pending}
      error={change.error !== null ? errorMessage(change.error) : null}
      onConfirm={() => user && void change.run(user)}
      onCancel={() => {
        onClose();
        change.clearError();
      }}
    >
      <p>
        <strong>{user?.email}</strong> gets the new role on their next request.
      </p>
      <Field label="Role" id="change-role">
        <Select id="change-role" value={role} onChange={(value) => setRole(value as Role)} options={ROLE_OPTIONS} />
      </Field>
    </ConfirmDialog>
  );
}

export function UsersPage() {
  useTitle('Users');
  const users = useLoad(() => api.get<{ users: User[] }>('/users').then((r) => r.users), []);
  const [invited, setInvited] = useState<string | null>(null);
  const [changing, setChanging] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);
  const replace = (changed: User) => users.change((list) => list.map((u) => (u.id === changed.id ? changed : u)));
  const remove = async (user: User) => {
    await api.delete(`/users/${user.id}`);
    setInvited(null);
    users.change((list) => list.filter((u) => u.id !== user.id));
  };

  return (
    <>
      <PageHeader title="Users">
        <p class="page-header__lead">The people who sign in to this dashboard, and what their role lets them do. Programs use admin tokens instead.</p>
      </PageHeader>
      <div class="stack">
        <InviteForm
          onInvited={(user) => {
            setInvited(`Invited ${user.email}: a sign-in link, valid 7 days, is on its way to them.`);
            users.change((list) => [...list, user]);
          }}
        />
        {invited && <Alert tone="success">{invited}</Alert>}
        <section aria-labelledby="user-list">
          <h2 id="user-list" class="section-title">
            People
          </h2>
          {users.error && <Alert tone="error">{users.error}</Alert>}
          {users.loading && !users.data && <Loading />}
          {users.data?.length === 0 && <EmptyState title="No users" />}
          {users.data && users.data.length > 0 && (
            <ItemTable label="Users" columns={['Email', 'Role', 'Status', 'Last seen']}>
              {users.data.map((user) => (
                <tr key={user.id}>
                  <th scope="row">{user.email}</th>
                  <td>{ROLE_NAMES[user.role]}</td>
                  <td>{user.status === 'invited' ? <Badge tone="amber">Invited</Badge> : <Badge tone="green">Active</Badge>}</td>
                  <td>
                    <DateTime iso={user.last_seen_at} />
                  </td>
                  <td class="actions">
                    <button type="button" class="button button--ghost button--small" onClick={() => setChanging(user)}>
                      Change role<span class="visually-hidden"> of {user.email}</span>
                    </button>{' '}
                    <button type="button" class="button button--danger-ghost button--small" onClick={() => setRemoving(user)}>
                      Remove<span class="visually-hidden"> {user.email}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </ItemTable>
          )}
          <p class="hint">“Last seen” is the last request of one of their sessions, to the minute.</p>
        </section>
      </div>
      <RoleDialog user={changing} onChanged={replace} onClose={() => setChanging(null)} />
      <DeleteDialog target={removing} title="Remove this user?" confirmLabel="Remove user" remove={remove} onClose={() => setRemoving(null)}>
        <p>
          <strong>{removing?.email}</strong> is signed out at once and can no longer sign in. Invite them again to let them back.
        </p>
      </DeleteDialog>
    </>
  );
}
