export type ChatState = 'empty' | 'loading' | 'loaded';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
}

export interface AssistantChat {
  state: ChatState;
  messages: ChatMessage[];
  unread: number;
}

/**
 * The assistant arrives in a later issue. Until its API exists there is no conversation to load,
 * so the chat is honestly empty with nothing unread.
 */
export const useAssistantChat = (): AssistantChat => ({ state: 'empty', messages: [], unread: 0 });
