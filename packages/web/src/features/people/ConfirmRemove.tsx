import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PEOPLE_UI } from './texts';

/** Removing someone is always confirmed; one dialog for organization, cluster and project. */
export function ConfirmRemove(props: {
  name: string | null;
  where: string;
  pending: boolean;
  onRemove(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const { name } = props;
  return (
    <ConfirmDialog
      opened={!!name}
      title={PEOPLE_UI.removeUser}
      text={name ? PEOPLE_UI.removeText(name, props.where) : null}
      cancelLabel={PEOPLE_UI.cancel}
      confirmLabel={PEOPLE_UI.removeLabel}
      pending={props.pending}
      onConfirm={() => props.onRemove(name!)}
      success={name ? PEOPLE_UI.removed(name) : ''}
      failure={PEOPLE_UI.loadFailed}
      onClose={props.onClose}
    />
  );
}
