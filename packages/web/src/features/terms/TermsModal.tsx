import { useState } from 'react';
import { Anchor, Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useAcceptTerms } from '../../api/users';
import { notifyError } from '../../ui/notify';
import { TERMS_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

export interface TermsModalProps {
  productTitle: string;
  /** Where the terms' text is (the server's `terms_url`): opened in a new tab. */
  termsUrl: string;
  username: string | null | undefined;
  name: string;
  email: string;
  onLogout: () => void;
}

/** Cannot be dismissed: the only ways out are agreeing or logging out. */
export function TermsModal({
  productTitle,
  termsUrl,
  username,
  name,
  email,
  onLogout,
}: TermsModalProps) {
  const [ticked, setTicked] = useState(false);
  const accept = useAcceptTerms();

  const agree = () => {
    if (!username) {
      notifyError(TERMS_TEXTS.missingUsername);
      return;
    }
    accept.mutate(
      { username, name, email },
      { onError: (error) => notifyError(error.message || TERMS_TEXTS.failed) },
    );
  };

  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={TERMS_TEXTS.title}
      centered
    >
      <Stack>
        <Text>{TERMS_TEXTS.intro(productTitle)}</Text>
        <Anchor href={termsUrl} target="_blank" rel="noopener noreferrer">
          {TERMS_TEXTS.read}
        </Anchor>
        <Checkbox
          label={TERMS_TEXTS.checkbox}
          checked={ticked}
          onChange={(e) => setTicked(e.currentTarget.checked)}
        />
        <DialogActions
          cancelLabel={TERMS_TEXTS.logOut}
          onCancel={onLogout}
          confirmLabel={TERMS_TEXTS.agree}
          disabled={!ticked}
          loading={accept.isPending}
          onClick={agree}
        />
      </Stack>
    </Modal>
  );
}
