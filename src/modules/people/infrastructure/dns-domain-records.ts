import { Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { Env } from '../../../shared/config/env.js';
import { DomainRecords } from '../application/domain-records.js';

/** An owner waits for the answer: a resolver that does not answer within this is a failed check, not a hung request. */
const LOOKUP_TIMEOUT_MS = 2_000;
const LOOKUP_TRIES = 2;
/** What "this name has no such record" looks like; anything else is DNS failing to answer. */
const NO_RECORDS = new Set<string>([dns.NOTFOUND, dns.NODATA]);

/** TXT lookups through the system's resolvers, or those `DNS_SERVERS` names. */
@Injectable()
export class DnsDomainRecords extends DomainRecords {
  private readonly resolver = new dns.Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: LOOKUP_TRIES });

  constructor(env: Env) {
    super();
    if (env.DNS_SERVERS) this.resolver.setServers(env.DNS_SERVERS.split(',').map((server) => server.trim()));
  }

  async txt(name: string): Promise<string[][]> {
    try {
      return await this.resolver.resolveTxt(name);
    } catch (err) {
      if (NO_RECORDS.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  }
}
