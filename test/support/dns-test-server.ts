/**
 * A DNS server on 127.0.0.1 that answers TXT questions from a table the test fills in (every
 * other question, and a name it does not hold, is NXDOMAIN), for the service's `DNS_SERVERS`.
 * UDP only: the answers the tests need fit one datagram.
 */
import { createSocket } from 'node:dgram';

const TXT = 16;
const IN = 1;

export interface DnsTestServer {
  /** For `DNS_SERVERS`. */
  server: string;
  /** TXT records by lower-case name, each record as its strings. */
  txt: Map<string, string[][]>;
  /** The names asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startDnsTestServer(): Promise<DnsTestServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[][]>();
  const asked: string[] = [];
  socket.on('message', (query, peer) => {
    const question = readQuestion(query);
    if (!question) return;
    asked.push(question.name);
    const records = question.type === TXT && question.class === IN ? txt.get(question.name.toLowerCase()) : undefined;
    socket.send(answer(query, question.end, records), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    txt,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** The first question's name, type and class, and where it ends; undefined for a malformed query. */
function readQuestion(query: Buffer): { name: string; type: number; class: number; end: number } | undefined {
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (query.length < at + 5) return undefined;
  return { name: labels.join('.'), type: query.readUInt16BE(at + 1), class: query.readUInt16BE(at + 3), end: at + 5 };
}

/** The query's header and question, answered with `records` (NXDOMAIN without any). */
function answer(query: Buffer, questionEnd: number, records: string[][] | undefined): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(records ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN without records
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records?.length ?? 0, 6);
  const answers = (records ?? []).map((strings) => {
    const rdata = Buffer.concat(strings.map((s) => Buffer.concat([Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)])));
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(TXT, 2);
    fixed.writeUInt16BE(IN, 4);
    fixed.writeUInt32BE(0, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}
