/**
 * What a question asks of the user's own resources, by explicit rules (no model): each rule is a
 * pattern over the question, lower-cased, with the resource's name or id taken from it. The
 * rules are listed in docs/assistant.md; a question that matches none asks no live fact.
 */
import type { JobStatus } from '@orrery/contract';
import { asksInternals, isHowTo } from '../questions.js';

export type FactIntent =
  | { kind: 'credits' }
  /** With `gpu`, also which presets have a GPU, or that none has. */
  | { kind: 'presets'; gpu?: true }
  /** "Which of my jobs are running?": the asker's jobs, in these statuses (any when empty). */
  | { kind: 'my-jobs'; statuses: JobStatus[] }
  | { kind: 'my-apps' }
  /** The asker's bakes, or the one named. */
  | { kind: 'bakes'; bake: string | null }
  | { kind: 'disks' }
  | { kind: 'job-status'; job: string }
  /** "Why is my job pending?" naming none: the asker's waiting jobs. */
  | { kind: 'my-waiting-jobs' }
  | { kind: 'job-logs'; job: string }
  | { kind: 'app-status'; app: string };

export type ChangeIntent =
  | { kind: 'kill-job'; job: string }
  | { kind: 'uninstall-app'; app: string }
  | { kind: 'create-disk'; gigabytes: number; name: string | null }
  | { kind: 'install-app'; template: string; name: string | null; preset: string | null };

/** A resource name as written: bare, or in quotes or backticks. */
const NAME = String.raw`["'\x60]?([a-z0-9][\w.-]*)["'\x60]?`;
/** Words that follow "job"/"app" in a sentence without naming one ("why is my job pending"). */
const NOT_A_NAME = new Set([
  'is',
  'was',
  'are',
  'my',
  'the',
  'a',
  'an',
  'this',
  'that',
  'it',
  'its',
  'pending',
  'failed',
  'failing',
  'running',
  'stuck',
  'status',
  'state',
  'logs',
  'log',
  'named',
  'called',
  'of',
  'for',
  'in',
  'on',
  'to',
  'and',
  'or',
  'with',
  'from',
  'do',
  'does',
  'did',
  'not',
  'still',
  'url',
  'page',
  'id',
  'name',
  'be',
  'been',
  'has',
  'have',
  'keeps',
  'kept',
  'wait',
  'waiting',
  'so',
  'installed',
  'any',
  'i',
  'we',
  'you',
  'can',
  'could',
  'should',
  'will',
  'here',
  'now',
]);

const JOB_ID = /\b(job-[0-9a-f-]{36})\b/;

/**
 * States that follow a plural ("are any of my apps broken?") as an adjective; after a singular
 * they are a name ("why did job broken fail?").
 */
const STATE_WORDS = new Set(['broken', 'errored', 'degraded', 'healthy', 'succeeded', 'cancelled']);

/** The first name after one of `nouns` ("job", "app") in `q`, skipping filler words. */
function nameAfter(q: string, nouns: string[], anyId: RegExp | null = JOB_ID): string | null {
  const re = new RegExp(String.raw`\b(${nouns.join('|')})\s+(?:named\s+|called\s+)?${NAME}`, 'g');
  for (const m of q.matchAll(re)) {
    const [, noun, name] = m as unknown as [string, string, string];
    if (NOT_A_NAME.has(name) || (noun.endsWith('s') && STATE_WORDS.has(name))) continue;
    return name;
  }
  // "why is train-1 pending": a job id anywhere.
  const id = anyId?.exec(q);
  return id ? id[1]! : null;
}

/** Words that ask for a list of one's own resources. */
const LIST = /\b(which|what|list|show|all|my|have i|i have|do i have|how many|installed)\b/;

/** The statuses a question names, as the jobs API spells them. */
const STATUS_WORDS: Array<[RegExp, JobStatus]> = [
  [/\b(running|active|in progress|still up)\b/, 'running'],
  [/\b(failed|failing|crashed|broken)\b/, 'failed'],
  [/\b(succeeded|successful|finished|completed|done)\b/, 'succeeded'],
  [/\b(cancel(l?ed)?|killed|stopped)\b/, 'cancelled'],
];

const JOB = ['job', 'jobs'];
const APP = ['app', 'apps', 'application', 'instance', 'app instance'];
const BAKE = ['bake', 'bakes'];

const has = (q: string, words: RegExp) => words.test(q);

export function factIntents(question: string): FactIntent[] {
  const q = question.toLowerCase();
  const howTo = isHowTo(q);
  const out: FactIntent[] = [];
  if (
    has(q, /\b(credits?|balance)\b/) &&
    has(q, /\b(how many|how much|left|remain|have|my|balance)\b/)
  )
    out.push({ kind: 'credits' });
  // "How does the Slurm runtime request GPUs?" asks the operator's docs, not this cluster's presets.
  const gpu = has(q, /\bgpus?\b/) && !asksInternals(q);
  if (
    (has(q, /\bpresets?\b/) || gpu) &&
    !has(q, /\b(create|add|delete|remove) (a )?presets?\b/) &&
    // "install shell with preset cpu-small" names a preset for the plan, not a question.
    !INSTALL.test(q)
  )
    out.push(gpu ? { kind: 'presets', gpu } : { kind: 'presets' });
  const job = nameAfter(q, JOB);
  if (job && has(q, /\b(logs?|output|last lines|tail)\b/)) out.push({ kind: 'job-logs', job });
  else if (
    job &&
    has(
      q,
      /\b(why|status|state|pending|failed|fail|stuck|waiting|reason|doing|running|url|address|link|where|served|open|exit|error|wrong|happened)\b/,
    )
  )
    out.push({ kind: 'job-status', job });
  else if (
    !job &&
    has(q, /\bjobs?\b/) &&
    has(q, /\b(pending|waiting|queued?|stuck|not start(ed|ing)?|suspended|preempted)\b/)
  )
    out.push({ kind: 'my-waiting-jobs' });
  else if (!job && !howTo && has(q, /\b(my jobs?|jobs)\b/) && has(q, LIST))
    out.push({
      kind: 'my-jobs',
      statuses: STATUS_WORDS.filter(([re]) => re.test(q)).map(([, status]) => status),
    });
  const app = nameAfter(q, APP);
  if (
    app &&
    has(
      q,
      /\b(status|state|url|address|link|running|healthy|up|open|where|why|fail|failed|failing|error|errored|wrong|broken|degraded|happened)\b/,
    )
  )
    out.push({ kind: 'app-status', app });
  else if (
    !app &&
    !howTo &&
    has(q, /\b(apps|applications|instances|my app)\b/) &&
    has(q, LIST) &&
    // "Which apps can I install?" asks for the catalogue (the docs), not for one's own.
    !has(q, /\b(can|could) (i|we) install\b|\b(catalog(ue)?|templates?)\b/)
  )
    out.push({ kind: 'my-apps' });
  if (!howTo && has(q, /\bbakes?\b/))
    out.push({ kind: 'bakes', bake: nameAfter(q, BAKE, /\b(bake-[0-9a-f-]{36})\b/) });
  if (!howTo && has(q, /\bdisks?\b/) && has(q, LIST) && !has(q, /\b(create|make|add|new)\b/))
    out.push({ kind: 'disks' });
  return out;
}

const GB = /(\d{1,6})\s*(?:gb|gib|g|gigabytes?)\b/;
/** "install [a|the|app …] TEMPLATE"; "uninstall" and "installed" do not match. */
const INSTALL = new RegExp(
  String.raw`\binstall\s+(?:(?:a|an|the|new|me|us|app|apps|application|template)\s+)*${NAME}`,
);
const NAMED = new RegExp(String.raw`\b(?:named|called)\s+${NAME}`);
const PRESET = new RegExp(
  String.raw`\bpreset\s+(?:named\s+|called\s+)?${NAME}|\b(?:with|on|using)\s+(?:the\s+)?${NAME}\s+preset\b`,
);

export function changeIntent(question: string): ChangeIntent | null {
  const q = question.toLowerCase();
  if (has(q, /\b(kill|stop|cancel|terminate)\b/)) {
    const job = nameAfter(q, JOB);
    if (job) return { kind: 'kill-job', job };
  }
  if (has(q, /\b(uninstall|remove|delete)\b/)) {
    const app = nameAfter(q, APP);
    if (app) return { kind: 'uninstall-app', app };
  }
  if (has(q, /\b(create|make|add|new)\b/) && has(q, /\bdisk\b/)) {
    const size = GB.exec(q);
    if (!size) return null;
    const name = /\b(?:named|called|name)\s+["'\x60]?([a-z0-9][\w.-]*)/.exec(q);
    return { kind: 'create-disk', gigabytes: Number(size[1]), name: name ? name[1]! : null };
  }
  // "How do I install jupyter?" asks the docs, not for an install.
  const install = has(q, /\bhow\b/) ? null : INSTALL.exec(q);
  if (install) {
    const preset = PRESET.exec(q);
    return {
      kind: 'install-app',
      template: install[1]!,
      name: NAMED.exec(q)?.[1] ?? null,
      preset: preset ? (preset[1] ?? preset[2])! : null,
    };
  }
  return null;
}
