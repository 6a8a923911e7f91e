/**
 * The examples that need n8n 2.x (tooling/demo/examples.ts: NEEDS_N8N_2) are the ones the README's
 * Compatibility section names and the ones whose first note says "Needs n8n 2.x": on n8n 1.x the
 * demo and the examples suite leave out exactly those (test/e2e/examples.e2e.test.ts prints them
 * and checks the same list in n8n 1.123).
 */
import fs from 'fs';
import path from 'path';

import { EXAMPLES_DIR, forN8nMajor, loadExamples, NEEDS_N8N_2 } from '../../tooling/demo/examples';

const README = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
const files = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
const needed = Object.keys(NEEDS_N8N_2).sort();

/** The example files named in the Compatibility table's row of examples that need n8n 2.x. */
function namedInCompatibility(): string[] {
	const section = README.split(/^## /m).find((part) => part.startsWith('Compatibility'));
	const row = section?.split('\n').find((line) => line.startsWith('| **Examples that need n8n 2.x**'));
	if (!row) throw new Error('README.md: the Compatibility table has no "Examples that need n8n 2.x" row');
	return [...row.matchAll(/`([\w-]+\.json)`/g)].map(([, file]) => file).sort();
}

/** The first sticky note of an example (its "About this workflow"). */
function firstNote(file: string): string {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as {
		nodes: Array<{ type: string; parameters: { content?: string } }>;
	};
	return workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')?.parameters.content ?? '';
}

test('every example that needs n8n 2.x is a file in examples/, with a reason', () => {
	for (const file of needed) {
		expect(files).toContain(file);
		expect(NEEDS_N8N_2[file].length).toBeGreaterThan(20);
	}
});

test("the README's Compatibility section names exactly the examples that need n8n 2.x", () => {
	expect(namedInCompatibility()).toEqual(needed);
});

test('the first note of an example says "Needs n8n 2.x" exactly when it needs n8n 2.x', () => {
	const saying = files.filter((file) => firstNote(file).includes('**Needs n8n 2.x**')).sort();
	expect(saying).toEqual(needed);
});

test('on n8n 1.x the examples that need 2.x are left out, each with its reason; on 2.x none', () => {
	const examples = loadExamples({ id: 'WalletTestCred01', name: 'test' });
	const onOne = forN8nMajor(examples, 1);
	expect(onOne.leftOut.map((l) => l.file).sort()).toEqual(needed);
	for (const l of onOne.leftOut) expect(l.reason).toBe(NEEDS_N8N_2[l.file]);
	expect(onOne.examples.map((e) => e.file).sort()).toEqual(files.filter((file) => !NEEDS_N8N_2[file]).sort());
	const onTwo = forN8nMajor(examples, 2);
	expect(onTwo.leftOut).toEqual([]);
	expect(onTwo.examples).toHaveLength(examples.length);
});
