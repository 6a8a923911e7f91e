/**
 * `npm run bench:queue` (part of `npm run bench`), issue #62 points 1 and 5: how soon the Wallet
 * Payments Trigger answers deliveries in queue mode (2 webhook processors behind a load balancer,
 * 2 workers, PostgreSQL, Redis), the credential as created, at worker concurrency 10 (n8n's
 * default) and 50: 100 events at once, 100 events × 3 copies at once (and 1,000 events at once
 * with WALLET_BENCH_TRIGGER_LARGE=1). A delivery not answered 200 within 60 s is delivered again,
 * as a provider would, until answered. Every event must run past the trigger once and no payee be
 * paid twice (checked). Figures, never enforced; written to test/queue/results.json ("triggerAnswer") and printed as
 *
 *   queue[trigger answer, concurrency <c>, <burst>,<config>]: p50 … ms, p99 … ms, max … ms, within 10 s …, events per slot-second …
 */
import { deliverSigned, eventsPastTrigger, newPayeeEvent, stopStack, type PayeeEvent } from '../e2e/support/e2e';
import { paidTimes, recordResults, settledExecutions, sleep, startPayPerEventQueue, type QueueStack } from './support/queue';
import { queueLabel } from './support/config';

const SECRET = 'whsec_queue_answer';
const HEADER = 'x-wallet-signature';
const WORKERS = 2;
const PATIENCE_MS = 10000;
/** 1,000 at once only with WALLET_BENCH_TRIGGER_LARGE=1 (as the one-process bench: see its header). */
const BURSTS = [
	{ label: '100 events at once', events: 100, copies: 1 },
	{ label: '100 events × 3 copies at once', events: 100, copies: 3 },
	...(process.env.WALLET_BENCH_TRIGGER_LARGE === '1' ? [{ label: '1,000 events at once', events: 1000, copies: 1 }] : []),
];
const CONCURRENCIES = (process.env.WALLET_QUEUE_ANSWER_CONCURRENCY ?? '10,50').split(',').map(Number);

/** As describeQueue: skipped outside queue mode. */
const describeEach = process.env.WALLET_QUEUE_MODE ? describe.each : describe.skip.each;
const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];

describeEach(CONCURRENCIES)('queue mode: the trigger answer at worker concurrency %i (a benchmark)', (concurrency) => {
	let stack: QueueStack | undefined;
	let url = '';
	const workflowId = `WalletQueueAns${concurrency}`.slice(0, 16);
	const lines: string[] = [];
	const results: Record<string, unknown> = {};

	const timed = async (event: PayeeEvent) => {
		const started = performance.now();
		const status = await deliverSigned(url, event.body, SECRET, HEADER).catch(() => 0);
		return { event, status, ms: performance.now() - started };
	};

	beforeAll(async () => {
		// n8n's worker concurrency: N8N_CONCURRENCY_PRODUCTION_LIMIT overrides `--concurrency` (10).
		({ stack, url } = await startPayPerEventQueue({ id: workflowId, name: `Queue: trigger answer at ${concurrency}`, secret: SECRET, header: HEADER }, { env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(concurrency) } }));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		recordResults(`triggerAnswer${concurrency}`, results);
		await stopStack(stack);
	});

	let next = 1;
	test.each(BURSTS)('$label: every delivery answered, each event past the trigger once, nobody paid twice', async ({ label, events: count, copies }) => {
		const { n8n, sandbox } = stack!;
		const events = await Promise.all(Array.from({ length: count }, async (_, i) => await newPayeeEvent(sandbox, next + i)));
		next += count;
		const before = n8n.executionsInDatabase(workflowId).length;
		const started = Date.now();
		const answers = await Promise.all(events.flatMap((event) => Array.from({ length: copies }, () => event)).map(timed));
		let unanswered = answers.filter((answer) => answer.status !== 200).map((answer) => answer.event);
		for (let attempt = 0; unanswered.length > 0 && attempt < 10; attempt++) {
			await sleep(2000);
			unanswered = (await Promise.all(unanswered.map(timed))).filter((answer) => answer.status !== 200).map((answer) => answer.event);
		}
		const runs = (await settledExecutions(n8n, workflowId, before + count, 1800000)).slice(before);
		const ended = Math.max(...runs.map((run) => Date.parse(String((run as { stoppedAt?: string }).stoppedAt ?? started))));
		const passed = runs.flatMap(eventsPastTrigger);
		const perEvent = events.map((event) => passed.filter((id) => id === event.eventId).length);
		const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
		const within = answers.filter((answer) => answer.status === 200 && answer.ms <= PATIENCE_MS).length;
		const perSlotSecond = count / (WORKERS * concurrency * ((ended - started) / 1000));
		const figure = {
			deliveries: answers.length,
			p50: Math.round(percentile(sorted, 0.5)),
			p99: Math.round(percentile(sorted, 0.99)),
			max: Math.round(sorted[sorted.length - 1]),
			within10s: within,
			runs: runs.length,
			wallS: Math.round((ended - started) / 100) / 10,
			eventsPerSlotSecond: Math.round(perSlotSecond * 1000) / 1000,
		};
		results[label] = figure;
		lines.push(
			`${queueLabel(`trigger answer, concurrency ${concurrency}, ${label}`)}: p50 ${figure.p50} ms, p99 ${figure.p99} ms, max ${figure.max} ms, ` +
				`answered 200 within 10 s ${within} of ${answers.length}; ${runs.length} runs, ${count} events in ${figure.wallS} s = ${figure.eventsPerSlotSecond} events per slot-second`,
		);
		expect(unanswered).toEqual([]);
		expect(perEvent).toEqual(events.map(() => 1));
		expect(Object.keys(paidTimes(sandbox, events.map((event) => event.beneficiaryId)))).toEqual(['1']);
	}, 3600000);
});
