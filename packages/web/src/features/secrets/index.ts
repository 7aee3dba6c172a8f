/** What other areas (apps, jobs) use from the secrets area. */
export { AddEnvSecretModal, type EnvSecret } from './AddEnvSecretModal';
export { ChooseSecretPathModal, type ChosenSecretPath } from './ChooseSecretPathModal';
export { CreateSecretDialog } from './CreateSecretDialog';
export { SecretPicker } from './SecretPicker';
export { secretFullUri, secretPath, useSecretsManage } from './scope';
export { SECRET_TEXTS } from './texts';
