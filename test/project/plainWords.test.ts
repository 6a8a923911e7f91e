/**
 * Plain words in user pages (issue #47, point 6): a page that uses one of the package's own words
 * explains it, in bold where it is defined or with a link to docs/glossary.md.
 */
import fs from 'fs';
import path from 'path';

import { USER_PAGES } from './userPages.test';

const ROOT = path.resolve(__dirname, '..', '..');
/** The word, and its anchor in docs/glossary.md. */
const WORDS: Array<[string, string]> = [
	['claim', 'claim'],
	['store call', 'store-call'],
	['write-back', 'write-back'],
	['takeover', 'takeover'],
	['window', 'window'],
	['run mark', 'run-mark'],
	['onReceived', 'onreceived'],
	['responseNode', 'onreceived'],
	['fails closed', 'fails-closed'],
	['minor units', 'minor-units'],
	['fingerprint', 'fingerprint'],
	['pinned data', 'pinned-data'],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words a page uses and neither defines in bold nor links to the glossary. */
export function unexplained(page: string, text: string): string[] {
	return WORDS.filter(([word, anchor]) => {
		if (!new RegExp(`\\b${escape(word)}`, 'i').test(text)) return false;
		const bold = new RegExp(`\\*\\*\`?${escape(word)}`, 'i').test(text);
		return !bold && !text.includes(`glossary.md#${anchor}`);
	}).map(([word]) => `${page}: ${word}`);
}

test('every user page explains the package\'s own words it uses', () => {
	const pages = USER_PAGES.filter((page) => page !== 'docs/glossary.md');
	expect(pages.flatMap((page) => unexplained(page, fs.readFileSync(path.join(ROOT, page), 'utf8')))).toEqual([]);
});

test('the glossary has every word, and the check finds a word left unexplained', () => {
	const glossary = fs.readFileSync(path.join(ROOT, 'docs/glossary.md'), 'utf8');
	const anchors = [...glossary.matchAll(/^### (.+)$/gm)].map(([, title]) => title.toLowerCase().replace(/\s+/g, '-'));
	for (const [, anchor] of WORDS) expect([anchor, anchors.includes(anchor)]).toEqual([anchor, true]);
	expect(unexplained('page.md', 'Each claim waits.')).toEqual(['page.md: claim']);
	expect(unexplained('page.md', 'Each [claim](glossary.md#claim) waits.')).toEqual([]);
	expect(unexplained('page.md', 'A **claim** is a record.')).toEqual([]);
});
