import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorMessage, type RetentionPeriods, type RetentionSettings } from '../api.ts';
import { Alert, Badge, Loading, PageHeader } from '../components.tsx';
import { formatRetentionDays } from '../format.ts';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { can } from '../session.ts';

type PeriodKey = keyof RetentionPeriods;
type Drafts = Record<PeriodKey, string>;
type FieldErrors = Partial<Record<PeriodKey, string>>;

interface PeriodField {
  key: PeriodKey;
  title: string;
  label: string;
  deletes: string;
  range: string;
}

const PERIODS: PeriodField[] = [
  {
    key: 'runs_days',
    title: 'Finished runs',
    label: 'Keep finished runs for (days)',
    deletes: 'Workflow runs that finished longer ago than this are deleted with their steps; runs still pending, running or waiting are never touched.',
    range: 'Whole days, 1 to 36,500.',
  },
  {
    key: 'deliveries_days',
    title: 'Ended deliveries',
    label: 'Keep ended deliveries for (days)',
    deletes: 'Subscription deliveries that ended longer ago than this are deleted with their attempts; deliveries still being retried are never touched.',
    range: 'Whole days, 1 to 36,500.',
  },
  {
    key: 'closed_cases_days',
    title: 'Closed cases',
    label: 'Keep Closed cases for (days)',
    deletes: 'Cases Closed for longer than this are deleted with their timeline and runs; 0 keeps closed cases forever.',
    range: 'Whole days, 0 to 36,500 (0 keeps them forever).',
  },
  {
    key: 'audit_days',
    title: 'Audit log',
    label: 'Keep audit entries for (days)',
    deletes: 'Audit entries older than this are deleted; nothing else ever deletes or changes one.',
    range: 'Whole days, 90 to 36,500.',
  },
];

const inputId = (key: PeriodKey) => `retention-${key}`;

function draftsOf(settings: RetentionSettings): Drafts {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    runs_days: text(settings.overrides.runs_days),
    deliveries_days: text(settings.overrides.deliveries_days),
    closed_cases_days: text(settings.overrides.closed_cases_days),
    audit_days: text(settings.overrides.audit_days),
  };
}

/** The service's 422 names each refused field by its JSON Pointer ("/runs_days"). */
function isFieldPath(path: string): boolean {
  return PERIODS.some((period) => path === `/${period.key}`);
}

function PeriodCard(props: { period: PeriodField; settings: RetentionSettings; draft: string; error: string | undefined; onChange: (text: string) => void; onUseDefault: () => void }) {
  const { period, settings, draft, error } = props;
  const id = inputId(period.key);
  const own = settings.overrides[period.key] !== null;
  const fallback = formatRetentionDays(settings.defaults[period.key]);
  const describedBy = [`${id}-deletes`, `${id}-in-force`, `${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <section class="card" aria-labelledby={`${id}-title`}>
      <div class="card__header">
        <h2 id={`${id}-title`} class="card__title">
          {period.title}
        </h2>
        {own ? <Badge tone="blue">Organization setting</Badge> : <Badge>Deployment default</Badge>}
      </div>
      <p id={`${id}-deletes`}>{period.deletes}</p>
      <p id={`${id}-in-force`}>
        In force: <strong>{formatRetentionDays(settings.retention[period.key])}</strong>
        {own ? `, this organization’s own (deployment default: ${fallback}).` : ', the deployment default.'}
      </p>
      {can('putRetention') && (
      <div class="field">
        <label for={id}>{period.label}</label>
        <div class="retention__control">
          <input
            id={id}
            class="input"
            type="text"
            inputMode="numeric"
            autocomplete="off"
            value={draft}
            onInput={(e) => props.onChange(e.currentTarget.value)}
            placeholder="Default"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
          {draft !== '' && (
            <button type="button" class="button button--ghost button--small" onClick={props.onUseDefault}>
              Use the default<span class="visually-hidden"> for {period.title.toLowerCase()}</span>
            </button>
          )}
        </div>
        <p class="hint" id={`${id}-hint`}>
          {period.range} Leave it empty to follow the deployment default ({fallback}).
        </p>
        {error && (
          <p class="field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
      </div>
      )}
    </section>
  );
}

function RetentionForm({ settings, onSaved }: { settings: RetentionSettings; onSaved: (settings: RetentionSettings) => void }) {
  const [drafts, setDrafts] = useState(() => draftsOf(settings));
  const [typingErrors, setTypingErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const save = useAction(async (overrides: Record<PeriodKey, number | null>) => {
    const updated = await api.put<RetentionSettings>('/retention', { body: overrides });
    setDrafts(draftsOf(updated));
    setSaved(true);
    onSaved(updated);
  });
  const refused = save.error instanceof ApiError ? save.error.validationErrors : [];
  const errors: FieldErrors = { ...Object.fromEntries(refused.filter((p) => isFieldPath(p.path)).map((p) => [p.path.slice(1), p.error])), ...typingErrors };
  const unplaced = refused.filter((p) => !isFieldPath(p.path));

  // After a refused save, take the keyboard to the first field to correct.
  useEffect(() => {
    const first = PERIODS.find((period) => errors[period.key]);
    if (first) document.getElementById(inputId(first.key))?.focus();
  }, [save.error, typingErrors]);

  const edit = (key: PeriodKey, text: string) => {
    setDrafts({ ...drafts, [key]: text });
    setSaved(false);
  };

  const onSubmit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const found: FieldErrors = {};
    for (const { key } of PERIODS) if (!/^[0-9]*$/.test(drafts[key].trim())) found[key] = 'Enter a whole number of days, or leave it empty to follow the deployment default.';
    setTypingErrors(found);
    if (Object.keys(found).length > 0) return save.clearError();
    const overrides = Object.fromEntries(PERIODS.map(({ key }) => [key, drafts[key].trim() === '' ? null : Number(drafts[key])])) as Record<PeriodKey, number | null>;
    void save.run(overrides);
  };

  return (
    <form class="stack" onSubmit={onSubmit} noValidate>
      {PERIODS.map((period) => (
        <PeriodCard
          key={period.key}
          period={period}
          settings={settings}
          draft={drafts[period.key]}
          error={errors[period.key]}
          onChange={(text) => edit(period.key, text)}
          onUseDefault={() => {
            edit(period.key, '');
            document.getElementById(inputId(period.key))?.focus();
          }}
        />
      ))}
      {save.error !== null && (refused.length === 0 || unplaced.length > 0) && (
        <Alert tone="error">
          {errorMessage(save.error)}
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((problem, i) => (
                <li key={i}>
                  <code>{problem.path || '(body)'}</code> {problem.error}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {can('putRetention') && (
        <div class="form-actions">
          <button type="submit" class="button button--primary" disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save retention'}
          </button>
          {saved && <Alert tone="success">Retention saved.</Alert>}
        </div>
      )}
    </form>
  );
}

export function RetentionPage() {
  useTitle('Retention');
  const settings = useLoad(() => api.get<RetentionSettings>('/retention'), []);
  return (
    <>
      <PageHeader title="Retention">
        <p class="page-header__lead">How long this organization’s finished work is kept. A background purge deletes what is older; work in progress is never touched, and usage totals do not change.</p>
      </PageHeader>
      {settings.error && <Alert tone="error">{settings.error}</Alert>}
      {settings.loading && !settings.data && <Loading />}
      {settings.data && <RetentionForm settings={settings.data} onSaved={settings.setData} />}
    </>
  );
}
