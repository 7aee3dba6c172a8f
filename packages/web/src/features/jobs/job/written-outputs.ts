import { useEffect, useState } from 'react';
import { streamLog, type Job } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { JOBS_TEXTS } from '../texts';

/**
 * The outputs a job writes to its log as flows read them: lines
 * `::set-output name=N::V`, the last value of a name winning; `::stop-commands::TOKEN` makes
 * lines plain text until `::TOKEN::`. Fed the log piece by piece, as it streams.
 */
export class WrittenOutputs {
  readonly values = new Map<string, string>();
  private partial = '';
  private stopToken: string | null = null;

  /** Reads a piece of the log; true when a value changed. */
  push(text: string): boolean {
    const lines = (this.partial + text).split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    let changed = false;
    for (const line of lines) changed = this.line(line) || changed;
    return changed;
  }

  /** The log ended: its last line has no newline. */
  end(): boolean {
    const rest = this.partial;
    this.partial = '';
    return rest ? this.line(rest) : false;
  }

  private line(line: string): boolean {
    if (this.stopToken !== null) {
      if (line === `::${this.stopToken}::`) this.stopToken = null;
      return false;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) {
      this.stopToken = stop[1];
      return false;
    }
    const m = /^::set-output name=([^:]+)::(.*)$/.exec(line);
    if (!m || this.values.get(m[1]) === m[2]) return false;
    this.values.set(m[1], m[2]);
    return true;
  }
}

export interface WrittenState {
  outputs: [name: string, value: string][];
  error: string | null;
  /** The whole log was read (or could not be). */
  done: boolean;
}

/**
 * A named job's written outputs, read from its log while it streams (a running job's as it
 * writes them). Only named jobs have outputs, so an unnamed job's log is not read.
 */
export function useWrittenOutputs(
  job: Pick<Job, 'id' | 'name' | 'status'>,
  monitoringUrl: string,
  token: string | null,
): WrittenState {
  const [state, setState] = useState<WrittenState>({ outputs: [], error: null, done: false });
  const named = !!job.name;
  // An unnamed job has nothing to read.
  const result = named ? state : { outputs: [], error: null, done: true };
  // A job that was pending starts writing once it runs: read its log again then.
  const started = job.status !== 'pending';
  useEffect(() => {
    if (!named || !started) return;
    const control = new AbortController();
    const parser = new WrittenOutputs();
    const publish = (done = false) => setState({ outputs: [...parser.values], error: null, done });
    streamLog(monitoringUrl, job.id, {
      token,
      timestamps: false,
      signal: control.signal,
      onText: (text) => parser.push(text) && publish(),
    })
      .then(() => {
        parser.end();
        publish(true);
      })
      .catch((e: unknown) => {
        if (!control.signal.aborted)
          setState((s) => ({ ...s, error: messageOf(e, JOBS_TEXTS.logs.failed), done: true }));
      });
    return () => control.abort();
  }, [named, started, job.id, monitoringUrl, token]);
  return result;
}
