/**
 * User pages hold no development history (issue #47, point 5): no commit hash, issue number,
 * "recorded 20…" or "Until 20…". That history lives in docs/development.md, docs/ledger.md and
 * the CHANGELOG; a user page keeps one result line and a link.
 */
import fs from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const NOT_USER_PAGES = new Set(['docs/development.md', 'docs/ledger.md', 'docs/sandbox-spec.md']);

export const USER_PAGES = [
	'README.md',
	...fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`)
		.filter((page) => !NOT_USER_PAGES.has(page)),
];

/** A commit hash: 7 to 40 hex characters with a letter and a digit among them. */
const HASH = /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/;
const HISTORY: Array<[string, RegExp]> = [
	['a commit hash', HASH],
	['an issue number', /\bissues? #?\d+|(^|[\s(])#\d+\b/i],
	['"recorded 20…"', /recorded 20/i],
	['"Until 20…"', /until 20\d\d/i],
];

/** Every line of the pages that tells development history, as "page:line: what". */
export function historyLines(pages: string[], read = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8')): string[] {
	return pages.flatMap((page) =>
		read(page)
			.split('\n')
			.flatMap((line, at) => HISTORY.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${page}:${at + 1}: ${what}`)),
	);
}

test('no user page tells development history', () => {
	expect(USER_PAGES).toContain('docs/self-hosting.md');
	expect(historyLines(USER_PAGES)).toEqual([]);
});

test('the check finds each kind, and not a phone number or an anchor', () => {
	const page = ['measured at commit 844ba91', 'see issue #29', '(run recorded 2026-11-25)', 'Until 2026-11-27 it did', 'pay 254799000005', 'see [x](#queue-mode)'].join('\n');
	expect(historyLines(['page.md'], () => page)).toEqual(['page.md:1: a commit hash', 'page.md:2: an issue number', 'page.md:3: "recorded 20…"', 'page.md:4: "Until 20…"']);
});
