import type { Retrieval, RetrievedSection } from '../types.js';
import { asksClient, asksInternals, isHowTo, literalsOf } from '../questions.js';
import { SCORE_THRESHOLD } from './modes.js';

/**
 * Who a docs section is written for. The operator's pages (how the server runs: its runtimes and
 * their drivers, operations, architecture, tests) and the figures and tests sections of any page
 * are internals: a user's question is answered from the pages written for users, and internals
 * only when the question asks for them, or when nothing for users answers it.
 */
const OPERATOR_PAGES = new Set(['runtimes.md', 'operations.md', 'architecture.md', 'testing.md']);
const INTERNAL_HEADING = /\b(tests?|figures|performance|bench)\b/i;

/** The glossary's entries link to the section that explains them: their page is the link's. */
const pageOf = (s: Pick<RetrievedSection, 'page' | 'url'>) =>
  s.page === 'glossary' ? (/^\/docs\/([^#]+)/.exec(s.url)?.[1] ?? s.page) : s.page;

export const isInternal = (s: Pick<RetrievedSection, 'page' | 'url' | 'heading'>) =>
  OPERATOR_PAGES.has(pageOf(s)) || INTERNAL_HEADING.test(s.heading);

/**
 * A console address in backticks (`/jobs/new`, `/apps/{appName}/install`): the console's areas
 * (web: app/AppRoutes.tsx and each feature's routes), not an API route or a path in a job.
 */
const CONSOLE_PATH =
  /`\/(jobs|apps|disks|files|buckets|images|secrets|flows|org-billing|org-settings|project-settings|cluster-settings|new-project|create-org|admin|invites|user-onboarding)\b[^`\s]*`/;
/** The pages and sections about the API and the command line rather than the console. */
const CLIENT_PAGES = new Set(['apolo-clients.md', 'jobs-api.md']);
const CLIENT_HEADING = /\b(API|CLI|calls the console makes)\b/;

const isConsole = (s: RetrievedSection) =>
  /\bconsole\b/i.test(s.heading) || CONSOLE_PATH.test(s.text);
const isClient = (s: RetrievedSection) =>
  CLIENT_PAGES.has(pageOf(s)) || CLIENT_HEADING.test(s.heading);

/**
 * How a how-to question's sections rank: the console's path first, the API's and the command
 * line's after it, unless the question asks for those.
 */
const CONSOLE_WEIGHT = 1.5;
const CLIENT_WEIGHT = 0.5;
/** A section that holds what the question quotes (`--gres`) ranks before those that do not. */
const LITERAL_WEIGHT = 2;

/** Sentences about the project's own tests and benchmarks, which no user's question asks for. */
export const INTERNAL_SENTENCE = /\.test\.ts\b|BENCH_ONLY|npm run bench|npm test\b/;

/**
 * The retrieval a reader gets: without the internals sections when the question does not ask for
 * them and a section for users answers it (at the threshold an answer rests on); a how-to's
 * console sections weighed up and the API's down; a section holding what the question quotes
 * weighed up. Only scores change: the sections stay in the mode's order, and the answer takes
 * the best scores.
 */
export function forReader(query: string, r: Retrieval): Retrieval {
  const internals = asksInternals(query);
  const consoleFirst = !internals && isHowTo(query) && !asksClient(query);
  const literals = literalsOf(query);
  let sections = internals ? r.sections : r.sections.filter((s) => !isInternal(s));
  if (!sections.some((s) => s.score >= SCORE_THRESHOLD)) sections = r.sections;
  const weight = (s: RetrievedSection) =>
    (literals.some((l) => s.text.includes(l)) ? LITERAL_WEIGHT : 1) *
    (!consoleFirst ? 1 : isConsole(s) ? CONSOLE_WEIGHT : isClient(s) ? CLIENT_WEIGHT : 1);
  return { ...r, sections: sections.map((s) => ({ ...s, score: s.score * weight(s) })) };
}
