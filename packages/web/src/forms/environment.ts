import type { ProjectPlace } from '@orrery/contract';
import { createContext, useContext } from 'react';
import type { Cluster } from '../api/types';
import type { SchemaForm } from './useSchemaForm';

export type Preset = Cluster['resourcePresets'][number];

/** What the special inputs need from the page around the form. */
export interface FormEnvironment {
  place: ProjectPlace | null;
  /** The cluster's resource presets. */
  presets: Preset[];
  /** What the form creates ("job", "app"), for the preset warning. */
  subject: string;
}

interface FormContextValue {
  form: SchemaForm;
  env: FormEnvironment;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue {
  const value = useContext(FormContext);
  if (!value) throw new Error('Schema form inputs must be rendered inside <SchemaFields>');
  return value;
}
