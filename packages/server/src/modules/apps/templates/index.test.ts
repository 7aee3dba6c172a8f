import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RUNNERS } from './index.js';

const TEMPLATES = fileURLToPath(new URL('.', import.meta.url));

describe('built-in runners and their template data', () => {
  const byName = new Map(BUILT_IN_RUNNERS.map((r) => [r.template, r]));

  it.each(BUILT_IN_RUNNERS.map((r) => [r.template]))(
    '%s: a manifest naming it, the same runtimes, schemas that are JSON',
    (name) => {
      const versions = readdirSync(`${TEMPLATES}/${name}`, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'runtime')
        .map((d) => d.name);
      expect(versions.length, `${name}: no version beside its runner`).toBeGreaterThan(0);
      for (const version of versions) {
        const dir = `${TEMPLATES}/${name}/${version}`;
        const manifest = readFileSync(`${dir}/manifest.yaml`, 'utf8');
        expect(manifest).toMatch(new RegExp(`^name: ${name}$`, 'm'));
        expect(manifest).toMatch(new RegExp(`^version: ${version.replace(/\./g, '\\.')}$`, 'm'));
        expect(manifest).toMatch(new RegExp(`^runner: ${name}$`, 'm'));
        const runtimes = /^runtimes: \[(.*)\]$/m.exec(manifest)![1].split(', ');
        expect(runtimes).toEqual(byName.get(name)!.runtimes);
        const input = JSON.parse(readFileSync(`${dir}/input.schema.json`, 'utf8'));
        expect(input.type).toBe('object');
        for (const ref of JSON.stringify(input).match(/#\/\$defs\/\w+/g) ?? []) {
          expect(input.$defs, `${name}: ${ref}`).toHaveProperty(ref.slice('#/$defs/'.length));
        }
        expect(JSON.parse(readFileSync(`${dir}/output.schema.json`, 'utf8')).type).toBe('object');
        expect(readFileSync(`${dir}/README.md`, 'utf8')).toMatch(/^# /);
      }
    },
  );

  it('keeps each template folder to one template: versions, runner, in-job programs', () => {
    // docker-only/ is the runner the image-only templates share, not a template.
    const folders = readdirSync(TEMPLATES, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'docker-only')
      .map((d) => d.name);
    expect(folders.sort()).toEqual([...byName.keys()].sort());
    for (const name of folders) {
      for (const entry of readdirSync(`${TEMPLATES}/${name}`, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name === 'runtime') continue;
        expect(existsSync(`${TEMPLATES}/${name}/${entry.name}/manifest.yaml`), entry.name).toBe(
          true,
        );
      }
    }
  });

  it('has one runner per template name', () => {
    expect(byName.size).toBe(BUILT_IN_RUNNERS.length);
  });
});
