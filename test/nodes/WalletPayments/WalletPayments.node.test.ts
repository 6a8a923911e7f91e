import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { WalletPayments } from '../../../nodes/WalletPayments/WalletPayments.node';
import type { Operation as OperationContract } from '../../../nodes/WalletPayments/actions/operation';
import { resources } from '../../../nodes/WalletPayments/actions/resources';

/** Each operation's kind, as the router finds it: a read, a write, or guarded (sent at most once). */
const kindOf = (resource: string, operation: string) =>
	(resources as unknown as Record<string, { operations: Record<string, OperationContract> }>)[resource].operations[operation].kind;

const ROOT = join(__dirname, '..', '..', '..');
const node = new WalletPayments();
const { description } = node;

type Operation = INodePropertyOptions & { action?: string };

/** [resource, operation option] for every operation of the node. */
const operations: Array<[string, Operation]> = description.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		((property.options ?? []) as Operation[]).map((option) => [property.displayOptions?.show?.resource?.[0] as string, option] as [string, Operation]),
	);

/** The operations that take money out of a wallet or move it between wallets or cards. */
const MONEY_MOVING = ['card.create', 'card.topUp', 'card.withdraw', 'payout.finalizeLegacy', 'payout.initiate', 'swap.finalize'];

function fieldsOf(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter(
		(property) =>
			property.displayOptions?.show?.resource?.includes(resource) && property.displayOptions?.show?.operation?.includes(operation),
	);
}

describe('the node as an AI Agent tool', () => {
	test('is usable as a tool', () => {
		expect(description.usableAsTool).toBe(true);
	});

	test('has all 22 operations, each with a description and an action an agent can act on', () => {
		expect(operations).toHaveLength(22);
		for (const [, operation] of operations) {
			expect(operation.description?.length).toBeGreaterThan(30);
			expect(operation.action).toMatch(/^[A-Z]/);
		}
	});

	test('money-moving operations say so plainly, first; the others say they move no money (or only once finalized)', () => {
		const flagged = operations
			.filter(([, operation]) => operation.description?.startsWith('Moves money: '))
			.map(([resource, operation]) => `${resource}.${String(operation.value)}`)
			.sort();
		expect(flagged).toEqual(MONEY_MOVING);
		for (const [resource, operation] of operations) {
			const id = `${resource}.${String(operation.value)}`;
			if (MONEY_MOVING.includes(id)) continue;
			expect([id, operation.description]).toEqual([id, expect.stringMatching(/[Mm]oves no money|nothing leaves your wallet|money moves when Finalize/)]);
		}
	});

	test('every field and every collection option has a description', () => {
		const missing: string[] = [];
		for (const property of description.properties) {
			if (property.type === 'notice' || property.name === 'resource' || property.name === 'operation') continue;
			const where = `${property.displayOptions?.show?.resource?.[0]}.${property.displayOptions?.show?.operation?.[0]}.${property.name}`;
			if (property.type !== 'collection' && !property.description) missing.push(where);
			for (const option of (property.options ?? []) as INodeProperties[]) {
				if (option.displayName && !option.description) missing.push(`${where}.${option.name}`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('each operation has one Tool Description, shown only when the node is a tool: what it does, money or not, units', () => {
		const toolFields = description.properties.filter((property) => property.name === 'toolDescription');
		expect(toolFields).toHaveLength(operations.length);
		for (const [resource, operation] of operations) {
			const id = `${resource}.${String(operation.value)}`;
			const matching = toolFields.filter(
				(field) => field.displayOptions?.show?.resource?.[0] === resource && field.displayOptions?.show?.operation?.[0] === operation.value,
			);
			expect([id, matching.length]).toEqual([id, 1]);
			const [field] = matching;
			// Shown on the tool only: n8n hides '@tool' fields on the node in a workflow's main path.
			expect([id, field.displayOptions?.show?.['@tool']]).toEqual([id, [true]]);
			const text = String(field.default);
			expect([id, text.length > 60]).toEqual([id, true]);
			expect([id, text.includes('MOVES MONEY')]).toEqual([id, MONEY_MOVING.includes(id)]);
			if (!MONEY_MOVING.includes(id)) expect([id, text]).toEqual([id, expect.stringMatching(/Moves no money|moves no money|nothing is paid|Bills the customer/)]);
			// An operation with an amount field names the amount's unit to the agent.
			if (fieldsOf(resource, String(operation.value)).some((f) => f.name === 'amount')) {
				expect([id, text]).toEqual([id, expect.stringMatching(/minor units|major units|US dollars|whole number/)]);
			}
			// Reads say they are free to call; an operation sent at most once says what a repeat returns.
			const kind = kindOf(resource, String(operation.value));
			if (kind === 'read') expect([id, text]).toEqual([id, expect.stringContaining('Reads only: moves no money, free to call.')]);
			if (kind === 'guarded') expect([id, text]).toEqual([id, expect.stringContaining('alreadySubmitted: true')]);
		}
	});

	test('amount fields state their unit in their label', () => {
		const amounts = description.properties.filter((property) => property.name === 'amount').map((property) => property.displayName);
		for (const label of amounts) expect(label).toMatch(/^Amount( \((Minor Units|Major Units|USD)\))?$/);
		expect(amounts.filter((label) => label === 'Amount')).toHaveLength(1); // Card → Withdraw: the contract states no unit.
	});
});

describe('presentation', () => {
	test('the subtitle shows the operation and the resource', () => {
		expect(description.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
	});

	test('light and dark SVG icons exist and differ', () => {
		const icon = description.icon as { light: string; dark: string };
		const read = (file: string) => readFileSync(join(ROOT, 'nodes/WalletPayments', file.replace(/^file:/, '')), 'utf8');
		const light = read(icon.light);
		const dark = read(icon.dark);
		expect(light).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
		expect(dark).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
		expect(dark).not.toBe(light);
	});

	test('the codex file names the node, its category and documentation links to README sections that exist', () => {
		const codex = JSON.parse(readFileSync(join(ROOT, 'nodes/WalletPayments/WalletPayments.node.json'), 'utf8'));
		expect(codex.node).toBe(`n8n-nodes-wallet-payments.${description.name}`);
		expect(codex.categories).toEqual(['Finance & Accounting']);
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		const anchors = new Set(
			[...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1].trim().toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s+/g, '-')),
		);
		const links = [...codex.resources.primaryDocumentation, ...codex.resources.credentialDocumentation].map((link: { url: string }) => link.url);
		expect(links.length).toBeGreaterThanOrEqual(2);
		for (const url of links) {
			const [base, anchor] = url.split('#');
			expect(base).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).homepage.split('#')[0]);
			expect(anchors.has(anchor)).toBe(true);
		}
	});

	test.each(operations.map(([resource, operation]) => [resource, String(operation.value)]))(
		'%s → %s: required fields come before the optional ones (collections, reference, API version, list options)',
		(resource, operation) => {
			const fields = fieldsOf(resource, operation);
			const lastRequired = fields.map((field) => field.required === true).lastIndexOf(true);
			const trailing = ['collection', 'fixedCollection'];
			const trailingNames = ['reference', 'apiVersion', 'returnAll', 'limit', 'simplify'];
			fields.forEach((field, index) => {
				if (trailing.includes(field.type) || trailingNames.includes(field.name)) {
					expect([field.name, index > lastRequired]).toEqual([field.name, true]);
				}
			});
		},
	);
});
