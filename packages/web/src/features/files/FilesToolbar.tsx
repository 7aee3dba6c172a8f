import { Button, FileButton, Group, TextInput } from '@mantine/core';
import { IconFolderPlus, IconSearch, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import type { Can } from '../../api/permissions';
import { WhyNot } from '../../ui/WhyNot';
import { FILE_TEXTS } from './texts';
import { PAGE_SEARCH_PROPS } from '../../app/shortcuts/shortcuts';

/**
 * Search, add folder and upload; the last two need `write` on the folder (the
 * permission engine's answer), disabled with its reason otherwise.
 */
export function FilesToolbar(props: {
  search: string;
  write: Can;
  onSearch(text: string): void;
  onAddFolder(): void;
  onUpload(files: File[]): void;
}) {
  // Cleared after each choice so that choosing the same file again uploads it again.
  const resetRef = useRef<() => void>(null);
  return (
    <Group justify="space-between" gap="sm">
      <TextInput
        aria-label={FILE_TEXTS.search}
        placeholder={FILE_TEXTS.searchPlaceholder}
        leftSection={<IconSearch size={16} />}
        {...PAGE_SEARCH_PROPS}
        value={props.search}
        onChange={(e) => props.onSearch(e.currentTarget.value)}
        w={280}
      />
      <Group gap="sm">
        <WhyNot can={props.write}>
          <Button
            variant="default"
            leftSection={<IconFolderPlus size={16} />}
            onClick={props.onAddFolder}
          >
            {FILE_TEXTS.addFolder}
          </Button>
        </WhyNot>
        <WhyNot can={props.write}>
          {props.write.allowed ? (
            <FileButton
              multiple
              resetRef={resetRef}
              onChange={(files) => {
                props.onUpload(files);
                resetRef.current?.();
              }}
            >
              {(fileProps) => (
                <Button {...fileProps} leftSection={<IconUpload size={16} />}>
                  {FILE_TEXTS.upload}
                </Button>
              )}
            </FileButton>
          ) : (
            // Refused, the button opens no file chooser: WhyNot disables it with the reason.
            <Button leftSection={<IconUpload size={16} />}>{FILE_TEXTS.upload}</Button>
          )}
        </WhyNot>
      </Group>
    </Group>
  );
}
