import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { WalletContext } from '../../transport/request';
import { checkedDestination, DESTINATION_FIELDS, fieldLabel } from '../../input/destination';
import { countryCode, currencyCode, InvalidInput, optionalText } from '../../input/validation';

/**
 * Beneficiary "From Row Columns": each row says who is paid, from its own columns: a saved
 * beneficiary's ID, or an account (bank, NUBAN, mobile money) with its country and currency. One
 * node pays a sheet that mixes them (docs/reference.md, "A payroll sheet with mixed payees").
 */

/** How sheets name the destination types: "Bank", "Mobile Money", "mobile_money", "NUBAN". */
const TYPE_WORDS: Record<string, string> = {
	BANK: 'BANK',
	BANKACCOUNT: 'BANK',
	MOBILEMONEY: 'MOBILEMONEY',
	MOMO: 'MOBILEMONEY',
	NUBAN: 'NUBAN',
};

const column = (name: string) => `{{ $json.${name} }}`;

const field = (
	displayName: string,
	name: string,
	sheetColumn: string,
	description: string,
	show: IDisplayOptions['show'],
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: column(sheetColumn),
	description,
	displayOptions: { show: { ...show } },
});

/** The fields of "From Row Columns"; `show` limits them to the operation and that mode. */
export function rowPayeeProperties(show: IDisplayOptions['show']): INodeProperties[] {
	const account = (what: string) =>
		`${what}, from the row's column. Needed by the destination types that take it; ignored in rows paid to a saved beneficiary.`;
	return [
		{
			displayName:
				"Map each field to your sheet's column. A row with a Saved Beneficiary ID pays that beneficiary; a row without one pays the account in its other columns. A row missing what its destination needs is refused before anything is sent.",
			name: 'rowPayeeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show } },
		},
		field(
			'Saved Beneficiary ID',
			'rowBeneficiaryId',
			'beneficiaryId',
			'The ID of a beneficiary saved with Beneficiary → Create. Leave the cell empty in rows paid to an account.',
			show,
		),
		field(
			'Destination Type',
			'rowDestinationType',
			'destinationType',
			'Bank, NUBAN or Mobile Money (BANK, NUBAN, MOBILEMONEY, as the API names them; other types the country offers as the API names them)',
			show,
		),
		field(
			'Beneficiary Country',
			'rowCountry',
			'country',
			'Two-letter code of the country the money is paid out in, e.g. KE or NG',
			show,
		),
		field(
			'Beneficiary Currency',
			'rowCurrency',
			'currency',
			'Three-letter code of the currency the beneficiary receives, e.g. KES or NGN',
			show,
		),
		field('Account Name', 'rowAccountName', 'accountName', account('The account holder'), show),
		field(
			'Account Number',
			'rowAccountNumber',
			'accountNumber',
			account('The account or mobile number; keep the column as text so leading zeros stay'),
			show,
		),
		field('Bank Code', 'rowBankCode', 'bankCode', account('The bank code'), show),
		field('Bank Name', 'rowBankName', 'bankName', account('The bank name'), show),
		field(
			'Mobile Network',
			'rowNetwork',
			'network',
			account('The mobile money network, e.g. MPESA'),
			show,
		),
	];
}

/** The account fields a row may give (the API's names), and the node's parameter for each. */
const ACCOUNT_PARAMETERS: Record<string, string> = {
	accountName: 'rowAccountName',
	accountNumber: 'rowAccountNumber',
	bankCode: 'rowBankCode',
	bankName: 'rowBankName',
	network: 'rowNetwork',
};

/** "Mobile Money" → MOBILEMONEY; a type the table does not know is passed on in capitals. */
function destinationTypeOf(value: string): string {
	const word = value.toUpperCase().replace(/[\s_-]+/g, '');
	return TYPE_WORDS[word] ?? word;
}

/** One row's payee: `{ beneficiaryId }` or `{ beneficiary }`, as the payout takes them. */
export async function readRowPayee(
	context: WalletContext,
	itemIndex: number,
): Promise<IDataObject> {
	const read = (name: string, label: string) =>
		optionalText(context.getNodeParameter(name, itemIndex, ''), label, 200);
	const id = read('rowBeneficiaryId', 'Saved Beneficiary ID');
	const typeText = read('rowDestinationType', 'Destination Type');
	const values: IDataObject = {};
	for (const [name, parameter] of Object.entries(ACCOUNT_PARAMETERS)) {
		const value = read(parameter, fieldLabel(name));
		if (value !== undefined) values[name] = value;
	}
	if (id !== undefined) {
		// An account number or a type next to an ID: the row names two payees.
		const also = [typeText && 'a Destination Type', values.accountNumber && 'an Account Number'];
		const given = also.filter(Boolean).join(' and ');
		if (given) {
			throw new InvalidInput(
				'Saved Beneficiary ID',
				`the row gives a saved beneficiary (${id}) and also ${given}; give one payee per row`,
				"Empty the row's Saved Beneficiary ID cell to pay the account, or its account cells to pay the saved beneficiary.",
			);
		}
		return { beneficiaryId: id };
	}
	if (typeText === undefined) {
		throw new InvalidInput(
			'Destination Type',
			'the row has neither a Saved Beneficiary ID nor a Destination Type; it needs one of them',
			`Destination types: ${Object.keys(DESTINATION_FIELDS).join(', ')}.`,
		);
	}
	const country = countryCode(
		context.getNodeParameter('rowCountry', itemIndex, ''),
		'Beneficiary Country',
	);
	const currency = currencyCode(
		context.getNodeParameter('rowCurrency', itemIndex, ''),
		'Beneficiary Currency',
	);
	const type = destinationTypeOf(typeText);
	const destination = await checkedDestination(context, country, { ...values, type });
	return { beneficiary: { country, currency, destination } };
}
