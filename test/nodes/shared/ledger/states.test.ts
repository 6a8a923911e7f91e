/**
 * Records written by version 0.1.0 are still recognised: n8n's de-duplication store as that
 * version left it after realistic runs (test/fixtures/ledger-v0.1.0/store.json, made by
 * generate.ts there with the code of the commit it records) is loaded, and the same inputs are
 * run again with the code of the working tree. What a re-run finds must be what the records say:
 * an accepted item is not sent again, an item with an unclear answer is reported unknown and not
 * sent, a refused one is sent again, a queue-mode item claimed and never sent is taken over by a
 * Retry and sent once, and an event the trigger already passed on does not pass again. Besides,
 * the same inputs on an empty store must write the very same values as 0.1.0 did.
 *
 * Everything goes through the nodes (runNode.ts, the trigger's webhook and its step in the run):
 * this test imports nothing from nodes/, whose internals may move.
 */
import { createHash } from 'crypto';
import fs from 'fs';
import path from 'path';

import type { IDataObject } from 'n8n-workflow';

import { passRecordsSettled } from '../../../../nodes/shared/ledger';
import { clearProcessedData, loadRows, processedValues } from '../../../helpers/n8n/deduplication';
import type { RunResult } from '../../../helpers/n8n/runNode';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import {
	comparable,
	deliverEvents,
	prepareSandbox,
	requestedItems,
	runNodeScenario,
	triggerOutcomes,
	type ItemRole,
	type LedgerFixture,
	type NodeScenario,
	type TriggerOutcome,
	type TriggerScenario,
} from '../../../fixtures/ledger-v0.1.0/scenarios';

/** The commit whose code wrote the fixture's rows (main before the ledger refactor, issue #30). */
const PINNED_COMMIT = '12734118d07763e06c48293d2f72e43414d4fd2d';
/**
 * SHA-256 of JSON.stringify(rows): the rows are the ones generate.ts made at that commit. Change
 * it only for rows made again at that commit (generate.ts says how), never for rows of newer code.
 */
const ROWS_SHA256 = 'b79d1d1d30355461aa6848cefc37aa3c935e2ca88457958f2ec7b490d098c3f2';

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../fixtures/ledger-v0.1.0/store.json'), 'utf8')) as LedgerFixture;
const scenario = <T extends 'node' | 'trigger'>(name: string, kind: T) => {
	const found = fixture.scenarios.find((s) => s.name === name && s.kind === kind);
	if (!found) throw new Error(`No ${kind} scenario ${name} in the fixture`);
	return found as T extends 'node' ? NodeScenario : TriggerScenario;
};
const rowOf = (s: NodeScenario | TriggerScenario) => fixture.rows.find((row) => row.workflowId === s.workflowId && row.nodeId === s.nodeId)?.values ?? [];

const sandbox = useSandbox();
// The store as 0.1.0 left it (each test starts from it; test/setup/deduplication.ts empties it first).
beforeEach(() => loadRows(fixture.rows));

const outputs = (result: RunResult) => result.items.map((item) => item.json as IDataObject);
const indexesOf = (s: NodeScenario, ...roles: ItemRole[]) => s.roles.flatMap((role, i) => (roles.includes(role) ? [i] : []));
/** What a re-run outputs for an item recorded before: already submitted, not sent, and what the record says. */
const notSent = (outcome: 'accepted' | 'unknown') => expect.objectContaining({ alreadySubmitted: true, sent: false, outcome });

describe('the fixture', () => {
	test('was made at the pinned commit, and its rows are the ones made there', () => {
		expect(fixture.commit).toMatch(/^[0-9a-f]{40}$/);
		expect(fixture.commit).toBe(PINNED_COMMIT);
		expect(fixture.package).toBe('n8n-nodes-wallet-payments@0.1.0');
		expect(createHash('sha256').update(JSON.stringify(fixture.rows)).digest('hex')).toBe(ROWS_SHA256);
	});

	test('holds every kind of value the package writes', () => {
		const values = fixture.rows.flatMap((row) => row.values);
		const kinds: Record<string, RegExp> = {
			'derived item key': /^n8n:[0-9a-f]{64}$/,
			'key of what is done once (finalize)': /^n8n-once:[0-9a-f]{64}$/,
			'Idempotency Key given by the user': /^INV-2026-05-00\d$/,
			'accepted marker': /#accepted$/,
			'claimed marker (queue mode)': /#claimed$/,
			'sending marker (queue mode)': /#sending$/,
			'takeover marker (queue mode Retry)': /#takeover$/,
			'run mark': /^n8n-run:[0-9a-f]{64}$/,
			'claim token (queue mode)': /^n8n-claim:[0-9a-f-]{36}$/,
			'trigger event key': /^\["[a-z.]+","[^"]+","[a-z]+"\]$/,
		};
		for (const [kind, pattern] of Object.entries(kinds)) expect([kind, values.some((value) => pattern.test(value))]).toEqual([kind, true]);
	});
});

describe.each(['payout-one-process', 'payout-queue-mode', 'swap-finalize-one-process'])('%s: the same inputs on an empty store', (name) => {
	test('write the same values as 0.1.0', async () => {
		const s = scenario(name, 'node');
		clearProcessedData();
		await prepareSandbox(sandbox.sandbox, s.sandbox);
		const result = await runNodeScenario(sandbox.sandbox, s);
		expect(result.error).toBeUndefined();
		// Claim tokens aside: queue mode claims a chunk of keys at a time now (one token where 0.1.0
		// wrote one per window), so there are fewer of them, of the same form.
		const isToken = (value: string) => value.startsWith('n8n-claim:');
		// Added since 0.1.0: the day each key was accepted on, and the node's days (days.ts).
		const isDay = (value: string) => /@\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('n8n-day:');
		// Added since 0.1.0: each derived key's place and its accepted marker (ledger.ts, places).
		const isPlace = (value: string) => value.startsWith('n8n-place:');
		const now = comparable(processedValues(s.workflowId, s.nodeId));
		const then = comparable(rowOf(s));
		expect(now.filter((value) => !isToken(value) && !isDay(value) && !isPlace(value))).toEqual(then.filter((value) => !isToken(value)));
		const derived = then.filter((value) => /^n8n:[0-9a-f]{64}$/.test(value));
		expect(now.filter((value) => isPlace(value) && !value.endsWith('#accepted'))).toHaveLength(derived.length);
		expect(now.filter((value) => isPlace(value) && value.endsWith('#accepted'))).toHaveLength(derived.filter((key) => then.includes(`${key}#accepted`)).length);
		// A place's accepted marker has no day of its own: its key's day says when.
		const accepted = now.filter((value) => value.endsWith('#accepted') && !isPlace(value)).map((value) => value.slice(0, -'#accepted'.length));
		const days = now.filter(isDay);
		expect(days.filter((value) => !value.startsWith('n8n-day:')).map((value) => value.slice(0, -'@YYYY-MM-DD'.length)).sort()).toEqual(accepted.sort());
		expect(days.filter((value) => value.startsWith('n8n-day:'))).toHaveLength(accepted.length > 0 ? 1 : 0);
		const tokens = [now.filter(isToken).length, then.filter(isToken).length];
		expect(tokens[0] > 0).toBe(tokens[1] > 0);
		expect(tokens[0]).toBeLessThanOrEqual(tokens[1]);
	});
});

describe.each(['trigger-one-process', 'trigger-queue-mode'])('%s: the same events on an empty store', (name) => {
	test('write the same values as 0.1.0', async () => {
		const s = scenario(name, 'trigger');
		clearProcessedData();
		expect(triggerOutcomes(s.deliveries, await deliverEvents(s))).toEqual(s.outcomes);
		// In queue mode the pass records' checks and the removal come after the runs went on.
		await passRecordsSettled();
		// Claim tokens aside: since issue #54 the trigger removes its claim's values (`#claimed`, tokens)
		// once the event is passed on; the events' keys are the values 0.1.0 wrote.
		const isToken = (value: string) => value.startsWith('n8n-claim:');
		expect(comparable(processedValues(s.workflowId, s.nodeId))).toEqual(comparable(rowOf(s)).filter((value) => !isToken(value)));
	});
});

describe.each([
	['payout-one-process', 'retry'],
	['payout-queue-mode', 'retry'],
	['payout-queue-mode', 'manual'],
] as const)('%s, run again over the rows 0.1.0 wrote (mode %s)', (name, mode) => {
	test('accepted items are not sent, the 5xx one is unknown, the refused one is sent again, once', async () => {
		const s = scenario(name, 'node');
		expect(s.roles).toEqual(['accepted', 'accepted', 'unknown', 'released', 'accepted']);
		await prepareSandbox(sandbox.sandbox, s.replaySandbox);
		const result = await runNodeScenario(sandbox.sandbox, s, { mode });
		expect(result.error).toBeUndefined();
		const out = outputs(result);
		for (const i of indexesOf(s, 'accepted')) expect(out[i]).toEqual(notSent('accepted'));
		for (const i of indexesOf(s, 'unknown')) expect(out[i]).toEqual(notSent('unknown'));
		for (const i of indexesOf(s, 'released')) {
			expect(out[i].alreadySubmitted).toBeUndefined();
			expect(out[i]).toMatchObject({ description: s.items[i].label, status: expect.any(String) });
		}
		// Money requests: the refused item's only.
		expect(requestedItems(sandbox.sandbox, s)).toEqual(indexesOf(s, 'released'));

		// And once more: nothing is sent now.
		sandbox.sandbox.clearRequests();
		const again = await runNodeScenario(sandbox.sandbox, s, { mode });
		expect(outputs(again).map((json) => [json.alreadySubmitted, json.sent, json.outcome])).toEqual(
			s.roles.map((role) => [true, false, role === 'unknown' ? 'unknown' : 'accepted']),
		);
		expect(requestedItems(sandbox.sandbox, s)).toEqual([]);
	});
});

test('swap-finalize-one-process, a later run (another trigger item) over the rows 0.1.0 wrote: a quote finalized once is never finalized again', async () => {
	const s = scenario('swap-finalize-one-process', 'node');
	expect(s.roles).toEqual(['accepted', 'unknown', 'released', 'accepted']);
	await prepareSandbox(sandbox.sandbox, s.replaySandbox);
	const result = await runNodeScenario(sandbox.sandbox, s, { trigger: { body: 'treasury 2026-06' } });
	expect(result.error).toBeUndefined();
	const out = outputs(result);
	for (const i of indexesOf(s, 'accepted')) expect(out[i]).toEqual(notSent('accepted'));
	for (const i of indexesOf(s, 'unknown')) expect(out[i]).toEqual(notSent('unknown'));
	for (const i of indexesOf(s, 'released')) expect(out[i].alreadySubmitted).toBeUndefined();
	expect(requestedItems(sandbox.sandbox, s)).toEqual(indexesOf(s, 'released'));
	expect(sandbox.sandbox.state.transactions.filter((tx) => tx.kind === 'swap').map((tx) => (tx as { quoteId: string }).quoteId)).toEqual(
		indexesOf(s, 'released').map((i) => s.items[i].quoteId),
	);
});

describe('payout-queue-killed-after-claim: the rows of a queue-mode worker that died after claiming a window it never sent', () => {
	const s = scenario('payout-queue-killed-after-claim', 'node');

	test('a Retry sends the claimed rows, each once; the others keep what the rows say; a second Retry sends nothing', async () => {
		expect(indexesOf(s, 'claimedUnsent')).toEqual([3, 4, 5]);
		await prepareSandbox(sandbox.sandbox, s.replaySandbox);
		const retry = await runNodeScenario(sandbox.sandbox, s, { mode: 'retry' });
		expect(retry.error).toBeUndefined();
		const out = outputs(retry);
		for (const i of indexesOf(s, 'accepted')) expect(out[i]).toEqual(notSent('accepted'));
		// Sent by the dead worker, its answer never recorded: may have been carried out.
		for (const i of indexesOf(s, 'sentNoAnswer')) expect(out[i]).toEqual(notSent('unknown'));
		for (const i of indexesOf(s, 'claimedUnsent')) {
			expect(out[i].alreadySubmitted).toBeUndefined();
			expect(out[i]).toMatchObject({ description: s.items[i].label });
		}
		expect(requestedItems(sandbox.sandbox, s)).toEqual(indexesOf(s, 'claimedUnsent'));

		sandbox.sandbox.clearRequests();
		const again = await runNodeScenario(sandbox.sandbox, s, { mode: 'retry' });
		expect(again.error).toBeUndefined();
		expect(outputs(again).map((json) => json.outcome)).toEqual(s.roles.map((role) => (role === 'sentNoAnswer' ? 'unknown' : 'accepted')));
		expect(requestedItems(sandbox.sandbox, s)).toEqual([]);
	}, 60_000);

	test('a new run (where n8n offers no Retry) sends the claimed rows, each once, as a Retry does', async () => {
		await prepareSandbox(sandbox.sandbox, s.replaySandbox);
		const result = await runNodeScenario(sandbox.sandbox, s, { mode: 'manual' });
		expect(result.error).toBeUndefined();
		const out = outputs(result);
		for (const i of indexesOf(s, 'accepted')) expect(out[i]).toEqual(notSent('accepted'));
		for (const i of indexesOf(s, 'sentNoAnswer')) expect(out[i]).toEqual(notSent('unknown'));
		for (const i of indexesOf(s, 'claimedUnsent')) expect(out[i]).toMatchObject({ description: s.items[i].label });
		expect(requestedItems(sandbox.sandbox, s)).toEqual(indexesOf(s, 'claimedUnsent'));
	}, 60_000);
});

test('payout-queue-retry-killed-during-takeover: a further Retry finds the dead Retry’s takeover claims and sends none of those rows (unknown: another run took them)', async () => {
	const s = scenario('payout-queue-retry-killed-during-takeover', 'node');
	expect(indexesOf(s, 'takeoverUnsent')).toEqual([3, 4, 5]);
	await prepareSandbox(sandbox.sandbox, s.replaySandbox);
	const retry = await runNodeScenario(sandbox.sandbox, s, { mode: 'retry' });
	expect(retry.error).toBeUndefined();
	const out = outputs(retry);
	for (const i of indexesOf(s, 'accepted')) expect(out[i]).toEqual(notSent('accepted'));
	for (const i of indexesOf(s, 'sentNoAnswer')) expect(out[i]).toEqual(notSent('unknown'));
	for (const i of indexesOf(s, 'takeoverUnsent')) {
		expect(out[i]).toEqual(notSent('unknown'));
		expect(String(out[i].message)).toMatch(/^Not sent: another run of this node \(in another n8n process\) recorded this item at the same moment/);
	}
	expect(requestedItems(sandbox.sandbox, s)).toEqual([]);
}, 60_000);

describe.each(['trigger-one-process', 'trigger-queue-mode'])('%s, the same events delivered again after a restart', (name) => {
	test('no event 0.1.0 passed on passes the trigger again; an event without a key and a new event do', async () => {
		const s = scenario(name, 'trigger');
		const fresh = { event: 'payout.transfer.success', data: { id: 'tx_ledger_new', status: 'success', amount: '1.00' } };
		const deliveries = [...s.deliveries, fresh];
		const outcomes = triggerOutcomes(deliveries, await deliverEvents(s, deliveries));
		const expected: TriggerOutcome[] = s.outcomes.map((outcome) => (outcome === 'passed' ? 'stopped' : outcome));
		expect(outcomes).toEqual([...expected, 'passed']);
		expect(outcomes.filter((outcome) => outcome === 'stopped')).toHaveLength(s.outcomes.filter((outcome) => outcome === 'passed').length);
	});
});
