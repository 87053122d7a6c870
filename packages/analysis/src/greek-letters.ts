/**
 * The 24 Greek letter names in alphabet order, as spelled in biomedical English (`α` → `alpha`,
 * `μ` → `mu`, `ο` → `omicron`).
 */
export const GREEK_LETTER_NAMES: readonly string[] = Object.freeze([
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'omicron',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
  'phi',
  'chi',
  'psi',
  'omega',
])

/** Spelled-out letter names, for the tokenizer's compound rules. */
export const GREEK_NAME_SET: ReadonlySet<string> = new Set(GREEK_LETTER_NAMES)

/** U+00B5 MICRO SIGN; NFKC maps it to U+03BC GREEK SMALL LETTER MU. */
export const MICRO_SIGN = 0x00b5
/** U+03BC GREEK SMALL LETTER MU. */
export const SMALL_MU = 0x03bc

/**
 * Units written with the micro prefix (`μg`, `μl`, `μm`, `μM`, `μmol`, `μs`, `μV`, `μA`, `μW`),
 * lower-cased. `μ` followed by one of these is the prefix `u` (as in ASCII `ug`, `ul`), not `mu`.
 */
export const MICRO_UNITS: ReadonlySet<string> = new Set(['g', 'l', 'm', 'mol', 's', 'v', 'a', 'w'])

function buildNames(): Map<number, string> {
  const names = new Map<number, string>()
  // Capitals U+0391–U+03A9 and small letters U+03B1–U+03C9 share one order; U+03A2 is unassigned
  // and its small twin U+03C2 is the final sigma.
  let index = 0
  for (let code = 0x03b1; code <= 0x03c9; code++) {
    const name = code === 0x03c2 ? 'sigma' : GREEK_LETTER_NAMES[index++]!
    names.set(code, name)
    if (code !== 0x03c2) {
      names.set(code - 0x20, name)
    }
  }
  // Symbol variants (NFKC maps them to the letters, but the filter may run without it).
  const variants: readonly (readonly [number, string])[] = [
    [MICRO_SIGN, 'mu'],
    [0x03d0, 'beta'], // ϐ
    [0x03d1, 'theta'], // ϑ
    [0x03d5, 'phi'], // ϕ
    [0x03d6, 'pi'], // ϖ
    [0x03f0, 'kappa'], // ϰ
    [0x03f1, 'rho'], // ϱ
    [0x03f2, 'sigma'], // ϲ lunate sigma
    [0x03f5, 'epsilon'], // ϵ
  ]
  for (const [code, name] of variants) {
    names.set(code, name)
  }
  return names
}

/** Greek letter (and symbol variant) code unit → spelled-out name. */
export const GREEK_NAME_BY_CODE: ReadonlyMap<number, string> = buildNames()
