import { Injectable } from '@nestjs/common';
import { type CaseRef, type CommentBody, CommentStore } from './comment-ports.js';

/**
 * The comments' bodies as the search indexer reads them (search.md: comments are searched in
 * the admin list only, which the search module decides by field). Exported by CommentsModule.
 */
@Injectable()
export class CommentTexts {
  constructor(private readonly store: CommentStore) {}

  bodiesOf(cases: readonly CaseRef[], maxChars: number, maxCaseChars: number): Promise<CommentBody[]> {
    return this.store.bodies(cases, maxChars, maxCaseChars);
  }
}
