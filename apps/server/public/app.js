// @ts-check
/**
 * pubmatch's search page. Its state (query, page, filters, sort) lives in the URL; it calls the JSON
 * API (`search`, `articles/:pmid/explain`, `events`) and builds the DOM from the answers. No framework,
 * no build step; text from the server only ever goes into text nodes.
 */

const PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100
/** How deep a ranking may be paged (the API refuses pages beyond it). */
const RESULT_WINDOW = 10_000
const SESSION_KEY = 'pubmatch.session'
const YEAR = /^\d{4}$/
/** Feature contributions shown in the explain panel. */
const TOP_CONTRIBUTIONS = 15

/**
 * @typedef {{ q: string, page: number, size: number, sort: 'relevance' | 'date', from: string, to: string,
 *   pt: string[], lang: string, rerank: string }} State - years, language and rerank are '' when unset
 * @typedef {{ text: string, matches: [number, number][] }} Highlighted - `[start, end)` UTF-16 offsets
 * @typedef {{ label: string, value: number, formula?: string, details: Explanation[] }} Explanation
 * @typedef {{ feature: string, name?: string, value: number, contribution: number }} Contribution
 * @typedef {{ feature: string, value: number, range: [number, number] }} Fallback
 * @typedef {{ pmid: string, rank: number, score: number, title: Highlighted, snippet: Highlighted, journal?: string,
 *   year?: number, authors: string[], authorCount: number, pubTypes: string[], pmcid?: string, doi?: string,
 *   firstStage: { score: number, rank?: number } }} Hit
 * @typedef {{ total: number, totalRelation: 'eq' | 'gte', sort: string, reranked: boolean, fallback?: Fallback,
 *   model?: string, searchId?: string, results: Hit[], warnings: { code: string, message: string }[],
 *   citationMatch?: { pmid: string, form: string, matched: Record<string, string> },
 *   searchDetails?: { query: string, mappings: { text: string, kind: string, to: string[] }[] }, tookMs: number }} SearchResponse
 * @typedef {{ query: string, matches: boolean, firstStage?: { rank?: number, score: number, explain?: Explanation },
 *   secondStage?: { rank: number, score: number, bias: number, contributions: Contribution[] },
 *   fallback?: Fallback, document: { title: string } }} ExplainResponse
 */

/** An error answer of the API (`{ code, message }`), or a failure to reach it. */
class ApiError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message)
    this.code = code
  }
}

/** @type {<T extends HTMLElement = HTMLElement>(id: string) => T} */
const byId = (id) => /** @type {any} */ (document.getElementById(id))
/** @type {HTMLFormElement} */ const form = byId('search-form')
/** @type {HTMLInputElement} */ const queryInput = byId('q')
/** @type {HTMLInputElement} */ const yearFrom = byId('year-from')
/** @type {HTMLInputElement} */ const yearTo = byId('year-to')
/** @type {HTMLSelectElement} */ const langSelect = byId('lang')
/** @type {HTMLSelectElement} */ const sortSelect = byId('sort')
/** @type {HTMLDialogElement} */ const dialog = byId('explain')
const resultsSection = byId('results')
const resultList = byId('result-list')
const pager = byId('pager')
const explainBody = byId('explain-body')

const session = sessionId()
/** The state whose search runs or was shown last. */
let current = stateFromUrl(location.href)
/** What the result list shows: its search's log id, its query, its hits by PMID. */
let shown = { searchId: /** @type {string | undefined} */ (undefined), q: '', hits: /** @type {Map<string, Hit>} */ (new Map()) }
/** @type {AbortController | undefined} */
let searching
let explainToken = 0
/** @type {HTMLElement | undefined} */
let explainOpener

// ---- helpers ----

/**
 * Creates an element. Attributes that are `false`, `null` or `undefined` are left out; `true` is empty.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children - falsy ones are skipped
 */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, value === true ? '' : String(value))
    }
  }
  element.append(...children.filter(present))
  return element
}

/** @type {<T>(value: T | null | undefined | false | '') => value is T} */
const present = (value) => value !== null && value !== undefined && value !== false && value !== ''

/**
 * Appends text to an element with its matches wrapped in `<mark>`.
 * @param {HTMLElement} parent
 * @param {Highlighted} highlighted
 */
function appendMarked(parent, { text, matches }) {
  let at = 0
  for (const [start, end] of [...matches].sort((a, b) => a[0] - b[0])) {
    const from = Math.max(start, at)
    const to = Math.min(end, text.length)
    if (to > from) {
      parent.append(text.slice(at, from), h('mark', {}, text.slice(from, to)))
      at = to
    }
  }
  parent.append(text.slice(at))
  return parent
}

/** A score or feature value: four decimals, an exponent for very large or small ones. @param {number} n */
function formatNumber(n) {
  const size = Math.abs(n)
  return Number.isInteger(n) ? String(n) : size >= 1e5 || size < 1e-4 ? n.toExponential(3) : n.toFixed(4)
}

/** @param {number} n */
const formatCount = (n) => n.toLocaleString('en-US')

/** The tab's session id: 16 random bytes in base64url, kept in sessionStorage. */
function sessionId() {
  try {
    const saved = sessionStorage.getItem(SESSION_KEY)
    if (saved !== null && /^[A-Za-z0-9_-]{8,64}$/.test(saved)) {
      return saved
    }
  } catch {
    // storage is blocked: a new id for this page
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const id = btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
  try {
    sessionStorage.setItem(SESSION_KEY, id)
  } catch {
    // kept for this page only
  }
  return id
}

/**
 * Fetches JSON from the API; an error answer is thrown as an {@link ApiError}.
 * @param {string} path - relative to the page
 * @param {AbortSignal} [signal]
 */
async function api(path, signal) {
  let response
  try {
    response = await fetch(path, { headers: { accept: 'application/json' }, signal })
  } catch (error) {
    throw signal?.aborted === true ? error : new ApiError('NETWORK', 'The server could not be reached.')
  }
  const body = await response.json().catch(() => undefined)
  if (!response.ok) {
    throw new ApiError(body?.code ?? `HTTP_${response.status}`, body?.message ?? `${response.status} ${response.statusText}`)
  }
  return body
}

/** @param {unknown} error */
const asApiError = (error) => (error instanceof ApiError ? error : new ApiError('INTERNAL', String(error)))

// ---- state and URLs ----

/**
 * Reads a state from a URL's query string; anything invalid falls back to its default.
 * @param {string} href
 * @returns {State}
 */
function stateFromUrl(href) {
  const params = new URL(href).searchParams
  /** @type {(name: string, fallback: number, max: number) => number} */
  const integer = (name, fallback, max) => {
    const n = Number(params.get(name) ?? fallback)
    return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback
  }
  /** @type {(name: string) => string} */
  const year = (name) => (YEAR.test(params.get(name) ?? '') ? String(params.get(name)) : '')
  const rerank = params.get('rerank') ?? ''
  return {
    q: (params.get('q') ?? '').trim(),
    page: integer('page', 1, RESULT_WINDOW),
    size: integer('size', PAGE_SIZE, MAX_PAGE_SIZE),
    sort: params.get('sort') === 'date' ? 'date' : 'relevance',
    ...orderedYears(year('from'), year('to')),
    pt: params.getAll('pt').filter((pt) => pt !== ''),
    lang: params.get('lang') ?? '',
    rerank: rerank === 'true' || rerank === 'false' ? rerank : '',
  }
}

/** A year range with its bounds in order. @param {string} from @param {string} to */
function orderedYears(from, to) {
  return from !== '' && to !== '' && Number(from) > Number(to) ? { from: to, to: from } : { from, to }
}

/** The page's own URL for a state, defaults left out. @param {State} state */
function pageUrl(state) {
  if (state.q === '') {
    return './'
  }
  const params = new URLSearchParams({ q: state.q })
  const defaults = { page: 1, size: PAGE_SIZE, sort: 'relevance', from: '', to: '', lang: '', rerank: '' }
  for (const [name, fallback] of Object.entries(defaults)) {
    const value = state[/** @type {keyof typeof defaults} */ (name)]
    if (value !== fallback) {
      params.set(name, String(value))
    }
  }
  state.pt.forEach((pt) => params.append('pt', pt))
  return `?${params}`
}

/** The API request for a state's page of results (with the session, so that it is logged). @param {State} state */
function searchUrl(state) {
  const params = new URLSearchParams({ q: state.q, page: String(state.page), size: String(state.size), sort: state.sort })
  if (state.from !== '' || state.to !== '') {
    params.set('year', `${state.from || '0000'}:${state.to || '9999'}`)
  }
  state.pt.forEach((pt) => params.append('pt', pt))
  for (const name of /** @type {const} */ (['lang', 'rerank'])) {
    if (state[name] !== '') {
      params.set(name, state[name])
    }
  }
  params.set('session', session)
  return `search?${params}`
}

/** The state the form describes, at page 1. @returns {State} */
function stateFromForm() {
  const data = new FormData(form)
  /** @param {HTMLInputElement} input */
  const year = (input) => (input.validity.valid && YEAR.test(input.value) ? input.value : '')
  return {
    ...current,
    q: String(data.get('q') ?? '').trim(),
    page: 1,
    sort: data.get('sort') === 'date' ? 'date' : 'relevance',
    ...orderedYears(year(yearFrom), year(yearTo)),
    pt: data.getAll('pt').map(String),
    lang: String(data.get('lang') ?? ''),
  }
}

/** Sets the controls to a state, adding a checkbox or option for a value the page lacks. @param {State} state */
function fillForm(state) {
  queryInput.value = state.q
  sortSelect.value = state.sort
  yearFrom.value = state.from
  yearTo.value = state.to
  const boxes = () => /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input[name="pt"]')])
  const known = boxes().map((box) => box.value)
  for (const pt of state.pt.filter((pt) => !known.includes(pt))) {
    byId('pt-fieldset').append(h('label', {}, h('input', { form: 'search-form', type: 'checkbox', name: 'pt', value: pt }), ` ${pt}`))
  }
  boxes().forEach((box) => (box.checked = state.pt.includes(box.value)))
  if (![...langSelect.options].some((option) => option.value === state.lang)) {
    langSelect.add(new Option(state.lang, state.lang))
  }
  langSelect.value = state.lang
}

/**
 * Shows a state: a new history entry when its URL differs, then its search.
 * @param {State} state
 * @param {boolean} [focusResults] - move the focus to the results (paging)
 */
function go(state, focusResults = false) {
  const url = pageUrl(state)
  if (new URL(url, location.href).href !== location.href) {
    history.pushState(null, '', url)
  }
  void run(state, focusResults)
}

// ---- searching and showing results ----

/**
 * Runs a state's search and shows its answer; a newer search cancels an older one.
 * @param {State} state
 * @param {boolean} focusResults
 */
async function run(state, focusResults) {
  searching?.abort()
  const controller = (searching = new AbortController())
  current = state
  document.title = state.q === '' ? 'pubmatch search' : `${state.q} – pubmatch`
  showError(undefined)
  if (state.q === '') {
    showResults(state, undefined)
    return
  }
  resultsSection.setAttribute('aria-busy', 'true')
  try {
    showResults(state, await api(searchUrl(state), controller.signal))
    if (focusResults) {
      byId('results-heading').focus()
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      showResults(state, undefined)
      showError(asApiError(error))
    }
  } finally {
    if (searching === controller) {
      resultsSection.removeAttribute('aria-busy')
    }
  }
}

/** @type {Record<string, string>} */
const ERROR_TITLES = {
  QUERY_SYNTAX: 'The query could not be read', UNKNOWN_FIELD: 'Unknown field tag', INVALID_ARGUMENT: 'Invalid request',
  RATE_LIMITED: 'Too many requests', TIMEOUT: 'The search took too long', NETWORK: 'No connection',
}

/** An error's title and message (which may span lines). @param {ApiError} error @param {string} fallback */
const errorContent = (error, fallback) => [
  h('p', { class: 'error-title' }, `${ERROR_TITLES[error.code] ?? fallback} (${error.code})`),
  h('pre', { class: 'error-message' }, error.message),
]

/** Shows an error in the alert region, or clears it. @param {ApiError | undefined} error */
function showError(error) {
  byId('error').replaceChildren(...(error === undefined ? [] : errorContent(error, 'The search failed')))
}

/**
 * Renders a search answer: count, ranking notes, results, pages.
 * @param {State} state
 * @param {SearchResponse | undefined} data - `undefined` clears them
 */
function showResults(state, data) {
  const hits = data?.results ?? []
  shown = { searchId: data?.searchId, q: state.q, hits: new Map(hits.map((hit) => [hit.pmid, hit])) }
  const items = document.createDocumentFragment()
  items.append(...hits.map(resultItem))
  resultList.replaceChildren(items)
  byId('count').textContent = data === undefined ? '' : countText(state, data)
  byId('status').replaceChildren(...(data === undefined ? [] : statusNotes(state, data)))
  renderPager(state, data)
}

/** "1–20 of 34 results". @param {State} state @param {SearchResponse} data */
function countText(state, data) {
  const total = `${formatCount(data.total)}${data.totalRelation === 'gte' ? '+' : ''} result${data.total === 1 ? '' : 's'}`
  const [first, last] = [data.results[0], data.results.at(-1)]
  if (data.total === 0) {
    return `No results for “${state.q}”`
  }
  if (first === undefined || last === undefined) {
    return `Page ${state.page} is empty: ${total}`
  }
  return `${formatCount(first.rank)}–${formatCount(last.rank)} of ${total}`
}

/** @param {Fallback} fallback */
const fallbackText = ({ feature, value, range: [low, high] }) =>
  `The model left this query in first-stage order: ${feature} = ${formatNumber(value)} is outside` +
  ` its training range [${formatNumber(low)}, ${formatNumber(high)}].`

/** How the page was ranked, the model's fallback, the engine's warnings. @param {State} state @param {SearchResponse} data */
function statusNotes(state, data) {
  const ranking =
    data.sort === 'date'
      ? 'Sorted by publication date, newest first.'
      : data.reranked
        ? `Reranked by the Best Match model ${data.model ?? ''}.`
        : data.model !== undefined
          ? `First-stage (BM25F) order: the model ${data.model} did not rerank this page${state.rerank === 'false' ? ' (rerank=false)' : ''}.`
          : 'Ranked by BM25F (no model loaded).'
  return [
    h('p', {}, ranking, h('span', { class: 'took' }, ` ${Math.round(data.tookMs)} ms`)),
    data.fallback !== undefined && h('p', { class: 'note' }, fallbackText(data.fallback)),
    data.searchDetails !== undefined && h('p', { class: 'note' }, 'Search details: ', h('code', {}, data.searchDetails.query)),
    data.citationMatch !== undefined &&
      h(
        'p',
        { class: 'note' },
        `Citation match: the query cites PMID ${data.citationMatch.pmid} (${Object.entries(data.citationMatch.matched)
          .map(([part, value]) => `${part} ${value}`)
          .join(', ')}), shown first.`,
      ),
    data.warnings.length > 0 && h('ul', { class: 'warnings', 'aria-label': 'Warnings' }, ...data.warnings.map((w) => h('li', {}, w.message))),
  ].filter(present)
}

/** One result. @param {Hit} hit */
function resultItem(hit) {
  const pubmed = `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(hit.pmid)}/`
  const etAl = hit.authorCount > hit.authors.length ? ' et al.' : ''
  return h(
    'li',
    { class: 'result', 'data-pmid': hit.pmid, 'data-rank': hit.rank },
    h('span', { class: 'rank' }, `${hit.rank}.`),
    h('h3', { class: 'title' }, appendMarked(h('a', { href: pubmed, 'data-event': 'click' }), hit.title)),
    hit.authors.length > 0 && h('p', { class: 'authors' }, hit.authors.join(', ') + etAl),
    h(
      'p',
      { class: 'source' },
      hit.journal !== undefined && h('cite', {}, hit.journal),
      hit.year !== undefined && h('span', { class: 'year' }, String(hit.year)),
      h('span', {}, `PMID ${hit.pmid}`),
      ...hit.pubTypes.filter((type) => type !== 'Journal Article').map((type) => h('span', { class: 'pubtype' }, type)),
    ),
    hit.snippet.text !== '' && appendMarked(h('p', { class: 'snippet' }), hit.snippet),
    h(
      'p',
      { class: 'links' },
      hit.pmcid !== undefined &&
        h('a', { href: `https://www.ncbi.nlm.nih.gov/pmc/articles/${encodeURIComponent(hit.pmcid)}/`, 'data-event': 'fulltext' }, 'Full text (PMC)'),
      hit.doi !== undefined && h('a', { href: `https://doi.org/${hit.doi.split('/').map(encodeURIComponent).join('/')}` }, `DOI ${hit.doi}`),
      h('button', { type: 'button', class: 'explain-button', 'data-pmid': hit.pmid }, 'Explain',
        h('span', { class: 'visually-hidden' }, ` result ${hit.rank}`)),
      h('span', { class: 'score', 'data-score': hit.score }, `score ${formatNumber(hit.score)}`),
    ),
  )
}

/** Previous, next and a few page numbers, within the result window. @param {State} state @param {SearchResponse | undefined} data */
function renderPager(state, data) {
  const lastPage = data === undefined ? 0 : Math.min(Math.ceil(data.total / state.size), Math.floor(RESULT_WINDOW / state.size))
  const page = state.page
  pager.hidden = lastPage <= 1 && page <= 1
  if (pager.hidden) {
    pager.replaceChildren()
    return
  }
  const numbers = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, lastPage])]
    .filter((n) => n >= 1 && n <= lastPage)
    .sort((a, b) => a - b)
  const items = [pageLink(state, page - 1, 'Previous', page <= 1 || page - 1 > lastPage, 'prev')]
  numbers.forEach((n, i) => {
    if (i > 0 && n - numbers[i - 1] > 1) {
      items.push(h('span', { class: 'gap', 'aria-hidden': 'true' }, '…'))
    }
    items.push(pageLink(state, n, String(n), false))
  })
  items.push(pageLink(state, page + 1, 'Next', page >= lastPage, 'next'))
  pager.replaceChildren(h('ul', {}, ...items.map((item) => h('li', {}, item))))
}

/**
 * A link to a page of results: without href when disabled, `aria-current` on the page shown.
 * @param {State} state @param {number} page @param {string} text @param {boolean} disabled @param {string} [rel]
 */
function pageLink(state, page, text, disabled, rel) {
  if (disabled) {
    return h('a', { role: 'link', 'aria-disabled': 'true', class: `disabled ${rel}` }, text)
  }
  const current = page === state.page && rel === undefined
  const label = rel === undefined ? `Page ${page}` : `${text} page`
  const attributes = { href: pageUrl({ ...state, page }), 'data-page': page, rel, class: rel, 'aria-label': label, 'aria-current': current && 'page' }
  return h('a', attributes, text)
}

/**
 * Logs a click or a full-text request on a result of the search shown, when the server logs it.
 * `keepalive` lets the request outlive the page the link leaves.
 * @param {'click' | 'fulltext'} type
 * @param {HTMLElement} result - the result's list item
 */
function logEvent(type, result) {
  if (shown.searchId !== undefined) {
    const body = JSON.stringify({ type, session, search: shown.searchId, pmid: result.dataset.pmid, position: Number(result.dataset.rank) })
    fetch('events', { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).catch(() => undefined)
  }
}

// ---- the explain panel ----

/**
 * Opens the panel for a result and fills it from `articles/:pmid/explain`.
 * @param {string} pmid
 * @param {HTMLElement} opener - focused again when the panel closes
 */
async function openExplain(pmid, opener) {
  const token = ++explainToken
  const hit = shown.hits.get(pmid)
  explainOpener = opener
  byId('explain-heading').textContent = `Explain ${hit === undefined ? '' : `result ${hit.rank}: `}PMID ${pmid}`
  explainBody.replaceChildren(h('p', {}, 'Loading…'))
  explainBody.setAttribute('aria-busy', 'true')
  if (!dialog.open) {
    dialog.showModal()
  }
  let content
  try {
    content = explainContent(await api(`articles/${encodeURIComponent(pmid)}/explain?${new URLSearchParams({ q: shown.q, session })}`), hit)
  } catch (error) {
    content = [h('div', { class: 'error', role: 'alert' }, ...errorContent(asApiError(error), 'Could not explain'))]
  }
  if (token === explainToken) {
    explainBody.replaceChildren(...content)
    explainBody.removeAttribute('aria-busy')
  }
}

/** The panel's content. @param {ExplainResponse} data @param {Hit | undefined} hit */
function explainContent(data, hit) {
  /** @type {(HTMLElement | false)[]} */
  const parts = [h('p', { class: 'explain-title' }, data.document.title), h('p', {}, 'Query: ', h('code', {}, data.query))]
  if (hit !== undefined) {
    parts.push(h('p', {}, `Shown at rank ${hit.rank} with score ${formatNumber(hit.score)}.`))
  }
  const first = data.firstStage
  if (!data.matches || first === undefined) {
    return [...parts, h('p', { class: 'note' }, 'The article does not match this query.')].filter(present)
  }
  // the API gives the first-stage rank within the reranking depth only; the result list knows it otherwise
  const listed = hit !== undefined && current.sort === 'relevance' && hit.firstStage.rank !== undefined ? `${hit.firstStage.rank} (in the results)` : 'not computed'
  parts.push(
    h('h3', {}, 'First stage: BM25F'),
    definitions([
      ['Score', formatNumber(first.score)],
      ['Rank', first.rank === undefined ? listed : String(first.rank)],
    ]),
    first.explain !== undefined && h('ul', { class: 'tree', 'aria-label': 'BM25F score explanation' }, treeNode(first.explain, 0)),
  )
  if (data.secondStage !== undefined) {
    parts.push(...modelPart(data.secondStage))
  }
  return [...parts, data.fallback !== undefined && h('p', { class: 'note' }, fallbackText(data.fallback))].filter(present)
}

/** A description list of name/value pairs. @param {[string, string][]} pairs */
function definitions(pairs) {
  return h('dl', { class: 'pairs' }, ...pairs.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]))
}

/**
 * An explanation node: `label = value  formula`, its details nested (open near the top).
 * @param {Explanation} node
 * @param {number} depth
 * @returns {HTMLElement}
 */
function treeNode(node, depth) {
  const line = h(
    'span',
    { class: 'node' },
    h('span', { class: 'label' }, node.label),
    ' = ',
    h('span', { class: 'value', 'data-value': node.value, title: String(node.value) }, formatNumber(node.value)),
    node.formula !== undefined && h('code', { class: 'formula' }, node.formula),
  )
  if (node.details.length === 0) {
    return h('li', {}, line)
  }
  return h('li', {}, h('details', { open: depth < 2 }, h('summary', {}, line), h('ul', {}, ...node.details.map((d) => treeNode(d, depth + 1)))))
}

/** The model's score, rank, bias and its largest contributions with bars. @param {NonNullable<ExplainResponse['secondStage']>} second */
function modelPart(second) {
  const top = [...second.contributions].sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution)).slice(0, TOP_CONTRIBUTIONS)
  const largest = Math.max(...top.map((c) => Math.abs(c.contribution)), Number.MIN_VALUE)
  /** @param {Contribution} c */
  const bar = (c) => {
    const width = `width: ${((100 * Math.abs(c.contribution)) / largest).toFixed(1)}%`
    return h('span', { class: 'bar-box', 'aria-hidden': 'true' }, h('span', { class: `bar ${c.contribution < 0 ? 'neg' : 'pos'}`, style: width }))
  }
  const rows = top.map((c) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, c.feature),
      h('td', {}, c.name ?? ''),
      h('td', { class: 'num' }, formatNumber(c.value)),
      h('td', { class: 'num' }, bar(c), formatNumber(c.contribution)),
    ),
  )
  return [
    h('h3', {}, 'Second stage: Best Match model'),
    definitions([
      ['Score', formatNumber(second.score)],
      ['Rank', String(second.rank)],
      ['Bias', formatNumber(second.bias)],
    ]),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'contributions' },
        h('caption', {}, `The largest ${top.length} of ${second.contributions.length} feature contributions`),
        h('thead', {}, h('tr', {}, ...['Feature', 'Name', 'Value', 'Contribution'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, ...rows),
      ),
    ),
  ]
}

// ---- events ----

form.addEventListener('submit', (event) => {
  event.preventDefault()
  const state = stateFromForm()
  fillForm(state)
  go(state)
})

// sort and filters apply at once when there is a query (the years with Enter or Apply)
for (const control of [sortSelect, langSelect, byId('pt-fieldset')]) {
  control.addEventListener('change', () => queryInput.value.trim() !== '' && form.requestSubmit())
}

byId('clear-filters').addEventListener('click', () => {
  fillForm({ ...stateFromForm(), from: '', to: '', pt: [], lang: '' })
  if (queryInput.value.trim() !== '') {
    form.requestSubmit()
  }
})

/** Clicks in the result list: logged links, Explain buttons. @param {MouseEvent} event */
function onResultClick(event) {
  const target = /** @type {HTMLElement} */ (event.target)
  const link = /** @type {HTMLElement | null} */ (target.closest('a[data-event]'))
  const result = /** @type {HTMLElement | null} */ (target.closest('li.result'))
  // a middle click (auxclick) opens the link too
  if (link !== null && result !== null && (event.type === 'click' || event.button === 1)) {
    logEvent(link.dataset.event === 'fulltext' ? 'fulltext' : 'click', result)
  }
  const explain = /** @type {HTMLElement | null} */ (target.closest('button.explain-button'))
  if (explain !== null && event.type === 'click') {
    void openExplain(String(explain.dataset.pmid), explain)
  }
}
resultList.addEventListener('click', onResultClick)
resultList.addEventListener('auxclick', onResultClick)

pager.addEventListener('click', (event) => {
  const link = /** @type {HTMLElement} */ (event.target).closest('a[data-page]')
  // a modified click opens the page in a new tab or window, as links do
  if (link instanceof HTMLAnchorElement && event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) {
    event.preventDefault()
    go({ ...current, page: Number(link.dataset.page) }, true)
  }
})

byId('explain-close').addEventListener('click', () => dialog.close())
// a click on the backdrop (the dialog element itself, outside its content) closes the panel; Escape does natively
dialog.addEventListener('click', (event) => event.target === dialog && dialog.close())
dialog.addEventListener('close', () => {
  explainToken++
  explainOpener?.focus()
})

window.addEventListener('popstate', () => {
  const state = stateFromUrl(location.href)
  fillForm(state)
  void run(state, false)
})

// the filters start folded on narrow screens, where they come before the results
if (matchMedia('(max-width: 46rem)').matches) {
  /** @type {HTMLDetailsElement} */ (byId('filters-box')).open = false
}
fillForm(current)
if (current.q !== '') {
  void run(current, false)
}
