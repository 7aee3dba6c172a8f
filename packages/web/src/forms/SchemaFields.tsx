import type { FormEnvironment } from './environment';
import { FormContext } from './environment';
import { ContainerView, NodeView } from './NodeView';
import type { SchemaForm } from './useSchemaForm';

/** The inputs of a whole schema; the page supplies the `<form>`, its title and its buttons. */
export function SchemaFields({ form, env }: { form: SchemaForm; env: FormEnvironment }) {
  return (
    <FormContext.Provider value={{ form, env }}>
      {form.root.kind === 'container' ? (
        <ContainerView node={form.root} path="" />
      ) : (
        <NodeView node={form.root} path="" />
      )}
    </FormContext.Provider>
  );
}
