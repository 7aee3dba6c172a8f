import * as contract from '@orrery/contract';
import { headingSlugger } from '../../../http/docs.js';
import type { DocSection } from './sections.js';
import { stem, terms } from './text.js';

/** A glossary entry: a product term or message, and the docs section that explains it. */
export interface GlossaryEntry {
  section: DocSection;
  /** The term as the product spells it: `pending`, "No such job". */
  name: string;
  definedIn: DocSection | null;
}

const ENUM = /^([A-Z0-9_]+)_(STATUSES|STATES|STEPS|MODES|RUNTIMES|CATEGORIES|REASONS)$/;
const MESSAGES = /^([A-Z0-9_]+)_(TEXTS|MESSAGES)$/;
const KIND: Record<string, string> = {
  STATUSES: 'status',
  STATES: 'state',
  STEPS: 'step',
  MODES: 'mode',
  RUNTIMES: 'runtime',
  CATEGORIES: 'category',
  REASONS: 'reason',
};

const label = (prefix: string) =>
  prefix
    .toLowerCase()
    .split('_')
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');

/** A message function's text with its arguments shown as "…". */
function messageText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v !== 'function') return null;
  try {
    const s = (v as (...a: unknown[]) => unknown)(...Array<string>(v.length).fill('…'));
    return typeof s === 'string' ? s : null;
  } catch {
    return null;
  }
}

/**
 * The glossary, generated from the product's own texts (the wire contract): its statuses, states
 * and reasons, and the messages it shows. Each entry points at the docs section that explains it,
 * so the product's words lead to the page a user should read.
 */
export function buildGlossary(docs: DocSection[]): GlossaryEntry[] {
  const slug = headingSlugger();
  const out: GlossaryEntry[] = [];
  const add = (
    group: string,
    name: string,
    text: (def: DocSection | null) => string,
    needle: string,
  ) => {
    const definedIn = defining(docs, needle, terms(group));
    const title = `${group}: ${name}`;
    const anchor = slug(title);
    out.push({
      name,
      definedIn,
      section: {
        id: `glossary#${anchor}`,
        page: 'glossary',
        heading: `Glossary > ${title}`,
        url: definedIn?.url ?? '/docs/',
        text: text(definedIn),
        depth: 2,
        parent: null,
        title,
        sentences: [],
        links: [],
        codes: [],
        routes: [],
        configs: [],
      },
    });
  };
  const quote = (def: DocSection | null, needle: string) =>
    def?.sentences.find((s) => s.includes(needle)) ?? '';

  for (const [key, value] of Object.entries(contract).sort(([a], [b]) => a.localeCompare(b))) {
    const e = ENUM.exec(key);
    if (e && !key.startsWith('FINAL_')) {
      const group = `${label(e[1]!)} ${KIND[e[2]!]}`;
      const values = Array.isArray(value) ? value : Object.values(value as object);
      const all = values.filter((v): v is string => typeof v === 'string');
      for (const v of all) {
        add(
          group,
          v,
          (def) =>
            `\`${v}\` is a ${group.toLowerCase()}. Every ${group.toLowerCase()}: ${all.join(', ')}. ${quote(def, `\`${v}\``)}`.trim(),
          `\`${v}\``,
        );
      }
      continue;
    }
    const m = MESSAGES.exec(key);
    const texts: Array<[string, string]> = m
      ? Object.values(value as object).flatMap((v) => {
          const t = messageText(v);
          return t ? [[`${label(m[1]!)} message`, t] as [string, string]] : [];
        })
      : typeof value === 'string' && value.split(' ').length >= 3 && /^[A-Z]/.test(value)
        ? [[`${label(key.split('_')[0]!.replace(/S$/, ''))} message`, value]]
        : [];
    for (const [group, t] of texts) {
      const needle = t.split('…')[0]!.trim();
      add(
        group,
        t,
        (def) => `"${t}" is a message Orrery shows. ${quote(def, needle)}`.trim(),
        needle,
      );
    }
  }
  return out;
}

/** The docs section that says the most about a term: it quotes it, under a heading on its theme. */
function defining(docs: DocSection[], needle: string, group: string[]): DocSection | null {
  if (needle.length < 3) return null;
  let best: DocSection | null = null;
  let bestScore = 0;
  const theme = new Set(group.map(stem));
  for (const d of docs) {
    const count = d.text.split(needle).length - 1;
    if (count === 0) continue;
    const headingHits = terms(d.heading).filter((t) => theme.has(t)).length;
    const score = count + 2 * headingHits;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}
