import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Markup } from '../../../shared/http/html.js';
import { sendPage } from '../../../shared/http/html-page.js';
import { Public } from '../../../shared/http/route-credentials.js';
import type { RecipientStatus } from '../application/digest.ports.js';
import { DigestRecipientsService } from '../application/digest-recipients.service.js';
import { CONFIRM_PATH, UNSUBSCRIBE_PATH } from '../application/recipient-tokens.js';
import { confirmedPage, confirmPage, sendRecipientErrorPage, unsubscribedPage, unsubscribePage } from './recipient-page.js';

const page = (reply: FastifyReply, recipient: RecipientStatus | null, draw: (r: RecipientStatus) => Markup) =>
  recipient ? sendPage(reply, 200, draw(recipient)) : sendRecipientErrorPage(reply, 404);

/**
 * A digest recipient's confirm and unsubscribe pages: HTML for people, not API operations (not
 * in the OpenAPI document, like the request form). Public: the token in the URL names what the
 * page acts on and is looked up by the service, not checked as a credential; the
 * per-address rate limit holds. GET only shows; POST acts. The unsubscribe POST is also the
 * one-click unsubscribe of RFC 8058 (List-Unsubscribe-Post), whatever form body it carries.
 */
@Controller()
@Public()
@ApiExcludeController()
export class RecipientPagesController {
  constructor(private readonly recipients: DigestRecipientsService) {}

  @Get(`${CONFIRM_PATH}/:token`)
  @RouteConfig({ errorPage: sendRecipientErrorPage })
  async showConfirm(@Param('token') token: string, @Res() reply: FastifyReply) {
    return page(reply, await this.recipients.find('confirm', token), confirmPage);
  }

  @Post(`${CONFIRM_PATH}/:token`)
  @RouteConfig({ formBody: 'ignored', errorPage: sendRecipientErrorPage })
  async confirm(@Param('token') token: string, @Res() reply: FastifyReply) {
    return page(reply, await this.recipients.confirm(token), confirmedPage);
  }

  @Get(`${UNSUBSCRIBE_PATH}/:token`)
  @RouteConfig({ errorPage: sendRecipientErrorPage })
  async showUnsubscribe(@Param('token') token: string, @Res() reply: FastifyReply) {
    return page(reply, await this.recipients.find('unsubscribe', token), unsubscribePage);
  }

  @Post(`${UNSUBSCRIBE_PATH}/:token`)
  @RouteConfig({ formBody: 'ignored', errorPage: sendRecipientErrorPage })
  async unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply) {
    return page(reply, await this.recipients.unsubscribe(token), unsubscribedPage);
  }
}
