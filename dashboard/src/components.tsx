import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { formatDateTime } from './format.ts';

export function PageHeader({ title, eyebrow, actions, children }: { title: string; eyebrow?: ComponentChildren; actions?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div class="page-header__text">
        {eyebrow && <p class="page-header__eyebrow">{eyebrow}</p>}
        {/* Focused after each navigation (see App), so screen readers announce the new page. */}
        <h1 tabIndex={-1} id="page-title">
          {title}
        </h1>
        {children}
      </div>
      {actions && <div class="page-header__actions">{actions}</div>}
    </header>
  );
}

type Tone = 'error' | 'success' | 'warning' | 'info';

export function Alert({ tone, title, children }: { tone: Tone; title?: string; children?: ComponentChildren }) {
  return (
    <div class={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <p class="alert__title">{title}</p>}
      {children && <div class="alert__body">{children}</div>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'green' | 'amber' | 'red' | 'blue' | 'violet' | 'teal'; children: ComponentChildren }) {
  return <span class={`badge badge--${tone}`}>{children}</span>;
}

export function DateTime({ iso }: { iso: string | null }) {
  if (iso === null) return <span class="muted">Never</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  );
}

/** Term and value pairs: a grid of facts, or (`rows`) one fact a line. */
export function DetailList({ items, rows = false }: { items: [string, ComponentChildren][]; rows?: boolean }) {
  return (
    <dl class={rows ? 'summary summary--single' : 'summary'}>
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty__title">{title}</p>
      {children}
    </div>
  );
}

/** A table that scrolls sideways on narrow screens instead of widening the page. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // A focusable region, so keyboard users can scroll it too.
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A table of listed items in its scrolling region: column headings, then a last column of row actions (named for screen readers only). */
export function ItemTable({ label, columns, compact = false, children }: { label: string; columns: string[]; compact?: boolean; children: ComponentChildren }) {
  return (
    <TableScroll label={label}>
      <table class={compact ? 'table table--compact' : 'table'}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

async function copyText(text: string, fallbackInput?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an insecure origin) or no permission: select the text for Ctrl+C.
    fallbackInput?.select();
    return false;
  }
}

export function CopyButton({ text, label = 'Copy', input, class: className }: { text: string; label?: string; input?: () => HTMLInputElement | null; class?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  const onClick = async () => setState((await copyText(text, input?.())) ? 'copied' : 'failed');
  return (
    <>
      <button type="button" class={`button button--secondary ${className ?? ''}`} onClick={onClick}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span class="visually-hidden" role="status">
        {state === 'copied' ? 'Copied to the clipboard' : state === 'failed' ? 'Copy failed: the text is selected, press Ctrl+C' : ''}
      </span>
    </>
  );
}

/** A read-only value with a Copy button (webhook URL, a new token's secret). */
export function CopyField({ label, value, hint, copyLabel }: { label: string; value: string; hint?: ComponentChildren; copyLabel?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="copy-field">
        <input id={id} ref={input} class="input input--mono" type="text" readOnly value={value} spellcheck={false} onFocus={(e) => e.currentTarget.select()} aria-describedby={hint ? `${id}-hint` : undefined} />
        <CopyButton text={value} label={copyLabel} input={() => input.current} />
      </div>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A code sample with its own Copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <figure class="code-block">
      <figcaption class="code-block__caption">
        <span>{label}</span>
        <CopyButton text={code} label="Copy" class="button--small" />
      </figcaption>
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * A confirmation in a native modal <dialog>: the browser keeps focus inside it, Escape
 * cancels, and focus goes back to the button that opened it when it closes.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  const onCancel = (event: Event) => {
    event.preventDefault();
    if (!props.pending) props.onCancel();
  };
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby={titleId} onCancel={onCancel}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id={titleId} class="dialog__title">
          {props.title}
        </h2>
        <div class="dialog__body">{props.children}</div>
        {props.error && <Alert tone="error">{props.error}</Alert>}
        <div class="dialog__actions">
          <button type="button" class="button button--secondary" onClick={props.onCancel} disabled={props.pending} autofocus>
            Cancel
          </button>
          <button type="submit" class={`button ${props.danger ? 'button--danger' : 'button--primary'}`} disabled={props.pending}>
            {props.pending ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function Field({ label, hint, children, id }: { label: string; hint?: ComponentChildren; id: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

export function Select({ id, value, onChange, options, ...rest }: Omit<JSX.HTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & { id: string; value: string; onChange: (value: string) => void; options: [string, string][] }) {
  return (
    <select {...rest} id={id} class="input" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {options.map(([optionValue, text]) => (
        <option key={optionValue} value={optionValue}>
          {text}
        </option>
      ))}
    </select>
  );
}
