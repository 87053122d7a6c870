import cliProgress from 'cli-progress'

/** Shows progress of long work: a bar on a terminal, plain lines otherwise. */
export interface Progress {
  /** Starts (or restarts) a bar over `total` units. */
  start(total: number, label: string): void
  /** Moves the bar to `value`; `detail` is shown beside it. */
  update(value: number, detail?: string): void
  /** Prints a line without breaking the bar. */
  log(line: string): void
  /** Ends the bar. */
  stop(): void
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Where to write. Defaults to `process.stderr`. */
  stream?: NodeJS.WriteStream
  /** Force plain lines even on a terminal. Defaults to `false`. */
  plain?: boolean
  /** Say nothing at all. Defaults to `false`. */
  quiet?: boolean
  /** Formats the bar's value (e.g. as bytes). */
  format?: (value: number) => string
}

/**
 * A progress reporter: a cli-progress bar when the stream is a terminal, otherwise plain
 * lines at most every 2 seconds (so logs of CI runs stay readable).
 * @param options - see {@link ProgressOptions}
 */
export function createProgress(options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr
  const format = options.format ?? ((v: number) => String(v))
  if (options.quiet) {
    return { start: () => undefined, update: () => undefined, log: () => undefined, stop: () => undefined }
  }
  if (stream.isTTY && !options.plain) {
    let bar: cliProgress.SingleBar | undefined
    let total = 0
    return {
      start(newTotal, label) {
        bar?.stop()
        total = newTotal
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: `${label} [{bar}] {percentage}% | {shown}/{totalShown} | {detail} | ETA {eta_formatted}`,
            hideCursor: true,
            clearOnComplete: false,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        )
        bar.start(newTotal, 0, { shown: format(0), totalShown: format(newTotal), detail: '' })
      },
      update(value, detail = '') {
        bar?.update(Math.min(value, total), { shown: format(value), totalShown: format(total), detail })
      },
      log(line) {
        if (bar) {
          bar.stop()
          stream.write(`${line}\n`)
          // cli-progress has no "print above"; restarting keeps the bar below the log line.
          const value = (bar as unknown as { value: number }).value
          bar.start(total, value, { shown: format(value), totalShown: format(total), detail: '' })
        } else {
          stream.write(`${line}\n`)
        }
      },
      stop() {
        bar?.stop()
        bar = undefined
      },
    }
  }
  let last = 0
  let label = ''
  let total = 0
  return {
    start(newTotal, newLabel) {
      total = newTotal
      label = newLabel
      last = 0
      stream.write(`${label}: 0/${format(total)}\n`)
    },
    update(value, detail = '') {
      const now = Date.now()
      if (now - last >= 2000 || value >= total) {
        last = now
        const pct = total > 0 ? ` (${Math.floor((100 * value) / total)}%)` : ''
        stream.write(`${label}: ${format(value)}/${format(total)}${pct}${detail ? ` ${detail}` : ''}\n`)
      }
    },
    log(line) {
      stream.write(`${line}\n`)
    },
    stop() {
      // nothing to clean up
    },
  }
}

/**
 * Formats a byte count for people (`1.5 MB`).
 * @param bytes - a count of bytes
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`
  }
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}
