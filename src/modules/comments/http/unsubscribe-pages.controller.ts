import { Controller, Get, Ip, Param, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { html } from '../../../shared/http/html.js';
import { errorPages, layout, sendPage } from '../../../shared/http/html-page.js';
import { Public } from '../../../shared/http/route-credentials.js';
import { NotificationPreferencesService } from '../application/notification-preferences.service.js';
import { UNSUBSCRIBE_PATH } from '../application/unsubscribe-links.js';

const pages = errorPages({
  byStatus: {
    404: { title: 'Link not valid', text: 'This link is not valid: it may have been cut short. Open it again from the email, whole.' },
    429: { title: 'Too many requests', text: 'Too many requests came from your network in the last minute. Wait a minute, then try again.' },
  },
  notAccepted: 'This request could not be read. Open the link from the email again.',
  unavailable: 'The request could not be handled right now; nothing was changed. Try again in a moment.',
});

/**
 * A notification mail's unsubscribe link: GET only shows a page with a button (mail scanners
 * open links), POST turns the kind off; the POST is also RFC 8058's one-click unsubscribe
 * (List-Unsubscribe-Post), whatever form body it carries. Public: the sealed token is the
 * credential. Turning a kind back on is done signed in (PUT /api/admin/v1/me/notifications).
 */
@Controller()
@Public()
@ApiExcludeController()
export class UnsubscribePagesController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Get(`${UNSUBSCRIBE_PATH}/:token`)
  @RouteConfig({ errorPage: pages.send })
  show(@Param('token') token: string, @Res() reply: FastifyReply) {
    const kind = this.preferences.valid(token);
    if (!kind) return pages.send(reply, 404);
    return sendPage(reply, 200, layout('Unsubscribe', html`<h1>Unsubscribe</h1>
<p>Stop the “${kind}” notification mails of the Case Intake Service?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`));
  }

  @Post(`${UNSUBSCRIBE_PATH}/:token`)
  @RouteConfig({ formBody: 'ignored', errorPage: pages.send })
  async unsubscribe(@Param('token') token: string, @Ip() address: string, @Res() reply: FastifyReply) {
    const kind = await this.preferences.unsubscribe(token, address ?? null);
    if (!kind) return pages.send(reply, 404);
    return sendPage(reply, 200, layout('Unsubscribed', html`<h1>Unsubscribed</h1>
<p>No more “${kind}” notification mails will be sent. Turn them on again in the dashboard.</p>`));
  }
}
