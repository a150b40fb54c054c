// A GitHub-issue-like export: snake_case fields, labels as repeated messages, nested users,
// nullable timestamps, the number as key.
import { defineSchema, t } from '@listkit/query';
import { seededRandom } from '@listkit/service/schema';
import type { Example } from '../examples.js';
import { type Dataset, pick, type Resource, timeAfter } from './dataset.js';

const LABELS = [
  { name: 'bug', color: 'd73a4a' },
  { name: 'enhancement', color: 'a2eeef' },
  { name: 'documentation', color: '0075ca' },
  { name: 'good first issue', color: '7057ff' },
  { name: 'wontfix', color: 'ffffff' },
];
const LOGINS = ['octocat', 'hubot', 'monalisa', 'defunkt', 'mojombo', 'pjhyett'];
const VERBS = ['Crash', 'Typo', 'Support', 'Slow', 'Flaky test', 'Docs'];
const NOUNS = ['on startup', 'in README', 'for proxies', 'list call', 'in CI', 'on Windows'];

const user = t.message({ login: t.string(), id: t.int64(), site_admin: t.bool() });

export const issueSchema = defineSchema({
  key: 'number',
  fields: {
    number: t.int64(),
    title: t.string({ searchable: true }),
    state: t.enum(['open', 'closed']),
    locked: t.bool(),
    user,
    assignees: t.repeated(user),
    labels: t.repeated(t.message({ name: t.string(), color: t.string() })),
    comments: t.int64(),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
    closed_at: t.timestamp(),
    body: t.string({ searchable: true }),
  },
});

const userOf = (login: string) => ({
  login,
  id: 583231 + LOGINS.indexOf(login),
  site_admin: login === 'hubot',
});

export function generateIssues(count: number): Resource[] {
  const random = seededRandom(2008);
  const issues: Resource[] = [];
  for (let i = 0; i < count; i++) {
    const created = random() * 700;
    const closed = random() < 0.45;
    issues.push({
      number: i + 1,
      title: `${pick(random, VERBS)} ${pick(random, NOUNS)}`,
      state: closed ? 'closed' : 'open',
      locked: random() < 0.05,
      user: userOf(pick(random, LOGINS)),
      assignees: LOGINS.filter(() => random() < 0.15).map(userOf),
      labels: LABELS.filter(() => random() < 0.3),
      comments: Math.floor(random() * random() * 40),
      created_at: timeAfter(created),
      updated_at: timeAfter(created + random() * 30),
      closed_at: closed ? timeAfter(created + random() * 90) : null,
      body: random() < 0.5 ? 'Steps to reproduce: run the list call twice.' : 'See the log.',
    });
  }
  return issues;
}

const example = (id: string, title: string, filter: string, shows: string): Example => ({
  id: `issues-${id}`,
  group: 'Issues',
  dataset: 'issues',
  title,
  filter,
  shows,
});

export const ISSUE_EXAMPLES: readonly Example[] = [
  example('open-bugs', 'Open bugs', 'state = open AND labels.name:bug', 'repeated messages'),
  example('user', 'Opened by a user', 'user.login = octocat', 'a nested user'),
  example('assigned', 'Assigned to someone', 'assignees:* AND comments >= 5', ':* and int64'),
  example('busy', 'Busy since a date', 'updated_at > 2025-06-01T00:00:00Z', 'timestamps'),
  example('regex', 'Regex on titles', 'title eq "(Crash|Slow) .*"', 'RE2'),
];

export const issues: Dataset = {
  id: 'issues',
  title: 'GitHub issues',
  singular: 'issue',
  plural: 'issues',
  schema: issueSchema,
  generate: generateIssues,
  defaultSample: 300,
  firstFilter: 'state = open AND labels.name:bug',
  columns: ['title', 'state', 'user.login'],
  examples: ISSUE_EXAMPLES,
  listCall: {
    origin: 'https://issues.example.com',
    path: '/v1/repos/octo/hello/issues',
    pageSizeParam: 'pageSize',
  },
  compute: false,
};
