import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, Markup } from './html.js';
import { setSecurityHeaders } from './security-headers.js';

/**
 * The one style sheet of the server-rendered pages for people who hold a secret URL and no
 * credential (the hosted request form, a digest recipient's confirm and unsubscribe pages).
 */
const CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1f1f;background:#f6f7f9}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 .5rem;overflow-wrap:anywhere}
p{margin:0 0 1rem}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600;margin-bottom:.25rem;overflow-wrap:anywhere}
.hint{margin:0 0 .25rem;color:#4a4f57;font-size:.9375rem}
.error{margin:0 0 .25rem;color:#b3261e;font-weight:600}
input,select,textarea{display:block;width:100%;padding:.5rem;font:inherit;color:inherit;background:#fff;border:2px solid #5f6670;border-radius:4px}
textarea{min-height:7rem;resize:vertical}
.json{font-family:ui-monospace,Menlo,Consolas,monospace}
.checkbox{display:flex;gap:.75rem;align-items:flex-start}
.checkbox input{width:1.5rem;height:1.5rem;margin:0;flex:none}
.checkbox label{margin:0}
.invalid{border-left:4px solid #b3261e;padding-left:.75rem}
.invalid input,.invalid select,.invalid textarea{border-color:#b3261e}
.error-summary{border:3px solid #b3261e;background:#fff;padding:1rem;margin:0 0 1.5rem}
.error-summary h2{margin:0 0 .5rem;font-size:1.25rem}
.error-summary ul{margin:0;padding-left:1.25rem}
a{color:#0b57d0}
button{font:inherit;font-weight:600;padding:.625rem 1.25rem;color:#fff;background:#0b57d0;border:0;border-radius:4px;cursor:pointer}
:focus-visible{outline:3px solid #1f1f1f;outline-offset:2px;box-shadow:0 0 0 6px #ffd43b}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0}`;

/**
 * Nothing loads from anywhere, nothing runs; the one inline style sheet is allowed by its hash,
 * and forms post to this origin only.
 */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/**
 * Sends a page with the headers every such page has: its URL is a secret, so no referrer and no
 * cache. `formRedirectsTo`: origins the page's form post may be redirected to (browsers hold a
 * post's redirect to `form-action` too), beside this one.
 */
export function sendPage(reply: FastifyReply, status: number, page: Markup, formRedirectsTo: readonly string[] = []): FastifyReply {
  setSecurityHeaders(reply, formRedirectsTo.length ? PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${formRedirectsTo.join(' ')}`) : PAGE_CSP);
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page.text);
}

/**
 * `referrer`: a page's URL is a secret, so its links and posts tell nothing of it; but a browser
 * sends `Origin: null` with a form post from a `no-referrer` page, so a page whose post the
 * service accepts only from its own origin (a sign-in link's) says `same-origin`: its own
 * origin is told to the service itself alone. The page's meta tag wins over the header.
 */
export function layout(title: string, body: Markup, referrer: 'no-referrer' | 'same-origin' = 'no-referrer'): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${referrer}">
<title>${title}</title>
<style>${new Markup(CSS)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** What the error pages of a family of pages say: by status, and for any other 4xx or 5xx. */
export interface ErrorTexts {
  byStatus: Record<number, { title: string; text: string }>;
  notAccepted: string;
  unavailable: string;
}

/** Pages for error statuses, saying what happened in words (no detail of the failure), and their `errorPage` route config. */
export function errorPages(texts: ErrorTexts): { draw(status: number): Markup; send(reply: FastifyReply, status: number): void } {
  const draw = (status: number) => {
    const known = texts.byStatus[status] ?? (status < 500 ? { title: 'Request not accepted', text: texts.notAccepted } : { title: 'Service unavailable', text: texts.unavailable });
    return layout(known.title, html`<h1>${known.title}</h1>
<p>${known.text}</p>`);
  };
  return { draw, send: (reply, status) => void sendPage(reply, status, draw(status)) };
}
