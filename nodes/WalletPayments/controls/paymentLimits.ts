/**
 * Payment limits, set on the credential by whoever owns it, so that every workflow and agent
 * tool using the credential is bound (issue #31, point 3): a maximum per payment and per run of
 * a node, per currency, in major units; the currencies allowed; saved beneficiaries only. A run
 * that would break one sends nothing, not even its items within the limits. A limit across runs
 * (a total per day) cannot be kept: n8n's store is per workflow and node
 * (docs/payment-controls.md).
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { refuseAll } from '../engine/itemLoop';
import { itemRanges } from '../input/itemRanges';
import { majorText, majorToMinor } from '../input/units';
import { InvalidInput } from '../input/validation';
import { readCredential } from '../../shared/credential';

/** What one item would move: the currency it is counted in, minor units, and its payee. */
export interface Money {
	currency: string;
	minor: number;
	/** A payout to a destination given in the item rather than a saved beneficiary. */
	inlineBeneficiary?: boolean;
	/** A swap: the currency the money becomes (it must be allowed too). */
	into?: string;
}

export interface Limits {
	perPayment: Map<string, number>;
	perRun: Map<string, number>;
	/** Undefined: every currency. */
	currencies?: Set<string>;
	savedBeneficiariesOnly: boolean;
}

/** The credential's fields (their display names name them in errors). */
export const LIMIT_FIELDS = {
	perPayment: 'Maximum per Payment',
	perRun: 'Maximum per Run',
	currencies: 'Allowed Currencies',
	savedBeneficiariesOnly: 'Saved Beneficiaries Only',
} as const;

const ENTRY = /^([A-Za-z]{3})\s*:?\s*([0-9][0-9,_ ]*(?:\.[0-9]+)?)$/;

/** The amount in minor units, or what is wrong with it (so that it is named as a limit's). */
function minorOrProblem(amount: string, currency: string): number | InvalidInput {
	try {
		return majorToMinor(amount, currency, Number.MAX_SAFE_INTEGER, { unitSwitch: false });
	} catch (error) {
		return error as InvalidInput;
	}
}

/** "USD 5000, EUR 4500.50" → minor units per currency. */
function perCurrency(value: unknown, field: string): Map<string, number> {
	const limits = new Map<string, number>();
	const text = typeof value === 'string' ? value.trim() : '';
	if (text === '') return limits;
	for (const entry of text.split(/[;\n]|,(?=\s*[A-Za-z])/)) {
		const match = ENTRY.exec(entry.trim());
		if (!match) {
			throw new InvalidInput(
				`${field} (credential)`,
				`"${entry.trim()}" is not a currency and an amount in major units`,
				'Write e.g. USD 5000, EUR 4500.50 (5,000.00 US dollars, 4,500.50 euros).',
			);
		}
		const currency = match[1].toUpperCase();
		const amount = match[2].replace(/[,_ ]/g, '');
		const minor = minorOrProblem(amount, currency);
		if (typeof minor !== 'number') {
			throw new InvalidInput(
				`${field} (credential)`,
				`${entry.trim()}: ${minor.problem}`,
				minor.hint,
			);
		}
		limits.set(currency, minor);
	}
	return limits;
}

/** The limits the credential sets; none set is no limit. A malformed value fails the run. */
export function readLimits(credentials: ICredentialDataDecryptedObject): Limits {
	const currencies =
		typeof credentials.allowedCurrencies === 'string' ? credentials.allowedCurrencies : '';
	const codes = currencies
		.split(/[\s,;]+/)
		.filter((code) => code !== '')
		.map((code) => {
			if (!/^[A-Za-z]{3}$/.test(code)) {
				throw new InvalidInput(
					`${LIMIT_FIELDS.currencies} (credential)`,
					`"${code}" is not a three-letter currency code`,
				);
			}
			return code.toUpperCase();
		});
	return {
		perPayment: perCurrency(credentials.maxPerPayment, LIMIT_FIELDS.perPayment),
		perRun: perCurrency(credentials.maxPerRun, LIMIT_FIELDS.perRun),
		currencies: codes.length > 0 ? new Set(codes) : undefined,
		savedBeneficiariesOnly: credentials.savedBeneficiariesOnly === true,
	};
}

/** One limit a run would break, with the items (by index) that break it. */
export interface Refusal {
	limit: string;
	items: number[];
	detail: string;
}

/** Every limit the items together would break; empty when the run may go. */
export function refusals(
	items: Array<{ itemIndex: number; money: Money }>,
	limits: Limits,
): Refusal[] {
	const found: Refusal[] = [];
	// By limit and detail, so that a large run that breaks a limit on every row stays linear.
	const byReason = new Map<string, Refusal>();
	const add = (limit: string, itemIndex: number, detail: string) => {
		const reason = `${limit}\n${detail}`;
		const same = byReason.get(reason);
		if (same) same.items.push(itemIndex);
		else {
			const refusal = { limit, items: [itemIndex], detail };
			byReason.set(reason, refusal);
			found.push(refusal);
		}
	};
	const totals = new Map<string, { minor: number; items: number[] }>();
	for (const { itemIndex, money } of items) {
		const currency = money.currency.toUpperCase();
		for (const code of [currency, ...(money.into ? [money.into.toUpperCase()] : [])]) {
			if (limits.currencies && !limits.currencies.has(code)) {
				add(
					LIMIT_FIELDS.currencies,
					itemIndex,
					`${code} is not one of ${[...limits.currencies].join(', ')}`,
				);
			}
		}
		if (limits.savedBeneficiariesOnly && money.inlineBeneficiary) {
			add(LIMIT_FIELDS.savedBeneficiariesOnly, itemIndex, 'a payout to an inline beneficiary');
		}
		const max = limits.perPayment.get(currency);
		if (max !== undefined && money.minor > max) {
			add(
				LIMIT_FIELDS.perPayment,
				itemIndex,
				`${majorText(money.minor, currency)} is over ${majorText(max, currency)}`,
			);
		}
		const total = totals.get(currency) ?? { minor: 0, items: [] };
		total.minor += money.minor;
		total.items.push(itemIndex);
		totals.set(currency, total);
	}
	for (const [currency, total] of totals) {
		const max = limits.perRun.get(currency);
		if (max !== undefined && total.minor > max) {
			found.push({
				limit: LIMIT_FIELDS.perRun,
				items: total.items,
				detail: `the ${total.items.length} items total ${majorText(total.minor, currency)}, over ${majorText(max, currency)}`,
			});
		}
	}
	return found;
}

/** The most reasons an error lists (a payroll over the limit on every row would list them all). */
const REASONS_SHOWN = 5;

/** The error's text, plain enough for an AI agent (it gets only the message). */
export function refusalText(found: Refusal[]): string {
	const more = found.length - REASONS_SHOWN;
	const reasons = found
		.slice(0, REASONS_SHOWN)
		.map(
			(r) =>
				`${r.limit}: ${r.detail} (item${r.items.length === 1 ? '' : 's'} ${itemRanges(r.items)})`,
		);
	if (more > 0) reasons.push(`and ${more} more`);
	return `Nothing was sent: this run breaks the payment limits set on the Wallet Payments credential. ${reasons.join('; ')}.`;
}

/**
 * Checks the items of one run against the credential's limits before anything is sent: the
 * error to fail every item with (nothing is sent), or undefined when the run may go.
 */
export async function limitsRefusal(
	context: IExecuteFunctions,
	items: Array<{ itemIndex: number; money: Money }>,
): Promise<NodeOperationError | undefined> {
	if (items.length === 0) return undefined;
	const credentials = await readCredential(context);
	let found: Refusal[];
	try {
		found = refusals(items, readLimits(credentials));
	} catch (error) {
		// Only parsing can fail here (InvalidInput): a malformed limit refuses the run.
		const { message, hint } = error as InvalidInput;
		return new NodeOperationError(context.getNode(), `Nothing was sent: ${message}`, {
			description: hint,
		});
	}
	if (found.length === 0) return undefined;
	return new NodeOperationError(context.getNode(), refusalText(found), {
		description:
			'The limits are set on the credential by its owner (Maximum per Payment, Maximum per Run, Allowed Currencies, Saved Beneficiaries Only). Change the items, split the run, or ask the owner to change the limits.',
	});
}

/**
 * The limits for an operation that moves money but is not guarded (Swap → Get Quote: the amount
 * is given there; Finalize carries only the quote's ID). Every item's money is read first; a run
 * that breaks a limit runs no item.
 */
export type ReadMoney = (this: IExecuteFunctions, itemIndex: number) => Money;

/** The run's output when the limits refuse it, else undefined (the items run as usual). */
export async function refusedByLimits(
	context: IExecuteFunctions,
	indexes: number[],
	readMoney: ReadMoney,
): Promise<INodeExecutionData[] | undefined> {
	const items: Array<{ itemIndex: number; money: Money }> = [];
	for (const itemIndex of indexes) {
		try {
			items.push({ itemIndex, money: readMoney.call(context, itemIndex) });
		} catch {
			// An item that cannot be read fails on its own when it runs.
		}
	}
	const refusal = await limitsRefusal(context, items);
	return refusal ? refuseAll(context, indexes, new Map(), refusal) : undefined;
}
