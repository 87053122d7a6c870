/**
 * The shapes of JSON values, for checking JSON read from disk or another process before it is
 * used (`checkJson`, `parseJson`, `readJsonFile`). Exported as the `json` namespace:
 * `json.object({ version: json.integer, names: json.array(json.string) })`. A check returns the
 * value it was given (keys the shape does not name are kept), typed.
 */

/** A JSON value's expected shape. */
export interface JsonShape<T> {
  /** What the value must be, for messages: `a string`, `"pubmed" or "test-collection"`. */
  readonly expected: string
  /** Set by {@link optional}: the key may be absent from its object. */
  readonly optional?: true
  /**
   * Returns `value` typed when it has this shape.
   * @param value - a parsed JSON value
   * @param path - where it is, as keys and indexes from the top (`['schema', 'features', 2]`; empty
   *   for the whole value). A check pushes a key before it descends and pops it after, so that a
   *   path is formatted only for a message.
   * @throws JsonMismatch naming the first value that does not fit
   */
  check(value: unknown, path: JsonPath): T
}

/** Where a value is: keys and array indexes from the top. */
export type JsonPath = Array<string | number>

/** The type a {@link JsonShape} checks for. */
export type JsonShapeType<S> = S extends JsonShape<infer T> ? T : never

/** The fields of an {@link object} shape. */
export type JsonFields = { readonly [key: string]: JsonShape<unknown> }

type RequiredKeys<F extends JsonFields> = { [K in keyof F]: F[K] extends { readonly optional: true } ? never : K }[keyof F]
type OptionalKeys<F extends JsonFields> = Exclude<keyof F, RequiredKeys<F>>

/** The type of an {@link object} shape's value: optional shapes give optional keys. */
export type JsonObjectOf<F extends JsonFields> = {
  [K in RequiredKeys<F>]: JsonShapeType<F[K]>
} & {
  [K in OptionalKeys<F>]?: JsonShapeType<F[K]>
} extends infer O
  ? { [K in keyof O]: O[K] }
  : never

/**
 * Thrown by a shape's `check`: the first value that does not fit. `checkJson` turns it into a
 * `PubmatchError` that names the file.
 */
export class JsonMismatch extends Error {
  override readonly name = 'JsonMismatch'
  /** Where the value is (`schema.features[2]`; `''` for the whole value). */
  readonly path: string
  /** How many keys deep it is. */
  readonly depth: number
  /** The value found (`undefined`: the key is missing). */
  readonly value: unknown
  /** What it should have been. */
  readonly expected: string

  constructor(path: readonly (string | number)[], value: unknown, expected: string) {
    const where = formatPath(path)
    super(`${where === '' ? 'the value' : where} does not fit: expected ${expected}`)
    this.path = where
    this.depth = path.length
    this.value = value
    this.expected = expected
  }
}

/**
 * A path as a message shows it: `schema.features[2]`, `metrics["ndcg@10"]`.
 * @param path - keys and indexes from the top
 */
function formatPath(path: readonly (string | number)[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') {
      out += `[${key}]`
    } else if (/^[A-Za-z_$][\w$]*$/.test(key)) {
      out += out === '' ? key : `.${key}`
    } else {
      out += out === '' ? JSON.stringify(key) : `[${JSON.stringify(key)}]`
    }
  }
  return out
}

function shape<T>(expected: string, test: (value: unknown) => boolean): JsonShape<T> {
  return {
    expected,
    check(value, path) {
      if (!test(value)) {
        throw new JsonMismatch(path, value, expected)
      }
      return value as T
    },
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value))
  return quoted.length <= 1 ? (quoted[0] ?? 'nothing') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`
}

/** A string. */
export const string: JsonShape<string> = shape('a string', (value) => typeof value === 'string')

/** A finite number. */
export const number: JsonShape<number> = shape('a number', (value) => typeof value === 'number' && Number.isFinite(value))

/** A number, `NaN` and infinities included (see `nullAsNaN` of `parseJson`). */
export const numberOrNaN: JsonShape<number> = shape('a number or NaN', (value) => typeof value === 'number')

/** A whole number. */
export const integer: JsonShape<number> = shape('an integer', (value) => Number.isSafeInteger(value))

/** A whole number ≥ 0 (a count, a size, an offset). */
export const count: JsonShape<number> = shape('a non-negative integer', (value) => Number.isSafeInteger(value) && (value as number) >= 0)

/** `true` or `false`. */
export const boolean: JsonShape<boolean> = shape('true or false', (value) => typeof value === 'boolean')

/** Any value, present (the code that uses it checks it itself, or only passes it on). */
export const unknown: JsonShape<unknown> = shape('a value', (value) => value !== undefined)

/**
 * One of the given values (strings, numbers, booleans or `null`), e.g. a format tag or an enum.
 * @param values - the values allowed
 */
export function literal<const V extends readonly (string | number | boolean | null)[]>(...values: V): JsonShape<V[number]> {
  return shape(quoteList(values), (value) => values.includes(value as V[number]))
}

/**
 * An array whose every item has a shape.
 * @param item - the items' shape
 */
export function array<T>(item: JsonShape<T>): JsonShape<T[]> {
  return {
    expected: 'an array',
    check(value, path) {
      if (!Array.isArray(value)) {
        throw new JsonMismatch(path, value, 'an array')
      }
      for (let i = 0; i < value.length; i++) {
        path.push(i)
        item.check(value[i], path)
        path.pop()
      }
      return value as T[]
    },
  }
}

/**
 * An array of exactly these items, e.g. `[min, max]`.
 * @param items - the shape of each position
 */
export function tuple<const S extends readonly JsonShape<unknown>[]>(...items: S): JsonShape<{ -readonly [K in keyof S]: JsonShapeType<S[K]> }> {
  const expected = `an array of ${items.length}`
  return {
    expected,
    check(value, path) {
      if (!Array.isArray(value) || value.length !== items.length) {
        throw new JsonMismatch(path, value, expected)
      }
      items.forEach((item, i) => {
        path.push(i)
        item.check(value[i], path)
        path.pop()
      })
      return value as { -readonly [K in keyof S]: JsonShapeType<S[K]> }
    },
  }
}

/**
 * An object used as a map: any keys, every value of one shape.
 * @param item - the values' shape
 */
export function record<T>(item: JsonShape<T>): JsonShape<Record<string, T>> {
  return {
    expected: 'an object',
    check(value, path) {
      if (!isObject(value)) {
        throw new JsonMismatch(path, value, 'an object')
      }
      for (const key in value) {
        path.push(key)
        item.check(value[key], path)
        path.pop()
      }
      return value as Record<string, T>
    },
  }
}

/**
 * An object with these fields (wrap a field's shape in {@link optional} when it may be absent).
 * Other keys are allowed and kept.
 * @param fields - each field's shape
 */
export function object<const F extends JsonFields>(fields: F): JsonShape<JsonObjectOf<F>> {
  const entries = Object.entries(fields)
  return {
    expected: 'an object',
    check(value, path) {
      if (!isObject(value)) {
        throw new JsonMismatch(path, value, 'an object')
      }
      for (const [key, field] of entries) {
        const one = value[key]
        if (one === undefined && field.optional === true) {
          continue
        }
        path.push(key)
        field.check(one, path)
        path.pop()
      }
      return value as JsonObjectOf<F>
    },
  }
}

/**
 * A field of an {@link object} that may be absent.
 * @param inner - its shape when present
 */
export function optional<T>(inner: JsonShape<T>): JsonShape<T | undefined> & { readonly optional: true } {
  return { expected: inner.expected, optional: true, check: (value, path) => (value === undefined ? undefined : inner.check(value, path)) }
}

/**
 * A value of a shape, or `null`.
 * @param inner - its shape when not `null`
 */
export function nullable<T>(inner: JsonShape<T>): JsonShape<T | null> {
  const expected = `${inner.expected} or null`
  return {
    expected,
    check(value, path) {
      if (value === null) {
        return null
      }
      const depth = path.length
      try {
        return inner.check(value, path)
      } catch (error) {
        path.length = depth
        throw error instanceof JsonMismatch && error.depth === depth ? new JsonMismatch(path, value, expected) : error
      }
    },
  }
}

/**
 * A value of any of the shapes (tried in order).
 * @param shapes - the alternatives
 */
export function union<const S extends readonly JsonShape<unknown>[]>(...shapes: S): JsonShape<JsonShapeType<S[number]>> {
  const expected = shapes.map((one) => one.expected).join(' or ')
  return {
    expected,
    check(value, path) {
      const depth = path.length
      for (const one of shapes) {
        try {
          return one.check(value, path) as JsonShapeType<S[number]>
        } catch (error) {
          if (!(error instanceof JsonMismatch)) {
            throw error
          }
          path.length = depth
        }
      }
      throw new JsonMismatch(path, value, expected)
    },
  }
}

/**
 * One of several object shapes, told apart by a tag field (`kind`, `type`): the tag's value
 * picks the shape, so a mismatch names the tag or the field of that shape that does not fit.
 * @param tag - the field that tells the variants apart
 * @param variants - per tag value, the variant's shape (which may check the tag again)
 */
export function tagged<const K extends string, const V extends { readonly [value: string]: JsonShape<unknown> }>(
  tag: K,
  variants: V,
): JsonShape<JsonShapeType<V[keyof V]>> {
  const values = Object.keys(variants)
  const expected = `an object with ${tag} ${quoteList(values)}`
  return {
    expected,
    check(value, path) {
      if (!isObject(value)) {
        throw new JsonMismatch(path, value, expected)
      }
      const which = value[tag]
      const variant = typeof which === 'string' && Object.hasOwn(variants, which) ? variants[which] : undefined
      if (variant === undefined) {
        throw new JsonMismatch([...path, tag], which, quoteList(values))
      }
      return variant.check(value, path) as JsonShapeType<V[keyof V]>
    },
  }
}

/**
 * A value of a shape that also passes a test, e.g. a probability strictly between 0 and 1.
 * @param inner - its shape
 * @param test - the further condition
 * @param expected - what the condition asks, for messages (`a number between 0 and 1`)
 */
export function refine<T>(inner: JsonShape<T>, test: (value: T) => boolean, expected: string): JsonShape<T> {
  return {
    expected,
    check(value, path) {
      const typed = inner.check(value, path)
      if (!test(typed)) {
        throw new JsonMismatch(path, value, expected)
      }
      return typed
    },
  }
}
