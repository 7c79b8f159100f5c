/**
 * The local stack's mail sink (`npm run start:local`): an SMTP server that accepts every message
 * sent to it (the service's SMTP_RELAY_URL points here, so digests land here) and keeps them in
 * .data/mail/ as .eml files, with a small page that lists them and shows each one, its inline
 * chart included. It listens on 127.0.0.1 only: it is for looking at mail on this machine.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { escapeHtml } from '../src/shared/http/escape-html.js';

export interface MailSink {
  smtpUrl: string;
  pageUrl: string;
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Port 0 takes any free port (tests); with `elseFree`, so does a port that is taken (start:local prints where it is). */
export async function startMailSink(dir: string, smtpPort: number, httpPort: number, { elseFree = false } = {}): Promise<MailSink> {
  mkdirSync(dir, { recursive: true });
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        writeFileSync(join(dir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  // SMTPServer repeats its socket's errors as its own: listen() below answers a port taken, and a
  // client's broken connection concerns that connection only.
  smtp.on('error', () => undefined);
  const page = createServer((req, res) => {
    void answer(dir, req.url ?? '/').then(({ status, type, body }) => {
      res.writeHead(status, { 'content-type': type, 'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-src 'self'" });
      res.end(body);
    });
  });
  await listen(smtp.server, smtpPort, elseFree);
  await listen(page, httpPort, elseFree);
  return {
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    pageUrl: `http://localhost:${(page.address() as AddressInfo).port}/`,
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await closeServer(page);
    },
  };
}

async function answer(dir: string, url: string): Promise<{ status: number; type: string; body: string }> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse();
  const html = (body: string) => ({ status: 200, type: 'text/html; charset=utf-8', body: `<!doctype html><meta charset="utf-8"><title>Local mail</title><body style="font-family:sans-serif">${body}</body>` });
  const shown = /^\/messages\/([0-9a-z-]+\.eml)$/.exec(url)?.[1];
  if (shown && files.includes(shown)) {
    const mail = await simpleParser(readFileSync(join(dir, shown)));
    const to = [mail.to].flat().map((a) => a?.text ?? '').join(', ');
    return html(`<p><a href="/">All messages</a></p><h1>${escapeHtml(mail.subject ?? '(no subject)')}</h1><p>To: ${escapeHtml(to)}</p>`
      + `<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(linksOpenInNewTab(typeof mail.html === 'string' ? mail.html : `<pre>${escapeHtml(mail.text ?? '')}</pre>`))}" style="width:100%;height:700px;border:1px solid #ccc"></iframe>`
      + `<h2>Text part</h2><pre>${escapeHtml(mail.text ?? '')}</pre>`);
  }
  if (url !== '/') return { status: 404, type: 'text/plain', body: 'not found' };
  const rows = await Promise.all(files.slice(0, 100).map(async (file) => {
    const mail = await simpleParser(readFileSync(join(dir, file)), { skipHtmlToText: true, skipImageLinks: true });
    return `<li><a href="/messages/${file}">${escapeHtml(mail.subject ?? '(no subject)')}</a> (${escapeHtml(mail.date?.toISOString() ?? '')})</li>`;
  }));
  return html(`<h1>Local mail (${files.length})</h1><ul>${rows.join('') || '<li>Nothing yet.</li>'}</ul>`);
}

/**
 * A mail's links (sign in, accept an invitation, confirm a digest) open in a new tab, outside the
 * sandbox: inside the frame they would load the service's pages into it, which this page's CSP
 * (frame-src 'self') and the pages' own frame-ancestors refuse.
 */
function linksOpenInNewTab(html: string): string {
  const head = /<head\b[^>]*>/i.exec(html);
  const base = '<base target="_blank">';
  return head ? html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length) : base + html;
}

async function listen(server: NetServer, port: number, elseFree: boolean): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if (!elseFree || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await listen(server, 0, false);
  }
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
