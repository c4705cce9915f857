/**
 * The whole of stdin as UTF-8 text, for commands that take a file's new text on stdin
 * (`kioku facts update`, `kioku project-memory update`). A terminal gives nothing: the command
 * then refuses an empty text instead of waiting for input nobody was asked for.
 */
export async function readStdinText(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
