import { normalizeText } from '@pubmatch/analysis/internal'
import type { Author } from '@pubmatch/core'

const NON_WORD = /[^\p{L}\p{N}]+/gu

/**
 * The exact-match form of a keyword-field value (and of a query against one): normalised
 * like analyzed text (NFKC, lower case, diacritics folded), every run of characters other
 * than letters and digits replaced by one space, trimmed. `Journal Article` →
 * `journal article`, `J. Biol. Chem.` → `j biol chem`, `Receptors, Tumor Necrosis Factor`
 * → `receptors tumor necrosis factor`. Pure function.
 * @param value - a raw value
 */
export function normalizeKeyword(value: string): string {
  return normalizeText(value).replace(NON_WORD, ' ').trim()
}

/**
 * An author as PubMed's `[au]` tag writes it, `Smith J` / `Smith JA` (last name, space,
 * initials), or the collective name; `undefined` when the record has neither.
 * @param author - the author
 */
export function authorDisplayName(author: Author): string | undefined {
  if (author.collectiveName !== undefined && author.collectiveName !== '') {
    return author.collectiveName
  }
  if (author.lastName === undefined || author.lastName === '') {
    return undefined
  }
  const initials =
    author.initials ??
    (author.foreName ?? '')
      .split(/[\s-]+/)
      .filter((part) => part !== '')
      .map((part) => part[0]!.toUpperCase())
      .join('')
  const suffix = author.suffix === undefined ? '' : ` ${author.suffix}`
  return initials === '' ? `${author.lastName}${suffix}` : `${author.lastName} ${initials}${suffix}`
}
