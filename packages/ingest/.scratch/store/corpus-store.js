import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PubmatchError, isPubmatchError, } from '@pubmatch/core';
import { temporaryPathFor, writeFileAtomic } from '@pubmatch/core/node';
/** The manifest's file name inside a corpus directory. */
export const MANIFEST_FILE = 'CORPUS.json';
const FORMAT = 'pubmatch-corpus';
const FORMAT_VERSION = 1;
const LOCK_FILE = '.lock';
/** All-zero {@link SourceCounts}. */
export const emptyCounts = () => ({
    added: 0,
    updated: 0,
    unchanged: 0,
    stale: 0,
    deleted: 0,
    deletedUnknown: 0,
    fullTexts: 0,
    mesh: 0,
    errors: 0,
});
/**
 * Opens (or creates) a corpus directory.
 * @param dir - the corpus directory
 * @param options - see {@link OpenCorpusOptions}
 */
export async function openCorpus(dir, options = {}) {
    const manifestPath = join(dir, MANIFEST_FILE);
    let manifest;
    const existing = await readManifest(manifestPath);
    if (existing) {
        manifest = existing;
    }
    else if (options.create) {
        await mkdir(join(dir, 'segments'), { recursive: true });
        const now = new Date().toISOString();
        manifest = { format: FORMAT, version: FORMAT_VERSION, createdAt: now, updatedAt: now, segments: [], sources: [] };
        await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    else {
        throw new PubmatchError('NOT_FOUND', `ingest: no corpus at ${dir} (no ${MANIFEST_FILE}); run \`pubmatch ingest\` first`, {
            details: { file: dir },
        });
    }
    if (!options.readOnly) {
        await acquireLock(dir);
        await sweepTemporaryFiles(dir);
    }
    const state = await replay(dir, manifest);
    return createStore(dir, manifest, state, options.readOnly ?? false);
}
function createStore(dir, manifest, state, readOnly) {
    const manifestPath = join(dir, MANIFEST_FILE);
    const segmentsDir = join(dir, 'segments');
    const assertWritable = () => {
        if (readOnly) {
            throw new PubmatchError('INVALID_ARGUMENT', `ingest: corpus ${dir} was opened read-only`);
        }
    };
    const saveManifest = async () => {
        manifest.updatedAt = new Date().toISOString();
        await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    const nextSegmentName = () => {
        const last = manifest.segments.reduce((max, s) => Math.max(max, Number.parseInt(s.file, 10) || 0), 0);
        return `${String(last + 1).padStart(6, '0')}.jsonl.gz`;
    };
    async function* liveRecords(kind, live) {
        if (live.size === 0) {
            return;
        }
        const wanted = new Map();
        for (const entry of live.values()) {
            let lines = wanted.get(entry.segment);
            if (!lines) {
                lines = new Set();
                wanted.set(entry.segment, lines);
            }
            lines.add(entry.line);
        }
        for (const [index, segment] of manifest.segments.entries()) {
            const lines = wanted.get(index);
            if (!lines) {
                continue;
            }
            for await (const { line, op } of readSegment(segmentsDir, segment)) {
                if (op.op === kind && lines.has(line)) {
                    yield (op.op === 'put' ? op.article : op.op === 'fulltext' ? op.document : op.op === 'mesh' ? op.entry : undefined);
                }
            }
        }
    }
    const store = {
        dir,
        stats: () => ({
            articles: state.articles.size,
            fullTexts: state.fullTexts.size,
            mesh: state.mesh.size,
            deleted: state.tombstones.size,
            segments: manifest.segments.length,
            sources: manifest.sources.length,
            errors: state.errors,
        }),
        completedSource: (key, fingerprint) => manifest.sources.find((s) => s.key === key && s.fingerprint === fingerprint),
        sources: () => manifest.sources,
        async writeSource(source, records, onRecord) {
            assertWritable();
            const counts = emptyCounts();
            const segmentIndex = manifest.segments.length;
            // Changes are staged and applied to the live state only once the segment is durable.
            const staged = [];
            const pending = new Map();
            const pendingFull = new Map();
            const current = (id) => pending.has(id) ? pending.get(id) : state.articles.get(id);
            const writer = createSegmentWriter(segmentsDir, nextSegmentName());
            try {
                for await (const record of records) {
                    onRecord?.(record);
                    switch (record.kind) {
                        case 'article': {
                            const article = record.article;
                            const digest = contentHash(article);
                            const before = current(article.id);
                            if (before && before.version > article.version) {
                                counts.stale++;
                                break;
                            }
                            if (before && before.version === article.version && before.hash === digest) {
                                counts.unchanged++;
                                break;
                            }
                            counts[before ? 'updated' : 'added']++;
                            const at = await writer.write({ op: 'put', hash: digest, article });
                            pending.set(article.id, { version: article.version, hash: digest });
                            staged.push(() => {
                                state.articles.set(article.id, { segment: segmentIndex, line: at, version: article.version, hash: digest });
                                state.tombstones.delete(article.id);
                            });
                            break;
                        }
                        case 'delete': {
                            for (const { id, version } of record.deleted) {
                                const before = current(id);
                                if (before && version !== undefined && before.version > version) {
                                    continue; // a deletion of an older version leaves the newer one in place
                                }
                                counts[before ? 'deleted' : 'deletedUnknown']++;
                                await writer.write(version === undefined ? { op: 'delete', id } : { op: 'delete', id, version });
                                pending.set(id, null);
                                staged.push(() => {
                                    state.articles.delete(id);
                                    state.tombstones.set(id, version ?? 0);
                                });
                            }
                            break;
                        }
                        case 'fulltext': {
                            const document = record.document;
                            const digest = contentHash(document);
                            const before = pendingFull.get(document.pmcid) ?? state.fullTexts.get(document.pmcid)?.hash;
                            if (before === digest) {
                                counts.unchanged++;
                                break;
                            }
                            counts.fullTexts++;
                            const at = await writer.write({ op: 'fulltext', hash: digest, document });
                            pendingFull.set(document.pmcid, digest);
                            staged.push(() => {
                                state.fullTexts.set(document.pmcid, { segment: segmentIndex, line: at, version: 1, hash: digest });
                            });
                            break;
                        }
                        case 'mesh': {
                            const entry = record.entry;
                            const key = meshKey(entry);
                            const digest = contentHash(entry);
                            const before = pendingFull.get(key) ?? state.mesh.get(key)?.hash;
                            if (before === digest) {
                                counts.unchanged++;
                                break;
                            }
                            counts.mesh++;
                            const at = await writer.write({ op: 'mesh', hash: digest, entry });
                            pendingFull.set(key, digest);
                            staged.push(() => {
                                state.mesh.set(key, { segment: segmentIndex, line: at, version: 1, hash: digest });
                            });
                            break;
                        }
                        case 'error': {
                            counts.errors++;
                            await writer.write({ op: 'error', source: source.key, error: storedError(record.error) });
                            staged.push(() => {
                                state.errors++;
                            });
                            break;
                        }
                    }
                }
            }
            catch (error) {
                await writer.abort();
                throw error;
            }
            const segment = await writer.finish();
            if (segment) {
                manifest.segments.push(segment);
            }
            const entry = {
                key: source.key,
                fingerprint: source.fingerprint,
                segment: segment?.file ?? null,
                completedAt: new Date().toISOString(),
                counts,
            };
            manifest.sources = manifest.sources.filter((s) => s.key !== source.key);
            manifest.sources.push(entry);
            await saveManifest();
            for (const apply of staged) {
                apply();
            }
            return entry;
        },
        articles: () => liveRecords('put', state.articles),
        fullTexts: () => liveRecords('fulltext', state.fullTexts),
        mesh: () => liveRecords('mesh', state.mesh),
        async *errors() {
            for (const segment of manifest.segments) {
                for await (const { op } of readSegment(segmentsDir, segment)) {
                    if (op.op === 'error') {
                        yield { source: op.source, ...op.error };
                    }
                }
            }
        },
        async *changes(after) {
            for (const segment of manifest.segments) {
                if (after !== undefined && segment.file <= after) {
                    continue;
                }
                for await (const { op } of readSegment(segmentsDir, segment)) {
                    if (op.op === 'put') {
                        yield { kind: 'article', article: op.article, segment: segment.file };
                    }
                    else if (op.op === 'delete') {
                        yield op.version === undefined
                            ? { kind: 'delete', id: op.id, segment: segment.file }
                            : { kind: 'delete', id: op.id, version: op.version, segment: segment.file };
                    }
                }
            }
        },
        lastSegment: () => manifest.segments.at(-1)?.file,
        async getArticle(id) {
            const entry = state.articles.get(id);
            const segment = entry ? manifest.segments[entry.segment] : undefined;
            if (!entry || !segment) {
                return undefined;
            }
            for await (const { line, op } of readSegment(segmentsDir, segment)) {
                if (line === entry.line && op.op === 'put') {
                    return op.article;
                }
            }
            throw new PubmatchError('CORPUS_CORRUPTED', `ingest: article ${id} is missing from segment ${segment.file}`, {
                details: { file: join(segmentsDir, segment.file), record: id },
            });
        },
        has: (id) => state.articles.has(id),
        async compact() {
            assertWritable();
            const old = manifest.segments.map((s) => s.file);
            const writer = createSegmentWriter(segmentsDir, nextSegmentName());
            try {
                for await (const article of store.articles()) {
                    await writer.write({ op: 'put', hash: contentHash(article), article });
                }
                for await (const document of store.fullTexts()) {
                    await writer.write({ op: 'fulltext', hash: contentHash(document), document });
                }
                for await (const entry of store.mesh()) {
                    await writer.write({ op: 'mesh', hash: contentHash(entry), entry });
                }
                for (const [id, version] of state.tombstones) {
                    await writer.write(version === 0 ? { op: 'delete', id } : { op: 'delete', id, version });
                }
                for await (const { source, ...error } of store.errors()) {
                    await writer.write({ op: 'error', source, error });
                }
            }
            catch (error) {
                await writer.abort();
                throw error;
            }
            const segment = await writer.finish();
            manifest.segments = segment ? [segment] : [];
            for (const source of manifest.sources) {
                source.segment = segment?.file ?? null;
            }
            await saveManifest();
            Object.assign(state, await replay(dir, manifest));
            for (const file of old) {
                await rm(join(segmentsDir, file), { force: true });
            }
        },
        async close() {
            if (!readOnly) {
                await rm(join(dir, LOCK_FILE), { force: true });
            }
        },
    };
    return store;
}
/** Writes a gzip'd JSON-lines segment to a temporary file, renamed into place on finish. */
function createSegmentWriter(segmentsDir, name) {
    const finalPath = join(segmentsDir, name);
    const tmpPath = temporaryPathFor(finalPath);
    const gzip = createGzip({ level: 6 });
    const done = pipeline(gzip, createWriteStream(tmpPath));
    const hash = createHash('sha256');
    let bytes = 0;
    gzip.on('data', (chunk) => {
        hash.update(chunk);
        bytes += chunk.length;
    });
    let lines = 0;
    return {
        async write(op) {
            if (!gzip.write(`${JSON.stringify(op)}\n`)) {
                await new Promise((resolve) => gzip.once('drain', resolve));
            }
            return lines++;
        },
        async finish() {
            gzip.end();
            await done;
            if (lines === 0) {
                await rm(tmpPath, { force: true });
                return null;
            }
            const handle = await open(tmpPath, 'r+');
            await handle.sync();
            await handle.close();
            await rename(tmpPath, finalPath);
            return { file: name, sha256: hash.digest('hex'), bytes, operations: lines };
        },
        async abort() {
            gzip.destroy();
            await done.catch(() => undefined);
            await rm(tmpPath, { force: true });
        },
    };
}
/**
 * The content hash that makes re-ingesting idempotent: the same article with the same
 * version hashes the same, so it is counted as unchanged and not written again.
 * @param value - an article or full text
 */
export function contentHash(value) {
    return createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 20);
}
function meshKey(entry) {
    return `${entry.type}:${entry.record.ui}`;
}
function storedError(error) {
    return { code: error.code, message: error.message, details: error.details };
}
async function readManifest(path) {
    let text;
    try {
        text = await readFile(path, 'utf8');
    }
    catch (error) {
        if (error.code === 'ENOENT') {
            return undefined;
        }
        throw new PubmatchError('IO', `ingest: cannot read ${path}: ${error.message}`, {
            cause: error,
            details: { file: path },
        });
    }
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch (error) {
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: ${path} is not valid JSON`, { cause: error, details: { file: path } });
    }
    const m = parsed;
    if (m.format !== FORMAT || !Array.isArray(m.segments) || !Array.isArray(m.sources)) {
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: ${path} is not a pubmatch corpus manifest`, {
            details: { file: path },
        });
    }
    if (m.version !== FORMAT_VERSION) {
        throw new PubmatchError('SCHEMA_MISMATCH', `ingest: ${path} has corpus format version ${String(m.version)}; this pubmatch reads version ${FORMAT_VERSION}`, { details: { file: path } });
    }
    return m;
}
async function* readSegment(segmentsDir, segment) {
    const path = join(segmentsDir, segment.file);
    const hash = createHash('sha256');
    let raw;
    try {
        await stat(path);
        raw = createReadStream(path);
    }
    catch (error) {
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: segment ${segment.file} listed in the manifest is missing`, {
            cause: error,
            details: { file: path },
        });
    }
    raw.on('data', (chunk) => hash.update(chunk));
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    const lines = createInterface({ input: raw.pipe(gunzip), crlfDelay: Infinity });
    let line = 0;
    try {
        for await (const text of lines) {
            if (text.length === 0) {
                continue;
            }
            let op;
            try {
                op = JSON.parse(text);
            }
            catch (error) {
                throw new PubmatchError('CORPUS_CORRUPTED', `ingest: segment ${segment.file} line ${line + 1} is not valid JSON`, {
                    cause: error,
                    details: { file: path, position: line + 1 },
                });
            }
            yield { line: line++, op };
        }
    }
    catch (error) {
        if (isPubmatchError(error)) {
            throw error;
        }
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: segment ${segment.file} cannot be read: ${error.message}`, {
            cause: error,
            details: { file: path },
        });
    }
    const digest = hash.digest('hex');
    if (digest !== segment.sha256) {
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: segment ${segment.file} fails its checksum (sha256 ${digest.slice(0, 12)}…, manifest says ${segment.sha256.slice(0, 12)}…)`, { details: { file: path } });
    }
    if (line !== segment.operations) {
        throw new PubmatchError('CORPUS_CORRUPTED', `ingest: segment ${segment.file} has ${line} operations, manifest says ${segment.operations}`, {
            details: { file: path },
        });
    }
}
async function replay(dir, manifest) {
    const state = { articles: new Map(), fullTexts: new Map(), mesh: new Map(), tombstones: new Map(), errors: 0 };
    const segmentsDir = join(dir, 'segments');
    for (const [index, segment] of manifest.segments.entries()) {
        for await (const { line, op } of readSegment(segmentsDir, segment)) {
            switch (op.op) {
                case 'put':
                    state.articles.set(op.article.id, { segment: index, line, version: op.article.version, hash: op.hash });
                    state.tombstones.delete(op.article.id);
                    break;
                case 'delete':
                    state.articles.delete(op.id);
                    state.tombstones.set(op.id, op.version ?? 0);
                    break;
                case 'fulltext':
                    state.fullTexts.set(op.document.pmcid, { segment: index, line, version: 1, hash: op.hash });
                    break;
                case 'mesh':
                    state.mesh.set(meshKey(op.entry), { segment: index, line, version: 1, hash: op.hash });
                    break;
                case 'error':
                    state.errors++;
                    break;
            }
        }
    }
    return state;
}
async function acquireLock(dir) {
    const path = join(dir, LOCK_FILE);
    for (let attempt = 0; attempt < 2; attempt++) {
        try {
            const handle = await open(path, 'wx');
            await handle.writeFile(String(process.pid));
            await handle.close();
            return;
        }
        catch (error) {
            if (error.code !== 'EEXIST') {
                throw new PubmatchError('IO', `ingest: cannot lock ${dir}: ${error.message}`, { cause: error });
            }
            const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
            if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) {
                throw new PubmatchError('IO', `ingest: corpus ${dir} is in use by process ${pid} (lock file ${path})`, {
                    details: { file: path },
                });
            }
            // A stale lock from a process that died (e.g. an interrupted ingest): take it over.
            await rm(path, { force: true });
        }
    }
    throw new PubmatchError('IO', `ingest: cannot lock ${dir}`);
}
function isAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
async function sweepTemporaryFiles(dir) {
    for (const sub of [dir, join(dir, 'segments')]) {
        const names = await readdir(sub).catch(() => []);
        for (const name of names) {
            if (name.startsWith('.tmp-')) {
                await rm(join(sub, name), { force: true });
            }
        }
    }
}
