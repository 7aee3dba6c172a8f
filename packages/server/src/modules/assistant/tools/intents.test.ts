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
    ['why is my job pending', [{ kind: 'my-waiting-jobs' }]],
    ['why are my jobs still waiting?', [{ kind: 'my-waiting-jobs' }]],
    ['how do I submit a job', []],
    ['how do I create a disk?', []],
    ['install shell with preset cpu-small', []],
    ['Which of my jobs are running?', [{ kind: 'my-jobs', statuses: ['running'] }]],
    ['Show me my failed jobs', [{ kind: 'my-jobs', statuses: ['failed'] }]],
    ['list my jobs', [{ kind: 'my-jobs', statuses: [] }]],
    ['which jobs did I cancel?', [{ kind: 'my-jobs', statuses: ['cancelled'] }]],
    ['are any of my apps broken?', [{ kind: 'my-apps' }]],
    ["what's the address of my job web-port", [{ kind: 'job-status', job: 'web-port' }]],
    [
      'Is my job web-port still running, what is its URL?',
      [{ kind: 'job-status', job: 'web-port' }],
    ],
    ['Why did my app my-shell fail?', [{ kind: 'app-status', app: 'my-shell' }]],
    ['Which apps have I installed?', [{ kind: 'my-apps' }]],
    ['Which apps can I install?', []],
    ['What bakes do I have?', [{ kind: 'bakes', bake: null }]],
    ['What is the status of my bake nightly?', [{ kind: 'bakes', bake: 'nightly' }]],
    ['Which disks do I have?', [{ kind: 'disks' }]],
    ['Does this cluster have GPU presets?', [{ kind: 'presets', gpu: true }]],
    // A how-to gets this cluster's GPU presets beside the console's path, and no list.
    ['How do I run a job with a GPU?', [{ kind: 'presets', gpu: true }]],
    ['How do I see my jobs?', []],
    // The operator's question is the docs', not this cluster's presets.
    ['How does the Slurm runtime request GPUs with --gres?', []],
  ])('%s', (q, intents) => expect(factIntents(q)).toEqual(intents));

  it.each([
    ['kill job train-3', { kind: 'kill-job', job: 'train-3' }],
    ['please stop the job named sweep-7', { kind: 'kill-job', job: 'sweep-7' }],
    ['uninstall app jupyter-1', { kind: 'uninstall-app', app: 'jupyter-1' }],
    ['create a disk of 20 GB named data', { kind: 'create-disk', gigabytes: 20, name: 'data' }],
    ['make a new 3gb disk', { kind: 'create-disk', gigabytes: 3, name: null }],
    ['install jupyter', { kind: 'install-app', template: 'jupyter', name: null, preset: null }],
    [
      'Install the postgresql app named db1',
      { kind: 'install-app', template: 'postgresql', name: 'db1', preset: null },
    ],
    [
      'install shell with preset cpu-small',
      { kind: 'install-app', template: 'shell', name: null, preset: 'cpu-small' },
    ],
    [
      'please install an app `vscode` called editor on the gpu-small preset',
      { kind: 'install-app', template: 'vscode', name: 'editor', preset: 'gpu-small' },
    ],
    ['how do I install jupyter?', null],
    ['which apps are installed', null],
    ['how do I kill a job?', null],
    ['create a disk', null],
  ])('%s', (q, intent) => expect(changeIntent(q)).toEqual(intent));
});
