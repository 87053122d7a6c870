/**
 * JSON with objects indented and every array of scalars (or of small arrays of scalars) on one
 * line: diffs of the model stay readable while the file stays small.
 * @param value - any JSON value
 * @param indent - the current indentation. Defaults to `''`.
 */
export function formatJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null'
  }
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    const flat = value.every(
      (item) =>
        item === null ||
        typeof item !== 'object' ||
        (Array.isArray(item) && item.every((x) => x === null || typeof x !== 'object')),
    )
    if (flat) {
      return JSON.stringify(value)
    }
    if (value.length === 0) {
      return '[]'
    }
    return `[\n${value.map((item) => inner + formatJson(item, inner)).join(',\n')}\n${indent}]`
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  if (entries.length === 0) {
    return '{}'
  }
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`
}
