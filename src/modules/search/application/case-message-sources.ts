import { Injectable } from '@nestjs/common';
import { pointer } from '../../../shared/json/json-pointer.js';
import { CaseSearchFeed } from '../../cases/application/case-search-feed.js';
import type { CaseRef } from '../../comments/application/comment-ports.js';
import { CommentTexts } from '../../comments/application/comment-texts.js';
import { MAX_DOCUMENT_CHARS, MAX_VALUE_CHARS, replyTexts, type SearchText } from '../domain/search-document.js';

/**
 * Texts of a case kept outside the case's row (replies, comments), by case id, in the order
 * they belong in its document. Every source is read for every case the indexer writes.
 */
export interface CaseMessageSource {
  textsOf(cases: readonly CaseRef[]): Promise<Map<number, SearchText[]>>;
}

export const CASE_MESSAGE_SOURCES = Symbol('CASE_MESSAGE_SOURCES');

/** The replies a case received by email: subject and text of each, field `email`, at `/replies/<event id>/...`. */
@Injectable()
export class EmailReplySource implements CaseMessageSource {
  constructor(private readonly feed: CaseSearchFeed) {}

  async textsOf(cases: readonly CaseRef[]): Promise<Map<number, SearchText[]>> {
    const texts = new Map<number, SearchText[]>();
    for (const reply of await this.feed.replies(cases.map((c) => c.id), MAX_VALUE_CHARS)) {
      texts.set(reply.caseId, [...(texts.get(reply.caseId) ?? []), ...replyTexts(reply)]);
    }
    return texts;
  }
}

/** The case's comments, internal notes and public replies alike: each body, field `comment`, at `/comments/<comment id>`. */
@Injectable()
export class CommentSource implements CaseMessageSource {
  constructor(private readonly comments: CommentTexts) {}

  async textsOf(cases: readonly CaseRef[]): Promise<Map<number, SearchText[]>> {
    const texts = new Map<number, SearchText[]>();
    for (const comment of await this.comments.bodiesOf(cases, MAX_VALUE_CHARS, MAX_DOCUMENT_CHARS)) {
      texts.set(comment.caseId, [...(texts.get(comment.caseId) ?? []), { field: 'comment', pointer: pointer('/comments', comment.id), text: comment.body }]);
    }
    return texts;
  }
}
