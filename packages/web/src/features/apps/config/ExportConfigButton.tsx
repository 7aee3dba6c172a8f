import { Button, Tooltip } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { downloadText } from '../../jobs/logs/download';
import { configYaml, type ConfigTemplate } from './config';
import { CONFIG_TEXTS as T } from './texts';

/**
 * "Export App Configuration" (needs a valid form): downloads
 * `{display_name?, template_name, template_version, input}` as `<template>-<version>.yaml`, the
 * file Import and `apolo app install -f` read.
 */
export function ExportConfigButton(props: {
  template: ConfigTemplate;
  values: unknown;
  valid: boolean;
  displayName?: string;
}) {
  const { template, values, valid, displayName } = props;
  const exportIt = () =>
    downloadText(`${template.name}-${template.version}.yaml`, [
      configYaml(template, values, displayName).trimEnd(),
    ]);
  return (
    <Tooltip label={T.exportNeedsValidForm} disabled={valid} openDelay={300}>
      {/* A disabled button takes no hover; the span shows the reason. */}
      <span>
        <Button
          variant="default"
          leftSection={<IconFileExport size={16} />}
          disabled={!valid}
          onClick={exportIt}
        >
          {T.exportButton}
        </Button>
      </span>
    </Tooltip>
  );
}
