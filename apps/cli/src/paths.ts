/** Where pubmatch keeps its data unless told otherwise: `./.pubmatch` in the working directory. */
export const DEFAULT_HOME = '.pubmatch'

/** The default corpus directory. */
export const DEFAULT_CORPUS: string = `${DEFAULT_HOME}/corpus`

/** The default index directory. */
export const DEFAULT_INDEX: string = `${DEFAULT_HOME}/index`

/** The default directory of the local SolrCloud (`pubmatch solr up`). */
export const DEFAULT_SOLR_DIR: string = `${DEFAULT_HOME}/solr`
