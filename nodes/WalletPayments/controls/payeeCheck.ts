/**
 * Payee Check on Payout → Initiate (issue #31, point 5): a review that showed the payee's name
 * and account ending is bound to the payout. Before anything is sent, the saved beneficiary is
 * read and a payout to another name or account is refused. The interface has no read of one
 * beneficiary, so the list is read once per run of the node (helpers, not per item).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getAllByCursor } from '../transport/pagination';
import { InvalidInput, optionalText } from '../input/validation';

const FIELD = 'Payee Check';

export const payeeCheckField: INodeProperties = {
	displayName: FIELD,
	name: 'payeeCheck',
	type: 'collection',
	placeholder: 'Add Check',
	default: {},
	displayOptions: { show: { beneficiaryMode: ['id', 'columns'] } },
	description:
		'The payee as a reviewer saw it: nothing is sent when the saved beneficiary has another account name or number. With From Row Columns it checks the rows paid to a saved beneficiary, each against its own row (an expression per field).',
	options: [
		{
			displayName: 'Account Name',
			name: 'accountName',
			type: 'string',
			default: '',
			placeholder: 'Wanjiru Kamau',
			description:
				"The beneficiary's account name, as shown to the reviewer (case and extra spaces are ignored)",
		},
		{
			displayName: 'Account Number Ends With',
			name: 'accountEnding',
			type: 'string',
			default: '',
			placeholder: '5101',
			description: "The last 4 or more digits of the beneficiary's account number",
		},
	],
};

interface PayeeCheck {
	accountName?: string;
	accountEnding?: string;
}

/** The item's Payee Check, checked; undefined when it asks for nothing. */
function readCheck(context: IExecuteFunctions, itemIndex: number): PayeeCheck | undefined {
	const given = context.getNodeParameter('payeeCheck', itemIndex, {}) as IDataObject;
	const accountName = optionalText(given.accountName, `${FIELD} → Account Name`, 200);
	const accountEnding = optionalText(
		given.accountEnding,
		`${FIELD} → Account Number Ends With`,
		40,
	);
	if (accountEnding !== undefined && !/^\d{4,}$/.test(accountEnding)) {
		throw new InvalidInput(
			`${FIELD} → Account Number Ends With`,
			`"${accountEnding}" is not 4 or more digits`,
		);
	}
	if (accountName === undefined && accountEnding === undefined) return undefined;
	return { accountName, accountEnding };
}

/** Every saved beneficiary by ID, read once per run of the node. */
const beneficiariesOfRun = new WeakMap<object, Promise<Map<string, IDataObject>>>();

function savedBeneficiaries(context: IExecuteFunctions): Promise<Map<string, IDataObject>> {
	let found = beneficiariesOfRun.get(context);
	if (!found) {
		found = getAllByCursor
			.call(context, { endpoint: '/api/v2/beneficiaries', returnAll: true, limit: 0 })
			.then((all) => new Map(all.map((b) => [String(b.id), b])));
		beneficiariesOfRun.set(context, found);
	}
	return found;
}

export const sameName = (a: string, b: string) =>
	a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** Refuses the item, before anything is sent, when the saved beneficiary is not the one checked. */
export async function checkPayee(
	context: IExecuteFunctions,
	itemIndex: number,
	beneficiaryId: string,
): Promise<void> {
	const check = readCheck(context, itemIndex);
	if (!check) return;
	const beneficiary = (await savedBeneficiaries(context)).get(beneficiaryId);
	if (!beneficiary) {
		throw new InvalidInput(FIELD, `no saved beneficiary has the ID ${beneficiaryId}`);
	}
	const destination = (beneficiary.destination ?? {}) as IDataObject;
	const name = String(destination.accountName ?? '');
	const number = String(destination.accountNumber ?? '');
	const problems: string[] = [];
	if (check.accountName !== undefined && !sameName(name, check.accountName)) {
		problems.push(`its account name is "${name}", not "${check.accountName}"`);
	}
	if (check.accountEnding !== undefined && !number.endsWith(check.accountEnding)) {
		problems.push(`its account number ends in ${number.slice(-4)}, not ${check.accountEnding}`);
	}
	if (problems.length > 0) {
		throw new InvalidInput(
			FIELD,
			`the saved beneficiary ${beneficiaryId} is not the payee checked: ${problems.join('; ')}`,
			'Nothing was sent. Check the beneficiary ID, or what the reviewer was shown.',
		);
	}
}

/** A saved beneficiary as the service knows it, for an approver to see. */
export interface SavedPayee {
	accountName: string;
	accountNumber: string;
}

/**
 * The saved beneficiaries of these IDs as the service knows them (null: it has none with that
 * ID); undefined when its list could not be read, as a preview then shows what the rows say.
 */
export async function savedPayeesOf(
	context: IExecuteFunctions,
	ids: string[],
): Promise<Map<string, SavedPayee | null> | undefined> {
	if (ids.length === 0) return new Map();
	let saved: Map<string, IDataObject>;
	try {
		saved = await savedBeneficiaries(context);
	} catch {
		return undefined;
	}
	return new Map(
		ids.map((id) => {
			if (!saved.has(id)) return [id, null];
			const destination = saved.get(id)!.destination as IDataObject | undefined;
			return [
				id,
				{
					accountName: String(destination?.accountName ?? ''),
					accountNumber: String(destination?.accountNumber ?? ''),
				},
			];
		}),
	);
}
