/** An error meant for the user: its message is shown as it is; `code` lets the UI react to its kind. */
export class AppError extends Error {
  constructor(
    readonly code:
      | 'bad_request'
      | 'not_found'
      | 'invalid_key'
      | 'key_refused'
      | 'key_missing'
      | 'unreachable'
      | 'encryption_unavailable'
      | 'conflict'
      | 'refused'
      | 'damaged_database'
      | 'internal',
    message: string,
  ) {
    super(message);
  }
}
