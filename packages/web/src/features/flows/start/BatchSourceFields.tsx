import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Button, Code, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconFolderOpen } from '@tabler/icons-react';
import { ChooseFilesPathModal, type ChosenFilesPath } from '../../files';
import type { BatchSource } from '../api';
import { START_TEXTS } from '../texts';

const T = START_TEXTS;

export interface SourceDraft {
  mode: 'paste' | 'file';
  content: string;
  file: ChosenFilesPath | null;
}

/** The request's source, or null while the chosen mode has nothing yet. */
export function sourceOf(d: SourceDraft): BatchSource | null {
  if (d.mode === 'paste') return d.content.trim() ? { content: d.content } : null;
  return d.file && d.file.segments.length > 0 ? { file: d.file.path } : null;
}

/** A pasted batch file, or one of the project's files picked in the files chooser. */
export function BatchSourceFields(props: {
  place: ProjectPlace;
  draft: SourceDraft;
  onChange(d: SourceDraft): void;
  showErrors: boolean;
}) {
  const { draft } = props;
  const [choosing, setChoosing] = useState(false);
  const missing = props.showErrors && !sourceOf(draft);
  const set = (patch: Partial<SourceDraft>) => props.onChange({ ...draft, ...patch });
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {T.source}
      </Text>
      <SegmentedControl
        value={draft.mode}
        onChange={(mode) => set({ mode: mode as SourceDraft['mode'] })}
        data={[
          { value: 'paste', label: T.paste },
          { value: 'file', label: T.file },
        ]}
      />
      {draft.mode === 'paste' ? (
        <Textarea
          label={T.yaml}
          placeholder={T.yamlPlaceholder}
          rows={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={draft.content}
          error={missing ? T.yamlRequired : null}
          onChange={(e) => set({ content: e.currentTarget.value })}
        />
      ) : (
        <Stack gap={4}>
          <Group>
            <Button
              variant="default"
              leftSection={<IconFolderOpen size={16} />}
              onClick={() => setChoosing(true)}
            >
              {T.chooseFile}
            </Button>
            {draft.file && draft.file.segments.length > 0 ? (
              <Code>{draft.file.path}</Code>
            ) : (
              <Text c="dimmed" size="sm">
                {T.noFile}
              </Text>
            )}
          </Group>
          {missing && (
            <Text c="red" size="sm">
              {T.fileRequired}
            </Text>
          )}
          <ChooseFilesPathModal
            place={props.place}
            opened={choosing}
            onClose={() => setChoosing(false)}
            onChoose={(file) => set({ file })}
          />
        </Stack>
      )}
    </Stack>
  );
}
