import { Injectable } from '@nestjs/common';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { Env } from '../../../shared/config/env.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { ssoClientSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
import { domainVerificationRecord, emailDomainOf, issuerProblem, provesDomain, type SsoConfiguration, type SsoDefaultRole } from '../domain/sso.js';
import { SESSIONS_CACHE } from '../domain/user.js';
import { DomainRecords } from './domain-records.js';
import { PeopleStore } from './people-store.js';
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
  /** Each listed domain, whether it is proven, and the TXT record that proves it. */
  domain_verifications: { domain: string; verified: boolean; record_name: string; record_value: string }[];
  default_role: SsoDefaultRole;
  required: boolean;
  created_at: string;
  updated_at: string;
}

const AUDIT_TARGET = (organizationId: number) => ({ type: 'sso', id: String(organizationId) });
/** The scheduled check of proven domains, as the audit log names it: the deployment acting, as its operator does. */
const DOMAIN_CHECK: ChangeAuthor = { actor: { type: 'operator', id: 'domain-check', name: 'scheduled domain check' }, address: null };
/** Settings read per query of a check pass. */
const CHECK_PAGE = 100;

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
    private readonly dns: DomainRecords,
    private readonly people: PeopleStore,
    private readonly generations: CacheGeneration,
  ) {
    this.cache = new InvalidatedCache(generations, 'sso', 60_000);
  }

  /** The organization's setting (cached), undefined when it has none. */
  async find(organizationId: number): Promise<SsoConfiguration | undefined> {
    return (await this.cache.get(String(organizationId), async () => (await this.store.find(organizationId)) ?? null)) ?? undefined;
  }

  /** The settings of the organizations that proved this address's domain (a few at most): where a typed address is sent. */
  async forEmail(email: string): Promise<SsoConfiguration[]> {
    const domain = emailDomainOf(email);
    return domain ? this.store.provingDomain(domain, 20) : [];
  }

  /** Whether the organization's people must sign in through its provider (email links refused). */
  async required(organizationId: number): Promise<boolean> {
    return (await this.find(organizationId))?.required ?? false;
  }

  /** The provider's client secret, opened. */
  clientSecret(configuration: SsoConfiguration): string {
    return this.secrets.open(configuration.sealedClientSecret, ssoClientSecretBinding(configuration.organizationId));
  }

  /**
   * Sets or replaces the setting; the audit entry names the changed fields, and of the secret only
   * whether it changed. Turning `required` on ends the organization's email-link sessions in the
   * same transaction, on every instance at its next poll (a person so signed in signs in again at
   * the provider), but those of the person turning it on: they may need to turn it off again.
   */
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
      const ended = input.required && !before?.required ? await this.endEmailLinkSessions(tx, organizationId, by) : undefined;
      const summary = { changed, client_secret_changed: clientSecretChanged, ...(ended === undefined ? {} : { email_link_sessions_ended: ended }) };
      await this.audit.record(tx, { organizationId, by, action: 'sso.configured', target: AUDIT_TARGET(organizationId), summary });
      return saved;
    });
    return toView(stored);
  }

  async get(organizationId: number): Promise<SsoView> {
    const found = await this.store.find(organizationId);
    if (!found) throw new NotFoundError('single sign-on');
    return toView(found);
  }

  /**
   * Looks up the TXT record of every listed domain not proven yet, and marks those whose record
   * is there as proven (audited with the domains it proved). A domain whose lookup fails stays
   * unproven; the owner checks again once DNS has the record.
   */
  async verifyDomains(by: ChangeAuthor, organizationId: number): Promise<SsoView> {
    const found = await this.store.find(organizationId);
    if (!found) throw new NotFoundError('single sign-on');
    const unproven = found.emailDomains.filter((domain) => !found.verifiedEmailDomains.includes(domain));
    const proven = (await Promise.all(unproven.map(async (domain) => ((await this.proves(domain, found.domainVerificationToken)) ? [domain] : [])))).flat();
    if (!proven.length) return toView(found);
    const stored = await this.cache.change(String(organizationId), async (tx) => {
      const saved = await this.store.markVerified(tx, organizationId, found.domainVerificationToken, proven);
      if (saved) await this.audit.record(tx, { organizationId, by, action: 'sso.domains_verified', target: AUDIT_TARGET(organizationId), summary: { domains: proven } });
      return saved;
    });
    // Removed or made anew (another token) while DNS was asked: what proved the old one proves nothing now.
    return stored ? toView(stored) : this.get(organizationId);
  }

  /**
   * Checks every proven domain's TXT record again (the worker's schedule): a domain whose record
   * DNS answers is gone loses its proof, audited as `sso.domains_lapsed`, and typed addresses of
   * it lead to no provider any more. A lookup that fails (DNS down) changes nothing: an outage must
   * not undo every organization's proof. Answers how many domains lapsed.
   */
  async recheckDomains(): Promise<number> {
    let lapsed = 0;
    for (let after = 0; ;) {
      const page = await this.store.withVerifiedDomains(after, CHECK_PAGE);
      for (const setting of page) lapsed += await this.recheck(setting);
      if (page.length < CHECK_PAGE) return lapsed;
      after = page[page.length - 1]!.organizationId;
    }
  }

  /** Removes single sign-on: its people sign in by email link again. */
  async delete(by: ChangeAuthor, organizationId: number): Promise<void> {
    await this.cache.change(String(organizationId), async (tx) => {
      if (!(await this.store.delete(tx, organizationId))) throw new NotFoundError('single sign-on');
      await this.audit.record(tx, { organizationId, by, action: 'sso.deleted', target: AUDIT_TARGET(organizationId) });
    });
  }

  /** Deletes the organization's email-link sessions (but the acting person's) and has every instance drop them; answers how many. */
  private async endEmailLinkSessions(tx: Transaction, organizationId: number, by: ChangeAuthor): Promise<number> {
    const acting = by.actor.type === 'user' ? Number(by.actor.id) : undefined;
    const ended = await this.people.deleteSessionsSignedInBy(tx, organizationId, 'email_link', acting);
    await this.generations.invalidate(tx, SESSIONS_CACHE, ended.map((hash) => hash.toString('hex')));
    return ended.length;
  }

  private async recheck(setting: SsoConfiguration): Promise<number> {
    const { organizationId, domainVerificationToken: token } = setting;
    const answers = await Promise.all(setting.verifiedEmailDomains.map(async (domain) => ({ domain, proven: await this.lookUp(domain, token) })));
    const lapsed = answers.filter((answer) => answer.proven === false).map((answer) => answer.domain);
    if (!lapsed.length) return 0;
    await this.cache.change(String(organizationId), async (tx) => {
      // Made anew (another token) while DNS was asked: its proofs are not the ones checked.
      if (await this.store.markUnverified(tx, organizationId, token, lapsed)) {
        await this.audit.record(tx, { organizationId, by: DOMAIN_CHECK, action: 'sso.domains_lapsed', target: AUDIT_TARGET(organizationId), summary: { domains: lapsed } });
      }
    });
    return lapsed.length;
  }

  private async proves(domain: string, token: string): Promise<boolean> {
    return (await this.lookUp(domain, token)) ?? false;
  }

  /** Whether DNS holds the record that proves the domain; undefined when DNS did not answer. */
  private async lookUp(domain: string, token: string): Promise<boolean | undefined> {
    try {
      return provesDomain(await this.dns.txt(domainVerificationRecord(domain, token).name), domain, token);
    } catch {
      return undefined;
    }
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
  const domainVerifications = c.emailDomains.map((domain) => {
    const record = domainVerificationRecord(domain, c.domainVerificationToken);
    return { domain, verified: c.verifiedEmailDomains.includes(domain), record_name: record.name, record_value: record.value };
  });
  const fields = publicFields(c) as Omit<SsoView, 'domain_verifications' | 'created_at' | 'updated_at'>;
  return { ...fields, domain_verifications: domainVerifications, created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString() };
}
