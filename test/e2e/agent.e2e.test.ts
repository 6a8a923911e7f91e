/**
 * The AI agent example (examples/agent-payouts-with-review.json) in a real n8n 2.41.1: a Chat
 * Trigger, n8n's AI Agent with an OpenAI chat model whose credential's Base URL points at a
 * scripted model in this test (no outside service), the Wallet Payments read tools connected
 * directly, Payout → Initiate and Card → Top Up each behind n8n's human review step (Chat channel).
 *
 * The test talks to the published workflow as the hosted chat page does (tooling/n8n/chat.ts) and
 * reviews as a person does in the chat: it opens the Approve or Deny button's link, n8n's signed
 * resume URL of the waiting execution. Cases:
 *  - approve: the agent reads (List beneficiaries), proposes a payout; the run waits for review
 *    (nothing paid yet); approved → exactly one payout at the sandbox, with the proposed content;
 *  - repeat: the same payout proposed again in the same chat and approved → nothing more sent,
 *    the agent is told alreadySubmitted; the first review's Approve link opened again → nothing;
 *  - deny: a payout denied → nothing sent, the agent's next call to the model carries the refusal;
 *  - bad amount: an amount with more decimals than the currency has, approved → a tool error
 *    naming the field and what is allowed reaches the model, nothing sent;
 *  - payee mismatch: the name and account ending the reviewer read are not the beneficiary's,
 *    approved → the Payee Check refuses it, nothing is paid, the agent is told;
 *  - top-up: Card → Top Up behind its own review, proposed and approved twice in a chat → one;
 *  - over the limit: a payout over the credential's Maximum per Payment, approved → the agent is
 *    told in plain words which limit it breaks, nothing sent (issue #31).
 * Prints one `agent[<case>]: <payouts> payouts, <reviews> reviews` line per case (reviews: the
 * review messages of the case's conversation so far).
 */
import { randomUUID } from 'crypto';

import { ChatSession, click, type ChatOutput, type ChatTurn } from '../../tooling/n8n/chat';
import { describeE2E, sandboxApi, startStack, stopStack, type Stack } from './support/e2e';
import { AGENT_MODEL_CREDENTIAL, loadExamples, type Example } from '../../tooling/demo/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, type N8n } from '../../tooling/n8n/n8n';
import { lastMessage, ScriptedModel, textOf, type ChatRequest } from '../../tooling/demo/scriptedModel';
import type { PayoutRecord } from '../../tooling/sandbox/state';

const AGENT = 'WalletExAgentRev';
/** The chat model credential the example names (its Base URL is set to the scripted model). */
const MODEL_CREDENTIAL = AGENT_MODEL_CREDENTIAL;

const PAY = 'Pay_out';
/** The credential's Maximum per Payment, in US dollars. */
const LIMIT_USD = 1000;
const LIST_BENEFICIARIES = 'List_beneficiaries';

/**
 * Waits until the published Chat Trigger's URL is served: the chat page's "load previous
 * session" call, which starts no execution, answers 200 (404 before n8n registered the webhook).
 */
async function waitForChat(n8n: N8n, webhookId: string, timeoutMs = 30000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	while (Date.now() < deadline) {
		const response = await fetch(`${n8n.baseUrl}/webhook/${webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'loadPreviousSession', sessionId: 'probe' }),
		});
		last = `${response.status} ${await response.text()}`;
		if (response.status === 200) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`The chat of ${AGENT} was not served within ${timeoutMs} ms (last: ${last.slice(0, 300)}):\n${n8n.log.slice(-6000)}`);
}

describeE2E('an AI agent pays only what a person approved, once (agent-payouts-with-review.json)', () => {
	let stack: Stack | undefined;
	let model: ScriptedModel | undefined;
	let example: Example;
	let webhookId: string;
	let beneficiaryId: string;
	/** The seeded beneficiary's account name and the last 4 digits of its account number. */
	let payee: { name: string; ending: string };
	const sessions: ChatSession[] = [];

	beforeAll(async () => {
		const found = loadExamples({ id: CREDENTIAL_ID, name: CREDENTIAL_NAME }).find((e) => e.workflow.id === AGENT);
		if (!found) throw new Error(`examples/ has no workflow ${AGENT}`);
		example = found;
		webhookId = example.chats[0].webhookId;
		model = await new ScriptedModel().start();
		// The credential's owner caps a payment at 1,000 USD (issue #31): every case below pays less, but one.
		stack = await startStack({ seed: { customers: 3, beneficiaries: 3 } }, {}, { maxPerPayment: `USD ${LIMIT_USD}` });
		await stack.n8n.importCredentials([
			{ ...MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted-model', url: model.url } },
		]);
		await stack.n8n.importWorkflows([example.workflow]);
		await stack.n8n.start();
		await stack.n8n.publishNow(AGENT);
		await waitForChat(stack.n8n, webhookId);
		const [saved] = stack.sandbox.state.beneficiaries;
		beneficiaryId = saved.id;
		const destination = saved.destination as { accountName: string; accountNumber: string };
		payee = { name: destination.accountName, ending: destination.accountNumber.slice(-4) };
	});

	afterAll(async () => {
		for (const session of sessions) session.close();
		await stopStack(stack);
		await model?.close();
	});

	function session(): ChatSession {
		const created = new ChatSession(stack!.n8n, webhookId, `chat-${randomUUID()}`);
		sessions.push(created);
		return created;
	}

	/** Payouts the sandbox holds, and the payout requests that reached it. */
	function payouts() {
		const { sandbox } = stack!;
		return {
			records: sandbox.state.transactions.filter((t) => t.kind === 'payout') as PayoutRecord[],
			requests: sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/wallets/payout/initialize').length,
		};
	}

	async function executionStatus(executionId: string): Promise<string> {
		const response = await stack!.n8n.publicApi<{ status: string }>('GET', `/executions/${executionId}`);
		if (response.status !== 200) throw new Error(`GET /api/v1/executions/${executionId} → ${response.status}: ${JSON.stringify(response.body)}`);
		return response.body.status;
	}

	/** The review message in the chat: its text, and the Approve and Deny buttons. */
	function review(output: ChatOutput) {
		const approve = output.buttons.find((b) => b.text === 'Approve payment');
		const deny = output.buttons.find((b) => b.text === 'Deny');
		if (!approve || !deny) throw new Error(`Not a review message with Approve payment / Deny: ${output.raw}`);
		return { text: output.text, approve, deny };
	}

	/**
	 * One chat message whose run stops at the human review step: the review as the chat shows
	 * it, after checking that the run waits and nothing was paid meanwhile.
	 */
	async function untilReview(chat: ChatSession, message: string) {
		const before = payouts();
		const turn = await chat.send(message);
		const [output] = await turn.waitForOutputs(1, 90000).catch((error: Error) => {
			throw new Error(`${error.message}\n${stack!.n8n.log.slice(-6000)}`);
		});
		expect(await executionStatus(turn.executionId)).toBe('waiting');
		expect(payouts()).toEqual(before);
		return { turn, ...review(output) };
	}

	/** After the reviewer's click: the agent's reply in the chat, and the run finished. */
	async function reply(turn: ChatTurn): Promise<string> {
		const outputs = await turn.waitForOutputs(2, 90000);
		await turn.waitForClose(60000);
		expect(await executionStatus(turn.executionId)).toBe('success');
		return outputs[1].text;
	}

	const payArgs = (amount: number, description: string, checked = payee) => ({
		toolParameters: { beneficiaryId, payeeName: checked.name, accountEnding: checked.ending, amount, currency: 'USD', customerEmail: 'finance@example.com', description },
		hitlParameters: {},
	});

	/** What the model was given last in a turn: the text of the last message (a tool result). */
	const lastToolResult = (request: ChatRequest) => textOf(lastMessage(request));

	const line = (name: string, count: number, reviews: number) => process.stdout.write(`agent[${name}]: ${count} payouts, ${reviews} reviews\n`);

	describe('one conversation', () => {
		let chat: ChatSession;
		let firstApprove: { link: string };

		it('tells the agent what each tool does, whether it moves money, and the unit of every amount', async () => {
			chat = session();
			const first = model!.requests.length;
			model!.script(
				{ toolCalls: [{ name: LIST_BENEFICIARIES, args: {} }] },
				(request) => {
					// The read tool ran without review: its result is the beneficiaries' list.
					expect(lastMessage(request).role).toBe('tool');
					expect(lastToolResult(request)).toContain(beneficiaryId);
					return { toolCalls: [{ name: PAY, args: payArgs(50, 'Invoice 1042') }] };
				},
				(request) => ({ text: `Paid. ${lastToolResult(request)}` }),
			);
			const { turn, text, approve } = await untilReview(chat, `Pay beneficiary ${beneficiaryId} 50.00 USD for invoice 1042`);
			firstApprove = approve;

			// What the agent was offered: read tools free, payments say they move money, with units.
			const tools = new Map((model!.requests[first].tools ?? []).map((t) => [t.function.name, t.function]));
			expect([...tools.keys()].sort()).toEqual(['Card_transactions', 'Get_transaction', 'List_beneficiaries', 'List_customers', 'Pay_out', 'Payout_requirements', 'Top_up_card']);
			for (const read of ['Card_transactions', 'Get_transaction', 'List_beneficiaries', 'List_customers', 'Payout_requirements']) {
				expect(tools.get(read)!.description).toContain('Reads only: moves no money');
			}
			expect(tools.get(PAY)!.description).toMatch(/MOVES MONEY.*minor units/);
			expect(tools.get('Top_up_card')!.description).toMatch(/MOVES MONEY.*US dollars/);
			const payParameters = JSON.stringify(tools.get(PAY)!.parameters);
			expect(payParameters).toContain('units of the currency as people write it');
			expect(payParameters).toContain('toolParameters');

			// The review names the payee (name, account ending) and the amount as it is paid, each on its own line.
			expect(text).toContain(`**To:** ${payee.name}, account ending ${payee.ending}\n\n`);
			expect(text).toContain('**Amount:** 50 USD\n\n');
			expect(text).toContain('**For:** Invoice 1042');
			expect(text).not.toContain(beneficiaryId);

			// Approved in the chat: exactly one payout, with what the agent proposed.
			expect((await click(approve)).status).toBe(200);
			const answer = await reply(turn);
			const { records, requests } = payouts();
			expect(requests).toBe(1);
			expect(records).toHaveLength(1);
			expect(records[0]).toMatchObject({ beneficiaryId, centAmount: 5000, currency: 'USD', description: 'Invoice 1042' });
			expect(answer).toContain(records[0].id);
			expect(answer).not.toContain('alreadySubmitted');
			line('approve', records.length, 1);
		});

		it('sends the same payout proposed and approved again in the same chat once, and tells the agent it was already submitted', async () => {
			let told = '';
			model!.script({ toolCalls: [{ name: PAY, args: payArgs(50, 'Invoice 1042') }] }, (request) => {
				told = lastToolResult(request);
				return { text: 'That payout was already sent earlier in this chat.' };
			});
			const { turn, text, approve } = await untilReview(chat, 'Pay it again please');
			expect(text).toContain('**Amount:** 50 USD');
			expect((await click(approve)).status).toBe(200);
			await reply(turn);
			expect(told).toContain('"alreadySubmitted":true');
			// In plain words first, for the agent; then the builder's message.
			expect(told).toContain('This exact request was already sent earlier and the service accepted it; it was not sent again. Do not retry it');
			expect(told).toContain('Not sent again: an earlier run of this node already sent this item');
			expect(payouts().requests).toBe(1);

			// The reviewer opens the first review's Approve link once more: nothing runs, nothing is paid.
			const again = await click(firstApprove);
			expect(again.status).not.toBe(500);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const { records, requests } = payouts();
			expect(requests).toBe(1);
			expect(records).toHaveLength(1);
			line('repeat', records.length, 2);
		});
	});

	it('sends nothing when the reviewer denies, and the agent’s next turn sees the refusal', async () => {
		const chat = session();
		const before = payouts();
		let told = '';
		model!.script({ toolCalls: [{ name: PAY, args: payArgs(70, 'Invoice 1043') }] }, (request) => {
			told = lastToolResult(request);
			return { text: 'Understood: the payout was not approved, so nothing was sent.' };
		});
		const { turn, text, deny } = await untilReview(chat, `Pay beneficiary ${beneficiaryId} 70.00 USD for invoice 1043`);
		expect(text).toContain('**Amount:** 70 USD');
		expect((await click(deny)).status).toBe(200);
		const answer = await reply(turn);
		expect(told).toContain('User rejected the tool call to Pay out');
		expect(answer).toContain('nothing was sent');
		expect(payouts()).toEqual(before);
		line('deny', payouts().records.length - before.records.length, 1);
	});

	it('tells the agent a payout over the credential’s limit was refused, even approved, and sends nothing', async () => {
		const chat = session();
		const before = payouts();
		let told = '';
		model!.script({ toolCalls: [{ name: PAY, args: payArgs(1500, 'Invoice 1045') }] }, (request) => {
			told = lastToolResult(request);
			return { text: 'The payout is over the limit set on the account, so nothing was sent.' };
		});
		const { turn, approve } = await untilReview(chat, `Pay beneficiary ${beneficiaryId} 1,500.00 USD for invoice 1045`);
		expect((await click(approve)).status).toBe(200);
		await reply(turn);
		expect(told).toContain(
			`Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential. Maximum per Payment: 1,500.00 USD is over ${LIMIT_USD.toLocaleString('en-US')}.00 USD (item 0).`,
		);
		expect(payouts()).toEqual(before);
		line('over-limit', payouts().records.length - before.records.length, 1);
		// Issue #31's proof line for this case, beside the other payment controls (controls.e2e.test.ts).
		const sent = payouts().records.length - before.records.length;
		process.stdout.write(`controls[the agent tool over a limit]: ${sent} sent, ${1 - sent} refused; the agent was told "${/Nothing was sent[^"]*/.exec(told)?.[0] ?? told}"\n`);
	});

	it('sends nothing when the payee the reviewer read is not the saved beneficiary paid, even approved', async () => {
		const chat = session();
		const before = payouts();
		let told = '';
		const other = { name: 'Someone Else', ending: '9999' };
		model!.script({ toolCalls: [{ name: PAY, args: payArgs(20, 'Invoice 1046', other) }] }, (request) => {
			told = lastToolResult(request);
			return { text: 'The payee did not match the saved beneficiary, so nothing was sent.' };
		});
		const { turn, text, approve } = await untilReview(chat, `Pay Someone Else 20.00 USD for invoice 1046`);
		expect(text).toContain('**To:** Someone Else, account ending 9999');
		expect((await click(approve)).status).toBe(200);
		await reply(turn);
		expect(told).toContain(`Invalid \\"Payee Check\\": the saved beneficiary ${beneficiaryId} is not the payee checked: its account name is \\"${payee.name}\\", not \\"Someone Else\\"; its account number ends in ${payee.ending}, not 9999`);
		expect(payouts()).toEqual(before);
		line('payee-mismatch', payouts().records.length - before.records.length, 1);
	});

	it('gives the agent a tool error naming the field and what is allowed for a bad amount, and sends nothing', async () => {
		const chat = session();
		const before = payouts();
		let told = '';
		model!.script({ toolCalls: [{ name: PAY, args: payArgs(10.505, 'Invoice 1044') }] }, (request) => {
			told = lastToolResult(request);
			return { text: 'The amount was refused; USD has at most 2 decimals.' };
		});
		const { turn, text, approve } = await untilReview(chat, `Pay beneficiary ${beneficiaryId} 10.50 USD for invoice 1044`);
		expect(text).toContain('**Amount:** 10.505 USD');
		// Even approved, the bad input is refused by the node before anything is sent.
		expect((await click(approve)).status).toBe(200);
		await reply(turn);
		expect(told).toContain('Invalid \\"Amount (Major Units)\\": 10.505 USD has 3 decimals, but USD has at most 2 decimals; the node does not round');
		expect(told).not.toMatch(/\bat \w+ \(/); // no stack trace
		expect(payouts()).toEqual(before);
		line('bad-amount', payouts().records.length - before.records.length, 1);
	});

	it('tops up a card only after approval, once in a conversation however often it is approved', async () => {
		const { sandbox } = stack!;
		const email = 'card.holder@example.com';
		await sandboxApi(sandbox, 'POST', '/api/v1/virtualcards/registercarduser', {
			customerEmail: email,
			firstName: 'Ada',
			lastName: 'Okafor',
			country: 'US',
			idType: 'PASSPORT',
			idNumber: 'P1234567',
		});
		const card = await sandboxApi<{ id: string }>(sandbox, 'POST', '/api/v1/virtualcards/create', { customerEmail: email, amount: 10 });
		await sandbox.controls.completeCardCreation(card.id);
		const topUps = () => sandbox.state.cardTransactions.filter((tx) => tx.cardId === card.id && tx.method === 'topup').length;
		const topUp = { name: 'Top_up_card', args: { toolParameters: { cardId: card.id, amountUsd: 25 }, hitlParameters: {} } };
		const chat = session();
		const told: string[] = [];
		for (const message of ['Top up the card with 25 dollars', 'Top it up with 25 dollars again']) {
			model!.script({ toolCalls: [topUp] }, (request) => {
				told.push(lastToolResult(request));
				return { text: 'Done.' };
			});
			const { turn, text, approve } = await untilReview(chat, `${message}: ${card.id}`);
			expect(text).toContain(`**Card:** ${card.id}`);
			expect(text).toContain('**Amount:** 25 USD (US dollars, not cents)');
			expect(topUps()).toBe(0 + (told.length > 0 ? 1 : 0));
			expect((await click(approve)).status).toBe(200);
			await reply(turn);
			expect(topUps()).toBe(1);
		}
		expect(told[0]).not.toContain('alreadySubmitted');
		expect(told[1]).toContain('"alreadySubmitted":true');
		process.stdout.write(`agent[top-up]: ${topUps()} top-ups, 2 reviews\n`);
	});
});
