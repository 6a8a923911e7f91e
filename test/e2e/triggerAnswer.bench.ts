/**
 * `npm run bench:trigger` (part of `npm run bench`): how soon the Wallet Payments Trigger answers
 * a delivery in one n8n process, the credential as a user creates it (issue #62, point 1: 100 at
 * once within 2 s, 1,000 at once within 10 s; providers wait 5-10 s). The trigger's step answers
 * right after the event's first store call and settles the claim after it, so the answer waits for
 * n8n to start the run and for that one call. A workflow that pays one payee per event: 100 events
 * one after another, then 100 at once (and 1,000 at once with WALLET_BENCH_TRIGGER_LARGE=1); then
 * n8n's own Webhook node, the floor, with the same bursts. A delivery not answered 200 (or not
 * within 60 s) is delivered again, as a provider would, until answered. Every event must run past
 * the trigger once and no payee be paid twice (checked). The times are reported, never enforced
 * (docs/performance.md).
 *
 *   trigger-answer[one process, credential as created, <deliveries>]: p50 …, p99 …, max …, answered 200 …
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { chain, node } from '../../tooling/n8n/workflow';
import { paidTimes } from '../queue/support/queue';
import { describeE2E, deliverSigned, eventsPastTrigger, newPayeeEvent, settledExecutions, startPayPerEvent, stopStack, tally, webhookServed, type PayeeEvent, type Stack } from './support/e2e';

const WORKFLOW_ID = 'WalletBenchAnswr';
const SECRET = 'whsec_bench_answer';
const HEADER = 'x-wallet-signature';
/**
 * 1,000 at once only with WALLET_BENCH_TRIGGER_LARGE=1: on this 2-core, 24 GiB machine that burst
 * took one n8n process's memory to 23 GB and the machine to swapping (2026-12-06; docs/performance.md).
 */
const LARGE = process.env.WALLET_BENCH_TRIGGER_LARGE === '1';
/** One after another, then bursts all at once, each with the answer time providers allow. */
const SCENARIOS = [
	{ label: '100 one after another', events: 100, atOnce: 1, targetMs: 5000 },
	{ label: '100 at once', events: 100, atOnce: 100, targetMs: 2000 },
	...(LARGE ? [{ label: '1,000 at once', events: 1000, atOnce: 1000, targetMs: 10000 }] : []),
];
const EVENTS = SCENARIOS.reduce((sum, scenario) => sum + scenario.events, 0);
const RESULTS = path.join(__dirname, '..', '..', 'bench', 'trigger-answer.json');

describeE2E('bench: the trigger answer in one n8n process, credential as created', () => {
	let stack: Stack | undefined;
	let url = '';
	const figures: Record<string, { deliveries: number; p50: number; p99: number; max: number; within: number; targetMs: number }> = {};

	/** One delivery: its status (0: no answer within deliverSigned's 60 s) and time. */
	const timed = async (event: PayeeEvent) => {
		const started = performance.now();
		const status = await deliverSigned(url, event.body, SECRET, HEADER).catch(() => 0);
		return { event, status, ms: performance.now() - started };
	};
	const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];

	function report(label: string, targetMs: number, answers: Array<{ status: number; ms: number }>) {
		const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
		const within = answers.filter((answer) => answer.status === 200 && answer.ms <= targetMs).length;
		const figure = { deliveries: answers.length, p50: Math.round(percentile(sorted, 0.5)), p99: Math.round(percentile(sorted, 0.99)), max: Math.round(sorted[sorted.length - 1]), within, targetMs };
		figures[label] = figure;
		process.stdout.write(
			`\ntrigger-answer[one process, credential as created, ${label}]: p50 ${figure.p50} ms, p99 ${figure.p99} ms, max ${figure.max} ms, ` +
				`answered 200 within ${targetMs} ms: ${within} of ${answers.length} (issue #62: ${within === answers.length ? '✔' : '✘'})\n`,
		);
	}

	beforeAll(async () => {
		// The credential as a user creates it: no "n8n Runs As", so every record is a claim.
		({ stack, url } = await startPayPerEvent({ id: WORKFLOW_ID, name: 'Bench: trigger answer', webhookId: randomUUID(), secret: SECRET, header: HEADER }, {}, undefined, { processes: undefined }));
	});

	afterAll(async () => {
		// Merged into the file's figures, so that a run of one test (-t) keeps the others.
		const kept = fs.existsSync(RESULTS) ? (JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
		if (Object.keys(figures).length > 0) fs.writeFileSync(RESULTS, `${JSON.stringify({ ...kept, measured: new Date().toISOString(), ...figures }, null, '\t')}\n`);
		await stopStack(stack);
	});

	test(`${SCENARIOS.map((scenario) => scenario.label).join(', then ')}: each answered 200, run past the trigger once, nobody paid twice`, async () => {
		const { n8n, sandbox } = stack!;
		const events: PayeeEvent[] = [];
		for (let n = 1; n <= EVENTS; n++) events.push(await newPayeeEvent(sandbox, n));

		let next = 0;
		let redelivered = 0;
		for (const scenario of SCENARIOS) {
			const mine = events.slice(next, next + scenario.events);
			next += scenario.events;
			const answers = [];
			for (let start = 0; start < mine.length; start += scenario.atOnce) answers.push(...(await Promise.all(mine.slice(start, start + scenario.atOnce).map(timed))));
			report(scenario.label, scenario.targetMs, answers);
			// As a provider does: what was not answered 200 is delivered again, until it is.
			let unanswered = answers.filter((answer) => answer.status !== 200).map((answer) => answer.event);
			for (let attempt = 0; unanswered.length > 0 && attempt < 5; attempt++) {
				redelivered += unanswered.length;
				unanswered = (await Promise.all(unanswered.map(timed))).filter((answer) => answer.status !== 200).map((answer) => answer.event);
			}
			expect(unanswered).toEqual([]);
		}

		const runs = await settledExecutions(n8n, WORKFLOW_ID, events.length, 600000);
		const passed = runs.flatMap(eventsPastTrigger);
		const payouts = paidTimes(sandbox, events.map((event) => event.beneficiaryId));
		// Under this load a claim can meet a store call as long as the claim wait, in this very
		// process: the row is then not sent (the run fails, nothing paid), never sent twice.
		const notSent = runs.filter((run) => /^Not sent:/.test((run.data?.resultData as { error?: { message?: string } } | undefined)?.error?.message ?? ''));
		process.stdout.write(
			`\ntrigger-answer[one process, credential as created, the runs]: ${runs.length} runs, ${redelivered} deliveries made again, past the trigger per event ${JSON.stringify(tally(events.map((event) => passed.filter((id) => id === event.eventId).length)))}, ` +
				`payouts per event ${JSON.stringify(payouts)}, runs whose row was not sent (a store call as long as the claim wait) ${notSent.length}\n`,
		);
		expect(events.map((event) => passed.filter((id) => id === event.eventId).length)).toEqual(events.map(() => 1));
		expect(Object.keys(payouts).filter((times) => Number(times) > 1)).toEqual([]);
		expect(payouts[0] ?? 0).toBe(notSent.length);
	}, 60 * 60_000);

	/**
	 * The floor on this machine: n8n's own Webhook node (it answers once the run is saved) with a
	 * No Operation after it, the same bursts. Whatever n8n needs to start a run, the trigger needs too.
	 */
	test('the floor: n8n\'s own Webhook node, the same bursts', async () => {
		const { n8n } = stack!;
		const path = 'bench-floor';
		await n8n.importWorkflows([chain('WalletBenchFloor', 'Bench: n8n webhook floor', [node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, options: {} }, { webhookId: path }), node('Nothing', 'n8n-nodes-base.noOp', 1, {})])]);
		await n8n.publishNow('WalletBenchFloor');
		const floorUrl = `${n8n.baseUrl}/webhook/${path}`;
		await webhookServed(n8n, floorUrl);
		const post = async () => {
			const started = performance.now();
			const status = await fetch(floorUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"floor":true}', signal: AbortSignal.timeout(60000) })
				.then(async (response) => (await response.text(), response.status))
				.catch(() => 0);
			return { status, ms: performance.now() - started };
		};
		const bursts = [['n8n Webhook node, 100 at once', 100, 2000] as const, ...(LARGE ? [['n8n Webhook node, 1,000 at once', 1000, 10000] as const] : [])];
		for (const [label, count, targetMs] of bursts) {
			report(label, targetMs, await Promise.all(Array.from({ length: count }, post)));
		}
	}, 30 * 60_000);
});
