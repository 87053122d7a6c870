/**
 * The web page end to end: an index of the bundled NLM MEDLINE sample behind a listening server,
 * driven by Debian's Chromium through playwright-core (no browser download, no network beyond
 * the server: every other address is answered by a stub or refused). Nothing waits for a time:
 * Playwright waits for elements and answers without a timeout (the shared vitest configuration's
 * hang guard stops a stuck run), and the search log is watched as it is appended to. Screenshots
 * of the main steps go to `apps/server/test-artifacts/`.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openSearch, type SearchEngine } from '@pubmatch/engine'
import { createLogStore, type LogEvent, type LogSink } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import { sampleIndex } from '../test/fixtures.ts'
import { createServer, type FastifyInstance } from './server.ts'

const CHROMIUM = '/usr/bin/chromium'
const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url))
const hasChromium = existsSync(CHROMIUM)
/** Matches 31 of the sample's 88 articles: two pages of 20. */
const QUERY = 'cell OR patients'

if (!hasChromium && process.env.CI !== undefined && process.env.CI !== '') {
  describe('web page in Chromium', () => {
    it('has Chromium to run in', () => {
      throw new Error(`${CHROMIUM} is missing: CI must install it (bash scripts/dev-deps.sh chromium)`)
    })
  })
}

describe.runIf(hasChromium)('web page in Chromium', () => {
  let dir: string
  let logDir: string
  let engine: SearchEngine
  let app: FastifyInstance
  let base: string
  let browser: Browser
  let context: BrowserContext
  let page: Page
  /** Requests the page made to anywhere but the server (stubbed or refused). */
  const elsewhere: string[] = []
  /** Events the server has appended to the search log (durably: an append resolves after fsync), and tests waiting for one. */
  const appended: LogEvent[] = []
  const waiting: Array<{ predicate: (event: LogEvent) => boolean; found: () => void }> = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-browser-'))
    logDir = join(dir, 'log')
    engine = await openSearch({ index: await sampleIndex(dir, [samplePath('pubmed', 'medsamp2006.xml'), samplePath('mesh', 'desc-samples.xml')]) })
    const store = createLogStore(logDir)
    const logSink: LogSink & { close(): Promise<void> } = {
      async append(events) {
        await store.append(events)
        appended.push(...events)
        for (const waiter of [...waiting]) {
          if (events.some(waiter.predicate)) {
            waiting.splice(waiting.indexOf(waiter), 1)
            waiter.found()
          }
        }
      },
      close: () => store.close(),
    }
    app = await createServer({ engine, logSink, rateLimit: false, feedbackDir: join(dir, 'sessions') })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (address === null || typeof address === 'string') {
      throw new Error('the server is not listening on a TCP port')
    }
    base = `http://127.0.0.1:${address.port}/`
    await mkdir(artifacts, { recursive: true })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      // no time limit: a slow machine starts it later, a stuck one meets the hang guard
      timeout: 0,
    })
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    context.setDefaultTimeout(0)
    // nothing leaves the machine: PubMed and PMC get a stub page, anything else is refused
    await context.route(
      (url) => !url.href.startsWith(base),
      async (route) => {
        const url = route.request().url()
        elsewhere.push(url)
        if (/^https:\/\/(pubmed\.ncbi\.nlm\.nih\.gov|www\.ncbi\.nlm\.nih\.gov)\//.test(url)) {
          await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>stub</title><p>stub</p>' })
        } else {
          await route.abort()
        }
      },
    )
  })

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    if (dir !== undefined) {
      await rm(dir, { recursive: true, force: true })
    }
  })

  beforeEach(async () => {
    page = await context.newPage()
  })
  afterEach(async () => {
    await page.close()
  })

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true })
  const isSearch = (url: string): boolean => new URL(url).pathname === '/search'
  const results = (): ReturnType<Page['locator']> => page.locator('#result-list > li.result')
  const count = (): Promise<string> => page.locator('#count').innerText()
  const totalOf = (text: string): number => Number(/of ([\d,]+) results?/.exec(text)?.[1]?.replaceAll(',', '') ?? NaN)

  /** Opens the page at a query string and waits for its results. */
  async function open(query: string): Promise<Response> {
    const [response] = await Promise.all([page.waitForResponse((r) => isSearch(r.url())), page.goto(new URL(query, base).href)])
    await results().first().waitFor()
    return response
  }

  /** Does something that searches; the search's request and its JSON answer. */
  async function searching(action: () => Promise<unknown>): Promise<{ request: Request; body: { total: number; searchId?: string } }> {
    const [response] = await Promise.all([page.waitForResponse((r) => isSearch(r.url())), action()])
    const body = (await response.json()) as { total: number; searchId?: string }
    // the page has rendered this answer once the busy state is gone
    await page.waitForFunction('!document.querySelector("section.results").hasAttribute("aria-busy")')
    return { request: response.request(), body }
  }

  /** Waits until the server has appended an event like this one to the search log; the event as the log file has it. */
  async function logged(predicate: (event: LogEvent) => boolean): Promise<LogEvent> {
    if (!appended.some(predicate)) {
      await new Promise<void>((found) => waiting.push({ predicate, found }))
    }
    const { events, problems } = await createLogStore(logDir).readAll()
    expect(problems).toEqual([])
    const found = events.find(predicate)
    expect(found, `the log file holds ${JSON.stringify(events)}`).toBeDefined()
    return found!
  }

  it('searches: results with highlights, the count, and the state in the URL', async () => {
    await page.goto(base)
    await expect(page.title()).resolves.toBe('pubmatch search')
    await page.getByLabel('Search articles').fill(QUERY)
    const { request, body } = await searching(() => page.getByRole('button', { name: 'Search', exact: true }).click())
    const params = new URL(request.url()).searchParams
    expect(params.get('q')).toBe(QUERY)
    expect(params.get('session')).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
    expect(body.total).toBe(engine.search(QUERY).total)
    expect(body.total).toBe(31)

    await expect(results().count()).resolves.toBe(20)
    await expect(count()).resolves.toBe(`1–20 of ${body.total} results`)
    await expect(page.locator('#count').getAttribute('aria-live')).resolves.toBe('polite')
    expect(new URL(page.url()).searchParams.get('q')).toBe(QUERY)

    const marks = await page.locator('#result-list mark').allInnerTexts()
    expect(marks.length).toBeGreaterThan(20)
    for (const mark of marks) {
      expect(mark.toLowerCase()).toMatch(/cell|patient/)
    }
    const first = results().first()
    await expect(first.locator('.rank').innerText()).resolves.toBe('1.')
    const pmid = (await first.getAttribute('data-pmid'))!
    await expect(first.locator('h3 a').getAttribute('href')).resolves.toBe(`https://pubmed.ncbi.nlm.nih.gov/${pmid}/`)
    await expect(first.locator('h3 mark').count()).resolves.toBeGreaterThan(0)
    await expect(page.locator('#status').innerText()).resolves.toMatch(/BM25F/)
    // a result with more authors than listed says so
    await expect(page.locator('.authors', { hasText: 'et al.' }).count()).resolves.toBeGreaterThan(0)
    await shot('01-search')

    // a URL with ?q= loads its results
    const again = await page.context().newPage()
    try {
      await again.goto(new URL(`?q=${encodeURIComponent(QUERY)}`, base).href)
      await again.locator('#result-list > li.result').first().waitFor()
      await expect(again.getByLabel('Search articles').inputValue()).resolves.toBe(QUERY)
      await expect(again.locator('#count').innerText()).resolves.toBe(`1–20 of ${body.total} results`)
    } finally {
      await again.close()
    }
  })

  it('pages: next shows ranks 21 onwards, back restores page 1', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    await expect(page.locator('#pager .prev').getAttribute('aria-disabled')).resolves.toBe('true')
    await expect(page.locator('#pager [aria-current="page"]').innerText()).resolves.toBe('1')

    await searching(() => page.getByRole('link', { name: 'Next page' }).click())
    await expect(count()).resolves.toBe('21–31 of 31 results')
    const ranks = await results().locator('.rank').allInnerTexts()
    expect(ranks).toEqual(Array.from({ length: 11 }, (_, i) => `${21 + i}.`))
    expect(new URL(page.url()).searchParams.get('page')).toBe('2')
    await expect(page.locator('#pager [aria-current="page"]').innerText()).resolves.toBe('2')
    await expect(page.locator('#pager .next').getAttribute('aria-disabled')).resolves.toBe('true')
    // keyboard users land on the results
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('results-heading')
    await shot('02-page-2')

    await searching(() => page.goBack())
    await expect(count()).resolves.toBe('1–20 of 31 results')
    await expect(results().first().locator('.rank').innerText()).resolves.toBe('1.')
    expect(new URL(page.url()).searchParams.get('page')).toBeNull()

    await searching(() => page.goForward())
    await expect(results().first().locator('.rank').innerText()).resolves.toBe('21.')
  })

  it('filters by publication type: fewer results, and the request carries the filter', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    const before = totalOf(await count())
    const { request, body } = await searching(() => page.getByLabel('Review', { exact: true }).check())
    expect(new URL(request.url()).searchParams.getAll('pt')).toEqual(['Review'])
    expect(body.total).toBeGreaterThan(0)
    expect(body.total).toBeLessThan(before)
    await expect(count()).resolves.toBe(`1–${body.total} of ${body.total} result${body.total === 1 ? '' : 's'}`)
    for (const types of await results().locator('.source').allInnerTexts()) {
      expect(types).toContain('Review')
    }
    expect(new URL(page.url()).searchParams.getAll('pt')).toEqual(['Review'])
    await shot('03-filter-review')

    // back to the unfiltered results, with the box unticked again
    await searching(() => page.goBack())
    await expect(page.getByLabel('Review', { exact: true }).isChecked()).resolves.toBe(false)
    expect(totalOf(await count())).toBe(before)
  })

  it('filters by year range', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    const before = totalOf(await count())
    await page.getByLabel('From').fill('1998')
    await page.getByLabel('To').fill('2001')
    const { request, body } = await searching(() => page.getByLabel('To').press('Enter'))
    expect(new URL(request.url()).searchParams.get('year')).toBe('1998:2001')
    expect(body.total).toBeGreaterThan(0)
    expect(body.total).toBeLessThan(before)
    for (const year of await results().locator('.year').allInnerTexts()) {
      expect(Number(year)).toBeGreaterThanOrEqual(1998)
      expect(Number(year)).toBeLessThanOrEqual(2001)
    }
    const url = new URL(page.url()).searchParams
    expect([url.get('from'), url.get('to')]).toEqual(['1998', '2001'])
  })

  it('sorts by date, newest first', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    const { request } = await searching(() => page.getByLabel('Sort by').selectOption('date'))
    expect(new URL(request.url()).searchParams.get('sort')).toBe('date')
    const years = (await results().locator('.year').allInnerTexts()).map(Number)
    expect(years.length).toBeGreaterThan(10)
    expect(years).toEqual([...years].sort((a, b) => b - a))
    await expect(page.locator('#status').innerText()).resolves.toMatch(/publication date/)
    expect(new URL(page.url()).searchParams.get('sort')).toBe('date')
    await shot('04-sort-date')
  })

  it('explains a result: the BM25F tree adds up to the score shown; Escape closes the panel', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    const second = results().nth(1)
    const pmid = (await second.getAttribute('data-pmid'))!
    const score = (await second.locator('.score').getAttribute('data-score'))!
    const button = second.getByRole('button', { name: /^Explain/ })
    const [response] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === `/articles/${pmid}/explain`), button.click()])
    expect(new URL(response.url()).searchParams.get('q')).toBe(QUERY)
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    const top = dialog.locator('.tree > li > details > summary .value')
    await top.waitFor()
    await expect(top.getAttribute('data-value')).resolves.toBe(score)
    const shown = await second.locator('.score').innerText()
    expect(shown).toBe(`score ${await top.innerText()}`)
    await expect(dialog.locator('.tree details').count()).resolves.toBeGreaterThan(2)
    await expect(dialog.locator('.pairs').first().innerText()).resolves.toMatch(/Rank\s+2/)
    await shot('05-explain')

    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect(page.evaluate('document.activeElement.className')).resolves.toBe('explain-button')
    // and the close button closes it too
    await button.click()
    await dialog.waitFor()
    await dialog.getByRole('button', { name: /^Close/ }).click()
    await dialog.waitFor({ state: 'hidden' })
  })

  it('logs a click on a title: the search and an abstract_click with its position', async () => {
    await page.goto(base)
    await page.getByLabel('Search articles').fill(QUERY)
    const { request, body } = await searching(() => page.getByLabel('Search articles').press('Enter'))
    const session = new URL(request.url()).searchParams.get('session')!
    const searchId = body.searchId!
    expect(searchId).toBeTruthy()
    const third = results().nth(2)
    const pmid = (await third.getAttribute('data-pmid'))!
    await shot('06-before-click')

    const [events] = await Promise.all([page.waitForRequest((r) => new URL(r.url()).pathname === '/events'), third.locator('h3 a').click()])
    expect(events.method()).toBe('POST')
    expect(events.headers()['content-type']).toBe('application/json')
    await page.waitForURL(`https://pubmed.ncbi.nlm.nih.gov/${pmid}/`)

    const search = await logged((e) => e.type === 'search' && e.id === searchId)
    expect(search).toMatchObject({ session, query: QUERY, total: 31 })
    const click = await logged((e) => e.type === 'action' && e.search === searchId)
    expect(click).toMatchObject({ type: 'action', kind: 'abstract_click', session, search: searchId, id: pmid, position: 3 })
  })

  it('logs a full-text request from the PMC link', async () => {
    // the sample has no PMC ids: give the second result one on its way to the page
    await page.route(
      (url) => url.pathname === '/search',
      async (route) => {
        const response = await route.fetch()
        const json = (await response.json()) as { results: Array<{ pmcid?: string; doi?: string }> }
        json.results[1]!.pmcid = 'PMC1234567'
        json.results[1]!.doi = '10.1000/xyz.123'
        await route.fulfill({ response, json })
      },
    )
    const response = await open(`?q=${encodeURIComponent(QUERY)}`)
    const { searchId } = (await response.json()) as { searchId: string }
    const second = results().nth(1)
    const pmid = (await second.getAttribute('data-pmid'))!
    const pmc = second.getByRole('link', { name: 'Full text (PMC)' })
    await expect(pmc.getAttribute('href')).resolves.toBe('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC1234567/')
    await expect(second.getByRole('link', { name: /^DOI/ }).getAttribute('href')).resolves.toBe('https://doi.org/10.1000/xyz.123')
    await expect(results().first().getByRole('link', { name: 'Full text (PMC)' }).count()).resolves.toBe(0)
    await pmc.click()
    await page.waitForURL('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC1234567/')
    const action = await logged((e) => e.type === 'action' && e.search === searchId)
    expect(action).toMatchObject({ kind: 'fulltext_request', id: pmid, position: 2 })
  })

  it('shows an API error (an unbalanced parenthesis) in the alert region', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    await page.getByLabel('Search articles').fill('(cell AND patients')
    await searching(() => page.getByRole('button', { name: 'Search', exact: true }).click())
    const alert = page.getByRole('alert')
    await expect(alert.innerText()).resolves.toMatch(/QUERY_SYNTAX/)
    // the message says what is wrong first (not which package found it), then shows where
    const message = await alert.locator('pre').textContent()
    expect(message).toMatch(/^"\(" is never closed with "\)" at position 0\n/)
    await expect(page.evaluate('getComputedStyle(document.querySelector("#error pre")).whiteSpace')).resolves.toBe('pre-wrap')
    await expect(results().count()).resolves.toBe(0)
    await expect(count()).resolves.toBe('')
    await shot('07-error')

    // the next good search clears it
    await page.getByLabel('Search articles').fill(QUERY)
    await searching(() => page.getByLabel('Search articles').press('Enter'))
    await expect(page.locator('#error').textContent()).resolves.toBe('')
  })

  it('runs a feedback session: grade buttons, the next ten re-ranked without repeats, grades logged', async () => {
    await open(`?q=${encodeURIComponent(QUERY)}`)
    const start = page.getByRole('button', { name: 'Refine with feedback' })
    await start.waitFor({ state: 'visible' })
    const [started] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/sessions'), start.click()])
    expect(started.status()).toBe(201)
    const items = page.locator('#feedback-list > li.result')
    const pmids = async (): Promise<Array<string | null>> => Promise.all((await items.all()).map((item) => item.getAttribute('data-pmid')))
    await items.first().waitFor()
    await expect(items.count()).resolves.toBe(10)
    await expect(page.locator('#feedback-status').innerText()).resolves.toMatch(/^Round 1 for “cell OR patients”/)
    expect(new URL(page.url()).searchParams.get('fb')).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const firstRound = await pmids()
    // grade two articles with the buttons (labels are the click targets)
    await items.nth(0).getByLabel('Highly relevant').check()
    await items.nth(1).getByLabel('Not relevant').check()
    await shot('08-feedback-round-1')
    const [graded] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/grades')), page.getByRole('button', { name: 'Next 10' }).click()])
    expect(graded.status()).toBe(200)
    const sent = JSON.parse(graded.request().postData() ?? '{}') as { shown: string[]; grades: Record<string, string> }
    expect(sent.shown).toEqual(firstRound)
    expect(sent.grades).toEqual({ [firstRound[0]!]: 'highly-relevant', [firstRound[1]!]: 'non-relevant' })
    await page.waitForFunction('document.querySelector("#feedback-status").innerText.startsWith("Round 2")')
    const secondRound = await pmids()
    expect(secondRound.filter((pmid) => firstRound.includes(pmid))).toEqual([])
    await expect(page.locator('#feedback-terms').innerText()).resolves.toMatch(/^Query now weighs: /)
    await shot('09-feedback-round-2')
    // the graded round is in the search log
    const action = await logged((e) => e.type === 'action' && e.id === firstRound[0] && e.kind === 'fulltext_request')
    expect(action).toMatchObject({ position: 1 })
    // a reload continues the session where it was
    await Promise.all([page.waitForResponse((r) => r.url().includes('/next')), page.reload()])
    await page.waitForFunction('document.querySelector("#feedback-status").innerText.startsWith("Round 2")')
    await expect(pmids()).resolves.toEqual(secondRound)
    await page.getByRole('button', { name: 'End feedback' }).click()
    await expect(page.locator('#feedback').isHidden()).resolves.toBe(true)
    await expect(page.locator('#results').isVisible()).resolves.toBe(true)
  })

  it('made no request beyond the server except the stubbed PubMed and PMC pages', () => {
    expect(elsewhere.filter((url) => !/^https:\/\/(pubmed\.ncbi\.nlm\.nih\.gov|www\.ncbi\.nlm\.nih\.gov)\//.test(url))).toEqual([])
  })
})
