import { redactApiKeys } from '../core/app/public-api.ts';
import type { Logger } from '../core/create-core.ts';

// Logs through electron-log (a file per platform convention, plus the console in development), every line
// passed through the key redactor first: an API key never reaches a log in full, whatever logged it.

export interface LogSink {
  info(...params: unknown[]): void;
  warn(...params: unknown[]): void;
  error(...params: unknown[]): void;
}

export function redactedLogger(sink: LogSink): Logger {
  const clean = (text: string) => redactApiKeys(text);
  return {
    info: (message) => sink.info(clean(message)),
    warn: (message) => sink.warn(clean(message)),
    error: (message, error) =>
      sink.error(
        clean(error === undefined ? message : `${message}: ${(error as Error)?.stack ?? String(error)}`),
      ),
  };
}
