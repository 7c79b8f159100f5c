import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from '../errors/app-error.js';
import { headerRef } from './openapi-schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An attachment id in a path is a UUID; anything else cannot name one (404, as for integer ids). */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new NotFoundError(this.resource);
    return value;
  }
}

/** The `:attachmentId` path parameter. */
export const AttachmentId = () => Param('attachmentId', new UuidParamPipe('attachment'));

/**
 * `Content-Disposition: attachment` for a file name as sent: `filename*` carries it exactly
 * (RFC 8187, UTF-8, percent-encoded), `filename` an ASCII stand-in for old clients in which
 * anything that could end the value or the header (quotes, backslashes, controls, non-ASCII)
 * is an underscore.
 */
export function attachmentDisposition(filename: string | null): string {
  if (!filename) return 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Sends a stored file as a download: its bytes and content type, never rendered, never sniffed. */
export function sendAttachment(reply: FastifyReply, file: { filename: string | null; contentType: string; content: Buffer }): Buffer {
  reply.header('content-type', file.contentType);
  reply.header('content-disposition', attachmentDisposition(file.filename));
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', "default-src 'none'; sandbox");
  return file.content;
}

/** The success answer of an attachment download, for @ApiEndpoint. */
export const ATTACHMENT_DOWNLOAD = {
  status: 200 as const,
  description: 'The file.',
  mediaType: '*/*',
  schema: { type: 'string', format: 'binary', description: 'The file\'s bytes as received, with the content type it was sent with (`application/octet-stream` when that was not a valid media type).' },
  headers: { 'Content-Disposition': headerRef('AttachmentDisposition'), 'X-Content-Type-Options': headerRef('NoSniff') },
};
