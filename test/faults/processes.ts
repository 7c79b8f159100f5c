/**
 * What the fault runner needs to know about a spawned service beyond what ServiceProcess
 * exposes: its pid and exit status (read from `describe()`, whose first line is
 * `<role> process <pid> (running|exited <code or signal>)`), the port it listens on and its
 * resident memory (both from /proc: Linux only, like the rest of this runner).
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { ServiceProcess } from '../support/service-process.js';

const STATUS_LINE = /^\w+ process (\d+) \((?:running|exited (\S+))\)/;

function statusOf(service: ServiceProcess): { pid: number; exit: string | undefined } {
  const match = STATUS_LINE.exec(service.describe());
  if (!match) throw new Error(`cannot read the pid from: ${service.describe().split('\n')[0]}`);
  return { pid: Number(match[1]), exit: match[2] };
}

export const pidOf = (service: ServiceProcess): number => statusOf(service).pid;

/** The exit code or signal name once the process has exited, undefined while it runs. */
export const exitOf = (service: ServiceProcess): string | undefined => statusOf(service).exit;

/** Resident set size in bytes (VmRSS), 0 when the process is gone. */
export function rssBytes(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The TCP port the process listens on (the socket inode from its fds, matched in /proc/net/tcp). */
export async function listeningPort(pid: number): Promise<number> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.add(inode);
  }
  for (const table of ['tcp', 'tcp6']) {
    const lines = (await readFile(`/proc/${pid}/net/${table}`, 'utf8')).split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === '0A' && inode && inodes.has(inode)) return Number.parseInt(local!.split(':').at(-1)!, 16);
    }
  }
  throw new Error(`process ${pid} listens on no TCP port`);
}

/**
 * Sends `signal` and waits up to `withinMs` for the exit; SIGKILLs it past that. Returns how
 * long the exit took and the exit status, or `exit: undefined` when it had to be killed.
 */
export async function terminate(service: ServiceProcess, signal: NodeJS.Signals, withinMs: number): Promise<{ ms: number; exit: string | undefined }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const exited = service.kill(signal).then(() => true);
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
  const inTime = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  const ms = performance.now() - started;
  if (inTime) return { ms, exit: exitOf(service) };
  process.kill(pidOf(service), 'SIGKILL');
  await exited;
  return { ms, exit: undefined };
}
