import { notifications } from '@mantine/notifications';
import { messageOf } from './errors';

export const notifyError = (message: string) =>
  notifications.show({ color: 'red', title: 'Error', message });

export const notifySuccess = (message: string) => notifications.show({ color: 'green', message });

/**
 * Runs an action and tells its outcome: the success text, or the server's message (else the
 * fallback). Resolves to whether it worked, so a dialog knows when to close.
 */
export async function withOutcome(
  run: () => Promise<unknown>,
  success: string,
  fallback: string,
): Promise<boolean> {
  try {
    await run();
    notifySuccess(success);
    return true;
  } catch (error) {
    notifyError(messageOf(error, fallback));
    return false;
  }
}
