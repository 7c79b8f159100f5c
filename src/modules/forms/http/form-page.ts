import { html, Markup } from '../../../shared/http/html.js';
import { errorPages, layout } from '../../../shared/http/html-page.js';
import type { FieldError, PostedForm } from '../domain/form-submission.js';
import { type FormField, HONEYPOT_CONTROL, MAX_SUBJECT_LENGTH, type RequestForm, SUBJECT_CONTROL } from '../domain/request-form.js';

/** The form, empty or as posted (values kept, each error next to its field and listed at the top). */
export function formPage(form: RequestForm, posted: PostedForm = new Map(), errors: readonly FieldError[] = []): Markup {
  const subject: FormField = { attribute: '', control: SUBJECT_CONTROL, label: 'Subject', input: 'text', required: false, choices: [], hint: 'A short summary of your request; leave it empty to have one made up.' };
  const fields = [subject, ...form.fields];
  const drawn = new Map(fields.map((field, i) => [field.control, { field, id: i === 0 ? 'subject' : `field-${i}` }]));
  const errorOf = (control: string) => errors.find((e) => e.control === control)?.message;
  const controls = fields.map((field) => fieldMarkup(field, drawn.get(field.control)!.id, posted.get(field.control) ?? '', errorOf(field.control)));
  const title = `${errors.length ? 'Error: ' : ''}${form.title} – request form`;
  return layout(
    title,
    html`<h1>${form.title}</h1>
<p>Fields marked (required) must be filled in.</p>
${errors.length ? errorSummary(errors, drawn) : null}
<form method="post" novalidate>
${controls}
<div class="visually-hidden">
<label for="${HONEYPOT_CONTROL}">Leave this field empty: it is a trap for automated spam</label>
<input type="text" id="${HONEYPOT_CONTROL}" name="${HONEYPOT_CONTROL}" tabindex="-1" autocomplete="off">
</div>
<button type="submit">Send request</button>
</form>`,
  );
}

/** Each error once more at the top, named by its field's label and linking to the field. */
function errorSummary(errors: readonly FieldError[], drawn: ReadonlyMap<string, { field: FormField; id: string }>): Markup {
  const order = [...drawn.keys()];
  const position = (error: FieldError) => (error.control === null ? -1 : order.indexOf(error.control));
  const items = [...errors].sort((a, b) => position(a) - position(b)).map((error) => {
    const target = error.control === null ? undefined : drawn.get(error.control);
    return target ? html`<li><a href="#${target.id}">${target.field.label}: ${error.message}</a></li>` : html`<li>${error.message}</li>`;
  });
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
<h2 id="error-summary-title">There is a problem</h2>
<ul>${items}</ul>
</div>`;
}

function fieldMarkup(field: FormField, id: string, value: string, error: string | undefined): Markup {
  const hintId = field.hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  const label = html`<label for="${id}">${field.label}${field.required ? ' (required)' : ''}</label>`;
  const notes = html`${hintId ? html`<p class="hint" id="${hintId}">${field.hint!}</p>` : null}${errorId ? html`<p class="error" id="${errorId}"><span class="visually-hidden">Error:</span> ${error!}</p>` : null}`;
  const common = html`id="${id}" name="${field.control}"${describedBy ? html` aria-describedby="${describedBy}"` : null}${error ? html` aria-invalid="true"` : null}${field.required ? html` required` : null}`;
  const wrapper = (body: Markup, kind = 'field') => html`<div class="${kind}${error ? ' invalid' : ''}">
${body}
</div>`;
  if (field.input === 'checkbox') return wrapper(html`<input type="checkbox" value="true" ${common}${value !== '' ? html` checked` : null}><div>${label}${notes}</div>`, 'field checkbox');
  return wrapper(html`${label}${notes}${controlMarkup(field, common, value)}`);
}

const INPUT_TYPES: Partial<Record<FormField['input'], Markup>> = {
  text: html`type="text"`,
  email: html`type="email"`,
  url: html`type="url"`,
  date: html`type="date"`,
  datetime: html`type="datetime-local" step="1"`,
  // Text with a numeric keyboard, not type=number: the digits are kept exactly as typed.
  integer: html`type="text" inputmode="numeric"`,
  number: html`type="text" inputmode="decimal"`,
};

function controlMarkup(field: FormField, common: Markup, value: string): Markup {
  switch (field.input) {
    case 'select': {
      const options = field.choices.map((choice) => html`<option value="${choice.value}"${choice.value === value ? html` selected` : null}>${choice.label}</option>`);
      return html`<select ${common}><option value="">Choose…</option>${options}</select>`;
    }
    // The newline after the opening tag keeps a value's own first newline (the parser drops one).
    case 'textarea':
      return html`<textarea ${common}>\n${value}</textarea>`;
    case 'json':
      return html`<textarea class="json" spellcheck="false" ${common}>\n${value}</textarea>`;
    default: {
      const maxLength = field.control === SUBJECT_CONTROL ? html` maxlength="${MAX_SUBJECT_LENGTH}"` : null;
      return html`<input ${INPUT_TYPES[field.input] ?? INPUT_TYPES.text!} ${common} value="${value}"${maxLength}>`;
    }
  }
}

/** After a post: the id of the case it created, as the redirect said (nothing is read); none after a post caught as spam. */
export function receivedPage(title: string, caseId: string | null, formHref: string): Markup {
  const reference = caseId === null ? null : html`<p>Its reference is case number <strong>${caseId}</strong>. Keep it to ask about your request.</p>`;
  return layout(`Request received – ${title}`, html`<h1>Request received</h1>
<p>Thank you: your request to ${title} was received.</p>
${reference}
<p><a href="${formHref}">Send another request</a></p>`);
}

const formErrors = errorPages({
  byStatus: {
    404: { title: 'Page not found', text: 'There is no request form at this address. The address may be mistyped, or the form may have moved: ask whoever gave it to you for the current one.' },
    413: { title: 'Request too large', text: 'What you sent is larger than this form accepts (64 KB). Shorten the longest fields and send it again.' },
    429: { title: 'Too many requests', text: 'Too many requests came from your network, or to this form, in the last minute. Wait a minute, then send the form again.' },
  },
  notAccepted: 'This request could not be read. Go back to the form and send it again.',
  unavailable: 'The request could not be handled right now; nothing was saved. Try again in a moment.',
});

/** A page for an error status of the form routes. */
export const errorPage = formErrors.draw;
/** Draws the error answers of the form routes (the `errorPage` of their route config). */
export const sendErrorPage = formErrors.send;
