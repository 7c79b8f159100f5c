import { Injectable } from '@nestjs/common';
import * as oidc from 'openid-client';
import { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import type { SsoConfiguration } from '../domain/sso.js';

/** A provider's every answer (discovery, keys, tokens) within this, or the sign-in fails as the provider's (502). */
const PROVIDER_TIMEOUT_MS = 10_000;
/** Discovery documents and keys change rarely; an owner's change of the setting replaces the entry at once. */
const DISCOVERY_TTL_MS = 3_600_000;
/**
 * A failed discovery is the answer this long: a provider that is down would otherwise be asked
 * (and waited for, up to PROVIDER_TIMEOUT_MS) by every person retrying the sign-in page, piling
 * requests on it while it recovers; an owner fixing the setting is not kept waiting by it.
 */
const FAILED_DISCOVERY_TTL_MS = 30_000;
const MAX_CACHED = 1_000;
/** Statuses a fetch Response may not carry a body with. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The organizations' OpenID providers as openid-client sees them: one discovered Configuration per
 * organization and version of its setting (a change makes a new key, so the old entry is never
 * used again). Every request goes through the service's guarded client (no private addresses
 * unless OUTBOUND_ALLOW_PRIVATE, no redirects, a timeout, at most 1 MB an answer): the issuer is
 * an owner's choice, but the service's own network is not theirs to probe.
 */
@Injectable()
export class OpenIdProviders {
  private readonly configurations = new Map<string, { until: number; configuration: Promise<oidc.Configuration> }>();
  private readonly fetch: oidc.CustomFetch;

  constructor(http: OutboundHttp) {
    this.fetch = async (url, options) => {
      const body = options.body === undefined || options.body === null ? undefined : String(options.body);
      const answer = await http.send({ method: options.method, url, headers: options.headers, body, timeoutMs: PROVIDER_TIMEOUT_MS });
      return new Response(NULL_BODY.has(answer.status) ? null : answer.text, { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {} });
    };
  }

  /**
   * The provider's discovered configuration for this client (cached); fails when discovery does
   * (a wrong issuer included), and then again without asking for FAILED_DISCOVERY_TTL_MS.
   */
  configuration(setting: SsoConfiguration, clientSecret: string): Promise<oidc.Configuration> {
    const key = `${setting.organizationId}:${setting.updatedAt.getTime()}`;
    const cached = this.configurations.get(key);
    if (cached && Date.now() < cached.until) return cached.configuration;
    const configuration = this.discover(setting, clientSecret);
    if (this.configurations.size >= MAX_CACHED) this.configurations.delete(this.configurations.keys().next().value!);
    const entry = { until: Date.now() + DISCOVERY_TTL_MS, configuration };
    this.configurations.set(key, entry);
    configuration.catch(() => {
      entry.until = Date.now() + FAILED_DISCOVERY_TTL_MS;
    });
    return configuration;
  }

  private async discover(setting: SsoConfiguration, clientSecret: string): Promise<oidc.Configuration> {
    const issuer = new URL(setting.issuer);
    return oidc.discovery(issuer, setting.clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
      [oidc.customFetch]: this.fetch,
      timeout: PROVIDER_TIMEOUT_MS / 1000,
      // openid-client trusts the TLS channel for an ID token from the token endpoint unless told to
      // check its signature too (OIDC Core 3.1.3.7 allows either): the contract wants the keys checked.
      // http is accepted only for loopback issuers while private addresses are allowed (issuerProblem).
      execute: [oidc.enableNonRepudiationChecks, ...(issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [])],
    });
  }
}
