import { html, type Markup } from '../../../shared/http/html.js';
import { errorPages, layout } from '../../../shared/http/html-page.js';

/**
 * The page a sign-in link opens: opening it only shows a button (mail scanners open links); the
 * button posts back to the same URL, and that post signs in.
 */
export function signInPage(): Markup {
  return layout('Sign in', html`<h1>Sign in</h1>
<p>Sign in to the Case Intake Service dashboard in this browser.</p>
<form method="post"><button type="submit">Sign in</button></form>
<p>If you did not ask to sign in, close this page: nothing happens unless you press the button.</p>`, 'same-origin');
}

const signInErrors = errorPages({
  byStatus: {
    403: { title: 'Sign-in refused', text: 'This sign-in did not come from this service\'s own page. Open the link from the email again.' },
    404: { title: 'Link not valid', text: 'This sign-in link is not valid: it was used already, it expired, or it was cut short. Ask for a new one on the sign-in page.' },
    429: { title: 'Too many requests', text: 'Too many requests came from your network in the last minute. Wait a minute, then try again.' },
  },
  notAccepted: 'This request could not be read. Open the link from the email again.',
  unavailable: 'The request could not be handled right now; you are not signed in. Try again in a moment.',
});

/** Draws the error answers of the sign-in pages (the `errorPage` of their route config). */
export const sendSignInErrorPage = signInErrors.send;
