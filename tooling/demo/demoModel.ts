/**
 * The demo's chat model when no OpenAI key is given: a few fixed rules behind the scripted
 * OpenAI-compatible server (scriptedModel.ts), enough to try the agent example's tools and its
 * human review step without any outside service. It is not a language model: it understands
 * only the messages listed in HELP.
 */
import { lastMessage, ScriptedModel, textOf, type ChatMessage, type ChatRequest, type Reply } from './scriptedModel';

export const HELP = [
	'I am the demo model (rules, not AI). Try:',
	'- "beneficiaries" or "customers": I list them (read tools, no review)',
	'- "transaction <id>": I look the transaction up',
	'- "pay <beneficiary id> <amount> <currency>", e.g. "pay 3f2c… 50 USD": I read the beneficiaries, then propose a payout to that one by its name and account ending; you approve or deny it here',
	'- "top up <card id> <US dollars>": I propose a card top-up; you approve or deny it',
	'Ask for the same payout twice in this chat and approve both: it is sent once.',
].join('\n');

const PAY = /^pay\s+(\S+)\s+([\d.]+)\s*([A-Za-z]{3})\b/i;

/** The first object with this `id` anywhere in a tool result's JSON. */
function findById(value: unknown, id: string): Record<string, unknown> | undefined {
	if (Array.isArray(value)) {
		for (const entry of value) {
			const found = findById(entry, id);
			if (found) return found;
		}
	} else if (typeof value === 'object' && value !== null) {
		const record = value as Record<string, unknown>;
		if (record.id === id) return record;
		for (const entry of Object.values(record)) {
			const found = findById(entry, id);
			if (found) return found;
		}
	}
	return undefined;
}

const parsed = (text: string): unknown => {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
};

/**
 * "pay …", second step: the beneficiaries list came back; the payout names the payee as the list
 * shows it (the review shows that name, and the node's Payee Check holds the payout to it).
 */
function payFromList(command: RegExpExecArray, list: string): Reply {
	const [, id, amountText, currencyText] = command;
	const beneficiary = findById(parsed(list), id);
	const destination = (beneficiary?.destination ?? {}) as { accountName?: string; accountNumber?: string };
	if (!destination.accountName || !destination.accountNumber) return { text: `I cannot find the beneficiary ${id} in the list.` };
	const currency = currencyText.toUpperCase();
	// The tool takes the amount as people write it (the example's Pay out: Amount Unit Major Units).
	const amount = Number(amountText);
	const toolParameters = {
		beneficiaryId: id,
		payeeName: destination.accountName,
		accountEnding: destination.accountNumber.slice(-4),
		amount,
		currency,
		customerEmail: 'demo@example.com',
		description: 'Demo payout from the chat',
	};
	return { toolCalls: [{ name: 'Pay_out', args: { toolParameters, hitlParameters: {} } }] };
}

const calls = (message: ChatMessage) => (message.tool_calls ?? []).map((call) => call.function.name);

export function demoAnswer(request: ChatRequest): Reply {
	const last = lastMessage(request);
	if (last.role === 'tool') {
		const result = textOf(last);
		// After "pay …": the list it asked for is back, and no payout was proposed yet.
		const userAt = request.messages.map((m) => m.role).lastIndexOf('user');
		const command = PAY.exec(textOf(request.messages[userAt]).trim());
		const since = request.messages.slice(userAt + 1).flatMap(calls);
		if (command && !since.includes('Pay_out') && since.at(-1) === 'List_beneficiaries') return payFromList(command, result);
		return { text: result.length > 1500 ? `${result.slice(0, 1500)}…` : result };
	}
	const text = textOf(last).trim();
	let match: RegExpExecArray | null;
	if (PAY.test(text)) return { toolCalls: [{ name: 'List_beneficiaries', args: {} }] };
	if (/beneficiar/i.test(text)) return { toolCalls: [{ name: 'List_beneficiaries', args: {} }] };
	if (/customer/i.test(text)) return { toolCalls: [{ name: 'List_customers', args: {} }] };
	if ((match = /transaction\s+(\S+)/i.exec(text))) return { toolCalls: [{ name: 'Get_transaction', args: { transactionId: match[1] } }] };
	if ((match = /^top\s*up\s+(\S+)\s+([\d.]+)/i.exec(text))) {
		return { toolCalls: [{ name: 'Top_up_card', args: { toolParameters: { cardId: match[1], amountUsd: Number(match[2]) }, hitlParameters: {} } }] };
	}
	return { text: HELP };
}

/** Starts the demo model on 127.0.0.1; its `url` is the Base URL for an OpenAI credential. */
export async function startDemoModel(): Promise<ScriptedModel> {
	return await new ScriptedModel(demoAnswer).start();
}
