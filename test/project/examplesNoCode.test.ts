/**
 * Examples are built from nodes and plain references (issue #46, point 6): no Code node and no
 * JavaScript in an expression, counted as the issue counts it. The examples not rebuilt yet are
 * listed; a test here fails when code comes into any other.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const JAVASCRIPT = /=>|\bfunction\b|\.map\(|\.reduce\(|\.filter\(|\.forEach\(|\breturn\b|\bconst\b|\blet\b/;

interface ExampleNode {
	name: string;
	type: string;
	parameters: unknown;
}

/** The nodes of an example that hold code: Code nodes, and expressions with JavaScript in them. */
function nodesWithCode(file: string): string[] {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: ExampleNode[] };
	const expressions = (value: unknown): string[] => {
		if (typeof value === 'string') return value.startsWith('=') ? [value] : [];
		if (Array.isArray(value)) return value.flatMap(expressions);
		if (value && typeof value === 'object') return Object.values(value).flatMap(expressions);
		return [];
	};
	return workflow.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.filter((node) => node.type === 'n8n-nodes-base.code' || expressions(node.parameters).some((text) => JAVASCRIPT.test(text)))
		.map((node) => node.name);
}

test('no example has code', () => {
	const files = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));
	expect(files).toContain('payroll-with-approval.json');
	const withCode = Object.fromEntries(files.map((file) => [file, nodesWithCode(file)]).filter(([, nodes]) => nodes.length > 0));
	expect(withCode).toEqual({});
});

test('the count catches code (an arrow function in an expression, a Code node), not a plain reference', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-'));
	const sample = { nodes: [{ name: 'Rows', type: 'n8n-nodes-base.set', parameters: { jsonOutput: '={{ $json.rows.map((r) => r.id) }}' } }, { name: 'Plain', type: 'n8n-nodes-base.set', parameters: { value: "={{ $('Pay').last().json.fingerprint }}" } }, { name: 'Code', type: 'n8n-nodes-base.code', parameters: {} }] };
	fs.writeFileSync(path.join(dir, 'sample.json'), JSON.stringify(sample));
	const relative = path.relative(EXAMPLES, path.join(dir, 'sample.json'));
	expect(nodesWithCode(relative)).toEqual(['Rows', 'Code']);
	fs.rmSync(dir, { recursive: true });
});
