// Row types of the forum schema (schema.sql beside this file); dates are DATE columns as 'YYYY-MM-DD'.

export interface ForumUser {
  user_id: number;
  name: string;
  email: string;
  phone: string;
  datemade: string | null;
  datelastupdated: string | null;
}

export interface ForumCategory {
  category_id: number;
  name: string;
  description: string;
  datemade: string | null;
  datelastupdated: string | null;
}

export interface ForumThread {
  thread_id: number;
  category_id: number;
  user_id: number;
  title: string;
  body: string;
  datemade: string | null;
  datelastupdated: string | null;
}

export interface ForumComment {
  comment_id: number;
  thread_id: number;
  user_id: number;
  body: string;
  datemade: string | null;
  datelastupdated: string | null;
}

export interface ForumDataset {
  readonly scale: ForumScale;
  readonly users: readonly ForumUser[];
  readonly categories: readonly ForumCategory[];
  readonly threads: readonly ForumThread[];
  readonly comments: readonly ForumComment[];
}

/** How much data: `entities` users, categories and threads; each user comments on threads 1..commentsPerUser. */
export interface ForumScale {
  readonly seed: number;
  readonly entities: number;
  readonly commentsPerUser: number;
}

/** The paper's data set: 1000 users, categories and threads, 200 comments per user (200,000 comments). */
export const PAPER_SCALE: ForumScale = { seed: 1, entities: 1000, commentsPerUser: 200 };

/** A smaller data set from the same generator, for conformance runs (10,000 comments). */
export const CONFORMANCE_SCALE: ForumScale = { seed: 1, entities: 100, commentsPerUser: 100 };
