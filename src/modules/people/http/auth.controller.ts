import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { Public } from '../../../shared/http/route-credentials.js';
import { CSRF_HEADER, sessionCookie, setSessionCookie } from '../../../shared/http/session-cookie.js';
import { SessionsService } from '../application/sessions.service.js';
import { SignInLinksService } from '../application/sign-in-links.service.js';
import { SignInEmailRequest } from './sign-in-email.request.js';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Asking for a sign-in link, and signing out. Public: neither takes a credential of the admin API. */
@Controller('auth')
@Public()
@ApiTags('Sign-in')
export class AuthController {
  constructor(
    private readonly links: SignInLinksService,
    private readonly sessions: SessionsService,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post('email')
  @HttpCode(202)
  @ApiEndpoint({
    operationId: 'requestSignInLink',
    summary: 'Ask for a sign-in link',
    description: 'Always 202, whether or not the address is a user\'s: a user with this address (in each of their organizations) gets a one-time link valid 15 minutes by mail. From a network that signed the person in before (an IPv6 /64, an IPv4 address; the last 10), a link goes out at once, at most 5 in 15 minutes; from any other, when the person\'s backoff allows (the first at once, then after 1 minute, 2, 4 ... up to an hour), and within 50 such links per organization in 15 minutes. Others get the same answer and no mail.',
    success: { status: 202, description: 'Taken; no body.' },
    errors: { 422: '`email` not an email address, an unsupported key, or a body that is not a valid JSON object.' },
  })
  email(@Body() body: SignInEmailRequest, @Req() request: FastifyRequest): void {
    // Answered before the address is looked up: how long the answer takes says nothing about it.
    this.links.request(body.email, request.ip).catch((err: unknown) => this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'sign-in link request not handled'));
  }

  @Post('sign_out')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'signOut',
    summary: 'Sign out',
    description: `Ends the session of the cookie and removes the cookie; without a live session, only removes it. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Signed out; no body.' },
    errors: { 403: 'The request came from another origin, or without `Origin` and without the session\'s CSRF header.' },
  })
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    try {
      const caller = await this.sessions.authenticate(sessionCookie(request, this.env.PUBLIC_BASE_URL!), { method: request.method, origin: header(request, 'origin'), csrfToken: header(request, CSRF_HEADER) });
      await this.sessions.end(caller, request.ip ?? null);
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
    }
    setSessionCookie(reply, this.env.PUBLIC_BASE_URL!, '', 0);
  }
}
