/**
 * Text that comes from users or their jobs (a log, an app's display name, a job's reason) put
 * into an answer, which the console renders as Markdown: quoted so that it stays the text it is
 * and can open no heading, link, image or block of its own in another user's answer.
 */

/**
 * A fenced code block that no line of `text` can close: CommonMark closes a fence only with a run
 * of at least as many backticks, so the fence is longer than every run of backticks in the text
 * (a `~~~` line cannot close a backtick fence at all).
 */
export function codeBlock(text: string, info = 'text'): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * Text inside a sentence: on one line (a line break could start a heading or a list), with
 * every character that opens Markdown markup (links, images, emphasis, code, HTML) escaped.
 */
export const inlineText = (text: string): string =>
  text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[\\`*_[\]<>!#|~]/g, '\\$&');

/**
 * An API refusal as an answer shows it: its words escaped like any text a user may have named in
 * them, unless the refusal carries markup the server made itself (a link to a console page,
 * around names it escaped), set with `withMarkdown`.
 */
export const refusalMarkdown = (e: Error & { markdown?: string }): string =>
  e.markdown ?? inlineText(e.message);

/** A refusal whose answer is `markdown`: server-made markup, any user's words in it escaped. */
export const withMarkdown = <E extends Error>(
  error: E,
  markdown: string,
): E & { markdown: string } => Object.assign(error, { markdown });
