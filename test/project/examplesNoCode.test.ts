/**
 * Examples are built from nodes and plain references: no Code node, and every `{{ … }}` in an
 * expression is one reference n8n's editor makes by dragging a field or choosing a variable
 * (`$json.a.b`, `$('Node').item.json.a`, `.first()`/`.last()`, `.isExecuted`, `$execution.id`,
 * `$now`, the agent's `$fromAI(…)`), never an operator, a call or a conversion (`??`, `!==`,
 * `.split(`, `String(`, `JSON.stringify(`).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const PATH = String.raw`(?:\.[A-Za-z_]\w*|\[(?:'[^']*'|\d+)\])*`;
const NODE = String.raw`\$\('[^']+'\)`;
const QUOTED = String.raw`'[^']*'`;
const REFERENCE = new RegExp(
	'^\\s*(?:' +
		[
			String.raw`\$json${PATH}`,
			String.raw`${NODE}\.(?:item|first\(\)|last\(\))\.json${PATH}`,
			String.raw`${NODE}\.isExecuted`,
			String.raw`\$execution\.(?:id|resumeUrl|resumeFormUrl)`,
			String.raw`\$now|\$today`,
			String.raw`\$tool\.parameters\.[A-Za-z_]\w*`,
			String.raw`\$fromAI\(${QUOTED}(?:,\s*${QUOTED})*\)`,
		].join('|') +
		')\\s*$',
);

/** Whether an expression holds anything but plain references between its `{{` and `}}`. */
const hasCode = (expression: string) => [...expression.matchAll(/\{\{([\s\S]*?)\}\}/g)].some(([, inside]) => !REFERENCE.test(inside));

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
		.filter((node) => node.type === 'n8n-nodes-base.code' || expressions(node.parameters).some(hasCode))
		.map((node) => node.name);
}

test('no example has code', () => {
	const files = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));
	expect(files).toContain('payroll-with-approval.json');
	const withCode = Object.fromEntries(files.map((file) => [file, nodesWithCode(file)]).filter(([, nodes]) => nodes.length > 0));
	expect(withCode).toEqual({});
});

test('the count catches code (an arrow function, an operator, a conversion, a Code node), not a plain reference', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-'));
	const set = (name: string, value: string) => ({ name, type: 'n8n-nodes-base.set', parameters: { value } });
	const sample = {
		nodes: [
			set('Rows', '={{ $json.rows.map((r) => r.id) }}'),
			set('Plain', "={{ $('Pay').last().json.fingerprint }}"),
			set('Default', "=Reason: {{ $json.failedReason ?? '' }}"),
			set('Compare', '={{ $json.alreadySubmitted !== true }}'),
			set('Convert', "={{ String($json.status).toLowerCase() }}"),
			set('Text', "=Paid {{ $json.amount }} {{ $json['currency'] }} on {{ $now }} ({{ $('Rows').item.json.items[0] }})"),
			{ name: 'Code', type: 'n8n-nodes-base.code', parameters: {} },
		],
	};
	fs.writeFileSync(path.join(dir, 'sample.json'), JSON.stringify(sample));
	const relative = path.relative(EXAMPLES, path.join(dir, 'sample.json'));
	expect(nodesWithCode(relative)).toEqual(['Rows', 'Default', 'Compare', 'Convert', 'Code']);
	fs.rmSync(dir, { recursive: true });
});
