// @ts-check
/**
 * The screening page: pick a project (GET /screen/projects), see the record most likely to be
 * included (GET /screen/projects/:name/next, which retrains on every decision so far), decide
 * (POST /screen/projects/:name/decisions, answered once the decision is on disk), and the next
 * record comes. The status line shows the counts and the stopping aid's advice. The project lives
 * in the URL (`?project=`), so a reload continues where the log stands.
 */

/** @typedef {{ id: string, rank: number, score: number, title: string, abstract: string, year?: number, journal?: string, mesh: string[] }} ScreenRecord */
/** @typedef {{ name: string, candidates: number, screened: number, included: number, excluded: number, advice: string }} ScreenStatus */

const byId = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id))
const api = (/** @type {string} */ name) => `screen/projects/${encodeURIComponent(name)}`

/** @type {string | undefined} */
let project
/** @type {ScreenRecord | undefined} */
let current

/** @param {unknown} error */
function showError(error) {
  const box = byId('error')
  box.textContent = error instanceof Error ? error.message : String(error)
  box.hidden = false
}

/**
 * @param {string} url
 * @param {RequestInit} [init]
 */
async function json(url, init) {
  const response = await fetch(url, init)
  const body = await response.json()
  if (!response.ok) {
    throw new Error(body.message ?? `HTTP ${response.status}`)
  }
  return body
}

/** @param {ScreenStatus} status */
function showStatus(status) {
  byId('status').textContent = `${status.screened} of ${status.candidates} screened: ${status.included} included, ${status.excluded} excluded`
  byId('advice').textContent = status.advice
}

async function next() {
  if (project === undefined) return
  const { records, status } = /** @type {{ records: ScreenRecord[], status: ScreenStatus }} */ (await json(`${api(project)}/next?count=1`))
  showStatus(status)
  current = records[0]
  byId('record').hidden = current === undefined
  byId('done').hidden = current !== undefined
  for (const id of ['include', 'include-high', 'exclude']) byId(id).disabled = current === undefined
  if (current === undefined) return
  byId('record-title').textContent = current.title
  byId('record-title').dataset.id = current.id
  byId('record-meta').textContent = [current.id, current.journal, current.year].filter((x) => x !== undefined).join(' · ')
  byId('record-abstract').textContent = current.abstract || '(no abstract)'
  byId('record-mesh').textContent = current.mesh.length > 0 ? `MeSH: ${current.mesh.join('; ')}` : ''
}

/**
 * @param {'include' | 'exclude'} decision
 * @param {'relevant' | 'highly-relevant'} [grade]
 */
async function decide(decision, grade) {
  if (project === undefined || current === undefined) return
  for (const id of ['include', 'include-high', 'exclude']) byId(id).disabled = true
  const body = { decisions: [{ id: current.id, decision, ...(grade ? { grade } : {}) }] }
  showStatus(await json(`${api(project)}/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  await next()
}

/** @param {string} name */
async function open(name) {
  project = name
  byId('screening').hidden = false
  byId('error').hidden = true
  byId('export-included').href = `${api(name)}/export?format=ris&which=included`
  byId('export-excluded').href = `${api(name)}/export?format=ris&which=excluded`
  byId('export-csv').href = `${api(name)}/export?format=csv&which=decided`
  await next()
}

async function start() {
  const { projects } = /** @type {{ projects: string[] }} */ (await json('screen/projects'))
  const select = byId('project')
  for (const name of projects) {
    const option = document.createElement('option')
    option.value = option.textContent = name
    select.append(option)
  }
  const wanted = new URLSearchParams(location.search).get('project')
  if (wanted !== null) {
    select.value = wanted
    await open(wanted)
  }
  byId('project-form').addEventListener('submit', (/** @type {Event} */ event) => {
    event.preventDefault()
    history.replaceState(null, '', `?project=${encodeURIComponent(select.value)}`)
    open(select.value).catch(showError)
  })
  byId('include').addEventListener('click', () => decide('include').catch(showError))
  byId('include-high').addEventListener('click', () => decide('include', 'highly-relevant').catch(showError))
  byId('exclude').addEventListener('click', () => decide('exclude').catch(showError))
}

start().catch(showError)
