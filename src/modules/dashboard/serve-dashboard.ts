import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setSecurityHeaders, STRICT_CSP } from '../../shared/http/security-headers.js';

/** The built dashboard sits next to the compiled modules: dist/dashboard (see vite.config.ts). */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dashboard/', import.meta.url));

/**
 * Serves the admin dashboard at /dashboard: its built assets, and index.html for every other
 * path under it (the dashboard routes in the browser, e.g. /dashboard/workflows/12). It talks
 * to the admin API only, with the admin token the user signs in with. `/` leads there: it is the
 * address people type first.
 */
export async function serveDashboard(app: NestFastifyApplication): Promise<void> {
  if (!existsSync(`${DASHBOARD_DIR}/index.html`)) return;
  await app.register(fastifyStatic, {
    root: DASHBOARD_DIR,
    prefix: '/dashboard/',
    wildcard: false,
    index: false,
    setHeaders: (reply: FastifyReply) => setSecurityHeaders(reply, STRICT_CSP),
  } as Parameters<typeof fastifyStatic>[1]);
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/dashboard/assets/')) return reply.code(404).type('application/json; charset=utf-8').send('{"error":"not found"}');
    setSecurityHeaders(reply, STRICT_CSP);
    return reply.type('text/html; charset=utf-8').sendFile('index.html', DASHBOARD_DIR);
  };
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/', (_request: FastifyRequest, reply: FastifyReply) => reply.redirect('/dashboard/', 302));
  fastify.get('/dashboard', page);
  fastify.get('/dashboard/*', page);
}
