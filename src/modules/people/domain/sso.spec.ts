import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMAIL_DOMAIN_PATTERN, emailDomainOf, issuerProblem } from './sso.js';

describe('single sign-on settings', () => {
  it('takes an https issuer, and an http one only on loopback while private addresses are allowed', () => {
    assert.equal(issuerProblem('https://login.example.com', false), undefined);
    assert.equal(issuerProblem('https://login.example.com/tenant/v2.0', false), undefined);
    assert.equal(issuerProblem('http://127.0.0.1:8080', true), undefined);
    assert.equal(issuerProblem('http://localhost:8080/realms/acme', true), undefined);
    for (const [issuer, allowPrivate] of [
      ['http://127.0.0.1:8080', false], ['http://login.example.com', true], ['ftp://login.example.com', true], ['login.example.com', true],
      ['https://user:pass@login.example.com', false], ['https://login.example.com/?tenant=1', false], ['https://login.example.com/#x', false],
    ] as const) {
      assert.notEqual(issuerProblem(issuer, allowPrivate), undefined, `${issuer} (private ${allowPrivate})`);
    }
  });

  it('reads an address\'s domain in lower case, and nothing from what is not an address', () => {
    assert.equal(emailDomainOf('Ada@Example.COM'), 'example.com');
    assert.equal(emailDomainOf('"a@b"@example.com'), 'example.com');
    for (const text of ['no-at-sign', '@example.com', 'ada@']) assert.equal(emailDomainOf(text), undefined, text);
  });

  it('lists lower-case domain names only', () => {
    for (const domain of ['example.com', 'mail.acme-corp.co.uk', 'xn--bcher-kva.example']) assert.match(domain, EMAIL_DOMAIN_PATTERN);
    for (const domain of ['Example.com', 'localhost', 'example.com.', '-acme.com', 'ada@example.com', 'a..com', '*.example.com']) assert.doesNotMatch(domain, EMAIL_DOMAIN_PATTERN);
  });
});
