import type { ResourcePlace } from '@orrery/contract';
import type { Citation, CopilotAnswer, CopilotMode, Plan } from '@orrery/contract';
import type { Grant } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';

/**
 * The seams between the assistant's parts: retrieval over the docs (knowledge/), the live facts
 * and plans on the user's resources (tools/), the optional model (model/), and the socket that
 * serves them (routes-copilot.ts). Each part implements its side; none reaches into another's files.
 */

/** A heading section of a docs page, or of the generated glossary. */
export interface Section {
  id: string;
  /** `jobs.md`, or `glossary` for the generated glossary. */
  page: string;
  /** "Page > Section > Sub". */
  heading: string;
  /** The console URL of the section: `/docs/jobs.md#the-job-page`. */
  url: string;
  text: string;
}

export interface RetrievedSection extends Section {
  score: number;
  /** The round of expansion that found it (1 = the query itself). */
  round: number;
}

/** What one retrieval found: the material an answer may rest on, nothing else. */
export interface Retrieval {
  mode: CopilotMode;
  sections: RetrievedSection[];
  /** Graph nodes (local) and edges (global) that led to them, for a model's context. */
  entities: string[];
  relations: string[];
  /** Rounds run (≤ the asked maximum: stops when a round adds nothing above the threshold). */
  rounds: number;
}

export interface RetrieveOptions {
  mode: CopilotMode;
  maxIterations: number;
  /** A model's keywords; without them the lexical rules pick them from the query. */
  keywords?: { high: string[]; low: string[] };
  onRound?: (round: number, added: number) => void;
}

/** The docs and glossary, indexed: retrieval and the embedded (extractive) answer. */
export interface KnowledgeBase {
  retrieve(query: string, opts: RetrieveOptions): Retrieval;
  /** An extractive answer from the retrieval: sentences each followed by its `[n]`. */
  compose(query: string, retrieval: Retrieval): { response: string; citations: Citation[] };
  /** The pages closest to a query that found nothing good enough. */
  nearest(query: string, limit?: number): Section[];
  isSmallTalk(query: string): boolean;
  /** Build facts for the bench and logs. */
  readonly stats: { sections: number; nodes: number; edges: number; buildMs: number };
}

/** The signed-in user a question comes from; every tool acts with exactly their permissions. */
export interface Asker {
  principal: Principal;
  grants: Grant[];
  context: { cluster?: string; org?: string | null; project?: string | null };
}

/** A project, by the names the API and the secrets store use. */
export type Place = ResourcePlace;

/** A read-only live fact (credits, a job's reason, presets, an app, a log) as text plus links. */
export interface Fact {
  text: string;
  citations: Array<Omit<Citation, 'n'>>;
  /**
   * The project it was read from (a job's, an app's), which may not be the one open in the
   * console: its secrets are the ones a log could echo, so they are redacted before a model.
   */
  place?: Place;
}

/** Live facts and proposed changes on the user's own resources. */
export interface Tools {
  /** Facts the question asks for (empty when it asks none); "not found" as the API says it. */
  facts(asker: Asker, question: string): Promise<Fact[]>;
  /** A change the question asks for, as a plan to confirm (never performed here). */
  propose(asker: Asker, question: string): Promise<Plan | null>;
}

export interface AskInput {
  asker: Asker;
  message: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  mode: CopilotMode;
  maxIterations: number;
  onProgress(iteration: number, message: string): void;
}

/** Who answers: the embedded engine, or a model over the same retrieval and tools. */
export interface Answerer {
  answer(input: AskInput): Promise<CopilotAnswer>;
}
