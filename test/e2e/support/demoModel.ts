/**
 * The demo's chat model when no OpenAI key is given: a few fixed rules behind the scripted
 * OpenAI-compatible server (scriptedModel.ts), enough to try the agent example's tools and its
 * human review step without any outside service. It is not a language model: it understands
 * only the messages listed in HELP.
 */
import { lastMessage, ScriptedModel, textOf, type ChatRequest, type Reply } from './scriptedModel';

export const HELP = [
	'I am the demo model (rules, not AI). Try:',
	'- "beneficiaries" or "customers": I list them (read tools, no review)',
	'- "transaction <id>": I look the transaction up',
	'- "pay <beneficiary id> <amount> <currency>", e.g. "pay 3f2c… 50 USD": I propose a payout (50 USD is 5000 minor units); you approve or deny it here',
	'- "top up <card id> <US dollars>": I propose a card top-up; you approve or deny it',
	'Ask for the same payout twice in this chat and approve both: it is sent once.',
].join('\n');

/** Decimals of the currencies the demo is likely to see; 2 otherwise. */
const DECIMALS: Record<string, number> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3 };

function answer(request: ChatRequest): Reply {
	const last = lastMessage(request);
	if (last.role === 'tool') {
		const result = textOf(last);
		return { text: result.length > 1500 ? `${result.slice(0, 1500)}…` : result };
	}
	const text = textOf(last).trim();
	let match: RegExpExecArray | null;
	if (/beneficiar/i.test(text)) return { toolCalls: [{ name: 'List_beneficiaries', args: {} }] };
	if (/customer/i.test(text)) return { toolCalls: [{ name: 'List_customers', args: {} }] };
	if ((match = /transaction\s+(\S+)/i.exec(text))) return { toolCalls: [{ name: 'Get_transaction', args: { transactionId: match[1] } }] };
	if ((match = /^pay\s+(\S+)\s+([\d.]+)\s*([A-Za-z]{3})\b/i.exec(text))) {
		const currency = match[3].toUpperCase();
		const amount = Math.round(Number(match[2]) * 10 ** (DECIMALS[currency] ?? 2));
		return {
			toolCalls: [
				{
					name: 'Pay_out',
					args: {
						toolParameters: { beneficiaryId: match[1], amount, currency, customerEmail: 'demo@example.com', description: 'Demo payout from the chat' },
						hitlParameters: {},
					},
				},
			],
		};
	}
	if ((match = /^top\s*up\s+(\S+)\s+([\d.]+)/i.exec(text))) {
		return { toolCalls: [{ name: 'Top_up_card', args: { toolParameters: { cardId: match[1], amountUsd: Number(match[2]) }, hitlParameters: {} } }] };
	}
	return { text: HELP };
}

/** Starts the demo model on 127.0.0.1; its `url` is the Base URL for an OpenAI credential. */
export async function startDemoModel(): Promise<ScriptedModel> {
	return await new ScriptedModel(answer).start();
}
