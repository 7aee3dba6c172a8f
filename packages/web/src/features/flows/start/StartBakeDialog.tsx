import { useState } from 'react';
import { Alert, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { BakeWire, ProjectPlace } from '@orrery/contract';
import { DialogActions } from '../../../ui/DialogActions';
import { messageOf } from '../../../ui/errors';
import { notifySuccess } from '../../../ui/notify';
import { useInspectBatch, useStartBake, type BatchInfo, type BatchSource } from '../api';
import { START_TEXTS } from '../texts';
import { BatchSourceFields, sourceOf, type SourceDraft } from './BatchSourceFields';
import { ParamsFields, missingParams } from './ParamsFields';

const T = START_TEXTS;
/** Dialog widths 520/640/720/1024; a pasted batch file wants the wide one. */
const DIALOG_WIDTH = 720;

/**
 * Two steps: the batch file (pasted, or chosen from the project's files) is read by the server
 * (`bakes/params`), then its params are asked for and the bake is started (`bakes/start`). Every
 * refusal shows the server's message here, e.g. the line of a key the engine does not support.
 */
export function StartBakeDialog(props: {
  place: ProjectPlace;
  /** Fixed when started from a flow's bakes; asked for otherwise. */
  flowName?: string;
  onClose(): void;
  onStarted(bake: BakeWire, flowName: string): void;
}) {
  const inspect = useInspectBatch(props.place);
  const start = useStartBake(props.place);
  const [flowName, setFlowName] = useState(props.flowName ?? '');
  const [draft, setDraft] = useState<SourceDraft>({ mode: 'paste', content: '', file: null });
  const [checked, setChecked] = useState(false);
  const [info, setInfo] = useState<{ batch: BatchInfo; source: BatchSource } | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState('');

  const flowError = checked && !flowName.trim() ? T.flowNameRequired : null;
  const source = sourceOf(draft);

  const next = async () => {
    setChecked(true);
    if (!flowName.trim() || !source) return;
    inspect.reset();
    try {
      const batch = await inspect.mutateAsync(source);
      setValues(Object.fromEntries(batch.params.map((p) => [p.name, p.default ?? ''])));
      setInfo({ batch, source });
    } catch {
      // The server's message is shown in the dialog from the mutation's error.
    }
  };

  const run = async () => {
    if (!info || missingParams(info.batch.params, values).length > 0) return setChecked(true);
    try {
      const bake = await start.mutateAsync({
        ...info.source,
        flow_name: flowName.trim(),
        params: values,
        name: name.trim() || null,
        tags: [],
      });
      notifySuccess(T.started);
      props.onStarted(bake, flowName.trim());
      props.onClose();
    } catch {
      // As above: shown in the dialog.
    }
  };

  const failure = info ? start.error : inspect.error;
  return (
    <Modal opened onClose={props.onClose} title={T.title} size={DIALOG_WIDTH} centered>
      <Stack>
        {!info ? (
          <>
            <TextInput
              label={T.flowName}
              description={T.flowNameHint}
              required
              value={flowName}
              disabled={props.flowName !== undefined}
              error={flowError}
              onChange={(e) => setFlowName(e.currentTarget.value)}
            />
            <BatchSourceFields
              place={props.place}
              draft={draft}
              onChange={setDraft}
              showErrors={checked}
            />
          </>
        ) : (
          <>
            <Text fw={500}>
              {info.batch.title ? `${info.batch.title} · ` : ''}
              {T.batch(info.batch.batch, info.batch.tasks)}
            </Text>
            <ParamsFields
              params={info.batch.params}
              values={values}
              onChange={setValues}
              showErrors={checked}
            />
            <TextInput
              label={T.name}
              description={T.nameHint}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
          </>
        )}
        {failure && (
          <Alert color="red" role="alert" style={{ whiteSpace: 'pre-wrap' }}>
            {messageOf(failure, START_TEXTS.title)}
          </Alert>
        )}
        {!info ? (
          <DialogActions
            cancelLabel={T.cancel}
            onCancel={props.onClose}
            confirmLabel={T.next}
            onClick={next}
            loading={inspect.isPending}
          />
        ) : (
          <DialogActions
            cancelLabel={T.back}
            onCancel={() => {
              start.reset();
              setInfo(null);
            }}
            confirmLabel={T.start}
            onClick={run}
            loading={start.isPending}
          />
        )}
      </Stack>
    </Modal>
  );
}
