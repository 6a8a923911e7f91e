/**
 * Every relative link in the user's and the contributor's pages leads somewhere (issue #33): a
 * file or folder that exists, and an anchor (`#…`) that is a heading of the page it points into,
 * as GitHub makes heading anchors. And the README stays short: at most README_MAX_LINES lines
 * (n8n's own community-node READMEs are a page or two; the rest lives in docs/).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
export const README_MAX_LINES = 300;
const PAGES = [
	'README.md',
	'CONTRIBUTING.md',
	...fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => `docs/${f}`),
].filter((page) => fs.existsSync(path.join(ROOT, page)));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[`*_]/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a page's headings (repeats get -1, -2, … as on GitHub). */
function anchorsOf(file: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	let fenced = false;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (/^\s*```/.test(line)) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const base = slug(heading[1]);
		const count = seen.get(base) ?? 0;
		anchors.add(count === 0 ? base : `${base}-${count}`);
		seen.set(base, count + 1);
	}
	return anchors;
}

/** The relative links of a page, outside code: [text](target). */
function linksOf(file: string): string[] {
	const text = fs
		.readFileSync(file, 'utf8')
		.replace(/```[\s\S]*?```/g, '')
		.replace(/`[^`\n]*`/g, '');
	return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
		.map((m) => m[1])
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe.each(PAGES)('%s: relative links', (page) => {
	const file = path.join(ROOT, page);
	test('every file, folder and heading linked to exists', () => {
		const broken: string[] = [];
		for (const link of linksOf(file)) {
			const [target, anchor] = link.split('#');
			const into = target === '' ? file : path.resolve(path.dirname(file), decodeURI(target));
			if (!fs.existsSync(into)) {
				broken.push(`${link}: no such file`);
				continue;
			}
			if (anchor !== undefined && into.endsWith('.md') && !anchorsOf(into).has(anchor)) {
				broken.push(`${link}: no heading with that anchor`);
			}
		}
		expect(broken).toEqual([]);
	});
});

describe('README.md: length', () => {
	test(`at most ${README_MAX_LINES} lines`, () => {
		const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
		expect({ lines: lines.length, max: README_MAX_LINES }).toEqual({
			lines: Math.min(lines.length, README_MAX_LINES),
			max: README_MAX_LINES,
		});
	});
});
