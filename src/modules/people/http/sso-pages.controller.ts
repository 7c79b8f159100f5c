import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { sendPage } from '../../../shared/http/html-page.js';
import { Public } from '../../../shared/http/route-credentials.js';
import { hostCookieName, postedFromOwnPage, requestCookie, setCookie, setSessionCookie } from '../../../shared/http/session-cookie.js';
import { SSO_CALLBACK_PATH, SSO_PENDING_MS, SsoSignInService } from '../application/sso-sign-in.service.js';
import { SsoConfigurationsService } from '../application/sso-configurations.service.js';
import { OrganizationNames } from '../application/organization-names.js';
import { type SsoConfiguration, SsoSignInError } from '../domain/sso.js';
import { noSsoPage, sendSsoErrorPage, type SsoChoice, ssoChooserPage, ssoCrossSitePage, ssoStartPage } from './sign-in-pages.js';

const SSO_PATH = '/auth/sso';
/** Holds only the random id of the pending sign-in; sent back to the callback alone. */
const PENDING_COOKIE = 'cis_sso';
const ORGANIZATION_ID = /^[1-9][0-9]{0,15}$/;

const queryValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};


/**
 * Single sign-on for people (HTML and redirects, not in the OpenAPI document). Public: the
 * person has no credential yet. `GET /auth/sso` only shows where the person would sign in (the
 * organization chosen by id, or by the proven domain of a typed address) and a button; the
 * button's post, from this service's own page, sends them to the provider. The provider sends
 * them back to the callback, which signs them in with the session cookie the sign-in link page
 * sets. Failures are pages.
 */
@Controller()
@Public()
@ApiExcludeController()
export class SsoPagesController {
  constructor(
    private readonly signIns: SsoSignInService,
    private readonly settings: SsoConfigurationsService,
    private readonly env: Env,
    private readonly organizations: OrganizationNames,
  ) {}

  @Get(SSO_PATH)
  @RouteConfig({ errorPage: sendSsoErrorPage })
  async show(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const organization = queryValue(request, 'organization');
    const email = queryValue(request, 'email');
    if (organization !== undefined) {
      const setting = ORGANIZATION_ID.test(organization) ? await this.settings.find(Number(organization)) : undefined;
      return setting ? this.startPage(reply, setting) : sendSsoErrorPage(reply, 404);
    }
    // Neither an organization nor an address: a link cut short, answered as any unreadable request.
    if (email === undefined || email.length > 254) return sendSsoErrorPage(reply, 422);
    const choices = await this.settings.forEmail(email);
    if (choices.length === 1) return this.startPage(reply, choices[0]!);
    if (choices.length === 0) return sendPage(reply, 200, noSsoPage());
    return sendPage(reply, 200, ssoChooserPage(await this.choicesOf(choices)));
  }

  /** The start page's button: begins the sign-in (state kept for the callback) and sends the browser to the provider. */
  @Post(SSO_PATH)
  @RouteConfig({ formBody: 'ignored', errorPage: sendSsoErrorPage })
  async begin(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!postedFromOwnPage(request, this.env.PUBLIC_BASE_URL!)) return sendPage(reply, 403, ssoCrossSitePage());
    const organization = queryValue(request, 'organization');
    if (organization === undefined || !ORGANIZATION_ID.test(organization)) return sendSsoErrorPage(reply, 404);
    const started = await this.failuresAsPages(reply, () => this.signIns.start(Number(organization), request.ip ?? null));
    if (started === undefined) return reply;
    this.setPendingCookie(reply, started.pendingId, SSO_PENDING_MS / 1000);
    return reply.status(303).header('cache-control', 'no-store').header('location', started.location).send();
  }

  @Get(SSO_CALLBACK_PATH)
  @RouteConfig({ errorPage: sendSsoErrorPage })
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    // The pending sign-in is used up whatever happens next: its cookie goes too.
    this.setPendingCookie(reply, '', 0);
    // The service's own callback address (as sent to the provider), with the query the provider sent back.
    const callbackUrl = new URL(`${this.env.PUBLIC_BASE_URL}${SSO_CALLBACK_PATH}`);
    callbackUrl.search = new URL(request.url, 'http://callback').search;
    const sessionId = await this.failuresAsPages(reply, () => this.signIns.finish(requestCookie(request, hostCookieName(this.env.PUBLIC_BASE_URL!, PENDING_COOKIE)), callbackUrl, request.ip ?? null));
    if (sessionId === undefined) return reply;
    setSessionCookie(reply, this.env.PUBLIC_BASE_URL!, sessionId, Math.floor(this.env.SESSION_MAX_AGE_MS / 1000));
    return reply.status(303).header('cache-control', 'no-store').header('location', '/dashboard/').send();
  }

  /** The page whose button begins the sign-in; its post may be redirected to the provider (the page's `form-action`). */
  private async startPage(reply: FastifyReply, setting: SsoConfiguration) {
    const [choice] = await this.choicesOf([setting]);
    return sendPage(reply, 200, ssoStartPage(choice!), [new URL(setting.issuer).origin]);
  }

  /** Each setting as the pages show it: the organization by its name, the provider by its host. */
  private async choicesOf(settings: SsoConfiguration[]): Promise<SsoChoice[]> {
    const names = await this.organizations.names(settings.map((setting) => setting.organizationId));
    return settings.map((setting) => ({
      organizationId: setting.organizationId,
      organizationName: names.get(setting.organizationId) ?? `Organization ${setting.organizationId}`,
      issuerHost: new URL(setting.issuer).host,
    }));
  }

  /**
   * The pending sign-in's cookie: `__Host-` prefixed over HTTPS at the root (with `Path=/`, which
   * that prefix needs), so that a neighbouring host cannot plant its own pending sign-in in the
   * person's browser and have them come back signed in to its account; only on `/auth/sso` otherwise.
   */
  private setPendingCookie(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
    const name = hostCookieName(this.env.PUBLIC_BASE_URL!, PENDING_COOKIE);
    setCookie(reply, this.env.PUBLIC_BASE_URL!, { name, value, path: name === PENDING_COOKIE ? SSO_PATH : '/', maxAgeSeconds });
  }

  /** Runs `work`; a single sign-on that failed is answered with its page (undefined then). */
  private async failuresAsPages<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof SsoSignInError)) throw err;
      sendSsoErrorPage(reply, err.status);
      return undefined;
    }
  }
}
