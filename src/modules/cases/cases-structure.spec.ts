import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Specs run from build/; these rules are about the TypeScript sources.
const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url));

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [{ path: relative(SRC, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('cases: one way in', () => {
  const files = sources(SRC);

  it('only CreateCaseService opens a new case', () => {
    const opening = files.filter((f) => f.text.includes('Case.open(')).map((f) => f.path);
    assert.deepEqual(opening, [join('modules', 'cases', 'application', 'create-case.service.ts')]);
  });

  it('no module outside cases imports its infrastructure code', () => {
    const reaching = files.filter((f) => !f.path.startsWith(join('modules', 'cases')) && /\/cases\/infrastructure\//.test(f.text));
    assert.deepEqual(reaching.map((f) => f.path), []);
  });

  it('only the intake channels outside cases (email, forms) use its application services, to create cases through CreateCaseService', () => {
    const channels = [join('modules', 'email', 'application'), join('modules', 'forms', 'application')];
    // The ports other modules call or implement (notifications, the search feed) and the merges' SQL they compose are no services; the readers and CaseWorkService have their own rules below.
    const reaching = files.filter((f) => !f.path.startsWith(join('modules', 'cases')) && /\/cases\/application\/(?!case-queries\.service\.js|case-work\.service\.js|case-notifications\.js|case-search-feed\.js|case-merges\.js)/.test(f.text));
    assert.deepEqual(reaching.map((f) => f.path).filter((path) => !channels.some((channel) => path.startsWith(channel))), []);
  });

  it('bulk changes change each case through CaseWorkService alone, so a case changes in bulk exactly as one PATCH changes it', () => {
    const reaching = files.filter((f) => !f.path.startsWith(join('modules', 'cases')) && /\/cases\/application\/case-work\.service\.js/.test(f.text));
    assert.deepEqual(reaching.map((f) => f.path), [join('modules', 'bulk-changes', 'application', 'bulk-case-changes.ts')]);
  });

  it('saved views, bulk changes and the SLA report read the case list through CaseQueriesService alone, so their reads take the list\'s share and budget; links and comments read single cases through it', () => {
    const readers = ['case-views', 'bulk-changes', 'sla', 'case-links', 'comments'].map((module) => join('modules', module, 'application'));
    const reading = files.filter((f) => !f.path.startsWith(join('modules', 'cases')) && /\/cases\/application\/case-queries\.service\.js/.test(f.text));
    assert.deepEqual(reading.map((f) => f.path).filter((path) => !readers.some((reader) => path.startsWith(reader))), []);
  });

  it('every statement that updates cases moves the case in the change feed (sets change_xid), or the feed would never show the change', () => {
    const updates = files.flatMap((f) => [...f.text.matchAll(/UPDATE cases\b[\s\S]*?\bWHERE\b/g)].map((m) => ({ path: f.path, sql: m[0] })));
    assert.ok(updates.length > 0, 'the store statement is found');
    assert.deepEqual(updates.filter((u) => !/change_xid = pg_current_xact_id\(\)/.test(u.sql)).map((u) => u.path), []);
  });

  it('persistence uses TypeORM through its public API only', () => {
    const internals = files.filter((f) => /\.master\b|databaseConnection/.test(f.text)).map((f) => f.path);
    assert.deepEqual(internals, []);
  });
});
