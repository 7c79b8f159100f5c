import { Injectable } from '@nestjs/common';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { Env } from '../../../shared/config/env.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { ssoClientSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
import { emailDomainOf, issuerProblem, type SsoConfiguration, type SsoDefaultRole } from '../domain/sso.js';
import { SsoStore } from './sso-store.js';

/** What an owner sets: everything the provider and the sign-in need. */
export interface SsoSettingInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
  defaultRole: SsoDefaultRole;
  required: boolean;
}

/** What the admin API shows: never the client secret. */
export interface SsoView {
  issuer: string;
  client_id: string;
  email_domains: string[];
  default_role: SsoDefaultRole;
  required: boolean;
  created_at: string;
  updated_at: string;
}

const AUDIT_TARGET = (organizationId: number) => ({ type: 'sso', id: String(organizationId) });

/**
 * An organization's single sign-on setting (people.md, section 2). Read on every sign-in (and
 * by the email links, which `required` refuses), so it is cached per organization and every
 * instance drops it when an owner changes it (see CacheGeneration).
 */
@Injectable()
export class SsoConfigurationsService {
  private readonly cache: InvalidatedCache<SsoConfiguration | null>;

  constructor(
    private readonly store: SsoStore,
    private readonly secrets: SecretBox,
    private readonly audit: AuditTrail,
    private readonly env: Env,
    generations: CacheGeneration,
  ) {
    this.cache = new InvalidatedCache(generations, 'sso', 60_000);
  }

  /** The organization's setting (cached), undefined when it has none. */
  async find(organizationId: number): Promise<SsoConfiguration | undefined> {
    return (await this.cache.get(String(organizationId), async () => (await this.store.find(organizationId)) ?? null)) ?? undefined;
  }

  /** The settings of the organizations whose single sign-on takes this address's domain (a few at most). */
  async forEmail(email: string): Promise<SsoConfiguration[]> {
    const domain = emailDomainOf(email);
    return domain ? this.store.listingDomain(domain, 20) : [];
  }

  /** Whether the organization's people must sign in through its provider (email links refused). */
  async required(organizationId: number): Promise<boolean> {
    return (await this.find(organizationId))?.required ?? false;
  }

  /** The provider's client secret, opened. */
  clientSecret(configuration: SsoConfiguration): string {
    return this.secrets.open(configuration.sealedClientSecret, ssoClientSecretBinding(configuration.organizationId));
  }

  /** Sets or replaces the setting; the audit entry names the changed fields, and of the secret only whether it changed. */
  async put(by: ChangeAuthor, organizationId: number, input: SsoSettingInput): Promise<SsoView> {
    const problem = issuerProblem(input.issuer, this.env.OUTBOUND_ALLOW_PRIVATE);
    if (problem) throw new InvalidRequestError('invalid request body', [{ path: '/issuer', error: problem }]);
    const emailDomains = [...new Set(input.emailDomains)].sort();
    const sealed = this.secrets.seal(input.clientSecret, ssoClientSecretBinding(organizationId));
    const stored = await this.cache.change(String(organizationId), async (tx) => {
      const before = await this.store.find(organizationId, tx);
      const saved = await this.store.put(tx, { organizationId, issuer: input.issuer, clientId: input.clientId, sealedClientSecret: sealed, emailDomains, defaultRole: input.defaultRole, required: input.required });
      const changed = changedSettings(before ? publicFields(before) : {}, publicFields(saved));
      const clientSecretChanged = !before || this.opensTo(before) !== input.clientSecret;
      await this.audit.record(tx, { organizationId, by, action: 'sso.configured', target: AUDIT_TARGET(organizationId), summary: { changed, client_secret_changed: clientSecretChanged } });
      return saved;
    });
    return toView(stored);
  }

  async get(organizationId: number): Promise<SsoView> {
    const found = await this.store.find(organizationId);
    if (!found) throw new NotFoundError('single sign-on');
    return toView(found);
  }

  /** Removes single sign-on: its people sign in by email link again. */
  async delete(by: ChangeAuthor, organizationId: number): Promise<void> {
    await this.cache.change(String(organizationId), async (tx) => {
      if (!(await this.store.delete(tx, organizationId))) throw new NotFoundError('single sign-on');
      await this.audit.record(tx, { organizationId, by, action: 'sso.deleted', target: AUDIT_TARGET(organizationId) });
    });
  }

  /** The stored secret, or undefined when no configured key opens it (then it is replaced, so it changed). */
  private opensTo(configuration: SsoConfiguration): string | undefined {
    try {
      return this.clientSecret(configuration);
    } catch {
      return undefined;
    }
  }
}

function publicFields(c: SsoConfiguration): Record<string, unknown> {
  return { issuer: c.issuer, client_id: c.clientId, email_domains: c.emailDomains, default_role: c.defaultRole, required: c.required };
}

function toView(c: SsoConfiguration): SsoView {
  return { ...(publicFields(c) as Omit<SsoView, 'created_at' | 'updated_at'>), created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString() };
}
