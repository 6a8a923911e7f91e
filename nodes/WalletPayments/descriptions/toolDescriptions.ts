import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

const READS = 'Reads only: moves no money, free to call.';
const ONCE =
	'Each distinct request is sent at most once: a repeat of one already sent is not sent again and returns alreadySubmitted: true with a message saying so; do not retry it.';

/**
 * What an AI agent is told about each operation when the node is one of its tools: what it does,
 * whether it moves money, and the unit of every amount. n8n gives the agent this text as the
 * tool's description (the node's own Tool Description field, shown only on the tool).
 */
export const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	beneficiary: {
		create: `Saves a beneficiary (a payee and their bank or mobile money account) and returns its ID. Moves no money. ${ONCE}`,
		getAll: `Lists saved beneficiaries (ID, name, country, currency, destination), optionally filtered by status, currency, country or reference. ${READS}`,
	},
	card: {
		create: `Creates a virtual USD card for a registered card user. MOVES MONEY: the initial balance, in US dollars (3 to 2,500, up to two decimals: 10.50 is ten dollars fifty), is taken from the wallet. ${ONCE}`,
		freeze:
			'Freezes a virtual card (by its card ID) so that it cannot be used until it is unfrozen. Moves no money.',
		getTransactions: `Lists a virtual card's transactions, newest first (amounts as the service gives them: amount in US dollars). ${READS}`,
		registerUser:
			'Registers a card user (identity details) so cards can be issued to them. Moves no money.',
		terminate: 'Terminates a virtual card permanently. Moves no money itself, cannot be undone.',
		topUp: `Adds money to a virtual card. MOVES MONEY: the amount, in US dollars (3 to 2,500, up to two decimals: 10.50 is ten dollars fifty), is taken from the wallet. ${ONCE}`,
		unfreeze:
			'Unfreezes a frozen virtual card (by its card ID) so that it can be used again. Moves no money.',
		withdraw: `Moves money from a virtual card back to the wallet. MOVES MONEY: the amount is a whole number (1 to 2,147,483,647) in the unit of the card provider, which the API does not state. ${ONCE}`,
	},
	collection: {
		initialize: `Creates a receiving account a customer pays into. Bills the customer: the amount is in minor units of the currency unless the node says major units (1050 is 10.50 USD). ${ONCE}`,
	},
	country: {
		getRequirements: `Gives the destination types (bank, mobile money) and the fields a country needs to pay someone there. ${READS}`,
	},
	customer: {
		create: 'Creates a customer record (name, email, phone) and returns its ID. Moves no money.',
		getAll: `Lists customers (ID, name, email, phone), optionally filtered by name, email or phone. ${READS}`,
		update: 'Updates a customer record; the email is always required. Moves no money.',
	},
	payout: {
		finalizeLegacy: `Finalizes a legacy payout started with Initiate (Legacy), by its transaction ID. MOVES MONEY: this is the step that pays. ${ONCE}`,
		initiate: `Pays money out of the wallet to a saved beneficiary (by beneficiary ID) or to an account described inline. MOVES MONEY. The amount is in minor units of the source wallet currency unless the node says major units (minor: 1050 is 10.50 USD, 5000 is 50.00 USD). ${ONCE}`,
		initiateLegacy: `Starts a two-step legacy payout to a saved beneficiary; nothing is paid until Finalize (Legacy). The amount is in minor units unless the node says major units (1050 is 10.50 USD). ${ONCE}`,
	},
	swap: {
		finalize: `Converts money between two of the wallet's currencies at a quote from Get Quote (a quote works once, for about 250 seconds). MOVES MONEY between wallets. ${ONCE}`,
		getQuote: `Gets a quote to convert money between two currencies; the amount is in major units (10.50 is ten units fifty). ${READS}`,
	},
	transaction: {
		get: `Gets one transaction (payout, collection or swap) by its ID: status, amount, currency, reference, dates. ${READS}`,
		waitForFinal: `Checks a payout by its transaction ID until it settles, fails or is reversed, or the wait runs out. ${READS}`,
	},
};

/**
 * The Tool Description field of every operation, shown only when the node is an agent's tool
 * (`@tool`). With the field in the node, n8n uses its text instead of the one it would make from
 * the operation's name ("Initiate a payout in Wallet Payments").
 */
export function toolDescriptionProperties(): INodeProperties[] {
	return Object.entries(TOOL_DESCRIPTIONS).flatMap(([resource, operations]) =>
		Object.entries(operations).map(
			([operation, text]): INodeProperties => ({
				displayName: 'Tool Description',
				name: 'toolDescription',
				type: 'string',
				default: text,
				typeOptions: { rows: 3 },
				description:
					'What the AI agent is told about this tool: what it does, whether it moves money, and the unit of every amount',
				displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
			}),
		),
	);
}

/** Whether the node runs as an AI agent's tool (n8n's type for it ends in "Tool"). */
export function isAgentTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * What an agent is told first when a payment it asked for was not sent because it was sent
 * before: in plain words, with what to do (the builder-facing message follows it).
 */
export function alreadySentForAgent(outcome: string): string {
	return outcome === 'accepted'
		? 'This exact request was already sent earlier and the service accepted it; it was not sent again. Do not retry it: tell the user it is already done.'
		: 'This exact request was already sent earlier, or is being sent by another run, and its result is not known here; it was not sent again. Do not retry it: tell the user a person must check it.';
}
