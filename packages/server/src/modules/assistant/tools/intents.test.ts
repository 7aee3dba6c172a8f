import { describe, expect, it } from 'vitest';
import { changeIntent, factIntents } from './intents.js';

/** The explicit rules of docs/assistant.md, question by question. */
describe('intent rules', () => {
  it.each([
    ['Why is job train-3 pending?', [{ kind: 'job-status', job: 'train-3' }]],
    ['why did my job `etl.nightly` fail', [{ kind: 'job-status', job: 'etl.nightly' }]],
    ['logs of job train-3', [{ kind: 'job-logs', job: 'train-3' }]],
    ['How many credits do I have left?', [{ kind: 'credits' }]],
    ['what presets are there', [{ kind: 'presets' }]],
    ['what is the URL of app my-notebook', [{ kind: 'app-status', app: 'my-notebook' }]],
    ['why is my job pending', []],
    ['how do I create a disk?', []],
  ])('%s', (q, intents) => expect(factIntents(q)).toEqual(intents));

  it.each([
    ['kill job train-3', { kind: 'kill-job', job: 'train-3' }],
    ['please stop the job named sweep-7', { kind: 'kill-job', job: 'sweep-7' }],
    ['uninstall app jupyter-1', { kind: 'uninstall-app', app: 'jupyter-1' }],
    ['create a disk of 20 GB named data', { kind: 'create-disk', gigabytes: 20, name: 'data' }],
    ['make a new 3gb disk', { kind: 'create-disk', gigabytes: 3, name: null }],
    ['how do I kill a job?', null],
    ['create a disk', null],
  ])('%s', (q, intent) => expect(changeIntent(q)).toEqual(intent));
});
