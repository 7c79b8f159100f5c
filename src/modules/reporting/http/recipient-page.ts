import { html, type Markup } from '../../../shared/http/html.js';
import { errorPages, layout } from '../../../shared/http/html-page.js';
import type { RecipientStatus } from '../application/digest.ports.js';

/**
 * A digest recipient's pages: opening a link only shows a page (mail scanners open links); its
 * button posts back to the same URL, and that post confirms or unsubscribes. The organization's
 * name is the operator's text and the address the admin's: both are escaped.
 */

const what = (r: RecipientStatus) => html`the case report digests of the organization “${r.organizationName}” to <strong>${r.address}</strong>`;

export function confirmPage(r: RecipientStatus): Markup {
  if (r.confirmed) return confirmedPage(r);
  return layout('Confirm case report digests', html`<h1>Confirm case report digests</h1>
<p>Someone asked to send ${what(r)}.</p>
<form method="post"><button type="submit">Confirm</button></form>
<p>If you did not ask for them, close this page: nothing is sent to this address unless you confirm.</p>`);
}

export function confirmedPage(r: RecipientStatus): Markup {
  return layout('Digests confirmed', html`<h1>Confirmed</h1>
<p>You will get ${what(r)}. Each digest has a link to unsubscribe.</p>`);
}

export function unsubscribePage(r: RecipientStatus): Markup {
  return layout('Unsubscribe from case report digests', html`<h1>Unsubscribe</h1>
<p>Stop sending ${what(r)}?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`);
}

/** No button to subscribe again: a digest's link must not confirm, or whoever it was forwarded to could undo this. */
export function unsubscribedPage(r: RecipientStatus): Markup {
  return layout('Unsubscribed', html`<h1>Unsubscribed</h1>
<p>No more of ${what(r)} will be sent.</p>
<p>To get them again, open the link of the mail that asked you to confirm them.</p>`);
}

const recipientErrors = errorPages({
  byStatus: {
    404: { title: 'Link not valid', text: 'This link is not valid: it may have been cut short. Open it again from the email, whole.' },
    429: { title: 'Too many requests', text: 'Too many requests came from your network in the last minute. Wait a minute, then try again.' },
  },
  notAccepted: 'This request could not be read. Open the link from the email again.',
  unavailable: 'The request could not be handled right now; nothing was changed. Try again in a moment.',
});

/** Draws the error answers of the recipient routes (the `errorPage` of their route config). */
export const sendRecipientErrorPage = recipientErrors.send;
