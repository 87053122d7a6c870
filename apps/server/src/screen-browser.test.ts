/**
 * The screening page end to end in Debian's Chromium (playwright-core): a project of the bundled
 * MEDLINE sample with a question, a server over it, decisions clicked in the page, then the
 * decision log read back from disk with `@pubmatch/screen` and exported. Nothing waits for a
 * time: Playwright waits for elements (the shared vitest configuration's hang guard stops a stuck
 * run).
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSearch, type SearchEngine } from '@pubmatch/engine'
import { samplePath } from '@pubmatch/sample-data'
import { createScreeningProject, openScreeningProject, readCandidates } from '@pubmatch/screen'
import { sampleIndex } from '../test/fixtures.ts'
import { createServer, type FastifyInstance } from './server.ts'

const CHROMIUM = '/usr/bin/chromium'

describe.runIf(existsSync(CHROMIUM))('screening page in Chromium', () => {
  let dir: string
  let engine: SearchEngine
  let app: FastifyInstance
  let base: string
  let browser: Browser

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-screen-'))
    const xml = samplePath('pubmed', 'medsamp2006.xml')
    engine = await openSearch({ index: await sampleIndex(dir, [xml, samplePath('mesh', 'desc-samples.xml')]) })
    const { articles } = await readCandidates([xml])
    await createScreeningProject(join(dir, 'projects', 'sample'), { name: 'sample', articles, question: 'cancer cells' })
    app = await createServer({ engine, rateLimit: false, screenDir: join(dir, 'projects') })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (address === null || typeof address === 'string') {
      throw new Error('the server is not listening on a TCP port')
    }
    base = `http://127.0.0.1:${address.port}/`
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'], timeout: 0 })
  })

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('screens records in the page; the decisions are on disk in decision order', async () => {
    const context = await browser.newContext()
    context.setDefaultTimeout(0)
    await context.route((url) => !url.href.startsWith(base), (route) => route.abort())
    const page = await context.newPage()
    await page.goto(`${base}screen.html`)
    await page.locator('#project').selectOption('sample')
    await page.locator('#project-form button').click()
    const title = page.locator('#record-title')
    await expect.poll(() => title.getAttribute('data-id')).not.toBeNull()
    const clicked: Array<[string, string]> = []
    for (const [button, decision] of [
      ['#include', 'include'],
      ['#exclude', 'exclude'],
      ['#include-high', 'include'],
    ] as const) {
      const id = (await title.getAttribute('data-id'))!
      clicked.push([id, decision])
      await page.locator(button).click()
      await expect.poll(() => page.locator('#status').textContent()).toMatch(new RegExp(`^${clicked.length} of \\d+ screened`))
      // the status and the next record arrive apart: read the next id only once it is shown
      await expect.poll(() => title.getAttribute('data-id')).not.toBe(id)
    }
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/: 2 included, 1 excluded$/)
    expect(await page.locator('#advice').textContent()).toMatch(/knee method/)
    expect(await page.locator('#export-included').getAttribute('href')).toBe('screen/projects/sample/export?format=ris&which=included')
    await context.close()

    // what the page decided is in the log, in order, with the grade of the third
    const project = await openScreeningProject(join(dir, 'projects', 'sample'))
    expect(project.history().map((e) => [e.id, e.decision])).toEqual(clicked)
    expect(project.history()[2]!.grade).toBe('highly-relevant')
    const ris = await (await fetch(`${base}screen/projects/sample/export?format=ris&which=included`)).text()
    expect(ris.match(/^TY {2}- JOUR$/gm)).toHaveLength(2)
  })

  it('answers 404 for an unknown project and 400 for a bad decision', async () => {
    expect((await fetch(`${base}screen/projects/none/status`)).status).toBe(404)
    const bad = await fetch(`${base}screen/projects/sample/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decisions: [{ id: 'x', decision: 'maybe' }] }) })
    expect(bad.status).toBe(400)
    const unknown = await fetch(`${base}screen/projects/sample/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decisions: [{ id: 'not-a-candidate', decision: 'include' }] }) })
    expect(unknown.status).toBe(404)
  })
})
