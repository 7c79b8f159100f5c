import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { sendPage } from '../../../shared/http/html-page.js';
import { Public } from '../../../shared/http/route-credentials.js';
import { postedFromOwnPage, setSessionCookie } from '../../../shared/http/session-cookie.js';
import { SessionsService } from '../application/sessions.service.js';
import { SIGN_IN_PATH, SignInLinksService } from '../application/sign-in-links.service.js';
import { sendSignInErrorPage, signInPage, ssoRequiredPage } from './sign-in-pages.js';

/**
 * The page of a sign-in link (HTML for people, not in the OpenAPI document). Public: the token in
 * the URL is looked up by the service; GET only shows the button, POST uses the link up and sets
 * the session cookie. A used, expired or unknown link shows the same refusal; a link of an
 * organization that requires single sign-on leads to its provider instead.
 */
@Controller()
@Public()
@ApiExcludeController()
export class SignInPagesController {
  constructor(
    private readonly links: SignInLinksService,
    private readonly sessions: SessionsService,
    private readonly env: Env,
  ) {}

  @Get(`${SIGN_IN_PATH}/:token`)
  @RouteConfig({ errorPage: sendSignInErrorPage })
  async show(@Param('token') token: string, @Res() reply: FastifyReply) {
    if (!(await this.links.usable(token))) return sendSignInErrorPage(reply, 404);
    return sendPage(reply, 200, signInPage());
  }

  /** The form posts from this service's page; a post another site's page sends is refused (it would sign the browser in to someone else's account). */
  @Post(`${SIGN_IN_PATH}/:token`)
  @RouteConfig({ formBody: 'ignored', errorPage: sendSignInErrorPage })
  async signIn(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!postedFromOwnPage(request, this.env.PUBLIC_BASE_URL!)) return sendSignInErrorPage(reply, 403);
    const signedIn = await this.sessions.signIn(token, request.ip ?? null);
    if (!signedIn) return sendSignInErrorPage(reply, 404);
    if ('ssoRequiredBy' in signedIn) return sendPage(reply, 403, ssoRequiredPage(signedIn.ssoRequiredBy));
    setSessionCookie(reply, this.env.PUBLIC_BASE_URL!, signedIn.sessionId, Math.floor(this.env.SESSION_MAX_AGE_MS / 1000));
    return reply.status(303).header('cache-control', 'no-store').header('location', '/dashboard/').send();
  }
}
