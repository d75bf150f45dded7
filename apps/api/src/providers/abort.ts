/** A request to a gateway gave up: its timeout fired, or the process is closing. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
