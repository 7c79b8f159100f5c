import { Injectable } from '@nestjs/common';
import { CaseSearchFeed } from '../../cases/application/case-search-feed.js';
import { MAX_VALUE_CHARS, replyTexts, type SearchText } from '../domain/search-document.js';

/**
 * Texts of a case kept outside the case's row (replies, comments), by case id, in the order
 * they belong in its document. Every source is read for every case the indexer writes.
 */
export interface CaseMessageSource {
  textsOf(caseIds: readonly number[]): Promise<Map<number, SearchText[]>>;
}

export const CASE_MESSAGE_SOURCES = Symbol('CASE_MESSAGE_SOURCES');

/** The replies a case received by email: subject and text of each, field `email`, at `/replies/<event id>/...`. */
@Injectable()
export class EmailReplySource implements CaseMessageSource {
  constructor(private readonly feed: CaseSearchFeed) {}

  async textsOf(caseIds: readonly number[]): Promise<Map<number, SearchText[]>> {
    const texts = new Map<number, SearchText[]>();
    for (const reply of await this.feed.replies(caseIds, MAX_VALUE_CHARS)) {
      texts.set(reply.caseId, [...(texts.get(reply.caseId) ?? []), ...replyTexts(reply)]);
    }
    return texts;
  }
}
