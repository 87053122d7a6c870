/**
 * Where the server appends search-log events (shown searches, clicks, graded feedback rounds):
 * a log directory or a sink the caller gives. Closing waits for the appends still being written.
 */
import { createLogStore, type LogEvent, type LogSink } from '@pubmatch/ltr'

/** The server's search log. */
export interface SearchLog {
  /** Appends events; resolves once they are durable. */
  append(events: readonly LogEvent[]): Promise<void>
  /** Waits for the appends in progress, then closes the log (a given sink too, when it has `close`). */
  close(): Promise<void>
}

/**
 * Opens the log of the server's options.
 * @param options - `logSink` (used as it is), else `logDir` (a log store)
 * @returns the log, or `undefined` when the options name none
 */
export function openSearchLog(options: { readonly logDir?: string; readonly logSink?: LogSink }): SearchLog | undefined {
  const sink: (LogSink & { close?: () => Promise<void> }) | undefined =
    options.logSink ?? (options.logDir === undefined ? undefined : createLogStore(options.logDir))
  if (sink === undefined) {
    return undefined
  }
  const pending = new Set<Promise<void>>()
  return {
    async append(events) {
      const appended = sink.append(events)
      pending.add(appended)
      try {
        await appended
      } finally {
        pending.delete(appended)
      }
    },
    async close() {
      await Promise.allSettled([...pending])
      if (typeof sink.close === 'function') {
        await sink.close()
      }
    },
  }
}
