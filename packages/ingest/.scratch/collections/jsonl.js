import { basename } from 'node:path';
import { emptyArticle, } from '@pubmatch/core';
import { ingestError } from "../bioc/errors.js";
import { readLines } from "./lines.js";
import { parseMeshHeading } from "./medline-text.js";
class FieldError extends Error {
}
/**
 * Reads a JSON Lines test collection, one article object per line, into articles with
 * source `test-collection`, streaming line by line. Fields (unknown ones are ignored):
 *
 * | field | type | → `Article` |
 * |---|---|---|
 * | `id` (or BEIR's `_id`) | string or number, required | `id` |
 * | `title` | string | `title` (default `''`) |
 * | `abstract` (or BEIR's `text`) | string, string[] or `{ label?, text }[]` | `abstract` sections (empty strings dropped) |
 * | `mesh` | string[] in MEDLINE notation (`*Neoplasms/therapy`) or `{ descriptorName, ui?, majorTopic?, qualifiers? }[]` | `mesh` |
 * | `keywords` | string[] | `keywords` |
 * | `year` | number or numeric string | `pubDate.year` |
 * | `journal` | string (the title) or `{ title?, isoAbbreviation?, medlineTa?, issn?, volume?, issue? }` | `journal` |
 * | `publicationTypes` | string[] or `{ name, ui? }[]` | `publicationTypes` |
 *
 * Blank lines are skipped. A line that is not a JSON object, or has a field of the wrong
 * type, is an `error` record (`MALFORMED_JSON`); one without an id is `MISSING_FIELD`; both
 * name the line. Throws a `PubmatchError` (`IO`) only when the file cannot be read.
 * @param path - the `.jsonl` file
 */
export async function* readJsonlArticles(path) {
    const file = basename(path);
    for await (const { text, number } of readLines(path)) {
        if (text.trim() === '') {
            continue;
        }
        let value;
        try {
            value = JSON.parse(text);
        }
        catch (cause) {
            const reason = cause instanceof Error ? cause.message : String(cause);
            yield {
                kind: 'error',
                error: ingestError('MALFORMED_JSON', { file, line: number }, `not valid JSON (${reason})`, text, cause),
            };
            continue;
        }
        if (!isJson(value)) {
            yield {
                kind: 'error',
                error: ingestError('MALFORMED_JSON', { file, line: number }, 'expected a JSON object', text),
            };
            continue;
        }
        const id = scalar(value.id ?? value._id);
        if (id === undefined || id.trim() === '') {
            yield {
                kind: 'error',
                error: ingestError('MISSING_FIELD', { file, line: number }, 'article has no "id"', text),
            };
            continue;
        }
        try {
            yield { kind: 'article', article: toArticle(id.trim(), value) };
        }
        catch (cause) {
            if (!(cause instanceof FieldError)) {
                throw cause;
            }
            yield {
                kind: 'error',
                error: ingestError('MALFORMED_JSON', { file, line: number, record: id.trim(), label: `article ${id.trim()}` }, cause.message, text),
            };
        }
    }
}
function toArticle(id, value) {
    const article = emptyArticle(id, 'test-collection');
    article.title = optionalString(value.title, 'title') ?? '';
    article.abstract = abstractSections(value.abstract ?? value.text);
    if (value.mesh !== undefined) {
        article.mesh = array(value.mesh, 'mesh').map(meshHeading);
    }
    if (value.keywords !== undefined) {
        article.keywords = array(value.keywords, 'keywords').map((keyword) => ({
            text: requireString(keyword, 'keywords[]'),
            majorTopic: false,
        }));
    }
    if (value.year !== undefined && value.year !== null) {
        const year = scalar(value.year);
        if (year === undefined || !/^\d{4}$/.test(year.trim())) {
            throw new FieldError('"year" is not a four-digit year');
        }
        article.pubDate = { year: Number(year) };
    }
    if (value.journal !== undefined && value.journal !== null) {
        article.journal = journal(value.journal);
    }
    if (value.publicationTypes !== undefined) {
        article.publicationTypes = array(value.publicationTypes, 'publicationTypes').map(publicationType);
    }
    return article;
}
function abstractSections(value) {
    if (value === undefined || value === null) {
        return [];
    }
    const items = typeof value === 'string' ? [value] : array(value, 'abstract');
    const sections = [];
    for (const item of items) {
        if (typeof item === 'string') {
            if (item.trim() !== '') {
                sections.push({ text: item });
            }
        }
        else if (isJson(item) && typeof item.text === 'string') {
            const section = { text: item.text };
            const label = optionalString(item.label, 'abstract[].label');
            if (label !== undefined) {
                section.label = label;
            }
            if (item.text.trim() !== '') {
                sections.push(section);
            }
        }
        else {
            throw new FieldError('"abstract" must be a string, strings or { label?, text } objects');
        }
    }
    return sections;
}
function meshHeading(item) {
    if (typeof item === 'string') {
        return parseMeshHeading(item);
    }
    if (!isJson(item)) {
        throw new FieldError('"mesh" entries must be strings or objects');
    }
    const name = optionalString(item.descriptorName ?? item.name, 'mesh[].descriptorName');
    if (name === undefined) {
        throw new FieldError('"mesh" entry has no descriptorName');
    }
    const heading = {
        descriptorName: name,
        majorTopic: item.majorTopic === true,
        qualifiers: [],
    };
    const ui = optionalString(item.ui ?? item.descriptorUi, 'mesh[].ui');
    if (ui !== undefined) {
        heading.descriptorUi = ui;
    }
    if (item.qualifiers !== undefined) {
        heading.qualifiers = array(item.qualifiers, 'mesh[].qualifiers').map(meshQualifier);
    }
    return heading;
}
function meshQualifier(item) {
    if (typeof item === 'string') {
        return { name: item, majorTopic: false };
    }
    if (isJson(item) && typeof item.name === 'string') {
        return { name: item.name, majorTopic: item.majorTopic === true };
    }
    throw new FieldError('"mesh[].qualifiers" entries must be strings or { name } objects');
}
const JOURNAL_FIELDS = ['title', 'isoAbbreviation', 'medlineTa', 'issn', 'volume', 'issue'];
function journal(value) {
    if (typeof value === 'string') {
        return { title: value };
    }
    if (!isJson(value)) {
        throw new FieldError('"journal" must be a string or an object');
    }
    const result = {};
    for (const field of JOURNAL_FIELDS) {
        const text = optionalString(value[field], `journal.${field}`);
        if (text !== undefined) {
            result[field] = text;
        }
    }
    return result;
}
function publicationType(item) {
    if (typeof item === 'string') {
        return { name: item };
    }
    if (isJson(item) && typeof item.name === 'string') {
        const type = { name: item.name };
        if (typeof item.ui === 'string') {
            type.ui = item.ui;
        }
        return type;
    }
    throw new FieldError('"publicationTypes" entries must be strings or { name } objects');
}
function array(value, field) {
    if (!Array.isArray(value)) {
        throw new FieldError(`"${field}" is not an array`);
    }
    return value;
}
function requireString(value, field) {
    if (typeof value !== 'string') {
        throw new FieldError(`"${field}" is not a string`);
    }
    return value;
}
function optionalString(value, field) {
    return value === undefined || value === null ? undefined : requireString(value, field);
}
function scalar(value) {
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
function isJson(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
