import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'case-intake';
export const CLIENT_SECRET = `client-secret-${randomBytes(8).toString('hex')}`;

/** What the provider says about a person: the ID token's claims besides `sub`. */
export interface AccountClaims {
  email?: string;
  email_verified?: boolean;
}

/**
 * A real OpenID provider (oidc-provider) for the tests, behind a front server on 127.0.0.1 that
 * is its issuer: the front server finishes every login interaction as `signInAs` (no forms), and
 * can rewrite the ID token of the token endpoint's answer (`tamper`), re-signed with the
 * provider's own key (or another key), so the service's checks of each claim are exercised.
 * `/alias/...` serves the provider's documents under another issuer URL (a wrong issuer).
 */
export interface TestProvider {
  issuer: string;
  accounts: Map<string, AccountClaims>;
  signInAs: string;
  /** Claims written over the ID token's, and the key it is re-signed with (the provider's by default). */
  tamper: { claims: Record<string, unknown>; key?: KeyObject } | undefined;
  /** Seconds an authorization code lives. */
  codeTtl: number;
  close(): Promise<void>;
}

export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let provider: Provider | undefined;
  let upstreamPort = 0;
  const front = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/interaction/')) {
      void finishInteraction(provider!, state.signInAs, req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    forward(req, res, upstreamPort, url.startsWith('/alias/') ? url.slice('/alias'.length) : url, (path, body) => {
      if (!state.tamper || req.method !== 'POST' || path !== '/token') return body;
      const tokens = JSON.parse(body.toString('utf8')) as { id_token: string };
      return Buffer.from(JSON.stringify({ ...tokens, id_token: resign(tokens.id_token, state.tamper.claims, state.tamper.key ?? privateKey) }));
    });
  });
  const frontPort = await listen(front);
  const issuer = `http://127.0.0.1:${frontPort}`;
  const state: TestProvider = {
    issuer,
    accounts: new Map(),
    signInAs: '',
    tamper: undefined,
    codeTtl: 60,
    close: async () => {
      await Promise.all([front, upstream].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
  provider = new Provider(issuer, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    findAccount: (_ctx: unknown, id: string) => {
      const claims = state.accounts.get(id);
      return claims && { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { AuthorizationCode: () => state.codeTtl, Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    pkce: { required: () => true },
  });
  const upstream = createServer(provider.callback());
  upstreamPort = await listen(upstream);
  return state;
}

async function finishInteraction(provider: Provider, accountId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope('openid email');
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/** Passes the request to the provider (Host kept, so its URLs are the front server's), and its answer back through `rewrite`. */
function forward(req: IncomingMessage, res: ServerResponse, port: number, path: string, rewrite: (path: string, body: Buffer) => Buffer): void {
  const sent: Buffer[] = [];
  req.on('data', (chunk: Buffer) => sent.push(chunk));
  req.on('end', () => {
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path, headers: req.headers }, (answer) => {
      const received: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => received.push(chunk));
      answer.on('end', () => {
        const body = answer.statusCode === 200 ? rewrite(path, Buffer.concat(received)) : Buffer.concat(received);
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        delete headers.connection;
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    upstream.end(Buffer.concat(sent));
  });
}

/** The JWT with `claims` written over its payload, signed RS256 with `key`. */
function resign(jwt: string, claims: Record<string, unknown>, key: KeyObject): string {
  const [header, payload] = jwt.split('.');
  const changed = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), ...claims };
  const input = `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A browser's trip through the provider: from the service's redirect to the provider until the
 * provider sends it back to `publicBaseUrl` (the callback), keeping the provider's cookies.
 */
export async function throughProvider(location: string, publicBaseUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  let next = location;
  for (let hop = 0; hop < 10 && !next.startsWith(publicBaseUrl); hop++) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const to = res.headers.get('location');
    if (!to) throw new Error(`the provider answered ${res.status} at ${next}: ${await res.text()}`);
    next = new URL(to, next).href;
  }
  if (!next.startsWith(publicBaseUrl)) throw new Error(`the provider never sent the browser back: ${next}`);
  return next.slice(publicBaseUrl.length);
}
