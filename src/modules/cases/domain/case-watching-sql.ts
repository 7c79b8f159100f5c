/**
 * What the admin case list shows and filters of who watches a case (casework.md section 4).
 * The watchers are the comments module's rows, so it lends the SQL at start, as the owners of
 * other tables lend CaseStatementParts; without it no case is watched.
 */
export interface WatchingSql {
  /** A condition on the case row `c`: the person whose user id is the parameter `user` watches it (or is its assignee, read from `c`). */
  watchedBy(c: string, user: string): string;
  /** How many people watch the case row `c`, as an integer expression. */
  watcherCount(c: string): string;
}

const NOBODY: WatchingSql = { watchedBy: () => 'false', watcherCount: () => '0' };

export class CaseWatchingSql {
  private lent: WatchingSql = NOBODY;

  lend(sql: WatchingSql): void {
    if (this.lent !== NOBODY) throw new Error('the watchers\' SQL was lent twice');
    this.lent = sql;
  }

  get sql(): WatchingSql {
    return this.lent;
  }
}
