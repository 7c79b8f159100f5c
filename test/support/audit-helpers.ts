import assert from 'node:assert/strict';
import { eventually, type Requester } from './automation-helpers.js';

export const AUDIT = '/api/admin/v1/audit';

/** The cursor before every entry (the service hands it out for an empty log). */
export const FROM_THE_START = Buffer.from('b0.0', 'latin1').toString('base64url');

export interface AuditPage {
  entries: any[];
  next_cursor: string;
}

/** One page of the audit log as `token` reads it (`query` with its `?`). */
export async function readAudit(r: Requester, token: string, query = ''): Promise<AuditPage> {
  const res = await r.request('GET', `${AUDIT}${query}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body as AuditPage;
}

/**
 * The entries recorded after `cursor`, once at least `count` are listed. An entry is listed when
 * every transaction that began before its change has ended (at once, unless another change or a
 * test's transaction is still running), so a read right after a change may not show it yet.
 */
export function auditAfter(r: Requester, token: string, cursor: string, count: number, query = ''): Promise<AuditPage> {
  return eventually(`${count} audit entries after the cursor`, async () => {
    const page = await readAudit(r, token, `?after=${cursor}${query}`);
    return page.entries.length >= count ? page : undefined;
  });
}
