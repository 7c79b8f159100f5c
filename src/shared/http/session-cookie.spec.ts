import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sessionCookieName } from './session-cookie.js';

describe('sessionCookieName', () => {
  it('is __Host-cis_session over HTTPS at the root only: a path or plain HTTP keeps cis_session (a __Host- cookie needs Secure and Path=/)', () => {
    assert.equal(sessionCookieName('https://cases.example'), '__Host-cis_session');
    assert.equal(sessionCookieName('https://cases.example:8443'), '__Host-cis_session');
    assert.equal(sessionCookieName('https://example.com/intake'), 'cis_session');
    assert.equal(sessionCookieName('http://localhost:3000'), 'cis_session');
    assert.equal(sessionCookieName('http://cases.internal'), 'cis_session');
  });
});
