import { useState } from 'react';
import { Alert, Button, FileButton, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { DialogActions } from '../../../ui/DialogActions';
import { notifyError } from '../../../ui/notify';
import { fileError, parseConfig, type ConfigTemplate } from './config';
import { CONFIG_TEXTS as T } from './texts';

/** The dialog's width: the console's narrowest. */
const DIALOG_WIDTH = 520;

type Loaded =
  | { state: 'empty' }
  | { state: 'invalid'; title?: string; message: string }
  | { state: 'valid'; fileName: string; input: unknown; displayName?: string };

/** The messages shown as toasts; the others are shown in the dialog only. */
const TOASTED = new Set<string>([T.readError, T.noFile]);

/**
 * "Import App Configuration": one .yaml/.yml file of at most 104857.6 bytes,
 * written for this template and version, whose input passes the template's schema. Apply stays
 * disabled until such a file is loaded, then hands the input to the form.
 */
export function ImportConfigButton(props: {
  template: ConfigTemplate;
  onApply(input: unknown, displayName?: string): void;
}) {
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'empty' });
  const [dragging, setDragging] = useState(false);

  const fail = (message: string, title?: string) => {
    setLoaded({ state: 'invalid', message, title });
    if (TOASTED.has(message) || message.startsWith('Error parsing YAML')) notifyError(message);
  };
  const load = async (files: File[]) => {
    const problem = fileError(files);
    if (problem) return fail(problem, problem === T.noFile ? undefined : T.fileError);
    let text: string;
    try {
      text = await files[0].text();
    } catch {
      return fail(T.readError);
    }
    const parsed = parseConfig(text, props.template);
    if (!parsed.ok) return fail(parsed.message);
    setLoaded({ state: 'valid', fileName: files[0].name, ...parsed });
  };
  const close = () => {
    setOpened(false);
    setLoaded({ state: 'empty' });
  };
  const apply = () => {
    if (loaded.state !== 'valid') return;
    props.onApply(loaded.input, loaded.displayName);
    close();
  };

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} />}
        onClick={() => setOpened(true)}
      >
        {T.importButton}
      </Button>
      <Modal opened={opened} onClose={close} title={T.importTitle} size={DIALOG_WIDTH}>
        <Stack>
          <Paper
            withBorder
            p="lg"
            data-testid="config-drop"
            bg={dragging ? 'var(--mantine-color-blue-light)' : undefined}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              void load([...e.dataTransfer.files]);
            }}
          >
            <Stack align="center" gap="xs">
              <Text size="sm" c="dimmed">
                {T.importHint}
              </Text>
              <Text size="sm">{T.dropHere}</Text>
              <FileButton accept=".yaml,.yml" onChange={(f) => void load(f ? [f] : [])}>
                {(p) => (
                  <Button {...p} variant="light" leftSection={<IconUpload size={16} />}>
                    {T.chooseFile}
                  </Button>
                )}
              </FileButton>
            </Stack>
          </Paper>
          {loaded.state === 'invalid' && (
            <Alert color="red" title={loaded.title}>
              {loaded.message}
            </Alert>
          )}
          {loaded.state === 'valid' && <Alert color="green">{T.loaded(loaded.fileName)}</Alert>}
          <Group justify="flex-end">
            <DialogActions
              cancelLabel={T.cancel}
              onCancel={close}
              confirmLabel={T.apply}
              disabled={loaded.state !== 'valid'}
              onClick={apply}
            />
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
