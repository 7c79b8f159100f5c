import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent, request } from 'undici';
import { isBlockedAddress } from './blocked-address.js';

/**
 * Every refusal and every name that does not resolve gets this one message: it reaches admins
 * (a run's error, a delivery attempt), and different messages would let them map which internal
 * names exist. Why it was refused goes to a debug log line instead.
 */
export class BlockedAddressError extends Error {
  constructor() {
    super('the request could not be sent to that address');
  }
}

/** Every address a host name resolves to; the default is the system's (getaddrinfo, /etc/hosts). */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** Where refusals are explained: host name and reason only, never the URL (its query may hold a credential). */
export interface RefusalLog {
  debug(fields: { host: string; reason: string; address?: string }, message: string): void;
}

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true });
const silent: RefusalLog = { debug: () => undefined };

/**
 * The connect-time look-up: resolves once and hands the socket exactly the addresses it checked,
 * so a name that answers public to one look-up and private to the next (DNS rebinding) is judged
 * on the answer it is connected to. One private address in an answer refuses the whole answer.
 */
export function guardedLookup(resolve: Resolver, allowPrivate: boolean, log: RefusalLog): LookupFunction {
  return (hostname, options, callback) => {
    const refuse = (reason: string, address?: string) => {
      log.debug({ host: hostname, reason, ...(address ? { address } : {}) }, 'outbound request refused');
      callback(new BlockedAddressError(), '', 0);
    };
    resolve(hostname).then(
      (answer) => {
        const list = answer.filter((a) => !options.family || a.family === options.family);
        if (list.length === 0) return refuse('no address');
        const blocked = allowPrivate ? undefined : list.find((a) => isBlockedAddress(a.address));
        if (blocked) return refuse('resolves to a blocked address', blocked.address);
        if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => refuse(`does not resolve (${(err as { code?: string }).code ?? String(err)})`),
    );
  };
}

export interface OutboundRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  contentType: string | undefined;
  text: string;
}

const MAX_RESPONSE_BYTES = 1_048_576;

/**
 * The one way the service calls outside systems (automation steps, subscription deliveries).
 * The address check runs after DNS resolution, on the address actually connected to, so a
 * hostname that resolves to a private address (or rebinds to one) is refused too. Redirects
 * are not followed (a 3xx is the answer), so a redirect cannot lead past the check either.
 */
export class OutboundHttp {
  /**
   * undici and its agent are loaded at the first request, not at startup: only worker roles send,
   * yet OutboundModule is global, so the API role builds this client too, and undici's code alone
   * is about 5 MB of the API's heap (the API process has a peak RSS budget).
   */
  private client: Promise<{ agent: Agent; request: typeof request }> | undefined;
  private readonly log: RefusalLog;
  private readonly resolve: Resolver;

  constructor(private readonly allowPrivate: boolean, options: { resolve?: Resolver; log?: RefusalLog } = {}) {
    this.log = options.log ?? silent;
    this.resolve = options.resolve ?? systemResolver;
  }

  async send(req: OutboundRequest): Promise<OutboundResponse> {
    const url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme ${url.protocol}`);
    // The URL parser has already turned odd IPv4 spellings (2130706433, 0x7f.1, 127.1) into
    // dotted form and IPv6 into its canonical form; names are checked at connect time.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && isIP(host) && isBlockedAddress(host)) {
      this.log.debug({ host, reason: 'blocked address' }, 'outbound request refused');
      throw new BlockedAddressError();
    }
    this.client ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({ connect: { lookup: guardedLookup(this.resolve, this.allowPrivate, this.log) } }),
      request,
    }));
    const { agent, request } = await this.client;
    const response = await request(url, {
      method: req.method as 'POST',
      headers: req.headers,
      body: req.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(req.timeoutMs),
      maxRedirections: 0,
    } as Parameters<typeof request>[1]);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_RESPONSE_BYTES) {
        response.body.destroy();
        throw new Error('response larger than 1 MB');
      }
      chunks.push(chunk as Buffer);
    }
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, contentType: Array.isArray(contentType) ? contentType[0] : contentType, text: Buffer.concat(chunks).toString('utf8') };
  }

  async close(): Promise<void> {
    await (await this.client)?.agent.close();
  }
}
