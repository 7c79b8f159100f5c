import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, request } from 'undici';

/**
 * Addresses an outbound request must not reach unless OUTBOUND_ALLOW_PRIVATE=true: loopback,
 * private, carrier-grade NAT, link-local (cloud metadata lives at 169.254.169.254 and
 * fd00:ec2::254), multicast and reserved ranges, for IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

export class BlockedAddressError extends Error {
  constructor(host: string) {
    super(`refused to connect to ${host}: loopback, private, link-local and metadata addresses are blocked`);
  }
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? BLOCKED.check(mapped[1]!, 'ipv4') : BLOCKED.check(address, 'ipv6');
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
 * are not followed.
 */
export class OutboundHttp {
  private readonly agent: Agent;

  constructor(private readonly allowPrivate: boolean) {
    this.agent = new Agent({
      connect: {
        lookup: (hostname, options, callback) => {
          dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
            if (err) return callback(err, '', 0);
            const list = addresses as LookupAddress[];
            const refused = !this.allowPrivate && list.some((a) => isBlockedAddress(a.address));
            if (refused || list.length === 0) return callback(new BlockedAddressError(hostname), '', 0);
            const first = list[0]!;
            return (options as { all?: boolean }).all ? (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list) : callback(null, first.address, first.family);
          });
        },
      },
    });
  }

  async send(req: OutboundRequest): Promise<OutboundResponse> {
    const url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme ${url.protocol}`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && isIP(host) && isBlockedAddress(host)) throw new BlockedAddressError(host);
    const response = await request(url, {
      method: req.method as 'POST',
      headers: req.headers,
      body: req.body,
      dispatcher: this.agent,
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

  close(): Promise<void> {
    return this.agent.close();
  }
}
