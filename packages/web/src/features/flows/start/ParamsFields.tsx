import { Stack, Text, TextInput } from '@mantine/core';
import type { BatchParam } from '@orrery/contract';
import { START_TEXTS } from '../texts';

/** A param without a default must be given (the flow format refuses a bake without it). */
export const missingParams = (params: BatchParam[], values: Record<string, string>) =>
  params.filter((p) => p.default === null && !values[p.name]?.trim()).map((p) => p.name);

/** A field per param of the batch: its default filled in, its description as help. */
export function ParamsFields(props: {
  params: BatchParam[];
  values: Record<string, string>;
  onChange(values: Record<string, string>): void;
  showErrors: boolean;
}) {
  const missing = props.showErrors ? missingParams(props.params, props.values) : [];
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {START_TEXTS.params}
      </Text>
      {props.params.length === 0 && (
        <Text size="sm" c="dimmed">
          {START_TEXTS.noParams}
        </Text>
      )}
      {props.params.map((p) => (
        <TextInput
          key={p.name}
          label={p.name}
          description={p.descr ?? undefined}
          required={p.default === null}
          value={props.values[p.name] ?? ''}
          error={missing.includes(p.name) ? START_TEXTS.paramRequired(p.name) : null}
          onChange={(e) => props.onChange({ ...props.values, [p.name]: e.currentTarget.value })}
        />
      ))}
    </Stack>
  );
}
