import { forwardRef, type ComponentPropsWithoutRef, type MouseEvent } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

type ActionProps = Omit<ComponentPropsWithoutRef<'button'>, 'onClick'> & {
  /** Names the row's item, for those who cannot see the icon. */
  label: string;
  /** Gets the click, so that a row that opens on click can keep it to the button. */
  onClick(event: MouseEvent<HTMLButtonElement>): void;
};

/*
 * The edit and delete icon buttons at the end of a table row. They pass the ref and the rest of
 * their props on to the button, so that a tooltip around them (WhyNot) shows on hover and focus.
 */
export const EditAction = forwardRef<HTMLButtonElement, ActionProps>(function EditAction(
  { label, ...rest },
  ref,
) {
  return (
    <ActionIcon ref={ref} variant="subtle" aria-label={label} {...rest}>
      <IconPencil size={16} />
    </ActionIcon>
  );
});

export const DeleteAction = forwardRef<HTMLButtonElement, ActionProps>(function DeleteAction(
  { label, ...rest },
  ref,
) {
  return (
    <ActionIcon ref={ref} variant="subtle" color="red" aria-label={label} {...rest}>
      <IconTrash size={16} />
    </ActionIcon>
  );
});
