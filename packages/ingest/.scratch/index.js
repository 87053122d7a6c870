// @pubmatch/ingest — public API. Everything turns NCBI data (and plain test collections)
// into the article model of @pubmatch/core and stores it in a corpus directory.
// PubMed / MEDLINE XML (streaming) and MEDLINE text
export { parsePubmedXmlString, readPubmedXml } from "./pubmed/reader.js";
export { parseMedlineDate } from "./pubmed/dates.js";
export { readMedlineText } from "./collections/medline-text.js";
// PMC BioC full texts
export { parseBiocJson, parseBiocXml, readBiocFile } from "./bioc/read-bioc.js";
export { normaliseSectionType, SECTION_TYPE_MAP } from "./bioc/section-types.js";
export { normalisePmcid } from "./bioc/to-fulltext.js";
// PMC JATS full texts (.nxml, EFetch db=pmc), read as the BioC converter would
export { parseJatsXml, readJatsXml } from "./jats/reader.js";
export { classifySection, JATS_SEC_TYPES, JATS_TITLE_RULES, sectionTypeOfSecType, sectionTypeOfTitle, } from "./jats/section-rules.js";
// MeSH
export { parseMeshXmlString, readMeshXml } from "./mesh/reader.js";
export { createMeshVocabulary, normaliseMeshTerm } from "./mesh/vocabulary.js";
// Plain test collections and queries
export { readNfcorpusDocs } from "./collections/nfcorpus.js";
export { readJsonlArticles } from "./collections/jsonl.js";
export { readQueries, readTrecTopics } from "./collections/queries.js";
// Safe XML limits (shared by every XML reader)
export { DEFAULT_ENTITY_LIMITS } from "./xml/entities.js";
// NCBI E-utilities client
export { createEntrezClient, DEFAULT_EUTILS_BASE_URL } from "./entrez/client.js";
export { systemClock } from "./entrez/clock.js";
export { createRateLimiter, defaultRequestsPerSecond } from "./entrez/rate-limiter.js";
export { createResponseCache } from "./entrez/response-cache.js";
export { summaryText } from "./entrez/parse-esummary.js";
// Corpus store
export { openCorpus, MANIFEST_FILE } from "./store/corpus-store.js";
// Ingestion pipeline
export { detectFormat, detectFromText, INPUT_FORMATS } from "./pipeline/detect-format.js";
export { ingestFiles, ingestOutcome } from "./pipeline/ingest-files.js";
export { defaultReaders } from "./pipeline/readers.js";
export { ingestEntrez } from "./pipeline/ingest-entrez.js";
