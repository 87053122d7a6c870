import {
  PubmatchError,
  type MeshDescriptor,
  type MeshQualifierRecord,
  type MeshSupplementaryRecord,
} from '@pubmatch/core'
import type { MeshEntry } from '../records.ts'
import {
  attribute,
  childElement,
  childElements,
  childPath,
  childText,
  textContent,
  type XmlElement,
} from '../xml/tree.ts'

/** Where a record comes from, for messages. */
export interface MeshRecordContext {
  /** The file. Defaults to `<input>`. */
  file?: string
  /** The record's name, `#<ordinal>`. Defaults to `#1`. */
  record?: string
}

/** The MeSH record elements and the root that holds each. */
export const MESH_RECORD_ROOTS: Readonly<Record<string, string>> = {
  DescriptorRecordSet: 'DescriptorRecord',
  QualifierRecordSet: 'QualifierRecord',
  SupplementalRecordSet: 'SupplementalRecord',
}

function missing(element: XmlElement, field: string, context: MeshRecordContext): PubmatchError {
  const file = context.file ?? '<input>'
  const record = context.record ?? '#1'
  return new PubmatchError(
    'MISSING_FIELD',
    `${file} record ${record}: <${element.name}> has no ${field}`,
    {
      details: { file, record },
    },
  )
}

/**
 * A record's UI (`DescriptorUI`…) and the `String` of its name element (`DescriptorName`…).
 * @throws PubmatchError `MISSING_FIELD` when either is missing or empty
 */
function uiAndName(
  element: XmlElement,
  uiField: string,
  nameField: string,
  context: MeshRecordContext,
): { ui: string; name: string } {
  const ui = childText(element, uiField)
  if (ui === undefined) {
    throw missing(element, uiField, context)
  }
  const name = textContent(childPath(element, nameField, 'String'))
  if (name === '') {
    throw missing(element, nameField, context)
  }
  return { ui, name }
}

function concepts(record: XmlElement): XmlElement[] {
  return childElements(childElement(record, 'ConceptList'), 'Concept')
}

/** Every term string of every concept, the record's preferred name first, without duplicates. */
function entryTerms(record: XmlElement, name: string): string[] {
  const terms = new Set<string>([name])
  for (const concept of concepts(record)) {
    for (const term of childElements(childElement(concept, 'TermList'), 'Term')) {
      const text = childText(term, 'String')
      if (text !== undefined) {
        terms.add(text)
      }
    }
  }
  return [...terms]
}

function treeNumbers(record: XmlElement): string[] {
  return childElements(childElement(record, 'TreeNumberList'), 'TreeNumber')
    .map((e) => textContent(e))
    .filter((t) => t !== '')
}

/** A descriptor/qualifier UI as written in a mapping, without the `*` that marks a starred (major) mapping. */
function bareUi(text: string): string {
  return text.replace(/^\*/, '').trim()
}

/**
 * Reads a `DescriptorRecord`: UI, name, tree numbers, allowable qualifier UIs, every entry
 * term of every concept (permuted terms included; the preferred name first) and the scope
 * note of the preferred concept (whitespace collapsed).
 * @param element - the DescriptorRecord element
 * @param context - file and record names for messages
 * @throws PubmatchError `MISSING_FIELD` without a DescriptorUI or DescriptorName
 */
export function meshDescriptorFromElement(
  element: XmlElement,
  context: MeshRecordContext = {},
): MeshDescriptor {
  const { ui, name } = uiAndName(element, 'DescriptorUI', 'DescriptorName', context)
  const descriptor: MeshDescriptor = {
    ui,
    name,
    treeNumbers: treeNumbers(element),
    entryTerms: entryTerms(element, name),
    allowableQualifiers: childElements(
      childElement(element, 'AllowableQualifiersList'),
      'AllowableQualifier',
    )
      .map((q) => bareUi(textContent(childPath(q, 'QualifierReferredTo', 'QualifierUI'))))
      .filter((q) => q !== ''),
  }
  const preferred = concepts(element).find((c) => attribute(c, 'PreferredConceptYN') === 'Y')
  const scopeNote = childText(preferred, 'ScopeNote')
  if (scopeNote !== undefined) {
    descriptor.scopeNote = scopeNote
  }
  return descriptor
}

/**
 * Reads a `QualifierRecord`: UI, name, tree numbers and the two-letter abbreviation (from the
 * record-preferred term, e.g. `AB` for abnormalities).
 * @param element - the QualifierRecord element
 * @param context - file and record names for messages
 * @throws PubmatchError `MISSING_FIELD` without a QualifierUI or QualifierName
 */
export function meshQualifierFromElement(
  element: XmlElement,
  context: MeshRecordContext = {},
): MeshQualifierRecord {
  const { ui, name } = uiAndName(element, 'QualifierUI', 'QualifierName', context)
  const qualifier: MeshQualifierRecord = { ui, name, treeNumbers: treeNumbers(element) }
  const terms = concepts(element).flatMap((c) => childElements(childElement(c, 'TermList'), 'Term'))
  const preferred = terms.find((t) => attribute(t, 'RecordPreferredTermYN') === 'Y') ?? terms[0]
  const abbreviation =
    childText(preferred, 'Abbreviation') ??
    terms.map((t) => childText(t, 'Abbreviation')).find((a) => a !== undefined)
  if (abbreviation !== undefined) {
    qualifier.abbreviation = abbreviation
  }
  return qualifier
}

/**
 * Reads a `SupplementalRecord` (SCR): UI, name, entry terms, and the descriptor UIs of its
 * `HeadingMappedToList` (the `*` of starred mappings removed).
 * @param element - the SupplementalRecord element
 * @param context - file and record names for messages
 * @throws PubmatchError `MISSING_FIELD` without a SupplementalRecordUI or name
 */
export function meshSupplementaryFromElement(
  element: XmlElement,
  context: MeshRecordContext = {},
): MeshSupplementaryRecord {
  const { ui, name } = uiAndName(element, 'SupplementalRecordUI', 'SupplementalRecordName', context)
  const mappedTo = new Set<string>()
  for (const heading of childElements(
    childElement(element, 'HeadingMappedToList'),
    'HeadingMappedTo',
  )) {
    const descriptorUi = bareUi(
      textContent(childPath(heading, 'DescriptorReferredTo', 'DescriptorUI')),
    )
    if (descriptorUi !== '') {
      mappedTo.add(descriptorUi)
    }
  }
  return { ui, name, entryTerms: entryTerms(element, name), mappedTo: [...mappedTo] }
}

/**
 * Converts one MeSH record element into a tagged {@link MeshEntry}.
 * @param element - a DescriptorRecord, QualifierRecord or SupplementalRecord
 * @param context - file and record names for messages
 * @throws PubmatchError `MISSING_FIELD` (see the readers above), `UNSUPPORTED_FORMAT` for another element
 */
export function meshEntryFromElement(
  element: XmlElement,
  context: MeshRecordContext = {},
): MeshEntry {
  switch (element.name) {
    case 'DescriptorRecord':
      return { type: 'descriptor', record: meshDescriptorFromElement(element, context) }
    case 'QualifierRecord':
      return { type: 'qualifier', record: meshQualifierFromElement(element, context) }
    case 'SupplementalRecord':
      return { type: 'supplementary', record: meshSupplementaryFromElement(element, context) }
    default: {
      const file = context.file ?? '<input>'
      const record = context.record ?? '#1'
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file} record ${record}: <${element.name}> is not a MeSH record`,
        { details: { file, record } },
      )
    }
  }
}
