import type { ProjectPlace } from '@orrery/contract';
import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { usePlatformContext } from '../../../app/context/platform-context';
import {
  SchemaFields,
  schemaRoot,
  useSchemaForm,
  type FormSchema,
  type Preset,
} from '../../../forms';
import { DEV_SCHEMA_TEXTS as T, DEV_SCHEMA_EXAMPLE } from './dev-schema-texts';
import { useProjectPlace } from '../../../app/context/project-place';

/** The install form's width, which the preview keeps. */
const FORM_MAX_WIDTH = 720;

type Parsed = { ok: true; schema: FormSchema } | { ok: false; message: string };

/** The schema in the text box, or why it cannot be a form. */
export function parseSchema(text: string): Parsed {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: T.invalidJson((e as Error).message) };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return { ok: false, message: T.notAnObject };
  try {
    // Building the tree resolves every $ref: a broken one is reported here, not in the form.
    schemaRoot(doc as FormSchema);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  return { ok: true, schema: doc as FormSchema };
}

/**
 * Dev Schema: paste an input JSON Schema, in Orrery's or
 * Apolo's vocabulary, and see the form it gives, live, with its values and errors.
 */
export default function DevSchemaPage() {
  const { cluster } = usePlatformContext();
  const place = useProjectPlace();
  const [text, setText] = useState(DEV_SCHEMA_EXAMPLE);
  const parsed = useMemo(() => parseSchema(text), [text]);
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{T.title}</Title>
        <Text c="dimmed" size="sm">
          {T.intro}
        </Text>
      </div>
      <Group align="flex-start" gap="lg">
        <Box style={{ flex: '1 1 360px' }}>
          <Textarea
            label={T.schemaLabel}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            rows={28}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          />
        </Box>
        <Box style={{ flex: '1 1 560px', maxWidth: FORM_MAX_WIDTH }}>
          {parsed.ok ? (
            <Preview
              key={text}
              schema={parsed.schema}
              place={place}
              presets={cluster?.details?.resourcePresets ?? []}
            />
          ) : (
            <Alert color="red" title={T.parseErrorTitle}>
              {parsed.message}
            </Alert>
          )}
        </Box>
      </Group>
    </Stack>
  );
}

function Preview(props: { schema: FormSchema; place: ProjectPlace | null; presets: Preset[] }) {
  const form = useSchemaForm(props.schema);
  const [checked, setChecked] = useState<boolean | null>(null);
  return (
    <Stack gap="md">
      <Paper withBorder p="lg">
        <SchemaFields
          form={form}
          env={{ place: props.place, presets: props.presets, subject: 'app' }}
        />
      </Paper>
      <Group>
        <Button onClick={() => setChecked(form.validate())}>{T.check}</Button>
        {checked !== null && (
          <Text size="sm" c={checked ? 'green' : 'red'}>
            {checked ? T.valid : T.invalid}
          </Text>
        )}
      </Group>
      <div>
        <Text size="sm" fw={500}>
          {T.valuesLabel}
        </Text>
        <Code block aria-label={T.valuesLabel}>
          {JSON.stringify(form.values, null, 2)}
        </Code>
      </div>
    </Stack>
  );
}
