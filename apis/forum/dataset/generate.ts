// Deterministic forum data, generated the way the paper's faker app did (appendix C):
// the same faker calls in the same order from one seed, so every run and every
// implementation sees identical rows. A fixed reference date replaces "now" for
// faker's past/future dates, which would otherwise change from day to day.
import { Faker, base, en } from '@faker-js/faker';
import type { ForumCategory, ForumComment, ForumDataset, ForumScale, ForumThread, ForumUser } from './model.ts';

const REFERENCE_DATE = new Date('2021-06-01T00:00:00Z');

const toDate = (d: Date): string => d.toISOString().slice(0, 10);

export function generateForum(scale: ForumScale): ForumDataset {
  if (scale.commentsPerUser > scale.entities) {
    throw new RangeError(`commentsPerUser (${scale.commentsPerUser}) must not exceed entities (${scale.entities}): comments go to threads 1..commentsPerUser`);
  }
  const faker = new Faker({ locale: [en, base] });
  faker.seed(scale.seed);
  faker.setDefaultRefDate(REFERENCE_DATE);
  const dated = () => ({ datemade: toDate(faker.date.past()), datelastupdated: toDate(faker.date.future()) });

  const users: ForumUser[] = [];
  const categories: ForumCategory[] = [];
  for (let i = 1; i <= scale.entities; i++) {
    users.push({
      user_id: i,
      name: faker.internet.username(),
      email: faker.internet.email(),
      phone: faker.phone.number(),
      ...dated(),
    });
    categories.push({ category_id: i, name: faker.lorem.word(), description: faker.lorem.words(), ...dated() });
  }

  // One thread per category; the paper counted the author down from the last user.
  const threads: ForumThread[] = [];
  for (let i = 1; i <= scale.entities; i++) {
    threads.push({
      thread_id: i,
      category_id: i,
      user_id: scale.entities + 1 - i,
      title: faker.lorem.word(),
      body: faker.lorem.words(),
      ...dated(),
    });
  }

  const comments: ForumComment[] = [];
  for (let user = 1; user <= scale.entities; user++) {
    for (let thread = 1; thread <= scale.commentsPerUser; thread++) {
      comments.push({
        comment_id: comments.length + 1,
        thread_id: thread,
        user_id: user,
        body: faker.lorem.words(),
        ...dated(),
      });
    }
  }
  return { scale, users, categories, threads, comments };
}
