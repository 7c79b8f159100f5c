import type { Comment } from '../domain/comment.js';

export function commentJson(comment: Comment) {
  return {
    id: comment.id,
    author: { id: comment.author.id, email: comment.author.email },
    visibility: comment.visibility,
    body: comment.body,
    created_at: comment.createdAt.toISOString(),
    delivery: comment.delivery,
  };
}
