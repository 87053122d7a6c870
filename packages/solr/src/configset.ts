/**
 * A Solr configset generated from pubmatch's field sets: the schema (the PubMed or test-collection
 * fields, an analysis chain as close to pubmatch's analyzer as Solr's stock filters allow, BM25
 * with k1/b as the one similarity), `solrconfig.xml` (global term statistics across shards, the
 * `bm25f` query parser, commits only when pubmatch asks) and the word lists. Pure: the files are
 * returned as strings; {@link zipConfigset} packs them for Solr's Configsets API.
 */
import { PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { GREEK_LETTER_NAMES } from '@pubmatch/analysis/internal'
import { PubmatchError } from '@pubmatch/core'
import { defaultPubmedFields, testCollectionFields } from '@pubmatch/index'
import { strToU8, zipSync } from 'fflate'
import { FORWARD_FIELD } from './forward.ts'
import { MESH_FIELD, RECORD_FIELD } from './records.ts'

/** Which pubmatch field set the collection holds. */
export type SolrFieldSet = 'pubmed' | 'test-collection'

/** Options of {@link createConfigset}. */
export interface ConfigsetOptions {
  /** The field set. Defaults to `pubmed`. */
  readonly fieldSet?: SolrFieldSet
  /**
   * pubmatch's analyzer name for the text fields: `biomedical` (with `:nostem`/`:nostop`),
   * `whitespace` or `whitespace:stem`. Defaults to `biomedical`.
   */
  readonly analyzer?: string
  /** BM25's k1. Defaults to `1.2` (pubmatch's default first stage). */
  readonly k1?: number
  /** BM25's b. Defaults to `0.75`. */
  readonly b?: number
}

/** The fields of a generated schema, by kind. */
export interface SolrFields {
  /** Analyzed text fields (type `text_pubmatch`), scored by BM25F. */
  readonly text: readonly string[]
  /** Exact-match fields holding `normalizeKeyword` values (type `string`, multi-valued). */
  readonly keyword: readonly string[]
  /** Numeric fields (`year`, `pubdate` as `YYYYMMDD`). */
  readonly numeric: readonly string[]
}

/** A generated configset. */
export interface Configset {
  /** File path inside the configset → contents. */
  readonly files: Readonly<Record<string, string>>
  readonly fields: SolrFields
  readonly options: Required<ConfigsetOptions>
}

/**
 * The numeric fields every collection gets (filters and date searches): `year`, `pubdate`
 * (`[dp]`) and the other dates of PubMed's date tags as the embedded index's doc values of the
 * same names hold them (`PUBMED_DATE_DOC_VALUES`: `[edat]`, `[crdt]`, `[mhda]`, `[dcom]`, `[lr]`,
 * `[ppdat]`, `[epdat]`), sortable `YYYYMMDD`.
 */
export const SOLR_NUMERIC_FIELDS: readonly string[] = ['year', 'pubdate', 'edat', 'crdt', 'mhda', 'dcom', 'lr', 'ppdat', 'epdat']

/** The Solr field of the corpus segment a document came from. */
export const SEGMENT_FIELD = 'pubmatch_segment'

/** The stored field of the collection's state document (see `indexCorpus`). */
export const STATE_FIELD = 'pubmatch_state'

/**
 * The version of what pubmatch writes into a collection (schema and document fields), recorded in
 * the state document; a collection of another version is refused (`readCollectionState`).
 * 1: the first stage's fields. 2: the data of the features (the forward token streams
 * `pubmatch_fwd`, the raw publication types and languages, {@link TIAB_FIELD} and
 * {@link ARTICLE_FIELD}). 3: pubmatch's own index terms of title and abstract
 * ({@link TITLE_TERMS_FIELD}, {@link ABSTRACT_TERMS_FIELD}, and {@link TIAB_FIELD} holding both
 * instead of Solr's analysis of them), the `pubmatch` rank query and the `[pubmatch]`
 * transformer; and what serving reads without a local index (the stored record
 * `pubmatch_record`, the MeSH vocabulary document; `records.ts`). 4: past usage (F2–F3) as numeric
 * doc values updated in place ({@link USAGE_FIELDS}, `usage.ts`). 5: every PubMed field tag (the
 * tag-only fields of `defaultPubmedFields`: affiliations, grants, volume, issue, pagination,
 * filters, …, and the date fields of {@link SOLR_NUMERIC_FIELDS}).
 */
export const SOLR_SCHEMA_VERSION = 5

/**
 * Sorted-set doc values (not indexed, not stored) of the values the features read, exactly as the
 * embedded index's doc values of the same name hold them (raw, without `normalizeKeyword`):
 * `pubtype` → `pubmatch_pubtype`, `language` → `pubmatch_language`.
 */
export const FEATURE_DOC_VALUES: Readonly<Record<string, string>> = Object.freeze({
  pubtype: 'pubmatch_pubtype',
  language: 'pubmatch_language',
})

/**
 * Past usage of each article (Best Match F2–F3): numeric doc values, neither indexed nor stored, so
 * that Solr updates them in place (`update.partial.requireInPlace`) without re-indexing the
 * article. Every article is indexed with 0; `pushUsage` (`usage.ts`) writes a click log's counts.
 */
export const USAGE_FIELDS: { readonly abstractClicks: 'pubmatch_usage_abstract'; readonly fullTextRequests: 'pubmatch_usage_fulltext' } = Object.freeze({
  abstractClicks: 'pubmatch_usage_abstract',
  fullTextRequests: 'pubmatch_usage_fulltext',
} as const)

/**
 * An indexed-only field (multi-valued strings, documents only) holding pubmatch's index terms of
 * `title` and `abstract` together, exactly the embedded index's (see {@link TITLE_TERMS_FIELD}):
 * its document frequency of a term is the number of documents holding the term in the title or
 * the abstract (the embedded `docFreqAny`).
 */
export const TIAB_FIELD = 'pubmatch_tiab'

/**
 * An indexed-only field (multi-valued strings, documents only) holding pubmatch's index terms of
 * `title`: every term the collection's analyzer gives the embedded index's `title` field, joined
 * compound forms included, each once. Its document frequency of a term is the embedded
 * `docFreq('title', term)`, which Solr's analysis of `title` only approximates.
 */
export const TITLE_TERMS_FIELD = 'pubmatch_ti_terms'

/** As {@link TITLE_TERMS_FIELD}, for `abstract`. */
export const ABSTRACT_TERMS_FIELD = 'pubmatch_ab_terms'

/**
 * An indexed-only field with the one term `1` in every article document (not in the state
 * document): its collection statistics' `docCount` is the number of articles.
 */
export const ARTICLE_FIELD = 'pubmatch_article'

/**
 * The fields of a field set, from `@pubmatch/index`'s definitions.
 * @param fieldSet - the field set
 */
export function solrFields(fieldSet: SolrFieldSet): SolrFields {
  const fields = fieldSet === 'pubmed' ? defaultPubmedFields() : testCollectionFields()
  return {
    text: fields.filter((f) => f.keyword !== true).map((f) => f.name),
    keyword: fields.filter((f) => f.keyword === true).map((f) => f.name),
    numeric: SOLR_NUMERIC_FIELDS,
  }
}

/**
 * Generates a configset.
 * @param options - see {@link ConfigsetOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for an analyzer Solr cannot approximate or a bad k1/b
 */
export function createConfigset(options: ConfigsetOptions = {}): Configset {
  const resolved: Required<ConfigsetOptions> = {
    fieldSet: options.fieldSet ?? 'pubmed',
    analyzer: options.analyzer ?? 'biomedical',
    k1: options.k1 ?? 1.2,
    b: options.b ?? 0.75,
  }
  if (!(resolved.k1 >= 0) || !Number.isFinite(resolved.k1) || !(resolved.b >= 0 && resolved.b <= 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `BM25 needs k1 ≥ 0 and 0 ≤ b ≤ 1, got k1 ${resolved.k1} and b ${resolved.b}`)
  }
  const fields = solrFields(resolved.fieldSet)
  const chain = analysisChain(resolved.analyzer)
  const files: Record<string, string> = {
    'schema.xml': schemaXml(resolved, fields, chain),
    'solrconfig.xml': SOLRCONFIG_XML,
    'stopwords_pubmed.txt': `# PubMed's stop words (@pubmatch/analysis PUBMED_STOPWORDS)\n${[...PUBMED_STOPWORDS].sort().join('\n')}\n`,
    'mapping-greek.txt': greekMapping(),
  }
  return { files, fields, options: resolved }
}

/**
 * Packs a configset as the zip file Solr's Configsets API takes (`admin/configs?action=UPLOAD`).
 * @param configset - a generated configset
 */
export function zipConfigset(configset: Configset): Uint8Array {
  const entries: Record<string, Uint8Array> = {}
  for (const [path, text] of Object.entries(configset.files)) {
    entries[path] = strToU8(text)
  }
  // a fixed time stamp, so that the same configset always zips to the same bytes
  return zipSync(entries, { mtime: new Date('2020-01-01T00:00:00Z') })
}

interface Chain {
  readonly index: string
  readonly query: string
}

/**
 * The Solr analysis chain nearest to a pubmatch analyzer. `biomedical`: Greek letters spelled
 * out as a separate part (`TNFα` → `TNF-alpha`), split at white space, then at every
 * non-alphanumeric character and where letters meet digits (`COX-2`, `cox2` → `cox` `2`), the
 * joined form kept at index time only (`cox2`, as pubmatch's `joinCompounds`; queries search the
 * parts, as `joinedForms: false`), diacritics folded, lower-cased, PubMed stop words, Porter2
 * (Snowball `English`). `whitespace`: white space only, no lower-casing.
 */
function analysisChain(analyzer: string): Chain {
  const [base, ...flags] = analyzer.split(':')
  if (base === 'whitespace') {
    const stem = flags.includes('stem') ? '\n      <filter class="solr.SnowballPorterFilterFactory" language="English"/>' : ''
    if (flags.some((flag) => flag !== 'stem')) {
      throw unsupported(analyzer)
    }
    const body = `\n      <tokenizer class="solr.WhitespaceTokenizerFactory"/>${stem}\n    `
    return { index: body, query: body }
  }
  if (base !== 'biomedical' || flags.some((flag) => flag !== 'nostem' && flag !== 'nostop')) {
    throw unsupported(analyzer)
  }
  const stop = flags.includes('nostop')
    ? ''
    : '\n      <filter class="solr.StopFilterFactory" ignoreCase="true" words="stopwords_pubmed.txt"/>'
  const stem = flags.includes('nostem') ? '' : '\n      <filter class="solr.SnowballPorterFilterFactory" language="English"/>'
  const common = (catenate: 0 | 1): string =>
    `\n      <charFilter class="solr.MappingCharFilterFactory" mapping="mapping-greek.txt"/>` +
    `\n      <tokenizer class="solr.WhitespaceTokenizerFactory"/>` +
    `\n      <filter class="solr.WordDelimiterGraphFilterFactory" generateWordParts="1" generateNumberParts="1" ` +
    `splitOnCaseChange="0" splitOnNumerics="1" stemEnglishPossessive="1" preserveOriginal="0" ` +
    `catenateWords="${catenate}" catenateNumbers="${catenate}" catenateAll="${catenate}"/>` +
    (catenate === 1 ? '\n      <filter class="solr.FlattenGraphFilterFactory"/>' : '') +
    `\n      <filter class="solr.ASCIIFoldingFilterFactory"/>` +
    `\n      <filter class="solr.LowerCaseFilterFactory"/>` +
    stop +
    stem +
    '\n    '
  return { index: common(1), query: common(0) }
}

function unsupported(analyzer: string): PubmatchError {
  return new PubmatchError(
    'INVALID_ARGUMENT',
    `no Solr analysis chain for the analyzer "${analyzer}" (supported: biomedical, biomedical:nostem, biomedical:nostop, biomedical:nostem:nostop, whitespace, whitespace:stem)`,
    { details: { analyzer } },
  )
}

/** Greek letters (both cases, final sigma, micro sign) → `-name-`, so the letter is a part of its own. */
function greekMapping(): string {
  const lines = ['# Greek letters spelled out as parts of their own (pubmatch greekFilter)']
  const lower = 0x3b1
  const upper = 0x391
  GREEK_LETTER_NAMES.forEach((name, i) => {
    // the Greek block skips U+03A2 (no capital final sigma): letters after sigma are one further
    const offset = i >= 17 ? i + 1 : i
    lines.push(`"${String.fromCodePoint(lower + offset)}" => "-${name}-"`)
    lines.push(`"${String.fromCodePoint(upper + offset)}" => "-${name}-"`)
  })
  lines.push('"\u03c2" => "-sigma-"', '"\u00b5" => "-mu-"')
  return `${lines.join('\n')}\n`
}

function schemaXml(options: Required<ConfigsetOptions>, fields: SolrFields, chain: Chain): string {
  const text = fields.text
    .map((name) => `  <field name="${name}" type="text_pubmatch" indexed="true" stored="false" multiValued="true"/>`)
    .join('\n')
  const keyword = fields.keyword
    .map((name) => `  <field name="${name}" type="string" indexed="true" stored="false" docValues="false" multiValued="true"/>`)
    .join('\n')
  const numeric = fields.numeric.map((name) => `  <field name="${name}" type="pint" indexed="true" stored="true" docValues="true"/>`).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by @pubmatch/solr createConfigset(${JSON.stringify(options)}); do not edit by hand. -->
<schema name="pubmatch-${options.fieldSet}" version="1.7">
  <uniqueKey>id</uniqueKey>
  <similarity class="solr.BM25SimilarityFactory">
    <float name="k1">${options.k1}</float>
    <float name="b">${options.b}</float>
  </similarity>

  <fieldType name="string" class="solr.StrField" sortMissingLast="true"/>
  <fieldType name="binary" class="solr.BinaryField"/>
  <fieldType name="pint" class="solr.IntPointField" docValues="true"/>
  <fieldType name="plong" class="solr.LongPointField" docValues="true"/>
  <fieldType name="text_pubmatch" class="solr.TextField" positionIncrementGap="100">
    <analyzer type="index">${chain.index}</analyzer>
    <analyzer type="query">${chain.query}</analyzer>
  </fieldType>

  <field name="id" type="string" indexed="true" stored="true" required="true" docValues="true"/>
  <field name="_version_" type="plong" indexed="false" stored="false"/>
  <field name="_root_" type="string" indexed="true" stored="false" docValues="false"/>
  <field name="${SEGMENT_FIELD}" type="string" indexed="true" stored="true" docValues="true"/>
  <field name="${STATE_FIELD}" type="string" indexed="false" stored="true" docValues="false"/>
${text}
${keyword}
${numeric}

  <!-- what the features read on the shards (schema version ${SOLR_SCHEMA_VERSION}) -->
  <field name="${FORWARD_FIELD}" type="binary" indexed="false" stored="false" docValues="true"/>
${Object.values(FEATURE_DOC_VALUES)
  .map((name) => `  <field name="${name}" type="string" indexed="false" stored="false" docValues="true" multiValued="true"/>`)
  .join('\n')}
  <field name="${ARTICLE_FIELD}" type="string" indexed="true" stored="false" docValues="false" omitNorms="true" omitTermFreqAndPositions="true"/>
${Object.values(USAGE_FIELDS)
  .map((name) => `  <field name="${name}" type="plong" indexed="false" stored="false" docValues="true"/>`)
  .join('\n')}
${[TIAB_FIELD, TITLE_TERMS_FIELD, ABSTRACT_TERMS_FIELD]
  .map((name) => `  <field name="${name}" type="string" indexed="true" stored="false" docValues="false" multiValued="true" omitNorms="true" omitTermFreqAndPositions="true"/>`)
  .join('\n')}

  <!-- what serving reads without a local index: the stored record, the MeSH vocabulary (records.ts) -->
  <field name="${RECORD_FIELD}" type="string" indexed="false" stored="true" docValues="false"/>
  <field name="${MESH_FIELD}" type="string" indexed="false" stored="true" docValues="false"/>
</schema>
`
}

const SOLRCONFIG_XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by @pubmatch/solr; do not edit by hand. -->
<config>
  <luceneMatchVersion>9.12</luceneMatchVersion>
  <dataDir>\${solr.data.dir:}</dataDir>
  <directoryFactory name="DirectoryFactory" class="\${solr.directoryFactory:solr.NRTCachingDirectoryFactory}"/>
  <schemaFactory class="ClassicIndexSchemaFactory"/>
  <indexConfig>
    <lockType>\${solr.lock.type:native}</lockType>
    <ramBufferSizeMB>128</ramBufferSizeMB>
  </indexConfig>

  <!-- term statistics of the main query summed over all shards, so that a document's score does
       not depend on the shard that holds it -->
  <statsCache class="org.apache.solr.search.stats.ExactStatsCache"/>

  <!-- documents become visible only at pubmatch's explicit commit after a whole corpus segment;
       hard commits for durability do not open a searcher -->
  <updateHandler class="solr.DirectUpdateHandler2">
    <updateLog>
      <str name="dir">\${solr.ulog.dir:}</str>
    </updateLog>
    <autoCommit>
      <maxTime>\${pubmatch.autoCommit.maxTime:60000}</maxTime>
      <openSearcher>false</openSearcher>
    </autoCommit>
    <autoSoftCommit>
      <maxTime>-1</maxTime>
    </autoSoftCommit>
  </updateHandler>

  <query>
    <maxBooleanClauses>\${solr.max.booleanClauses:4096}</maxBooleanClauses>
    <filterCache size="512" initialSize="512" autowarmCount="0"/>
    <queryResultCache size="512" initialSize="512" autowarmCount="0"/>
    <documentCache size="512" initialSize="512" autowarmCount="0"/>
    <enableLazyFieldLoading>true</enableLazyFieldLoading>
    <queryResultWindowSize>20</queryResultWindowSize>
    <useColdSearcher>false</useColdSearcher>
  </query>

  <requestDispatcher>
    <requestParsers enableRemoteStreaming="false" multipartUploadLimitInKB="-1" formdataUploadLimitInKB="-1"/>
  </requestDispatcher>

  <requestHandler name="/select" class="solr.SearchHandler">
    <lst name="defaults">
      <str name="echoParams">none</str>
      <int name="rows">10</int>
      <str name="wt">json</str>
    </lst>
  </requestHandler>

  <!-- Best Match's first stage: BM25F over weighted fields (Lucene's CombinedFieldQuery) -->
  <queryParser name="bm25f" class="org.pubmatch.solr.Bm25fQParserPlugin"/>

  <!-- Best Match's second stage on the shards: rq={!pubmatch model=NAME total=N}, and the
       [pubmatch] transformer (each hit's features) -->
  <queryParser name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchRerankQParserPlugin"/>
  <transformer name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchFeaturesTransformerFactory"/>

  <!-- pubmatch models of the collection in ZooKeeper: deploy, list, remove, load on a shard -->
  <requestHandler name="/pubmatch/models" class="org.pubmatch.solr.models.ModelHandler"/>
</config>
`
