import { html, type Markup } from '../../../shared/http/html.js';
import { errorPages, type ErrorTexts, layout } from '../../../shared/http/html-page.js';

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

const signInErrorTexts: ErrorTexts = {
  byStatus: {
    403: { title: 'Sign-in refused', text: 'This sign-in did not come from this service\'s own page. Open the link from the email again.' },
    404: { title: 'Link not valid', text: 'This sign-in link is not valid: it was used already, it expired, or it was cut short. Ask for a new one on the sign-in page.' },
    429: { title: 'Too many requests', text: 'Too many requests came from your network in the last minute. Wait a minute, then try again.' },
  },
  notAccepted: 'This request could not be read. Open the link from the email again.',
  unavailable: 'The request could not be handled right now; you are not signed in. Try again in a moment.',
};
const signInErrors = errorPages(signInErrorTexts);

/** Draws the error answers of the sign-in pages (the `errorPage` of their route config). */
export const sendSignInErrorPage = signInErrors.send;

/** A sign-in link of an organization that requires single sign-on: the way in is its provider. */
export function ssoRequiredPage(organizationId: number): Markup {
  return layout('Single sign-on required', html`<h1>Single sign-on required</h1>
<p>Your organization signs its people in through its identity provider only, so this link does not sign you in.</p>
<p><a href="/auth/sso?organization=${organizationId}">Sign in with single sign-on</a></p>`);
}

/** An organization a typed address may sign in to, as the chooser lists it. */
export interface SsoChoice {
  organizationId: number;
  organizationName: string;
  issuerHost: string;
}

/**
 * Where single sign-on begins: the organization and its provider's host, and a button that posts
 * back here (only that post sends the browser on). A link on another site therefore leads to
 * this page, never straight to a provider's login.
 */
export function ssoStartPage(choice: SsoChoice): Markup {
  return layout('Sign in with single sign-on', html`<h1>Sign in with single sign-on</h1>
<p>${choice.organizationName} signs its people in to the Case Intake Service dashboard through its identity provider at <strong>${choice.issuerHost}</strong>.</p>
<form method="post" action="/auth/sso?organization=${choice.organizationId}"><button type="submit">Continue to ${choice.issuerHost}</button></form>
<p>If you did not ask to sign in, close this page: nothing happens unless you press the button.</p>`, 'same-origin');
}

/** A post to begin single sign-on that another site's page sent. */
export function ssoCrossSitePage(): Markup {
  return layout('Sign-in refused', html`<h1>Sign-in refused</h1>
<p>This single sign-on did not start from this service's own page. Start again from the sign-in page.</p>
<p><a href="/dashboard/">Back to the sign-in page</a></p>`);
}

/** Several organizations list the address's domain: the person picks one. */
export function ssoChooserPage(choices: SsoChoice[]): Markup {
  const items = choices.map((c) => html`<li><a href="/auth/sso?organization=${c.organizationId}">${c.organizationName}, at ${c.issuerHost}</a></li>`);
  return layout('Choose your organization', html`<h1>Choose your organization</h1>
<p>Several organizations sign in people of this email domain. Choose yours to continue to its identity provider.</p>
<ul>${items}</ul>`);
}

/** No organization lists the address's domain. */
export function noSsoPage(): Markup {
  return layout('No single sign-on', html`<h1>No single sign-on</h1>
<p>No single sign-on is set up for that email domain. Ask for a sign-in link instead.</p>
<p><a href="/dashboard/">Back to the sign-in page</a></p>`);
}

const ssoErrors = errorPages({
  byStatus: {
    400: { title: 'Sign-in failed', text: 'The single sign-on did not complete: it took longer than 10 minutes, was already used, or its answer did not match. Start again from the sign-in page.' },
    403: { title: 'Sign-in refused', text: 'Your identity provider did not vouch for a verified email address of a domain this organization accepts. Ask your organization\'s owner.' },
    404: { title: 'No single sign-on', text: 'This organization has no single sign-on. Ask for a sign-in link on the sign-in page instead.' },
    429: signInErrorTexts.byStatus[429]!,
    502: { title: 'Identity provider unavailable', text: 'The identity provider could not be reached, or did not answer as configured; you are not signed in. Try again in a moment, or ask your organization\'s owner.' },
  },
  notAccepted: 'This request could not be read. Start again from the sign-in page.',
  unavailable: signInErrorTexts.unavailable,
});

/** Draws the error answers of the single sign-on pages (the `errorPage` of their route config). */
export const sendSsoErrorPage = ssoErrors.send;
