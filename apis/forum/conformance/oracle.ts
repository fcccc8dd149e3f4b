// The expected answer to every forum question, computed from the seeded rows in
// memory (never from the database under test). Scenarios change rows through
// apply(), mirroring the change they make in the database.
import type { ForumComment, ForumDataset, ForumUser } from '../dataset/model.ts';
import type { RowChange } from '@fairbench/conformance/changes.ts';

export type ForumCommentWithUser = ForumComment & { user: ForumUser };

type Args = Readonly<Record<string, number>>;

type Tables = { user: Map<number, ForumUser>; comment: Map<number, ForumComment> } & Record<string, Map<number, object>>;

export class ForumOracle {
  private readonly tables: Tables;
  private sortedComments: ForumComment[] | null = null;

  constructor(data: ForumDataset) {
    this.tables = {
      user: new Map(data.users.map((r) => [r.user_id, { ...r }])),
      category: new Map(data.categories.map((r) => [r.category_id, { ...r }])),
      thread: new Map(data.threads.map((r) => [r.thread_id, { ...r }])),
      comment: new Map(data.comments.map((r) => [r.comment_id, { ...r }])),
    };
  }

  /** The answer, or null where REST answers 404 and GraphQL null. */
  answer(operation: string, args: Args): unknown {
    const id = args['id'] ?? 0;
    const limit = args['limit'] ?? 0;
    switch (operation) {
      case 'commentById':
        return this.tables.comment.get(id) ?? null;
      case 'commentsByLimit':
        return this.comments().slice(0, limit);
      case 'commentByUserId':
        return this.commentsOfUser(id)?.[0] ?? null;
      case 'commentsByUserId':
        return this.tables.user.has(id) ? (this.commentsOfUser(id) ?? []).slice(0, limit) : null;
      default:
        throw new Error(`forum has no operation '${operation}'`);
    }
  }

  apply(change: RowChange): void {
    const table = this.tables[change.table];
    if (table === undefined) throw new Error(`oracle: unknown table ${change.table}`);
    this.sortedComments = null;
    if (change.kind === 'delete') table.delete(change.key);
    else table.set(change.key, { ...change.row });
  }

  private comments(): ForumComment[] {
    this.sortedComments ??= [...this.tables.comment.values()].sort((a, b) => a.comment_id - b.comment_id);
    return this.sortedComments;
  }

  /** The user's comments joined with the user (inner join: none when the user row is missing). */
  private commentsOfUser(userId: number): ForumCommentWithUser[] | null {
    const user = this.tables.user.get(userId);
    if (user === undefined) return null;
    return this.comments()
      .filter((c) => c.user_id === userId)
      .map((c) => ({ ...c, user }));
  }
}
