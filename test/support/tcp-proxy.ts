/**
 * A TCP proxy a test puts between one service process and Postgres or Redis, to make that
 * process's connections slow or silent without closing them (what a stalled network does).
 */
import { createServer, type Server, Socket } from 'node:net';

export interface ProxyLink {
  /** What the process sent so far (latin1, first 64 KB): tells a subscriber from a command connection. */
  sent: string;
  /** Bytes the process sent on this link so far. */
  sentCount: number;
  /** The proxy's own address on the upstream side, as the server's CLIENT LIST shows it. */
  upstreamAddress(): string;
}

export interface TcpProxy {
  port: number;
  links(): ProxyLink[];
  /** From now on, answers to the links `which` picks are kept back (the process hears nothing). */
  hold(which?: (link: ProxyLink) => boolean): void;
  /** Bytes kept back so far. */
  heldBytes(): number;
  /** Bytes the process sent through the proxy so far (a look-up served from memory sends none). */
  sentBytes(): number;
  /** Hands over everything kept back, in order, and stops holding. */
  release(): void;
  /** Closes every link and refuses new ones (the process loses the server) until `restore()`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Link extends ProxyLink {
  client: Socket;
  upstream: Socket;
  held: Buffer[] | undefined;
}

const SENT_KEPT = 64 * 1024;

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let holding: ((link: ProxyLink) => boolean) | undefined;
  let sentBytes = 0;
  let refusing = false;

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    const link: Link = {
      client,
      upstream,
      sent: '',
      sentCount: 0,
      held: undefined,
      upstreamAddress: () => `${upstream.localAddress}:${upstream.localPort}`,
    };
    links.add(link);
    const drop = () => { links.delete(link); client.destroy(); upstream.destroy(); };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk) => {
      sentBytes += chunk.length;
      link.sentCount += chunk.length;
      if (link.sent.length < SENT_KEPT) link.sent += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!link.held && holding?.(link)) link.held = [];
      if (link.held) link.held.push(chunk);
      else client.write(chunk);
    });
    client.pause();
    upstream.connect(target.port, target.host, () => client.resume());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');

  return {
    port: address.port,
    links: () => [...links],
    hold: (which = () => true) => { holding = which; },
    sentBytes: () => sentBytes,
    heldBytes: () => [...links].reduce((sum, link) => sum + (link.held?.reduce((n, chunk) => n + chunk.length, 0) ?? 0), 0),
    release: () => {
      holding = undefined;
      for (const link of links) {
        for (const chunk of link.held ?? []) link.client.write(chunk);
        link.held = undefined;
      }
    },
    cut: () => {
      refusing = true;
      for (const link of links) { link.client.destroy(); link.upstream.destroy(); }
    },
    restore: () => { refusing = false; },
    close: async () => {
      for (const link of links) { link.client.destroy(); link.upstream.destroy(); }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The URL with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}
