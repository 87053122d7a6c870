/** The MeSH vocabulary: descriptors with their entry terms and tree numbers. */

/** One MeSH descriptor record. */
export interface MeshDescriptor {
  /** `D000001`. */
  ui: string
  name: string
  /** Tree numbers such as `C04.557.337`, used for explosion. */
  treeNumbers: string[]
  /** Every term that maps to this descriptor, the preferred one included. */
  entryTerms: string[]
  /** Qualifier UIs allowed with this descriptor. */
  allowableQualifiers: string[]
  scopeNote?: string
}

/** A MeSH qualifier (subheading) record. */
export interface MeshQualifierRecord {
  ui: string
  name: string
  abbreviation?: string
  treeNumbers: string[]
}

/** A supplementary concept record with the descriptors it is mapped to. */
export interface MeshSupplementaryRecord {
  ui: string
  name: string
  entryTerms: string[]
  /** Descriptor UIs from `HeadingMappedToList`. */
  mappedTo: string[]
}
