import { html } from '../../../shared/http/html.js';

export interface InvitationEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The one mail an address gets before any digest: who asked, and a link to the page where it
 * confirms. The link only shows that page (mail scanners open links); pressing its button
 * confirms. The subject holds nothing an organization chose.
 */
export function invitationEmail(organizationName: string, address: string, confirmUrl: string, serviceUrl: string): InvitationEmail {
  const asked = `An administrator of the organization "${organizationName}" on ${serviceUrl} asked to send case report digests to ${address}.`;
  const ignore = 'If you did not expect this message, ignore it: no digest is sent to this address unless you confirm.';
  return {
    subject: 'Confirm case report digests',
    text: [asked, '', `To get them, open this link and press "Confirm": ${confirmUrl}`, '', ignore].join('\n'),
    html: html`<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222"><p>${asked}</p><p><a href="${confirmUrl}">Open the confirmation page</a> and press "Confirm" to get them.</p><p>${ignore}</p></body></html>`.text,
  };
}
