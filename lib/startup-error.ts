/**
 * A problem that stops the service from starting, told in one line that says what to do
 * ("port 3000 is in use — set PORT=…"). The CLI prints the message alone, without a stack.
 */
export class StartupError extends Error {
  override name = "StartupError";
}
