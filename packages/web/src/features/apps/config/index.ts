/** Import/Export App Configuration and the Dev Schema page. */
export { ImportConfigButton } from './ImportConfigButton';
export { ExportConfigButton } from './ExportConfigButton';
export {
  IMPORT_MAX_BYTES,
  configYaml,
  parseConfig,
  type AppConfig,
  type ConfigTemplate,
} from './config';
export { CONFIG_TEXTS } from './texts';
