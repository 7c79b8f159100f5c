import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, errorMessage, type ValidationProblem } from './api.ts';
import { Alert } from './components.tsx';
import { jsonSyntaxError, parseJson, prettyJson } from './json.ts';
import { locatePointer } from './json-locate.ts';

/**
 * A JSON editor for a workflow definition. The text is sent as typed; the service's
 * `validation_errors` are listed beside it, each with its JSON Pointer and a button that
 * selects the offending value in the editor.
 */
export function DefinitionEditor(props: {
  text: string;
  onTextChange: (text: string) => void;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (text: string) => Promise<void>;
  /** Shown after a successful submit (the page may also navigate away). */
  savedMessage?: string;
}) {
  const id = useId();
  const text = props.text;
  const [problems, setProblems] = useState<ValidationProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const checks = useRef<HTMLDivElement>(null);
  // On a narrow screen the problems sit below the editor: bring them into view.
  useEffect(() => {
    if (problems.length > 0 || error) checks.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [problems, error]);

  const edit = (value: string) => {
    props.onTextChange(value);
    setSaved(false);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblems([]);
    setSaved(false);
    const syntax = jsonSyntaxError(text);
    if (syntax) return setError(`The definition is not valid JSON: ${syntax}`);
    setError(null);
    setPending(true);
    try {
      await props.onSubmit(text);
      setSaved(true);
    } catch (failure) {
      if (failure instanceof ApiError && failure.validationErrors.length > 0) setProblems(failure.validationErrors);
      else setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const format = () => {
    const syntax = jsonSyntaxError(text);
    if (syntax) return setError(`The definition is not valid JSON: ${syntax}`);
    setError(null);
    edit(prettyJson(parseJson(text)));
  };

  const show = (path: string) => {
    const element = textarea.current;
    const range = locatePointer(text, path);
    if (!element || !range) return;
    // Blur then focus so the browser scrolls the selection into view.
    element.blur();
    element.setSelectionRange(range.start, range.end);
    element.focus();
  };

  const describedBy = [`${id}-help`, problems.length ? `${id}-problems` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form class="editor" onSubmit={submit} noValidate>
      <div class="editor__main">
        <div class="editor__toolbar">
          <label for={id} class="editor__label">
            Definition (JSON)
          </label>
          <button type="button" class="button button--ghost button--small" onClick={format}>
            Format JSON
          </button>
        </div>
        <textarea
          id={id}
          ref={textarea}
          class="input editor__text"
          value={text}
          onInput={(e) => edit(e.currentTarget.value)}
          spellcheck={false}
          autocapitalize="off"
          autocomplete="off"
          rows={28}
          aria-describedby={describedBy}
          aria-invalid={problems.length > 0 || error ? true : undefined}
        />
        <div class="editor__actions">
          <button type="submit" class="button button--primary" disabled={pending}>
            {pending ? props.pendingLabel : props.submitLabel}
          </button>
          {saved && props.savedMessage && <Alert tone="success">{props.savedMessage}</Alert>}
        </div>
      </div>
      <aside class="editor__side" aria-label="Definition checks and help">
        <div class="editor__checks" ref={checks}>
          {error && (
            <div id={`${id}-error`}>
              <Alert tone="error">{error}</Alert>
            </div>
          )}
          {problems.length > 0 && (
            <div class="validation" id={`${id}-problems`} role="alert">
              <p class="validation__title">{problems.length === 1 ? '1 problem' : `${problems.length} problems`} in the definition</p>
              <ul class="validation__list">
                {problems.map((problem, i) => (
                  <li key={i} class="validation__item">
                    <code class="validation__path">{problem.path === '' ? '(root)' : problem.path}</code>
                    <span class="validation__error">{problem.error}</span>
                    <button type="button" class="link-button" onClick={() => show(problem.path)}>
                      Show in editor<span class="visually-hidden"> ({problem.path || 'root'})</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <DefinitionHelp id={`${id}-help`} />
      </aside>
    </form>
  );
}

function DefinitionHelp({ id }: { id: string }) {
  return (
    <details class="help" id={id} open>
      <summary>Definition reference</summary>
      <dl class="help__list">
        <dt>
          <code>case_source</code>
        </dt>
        <dd>
          <code>direct</code> (cases API and incoming webhook), <code>ticketing</code> or <code>email</code>.
        </dd>
        <dt>
          <code>statuses</code>
        </dt>
        <dd>
          Custom statuses. <code>Open</code>, <code>Closed</code> and <code>Error</code> always exist and are not declared.
        </dd>
        <dt>
          <code>attributes</code>
        </dt>
        <dd>
          name → <code>{'{type, required?, enum?, format?}'}</code>; types <code>string integer number boolean object array any</code>; formats <code>email uri date-time date</code>.
        </dd>
        <dt>
          <code>automations</code>
        </dt>
        <dd>
          status → steps: <code>set_attributes</code>, <code>set_status</code>, <code>close</code>, <code>if</code>, <code>http_request</code>, <code>wait</code>, <code>fail</code>. A status’s steps run each time a case enters it.
        </dd>
      </dl>
    </details>
  );
}
