// @ts-check
/**
 * Relevance feedback on the search page: "Refine with feedback" starts a session for the query in
 * the address bar (POST /sessions); each round shows ten articles with three grade buttons, and
 * "Next 10" sends the grades (POST /sessions/:id/grades) and shows the next ten, re-ranked.
 * The session id lives in the URL (`fb=`), so a reload continues the session (GET /sessions/:id/next).
 */

/** @typedef {{ text: string, matches: Array<[number, number]> }} Highlighted */
/** @typedef {{ pmid: string, rank: number, title: Highlighted, snippet: Highlighted, journal?: string, year?: number, authors: string[], authorCount: number }} SessionDocument */
/** @typedef {{ id: string, query: string, round: number, shown: number, candidates: number, next: SessionDocument[], terms: Array<{ term: string, weight: number }> }} SessionState */

const GRADES = /** @type {const} */ ([
  ['non-relevant', 'Not relevant'],
  ['relevant', 'Relevant'],
  ['highly-relevant', 'Highly relevant'],
])

const byId = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id))
const section = byId('feedback')
const list = byId('feedback-list')
const startButton = byId('feedback-start')
const nextButton = byId('feedback-next')
/** @type {SessionState | undefined} */
let state

/** A DOM element. @param {string} tag @param {Record<string, string>} attributes @param {Array<Node | string>} children */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, value)
  }
  element.append(...children)
  return element
}

/** Text with <mark>ed matches, built from offsets (never HTML). @param {Highlighted} marked */
function marked({ text, matches }) {
  const out = document.createDocumentFragment()
  let at = 0
  for (const [start, end] of matches) {
    out.append(text.slice(at, start), h('mark', {}, text.slice(start, end)))
    at = end
  }
  out.append(text.slice(at))
  return out
}

/** The client session id app.js keeps for the search log. */
function clientSession() {
  return sessionStorage.getItem('pubmatch.session') ?? undefined
}

/** JSON from the API, or an Error carrying its `{ code, message }`. @param {string} path @param {unknown} [body] */
async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const data = await response.json().catch(() => ({ code: 'INTERNAL', message: `HTTP ${response.status}` }))
  if (!response.ok) {
    throw new Error(`${data.code}: ${data.message}`)
  }
  return data
}

function urlWith(/** @type {string | undefined} */ id) {
  const url = new URL(location.href)
  if (id === undefined) {
    url.searchParams.delete('fb')
  } else {
    url.searchParams.set('fb', id)
  }
  return url.toString()
}

/** Shows a session round. @param {SessionState} next */
function show(next) {
  state = next
  section.hidden = false
  byId('results').hidden = true
  byId('feedback-error').textContent = ''
  byId('feedback-status').textContent =
    next.next.length === 0
      ? `Every candidate has been shown (${next.shown} articles, ${next.round} rounds graded).`
      : `Round ${next.round + 1} for “${next.query}”: ${next.shown} of ${next.candidates} candidates shown so far.`
  byId('feedback-terms').textContent = next.terms.length === 0 ? '' : `Query now weighs: ${next.terms.slice(0, 8).map((t) => `${t.term} ${t.weight.toFixed(2)}`).join(', ')}`
  list.replaceChildren(
    ...next.next.map((doc) => {
      const group = h('div', { class: 'grades', role: 'radiogroup', 'aria-label': `Grade PMID ${doc.pmid}` })
      for (const [value, label] of GRADES) {
        const id = `grade-${doc.pmid}-${value}`
        const input = h('input', { type: 'radio', name: `grade-${doc.pmid}`, id, value })
        group.append(h('label', { for: id, class: `grade ${value}` }, input, ` ${label}`))
      }
      const more = doc.authorCount > doc.authors.length ? ', et al.' : ''
      return h(
        'li',
        { class: 'result', 'data-pmid': doc.pmid },
        h('h3', {}, h('span', { class: 'rank' }, `${doc.rank}. `), h('a', { href: `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(doc.pmid)}/` }, marked(doc.title))),
        h('p', { class: 'meta' }, `${doc.authors.join(', ')}${more}${doc.journal === undefined ? '' : ` · ${doc.journal}`}${doc.year === undefined ? '' : ` · ${doc.year}`} · PMID ${doc.pmid}`),
        h('p', { class: 'snippet' }, marked(doc.snippet)),
        group,
      )
    }),
  )
  nextButton.hidden = next.next.length === 0
  byId('feedback-heading').focus()
}

function fail(/** @type {unknown} */ error) {
  byId('feedback-error').textContent = error instanceof Error ? error.message : String(error)
}

function end() {
  state = undefined
  section.hidden = true
  byId('results').hidden = false
  history.pushState(null, '', urlWith(undefined))
}

startButton.addEventListener('click', async () => {
  const q = new URL(location.href).searchParams.get('q') ?? ''
  if (q === '') {
    return
  }
  startButton.disabled = true
  try {
    const session = clientSession()
    const started = await api('/sessions', { q, candidates: 3000, ...(session === undefined ? {} : { session }) })
    history.pushState(null, '', urlWith(started.id))
    show(started)
  } catch (error) {
    section.hidden = false
    fail(error)
  } finally {
    startButton.disabled = false
  }
})

nextButton.addEventListener('click', async () => {
  if (state === undefined) {
    return
  }
  /** @type {Record<string, string>} */
  const grades = {}
  for (const input of list.querySelectorAll('input[type=radio]:checked')) {
    grades[String(/** @type {HTMLElement} */ (input.closest('li')).dataset.pmid)] = /** @type {HTMLInputElement} */ (input).value
  }
  nextButton.disabled = true
  try {
    const session = clientSession()
    show(await api(`/sessions/${encodeURIComponent(state.id)}/grades`, { shown: state.next.map((d) => d.pmid), grades, ...(session === undefined ? {} : { session }) }))
  } catch (error) {
    fail(error)
  } finally {
    nextButton.disabled = false
  }
})

byId('feedback-end').addEventListener('click', end)

/** The start button shows once there are results to refine; a URL with fb= resumes a session. */
function sync() {
  const url = new URL(location.href)
  startButton.hidden = (url.searchParams.get('q') ?? '') === ''
  const id = url.searchParams.get('fb')
  if (id !== null && id !== state?.id) {
    const session = clientSession()
    api(`/sessions/${encodeURIComponent(id)}/next${session === undefined ? '' : `?${new URLSearchParams({ session })}`}`).then(show, (error) => {
      section.hidden = false
      fail(error)
    })
  } else if (id === null && state !== undefined) {
    state = undefined
    section.hidden = true
    byId('results').hidden = false
  }
}
window.addEventListener('popstate', sync)
new MutationObserver(sync).observe(byId('result-list'), { childList: true })
sync()
