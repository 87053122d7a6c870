import { childText } from "../xml/tree.js";
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?/i;
const SEASON_NAME = /\b(spring|summer|fall|autumn|winter)\b/i;
const YEAR = /\b(1[5-9]\d\d|2\d\d\d)\b/;
/**
 * A month from PubMed text: a number (`01`, `7`) or an English name or abbreviation
 * (`Jan`, `January`, `Sept`). Returns undefined for anything else.
 * @param text - the `Month` element's text
 */
export function parseMonth(text) {
    if (text === undefined) {
        return undefined;
    }
    const trimmed = text.trim();
    if (/^\d{1,2}$/.test(trimmed)) {
        const month = Number(trimmed);
        return month >= 1 && month <= 12 ? month : undefined;
    }
    const name = MONTH_NAME.exec(trimmed);
    return name === null ? undefined : MONTHS.indexOf(name[1].toLowerCase()) + 1;
}
function parseDay(text) {
    if (text === undefined || !/^\s*\d{1,2}\s*$/.test(text)) {
        return undefined;
    }
    const day = Number(text);
    return day >= 1 && day <= 31 ? day : undefined;
}
function parseYear(text) {
    const match = text === undefined ? null : YEAR.exec(text);
    return match === null ? undefined : Number(match[1]);
}
function capitalise(word) {
    return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}
/**
 * Normalises a free-text `MedlineDate` (`1998 Dec-1999 Jan`, `2015 Oct-Dec`, `2000 Spring`,
 * `1977-1978`): the first year and the first month found, the day when a number follows
 * that month directly (`2004 Jun 1-15` → 1), a season when one is named, and the raw text.
 * @param text - the MedlineDate text
 */
export function parseMedlineDate(text) {
    const raw = text.trim();
    const date = { medlineDate: raw };
    const year = parseYear(raw);
    if (year !== undefined) {
        date.year = year;
    }
    const month = MONTH_NAME.exec(raw);
    if (month !== null) {
        date.month = MONTHS.indexOf(month[1].toLowerCase()) + 1;
        const day = /^\s+(\d{1,2})\b/.exec(raw.slice(month.index + month[0].length));
        const parsedDay = parseDay(day?.[1]);
        if (parsedDay !== undefined) {
            date.day = parsedDay;
        }
    }
    const season = SEASON_NAME.exec(raw);
    if (season !== null) {
        date.season = capitalise(season[1]);
    }
    return date;
}
/**
 * Reads a PubMed date element (`PubDate`, `ArticleDate`, `DateCompleted`, `DateRevised`,
 * `PubMedPubDate`, `BeginningDate`…): `Year`, `Month` (number or name), `Day`, `Season`, or
 * a `MedlineDate`. A `Season` is kept as written (`Fall`, or a range such as `May-Jun`, which
 * also gives its first month). Returns undefined when the element is absent or holds no
 * date at all.
 * @param element - the date element
 */
export function parsePartialDate(element) {
    if (element === undefined) {
        return undefined;
    }
    const medlineDate = childText(element, 'MedlineDate');
    if (medlineDate !== undefined) {
        return parseMedlineDate(medlineDate);
    }
    const date = {};
    const year = parseYear(childText(element, 'Year'));
    if (year !== undefined) {
        date.year = year;
    }
    const month = parseMonth(childText(element, 'Month'));
    if (month !== undefined) {
        date.month = month;
    }
    const day = parseDay(childText(element, 'Day'));
    if (day !== undefined && month !== undefined) {
        date.day = day;
    }
    const season = childText(element, 'Season');
    if (season !== undefined) {
        date.season = season;
        if (date.month === undefined) {
            const seasonMonth = parseMonth(season);
            if (seasonMonth !== undefined) {
                date.month = seasonMonth;
            }
        }
    }
    return Object.keys(date).length === 0 ? undefined : date;
}
