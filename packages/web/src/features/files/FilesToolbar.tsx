import { Button, FileButton, Group, TextInput, Tooltip } from '@mantine/core';
import { IconFolderPlus, IconSearch, IconUpload } from '@tabler/icons-react';
import { useRef, type ReactNode } from 'react';
import { FILE_TEXTS } from './texts';

/** A disabled button gets no pointer events, so the read-only tooltip sits on a wrapper. */
function ReadOnlyTip({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  return (
    <Tooltip label={FILE_TEXTS.readOnly} disabled={!readOnly} openDelay={300} multiline w={280}>
      <span>{children}</span>
    </Tooltip>
  );
}

/** Search, add folder and upload (workloads §2); the last two need write permission. */
export function FilesToolbar(props: {
  search: string;
  readOnly: boolean;
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
        value={props.search}
        onChange={(e) => props.onSearch(e.currentTarget.value)}
        w={280}
      />
      <Group gap="sm">
        <ReadOnlyTip readOnly={props.readOnly}>
          <Button
            variant="default"
            leftSection={<IconFolderPlus size={16} />}
            disabled={props.readOnly}
            onClick={props.onAddFolder}
          >
            {FILE_TEXTS.addFolder}
          </Button>
        </ReadOnlyTip>
        <ReadOnlyTip readOnly={props.readOnly}>
          <FileButton
            multiple
            resetRef={resetRef}
            disabled={props.readOnly}
            onChange={(files) => {
              props.onUpload(files);
              resetRef.current?.();
            }}
          >
            {(fileProps) => (
              <Button
                {...fileProps}
                leftSection={<IconUpload size={16} />}
                disabled={props.readOnly}
              >
                {FILE_TEXTS.upload}
              </Button>
            )}
          </FileButton>
        </ReadOnlyTip>
      </Group>
    </Group>
  );
}
