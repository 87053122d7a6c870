/**
 * The `json` namespace of `@pubmatch/core`: the shapes of JSON values by name (`json.object`,
 * `json.string`, …), without the machinery behind them (`shapes.ts`).
 */
export {
  array,
  boolean,
  count,
  integer,
  literal,
  nullable,
  number,
  numberOrNaN,
  object,
  optional,
  record,
  refine,
  string,
  tagged,
  tuple,
  union,
  unknown,
} from './shapes.ts'
