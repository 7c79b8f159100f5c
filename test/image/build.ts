/**
 * Building the image as `docker build --network host` would on a machine that cannot reach Docker
 * Hub: the Dockerfile's base images built here when missing (scripts/node-base-image.sh), and
 * this machine's npm settings (registry, proxies, the CAs it trusts) handed to the build's
 * `npm ci` as build secrets, so no layer keeps them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { docker, DOCKER_ENV, ensureDebianPackages, logged } from './docker.js';

const run = promisify(execFile);

/** The images the Dockerfile's stages start from, with its ARG defaults filled in. */
export function baseImages(dockerfile: string): string[] {
  const args = new Map<string, string>();
  for (const [, name, value] of dockerfile.matchAll(/^ARG (\w+)=(\S+)$/gm)) args.set(name!, value!);
  const stages = new Set<string>(['scratch']);
  const bases = new Set<string>();
  for (const [, image, stage] of dockerfile.matchAll(/^FROM (?:--platform=\S+ )?(\S+)(?: AS (\S+))?$/gim)) {
    const ref = image!.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced?: string, bare?: string) => args.get((braced ?? bare)!) ?? whole);
    if (ref.includes('$')) throw new Error(`FROM ${image}: an ARG without a default`);
    if (!stages.has(ref)) bases.add(ref);
    if (stage) stages.add(stage);
  }
  return [...bases];
}

/**
 * Builds each base image that is missing with scripts/node-base-image.sh (installing debootstrap
 * when missing); answers the images it built and the packages it installed.
 */
export async function ensureBaseImages(cli: string, root: string, images: string[], logFile: string): Promise<{ built: string[]; installed: string[] }> {
  const built: string[] = [];
  const installed: string[] = [];
  for (const image of images) {
    const present = await docker(cli, ['image', 'inspect', '--format', '{{.Id}}', image]).then(() => true, () => false);
    if (present) continue;
    installed.push(...(await ensureDebianPackages({ debootstrap: 'debootstrap' })));
    await logged('scripts/node-base-image.sh', [image], { cwd: root, env: { ...process.env, DOCKER: cli } }, logFile);
    built.push(image);
  }
  return { built, installed };
}

/**
 * The npm settings a build needs from this machine: an npmrc, and the CA bundle it names when
 * npm here trusts more than Node's own CAs (npm's `cafile`, or NODE_EXTRA_CA_CERTS, which adds to
 * Node's CAs where `cafile` replaces them: the bundle then holds Node's CAs and the extra ones).
 */
export async function npmBuildSettings(): Promise<{ npmrc: string; caBundle: string | undefined }> {
  const { stdout } = await run('npm', ['config', 'ls', '--json'], { maxBuffer: 16 * 1024 * 1024 });
  const config = JSON.parse(stdout) as Record<string, unknown>;
  const lines: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    // The registry, each scope's registry and the proxies; npm's own defaults need no line.
    const wanted = key === 'registry' || key.endsWith(':registry') || key === 'proxy' || key === 'https-proxy' || key === 'noproxy';
    const set = value !== null && value !== '' && !(Array.isArray(value) && value.every((v) => v === ''));
    if (wanted && set) lines.push(`${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  }
  if (config['strict-ssl'] === false) lines.push('strict-ssl=false');
  const cafile = typeof config.cafile === 'string' && config.cafile !== '' ? config.cafile : undefined;
  const extra = process.env.NODE_EXTRA_CA_CERTS || undefined;
  if (!cafile && !extra) return { npmrc: `${lines.join('\n')}\n`, caBundle: undefined };
  lines.push('cafile=/run/secrets/npm-ca');
  const trusted = cafile ? readFileSync(cafile, 'utf8') : tls.rootCertificates.join('\n');
  return { npmrc: `${lines.join('\n')}\n`, caBundle: `${trusted}\n${extra ? readFileSync(extra, 'utf8') : ''}` };
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

/**
 * `docker build --network host -t tag root`, with npm's settings as the secrets `npmrc` and
 * `npm-ca` (the Dockerfile mounts them), and this machine's proxy variables as Docker's
 * predefined proxy build arguments, which the image's history does not record.
 */
export async function buildImage(cli: string, root: string, tag: string, logFile: string): Promise<void> {
  const { npmrc, caBundle } = await npmBuildSettings();
  const scratch = await mkdtemp(join(tmpdir(), 'cis-image-npm-'));
  try {
    await chmod(scratch, 0o700);
    await writeFile(join(scratch, 'npmrc'), npmrc, { mode: 0o600 });
    const args = ['build', '--network', 'host', '--progress', 'plain', '--secret', `id=npmrc,src=${join(scratch, 'npmrc')}`];
    if (caBundle) {
      await writeFile(join(scratch, 'npm-ca.pem'), caBundle, { mode: 0o600 });
      args.push('--secret', `id=npm-ca,src=${join(scratch, 'npm-ca.pem')}`);
    }
    for (const name of PROXY_VARIABLES) if (process.env[name]) args.push('--build-arg', name);
    await logged(cli, [...args, '-t', tag, root], { cwd: root, env: DOCKER_ENV }, logFile);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
