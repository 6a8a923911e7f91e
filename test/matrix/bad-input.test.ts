/**
 * Bad-input matrix: every row is one bad value for one field of one operation. Each must be
 * refused by the node before anything is sent, with a message naming the field and the item:
 * `Invalid "<Field>": <problem> (item N)`.
 *
 * Rows with `at` run a batch with Continue On Fail: the bad value sits in item `at`, valid
 * values in the items around it. The bad item must come out as its own error item (paired, in
 * order) and send nothing; its valid neighbours go on and are counted apart.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters, ResourceMapperValue } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox/sandbox';

const fixture = useSandbox();

const EMAIL = 'ann@example.com';

/** The destination form (n8n's resource mapper), as the editor stores it. */
const form = (value: IDataObject): ResourceMapperValue => ({
	mappingMode: 'defineBelow',
	value: value as ResourceMapperValue['value'],
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});
const KENYA_MPESA = { network: 'MPESA', accountName: 'Ann Doe', accountNumber: '254712345678' };

/** A picker ("resource locator") in By ID mode, as n8n stores it. */
const byId = (value: string): INodeParameterResourceLocator => ({ __rl: true, mode: 'id', value });

/** Valid parameters of each of the 21 operations: they pass the node's own checks. */
const VALID: Record<string, INodeParameters> = {
	'beneficiary.create': {
		country: 'KE',
		currency: 'KES',
		customerEmail: EMAIL,
		destinationType: 'MOBILEMONEY',
		destinationFields: form(KENYA_MPESA),
		additionalFields: {},
	},
	'beneficiary.getAll': { returnAll: false, limit: 10, filters: {} },
	'card.create': { customerEmail: EMAIL, amount: 50, additionalFields: {} },
	'card.freeze': { cardId: 'card-1' },
	'card.unfreeze': { cardId: 'card-1' },
	'card.terminate': { cardId: 'card-1' },
	'card.getTransactions': { cardId: 'card-1', returnAll: false, limit: 10, options: {} },
	'card.registerUser': {
		customerEmail: EMAIL,
		firstName: 'Ann',
		lastName: 'Doe',
		country: 'US',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
		additionalFields: {},
	},
	'card.topUp': { cardId: 'card-1', amount: 10, additionalFields: {} },
	'card.withdraw': { cardId: 'card-1', amount: 100, additionalFields: {} },
	'collection.initialize': {
		apiVersion: 'v2',
		country: 'NG',
		currency: 'NGN',
		customerEmail: EMAIL,
		amount: 250000,
		additionalFields: {},
	},
	'country.getRequirements': { countryCode: 'KE' },
	'customer.create': { firstName: 'Ann', lastName: 'Doe', email: EMAIL, additionalFields: {} },
	'customer.getAll': { returnAll: false, limit: 10, filters: {} },
	'customer.update': { customerId: byId('customer-1'), email: EMAIL, updateFields: {} },
	'payout.finalizeLegacy': { transactionId: 'tx-1' },
	'payout.initiate': {
		amount: 1050,
		sourceWalletCurrency: 'USD',
		customerEmail: EMAIL,
		description: 'Invoice 42',
		beneficiaryMode: 'id',
		beneficiaryId: byId('beneficiary-1'),
	},
	'payout.initiateLegacy': {
		amount: 1050,
		sourceWalletCurrency: 'USD',
		beneficiaryId: byId('beneficiary-1'),
		customerEmail: EMAIL,
		description: 'Invoice 42',
		callbackUrl: 'https://n8n.example.com/webhook/wallet',
	},
	'swap.finalize': { quoteId: 'quote-1' },
	'swap.getQuote': { sourceCurrency: 'USD', targetCurrency: 'NGN', amount: 10.5 },
	'transaction.get': { transactionId: 'tx-1' },
};

const OPERATIONS = Object.keys(VALID);

interface Row {
	op: string;
	/** What the row tries, for the test title. */
	what: string;
	/** Parameters to change: a path (`additionalFields.callbackUrl`) → value. */
	set: Record<string, unknown>;
	/** The field the message must name. */
	field: string;
	/** The problem the message must state. */
	problem: RegExp;
	/**
	 * Run a batch with Continue On Fail and put the bad value in this item. `param` is then
	 * set to `={{ $json.value }}`, the bad item carries `bad` and the others `good`.
	 */
	at?: number;
	param?: string;
	bad?: unknown;
	good?: unknown;
	/**
	 * Read-only look-ups the node may make before refusing: the country's payout requirements,
	 * which hold the country-specific rules. Nothing that creates, pays or changes is sent.
	 */
	lookups?: string[];
}

const huge = (length: number) => 'x'.repeat(length);
/** n8n refuses an empty required parameter itself; an expression can still give a blank value. */
const BLANK = '={{ "   " }}';
const MISSING = '={{ $json.nothing }}';
const OBJECT = '={{ { id: "abc" } }}';
const LIST = '={{ ["a", "b"] }}';
const NAN = '={{ NaN }}';
const INFINITY = '={{ Infinity }}';
const NEGATIVE_INFINITY = '={{ -Infinity }}';

const REQUIRED = /is required and cannot be blank/;
const NOT_TEXT_OBJECT = /must be text, but the value is an object/;
const NOT_TEXT_LIST = /must be text, but the value is a list/;
const NOT_EMAIL = /does not look like an email address/;
const NOT_COUNTRY = /is not a two-letter country code/;
const NOT_CURRENCY = /is not a three-letter currency code/;
const TOO_LONG = (max: number) => new RegExp(`characters long; the maximum is ${max}`);
const NOT_FINITE = /must be a finite number/;
const NOT_WHOLE = /must be a whole number/;
const NOT_POSITIVE = /must be greater than zero/;
const NOT_URL = /is not an http:\/\/ or https:\/\/ address/;
const NOT_DATE = /is not a valid date written yyyy-mm-dd/;

const rows: Row[] = [
	// Beneficiary → Create
	{ op: 'beneficiary.create', what: 'blank country', set: { country: BLANK }, field: 'Country', problem: REQUIRED },
	{ op: 'beneficiary.create', what: 'three-letter country', set: { country: 'KEN' }, field: 'Country', problem: NOT_COUNTRY },
	{ op: 'beneficiary.create', what: 'two-letter currency', set: { currency: 'KE' }, field: 'Currency', problem: NOT_CURRENCY },
	{
		op: 'beneficiary.create', what: 'bad email in item 2 of 4', set: {}, field: 'Customer Email', problem: NOT_EMAIL,
		at: 2, param: 'customerEmail', bad: 'ann@example', good: EMAIL,
	},
	{ op: 'beneficiary.create', what: 'blank mobile network', set: { 'destinationFields.value.network': BLANK }, field: 'Mobile Network', problem: REQUIRED },
	{ op: 'beneficiary.create', what: 'account number resolving to an object', set: { 'destinationFields.value.accountNumber': OBJECT }, field: 'Account Number', problem: NOT_TEXT_OBJECT },
	{
		op: 'beneficiary.create', what: 'Kenyan mobile number in local format (country pattern)', set: { 'destinationFields.value.accountNumber': '0712345678' },
		field: 'Account Number', problem: /"0712345678" does not match the pattern \^2547\[\\d\]\{8\}\$/, lookups: ['GET /api/v1/wallets/payout/supported-countries/KE'],
	},
	{
		op: 'beneficiary.create', what: 'NUBAN of 9 digits (country pattern)',
		set: { country: 'NG', currency: 'NGN', destinationType: 'NUBAN', destinationFields: form({ bankCode: '058', accountName: 'Ada Obi', accountNumber: '012345678' }) },
		field: 'Account Number', problem: /does not match the pattern/, lookups: ['GET /api/v1/wallets/payout/supported-countries/NG'],
	},
	{
		op: 'beneficiary.create', what: 'destination type the country does not offer', set: { destinationType: 'NUBAN', destinationFields: form({ bankCode: '058', accountName: 'Ann Doe', accountNumber: '0123456789' }) },
		field: 'Destination Type', problem: /Kenya \(KE\) does not offer "NUBAN"/, lookups: ['GET /api/v1/wallets/payout/supported-countries/KE'],
	},
	{ op: 'beneficiary.create', what: 'ftp callback URL', set: { 'additionalFields.callbackUrl': 'ftp://example.com/hook' }, field: 'Callback URL', problem: NOT_URL },
	{ op: 'beneficiary.create', what: 'destination JSON that does not parse', set: { destinationType: 'json', destinationJson: '{"type": "BANK",' }, field: 'Destination (JSON)', problem: /is not valid JSON/ },
	{ op: 'beneficiary.create', what: 'destination JSON that is a list', set: { destinationType: 'json', destinationJson: '[]' }, field: 'Destination (JSON)', problem: /must be a JSON object, but the value is a list/ },
	{ op: 'beneficiary.create', what: 'destination JSON without a type', set: { destinationType: 'json', destinationJson: '{"accountNumber": "254712345678"}' }, field: 'Destination (JSON) → type', problem: REQUIRED },
	{ op: 'beneficiary.create', what: 'NUBAN destination JSON without accountNumber', set: { country: 'NG', currency: 'NGN', destinationType: 'json', destinationJson: '{"type": "NUBAN", "bankCode": "058", "accountName": "Ann Doe"}' }, field: 'Destination (JSON) → accountNumber', problem: REQUIRED },
	{ op: 'beneficiary.create', what: 'huge reference', set: { 'additionalFields.reference': huge(5000) }, field: 'Reference', problem: TOO_LONG(100) },

	// Beneficiary → Get Many
	{ op: 'beneficiary.getAll', what: 'limit 0', set: { limit: 0 }, field: 'Limit', problem: /whole number from 1/ },
	{ op: 'beneficiary.getAll', what: 'fractional limit', set: { limit: 2.5 }, field: 'Limit', problem: /whole number from 1/ },
	{ op: 'beneficiary.getAll', what: 'NaN limit', set: { limit: NAN }, field: 'Limit', problem: NOT_FINITE },
	{ op: 'beneficiary.getAll', what: 'Return All given as the text "yes"', set: { returnAll: '={{ "yes" }}' }, field: 'Return All', problem: /must be true or false, but the value is the text "yes"/ },
	{ op: 'beneficiary.getAll', what: 'unknown status filter', set: { 'filters.status': 'DONE' }, field: 'Status', problem: /is not one of FAILED, PENDING, PROCESSING, SUCCESS/ },
	{ op: 'beneficiary.getAll', what: 'currency filter in words', set: { 'filters.currency': 'dollars' }, field: 'Currency', problem: NOT_CURRENCY },
	{ op: 'beneficiary.getAll', what: 'digits as country filter', set: { 'filters.country': '12' }, field: 'Country', problem: NOT_COUNTRY },

	// Card → Create
	{ op: 'card.create', what: 'amount below 3 USD', set: { amount: 2 }, field: 'Amount (USD)', problem: /between 3 and 2500 USD, not 2 USD/ },
	{ op: 'card.create', what: 'amount above 2,500 USD', set: { amount: 2500.01 }, field: 'Amount (USD)', problem: /between 3 and 2500 USD/ },
	{ op: 'card.create', what: 'sub-cent amount', set: { amount: 10.555 }, field: 'Amount (USD)', problem: /more than two decimal places/ },
	{ op: 'card.create', what: 'Infinity amount', set: { amount: INFINITY }, field: 'Amount (USD)', problem: NOT_FINITE },
	{ op: 'card.create', what: 'blank card holder email', set: { customerEmail: BLANK }, field: 'Customer Email', problem: REQUIRED },
	{ op: 'card.create', what: 'huge first name', set: { 'additionalFields.firstName': huge(10_000) }, field: 'First Name', problem: TOO_LONG(100) },

	// Card → Freeze / Unfreeze / Terminate
	{ op: 'card.freeze', what: 'blank card ID', set: { cardId: BLANK }, field: 'Card ID', problem: REQUIRED },
	{
		op: 'card.freeze', what: 'card ID resolving to an object in item 1 of 3', set: {}, field: 'Card ID', problem: NOT_TEXT_OBJECT,
		at: 1, param: 'cardId', bad: { id: 'card-1' }, good: 'card-1',
	},
	{ op: 'card.unfreeze', what: 'card ID over 100 characters', set: { cardId: huge(101) }, field: 'Card ID', problem: TOO_LONG(100) },
	{ op: 'card.unfreeze', what: 'missing card ID', set: { cardId: MISSING }, field: 'Card ID', problem: REQUIRED },
	{ op: 'card.terminate', what: 'card ID resolving to a list', set: { cardId: LIST }, field: 'Card ID', problem: NOT_TEXT_LIST },
	{ op: 'card.terminate', what: 'NaN card ID', set: { cardId: NAN }, field: 'Card ID', problem: /must be text, but the value is the number NaN/ },

	// Card → Get Many Transactions
	{ op: 'card.getTransactions', what: 'missing card ID', set: { cardId: MISSING }, field: 'Card ID', problem: REQUIRED },
	{ op: 'card.getTransactions', what: 'negative limit', set: { limit: -1 }, field: 'Limit', problem: /whole number from 1/ },
	{ op: 'card.getTransactions', what: 'unknown order', set: { 'options.order': 'RANDOM' }, field: 'Order', problem: /is not one of ASC, DESC/ },

	// Card → Register Card User
	{ op: 'card.registerUser', what: 'Nigeria without BVN', set: { country: 'NG' }, field: 'BVN', problem: /required when Country is NG/ },
	{ op: 'card.registerUser', what: 'Ghana without date of birth', set: { country: 'gh' }, field: 'Date of Birth', problem: /required when Country is GH/ },
	{ op: 'card.registerUser', what: '30 February as date of birth', set: { 'additionalFields.dateOfBirth': '1990-02-30' }, field: 'Date of Birth', problem: NOT_DATE },
	{ op: 'card.registerUser', what: 'day-first date of birth', set: { 'additionalFields.dateOfBirth': '30/01/1990' }, field: 'Date of Birth', problem: NOT_DATE },
	{ op: 'card.registerUser', what: 'date of birth in the future', set: { 'additionalFields.dateOfBirth': '2999-01-01' }, field: 'Date of Birth', problem: /must be in the past/ },
	{ op: 'card.registerUser', what: 'ID image that is not a URL', set: { 'additionalFields.idImage': 'passport.png' }, field: 'ID Image URL', problem: NOT_URL },
	{ op: 'card.registerUser', what: 'email with a space', set: { customerEmail: 'ann doe@example.com' }, field: 'Customer Email', problem: NOT_EMAIL },
	{
		op: 'card.registerUser', what: 'blank ID number in item 3 of 5', set: {}, field: 'ID Number', problem: REQUIRED,
		at: 3, param: 'idNumber', bad: '  ', good: 'P1234567',
	},
	{ op: 'card.registerUser', what: 'phone number in words', set: { 'additionalFields.phoneNumber': 'call me maybe' }, field: 'Phone Number', problem: /is not a phone number/ },

	// Card → Top Up
	{ op: 'card.topUp', what: 'negative amount', set: { amount: -5 }, field: 'Amount (USD)', problem: /between 3 and 2500 USD, not -5 USD/ },
	{ op: 'card.topUp', what: 'NaN amount', set: { amount: NAN }, field: 'Amount (USD)', problem: NOT_FINITE },
	{ op: 'card.topUp', what: 'amount as text with words', set: { amount: '={{ "10 dollars" }}' }, field: 'Amount (USD)', problem: /must be a number, but the value is the text "10 dollars"/ },
	{
		op: 'card.topUp', what: 'amount resolving to an object in item 1 of 3', set: {}, field: 'Amount (USD)', problem: /must be a number, but the value is an object/,
		at: 1, param: 'amount', bad: { usd: 10 }, good: 10,
	},

	// Card → Withdraw
	{ op: 'card.withdraw', what: 'fractional amount', set: { amount: 1.5 }, field: 'Amount', problem: NOT_WHOLE },
	{ op: 'card.withdraw', what: 'negative amount', set: { amount: -100 }, field: 'Amount', problem: NOT_POSITIVE },
	{ op: 'card.withdraw', what: 'amount over int32', set: { amount: 2_147_483_648 }, field: 'Amount', problem: /must be at most 2147483647/ },
	{ op: 'card.withdraw', what: 'zero amount', set: { amount: 0 }, field: 'Amount', problem: NOT_POSITIVE },

	// Collection → Initialize
	{ op: 'collection.initialize', what: 'fractional minor amount', set: { amount: 2500.5 }, field: 'Amount (Minor Units)', problem: NOT_WHOLE },
	{
		op: 'collection.initialize', what: 'negative minor amount in item 4 of 6', set: {}, field: 'Amount (Minor Units)', problem: NOT_POSITIVE,
		at: 4, param: 'amount', bad: -250000, good: 250000,
	},
	{ op: 'collection.initialize', what: 'country name instead of code', set: { country: 'Nigeria' }, field: 'Country', problem: NOT_COUNTRY },
	{ op: 'collection.initialize', what: 'blank currency', set: { currency: BLANK }, field: 'Currency', problem: REQUIRED },
	{ op: 'collection.initialize', what: 'unknown API version', set: { apiVersion: 'v3' }, field: 'API Version', problem: /is not v1 or v2/ },
	{ op: 'collection.initialize', what: 'email resolving to an object', set: { customerEmail: OBJECT }, field: 'Customer Email', problem: NOT_TEXT_OBJECT },
	{ op: 'collection.initialize', what: 'huge reference', set: { reference: huge(101) }, field: 'Reference', problem: TOO_LONG(100) },
	{ op: 'collection.initialize', what: 'huge description', set: { 'additionalFields.description': huge(501) }, field: 'Description', problem: TOO_LONG(500) },

	// Country → Get Payout Requirements
	{ op: 'country.getRequirements', what: 'blank country code', set: { countryCode: BLANK }, field: 'Country Code', problem: REQUIRED },
	{ op: 'country.getRequirements', what: 'letter and digit', set: { countryCode: 'K3' }, field: 'Country Code', problem: NOT_COUNTRY },
	{
		op: 'country.getRequirements', what: 'object country code in item 2 of 4', set: {}, field: 'Country Code', problem: NOT_TEXT_OBJECT,
		at: 2, param: 'countryCode', bad: { code: 'KE' }, good: 'KE',
	},

	// Customer → Create
	{ op: 'customer.create', what: 'blank first name', set: { firstName: BLANK }, field: 'First Name', problem: REQUIRED },
	{ op: 'customer.create', what: 'missing last name', set: { lastName: MISSING }, field: 'Last Name', problem: REQUIRED },
	{
		op: 'customer.create', what: 'bad email in item 1 of 3', set: {}, field: 'Email', problem: NOT_EMAIL,
		at: 1, param: 'email', bad: 'not-an-email', good: EMAIL,
	},
	{ op: 'customer.create', what: 'email over 254 characters', set: { email: `${huge(250)}@example.com` }, field: 'Email', problem: TOO_LONG(254) },
	{ op: 'customer.create', what: 'phone in words', set: { 'additionalFields.phone': 'call me' }, field: 'Phone', problem: /is not a phone number/ },
	{ op: 'customer.create', what: 'dial code in letters', set: { 'additionalFields.countryCode': 'KE' }, field: 'Country Dial Code', problem: /is not a dial code/ },

	// Customer → Get Many
	{ op: 'customer.getAll', what: 'limit 0', set: { limit: 0 }, field: 'Limit', problem: /whole number from 1/ },
	{ op: 'customer.getAll', what: 'Infinity limit', set: { limit: INFINITY }, field: 'Limit', problem: NOT_FINITE },
	{ op: 'customer.getAll', what: 'Return All resolving to a number', set: { returnAll: '={{ 1 }}' }, field: 'Return All', problem: /must be true or false, but the value is number/ },
	{ op: 'customer.getAll', what: 'email filter resolving to an object', set: { 'filters.email': OBJECT }, field: 'Email', problem: NOT_TEXT_OBJECT },

	// Customer → Update
	{ op: 'customer.update', what: 'blank customer ID', set: { customerId: byId(BLANK) }, field: 'Customer ID', problem: REQUIRED },
	{ op: 'customer.update', what: 'blank email', set: { email: BLANK }, field: 'Email', problem: REQUIRED },
	{ op: 'customer.update', what: 'huge phone', set: { 'updateFields.phone': huge(33) }, field: 'Phone', problem: TOO_LONG(32) },
	{ op: 'customer.update', what: 'five-digit dial code', set: { 'updateFields.countryCode': '+12345' }, field: 'Country Dial Code', problem: /is not a dial code/ },

	// Payout → Finalize (Legacy)
	{ op: 'payout.finalizeLegacy', what: 'blank transaction ID', set: { transactionId: BLANK }, field: 'Transaction ID', problem: REQUIRED },
	{ op: 'payout.finalizeLegacy', what: 'transaction ID resolving to an object', set: { transactionId: OBJECT }, field: 'Transaction ID', problem: NOT_TEXT_OBJECT },

	// Payout → Initiate
	{ op: 'payout.initiate', what: 'fractional minor amount', set: { amount: 10.5 }, field: 'Amount (Minor Units)', problem: NOT_WHOLE },
	{ op: 'payout.initiate', what: 'negative minor amount', set: { amount: -1050 }, field: 'Amount (Minor Units)', problem: NOT_POSITIVE },
	{ op: 'payout.initiate', what: 'NaN amount', set: { amount: NAN }, field: 'Amount (Minor Units)', problem: NOT_FINITE },
	{ op: 'payout.initiate', what: '-Infinity amount', set: { amount: NEGATIVE_INFINITY }, field: 'Amount (Minor Units)', problem: NOT_FINITE },
	{ op: 'payout.initiate', what: 'neither beneficiary ID nor inline beneficiary', set: { beneficiaryId: byId(BLANK) }, field: 'Beneficiary', problem: /neither a beneficiary ID nor an inline beneficiary/ },
	{
		op: 'payout.initiate', what: 'both: inline destination that carries a beneficiary ID',
		set: { beneficiaryMode: 'inline', country: 'KE', currency: 'KES', destinationType: 'json', destinationJson: '{"type": "MOBILEMONEY", "network": "MPESA", "accountName": "Ann Doe", "accountNumber": "254712345678", "beneficiaryId": "beneficiary-1"}' },
		field: 'Beneficiary', problem: /carries "beneficiaryId"; give either a beneficiary ID or an inline beneficiary, not both/,
	},
	{ op: 'payout.initiate', what: 'beneficiary ID resolving to an object', set: { beneficiaryId: byId(OBJECT) }, field: 'Beneficiary ID', problem: /must be an ID \(text\), but the value is an object/ },
	{ op: 'payout.initiate', what: 'two-letter wallet currency', set: { sourceWalletCurrency: 'US' }, field: 'Source Wallet Currency', problem: NOT_CURRENCY },
	{ op: 'payout.initiate', what: 'blank description', set: { description: BLANK }, field: 'Description', problem: REQUIRED },
	{
		op: 'payout.initiate', what: 'inline beneficiary with a country name',
		set: { beneficiaryMode: 'inline', country: 'Kenya', currency: 'KES', destinationType: 'MOBILEMONEY', destinationFields: form(KENYA_MPESA) },
		field: 'Beneficiary Country', problem: NOT_COUNTRY,
	},
	{
		op: 'payout.initiate', what: 'inline Ghanaian mobile money on a network Ghana does not have (country enum)',
		set: {
			beneficiaryMode: 'inline', country: 'GH', currency: 'GHS', destinationType: 'MOBILEMONEY',
			destinationFields: form({ network: 'MPESA', accountName: 'Kofi Mensah', accountNumber: '0241234567' }),
		},
		field: 'Mobile Network', problem: /"MPESA" is not one of MTN, VODAFONE, AIRTELTIGO/, lookups: ['GET /api/v1/wallets/payout/supported-countries/GH'],
	},
	{ op: 'payout.initiate', what: 'unknown beneficiary mode', set: { beneficiaryMode: 'both' }, field: 'Beneficiary', problem: /is not By ID, Inline or From Row Columns/ },
	{ op: 'payout.initiate', what: 'major amount with too many decimals', set: { amountUnit: 'major', amount: 10.505 }, field: 'Amount (Major Units)', problem: /has 3 decimals, but USD has at most 2 decimals/ },

	// Payout → Initiate (Legacy)
	{ op: 'payout.initiateLegacy', what: 'minor amount over int32', set: { amount: 2_147_483_648 }, field: 'Amount (Minor Units)', problem: /must be at most 2147483647/ },
	{ op: 'payout.initiateLegacy', what: 'blank callback URL', set: { callbackUrl: BLANK }, field: 'Callback URL', problem: REQUIRED },
	{ op: 'payout.initiateLegacy', what: 'javascript: callback URL', set: { callbackUrl: 'javascript:alert(1)' }, field: 'Callback URL', problem: NOT_URL },
	{
		op: 'payout.initiateLegacy', what: 'blank beneficiary ID in item 2 of 4', set: {}, field: 'Beneficiary ID', problem: REQUIRED,
		at: 2, param: 'beneficiaryId.value', bad: '', good: 'beneficiary-1',
	},
	{ op: 'payout.initiateLegacy', what: 'Infinity amount', set: { amount: INFINITY }, field: 'Amount (Minor Units)', problem: NOT_FINITE },

	// Swap → Finalize
	{ op: 'swap.finalize', what: 'blank quote ID', set: { quoteId: BLANK }, field: 'Quote ID', problem: REQUIRED },
	{
		op: 'swap.finalize', what: 'quote ID resolving to an object in item 1 of 3', set: {}, field: 'Quote ID', problem: NOT_TEXT_OBJECT,
		at: 1, param: 'quoteId', bad: { quoteId: 'quote-1' }, good: 'quote-1',
	},

	// Swap → Get Quote
	{ op: 'swap.getQuote', what: 'same source and target currency', set: { targetCurrency: 'usd' }, field: 'Target Currency', problem: /must differ from the source currency \(USD\)/ },
	{ op: 'swap.getQuote', what: 'zero amount', set: { amount: 0 }, field: 'Amount (Major Units)', problem: NOT_POSITIVE },
	{ op: 'swap.getQuote', what: 'three decimals', set: { amount: 10.555 }, field: 'Amount (Major Units)', problem: /10\.555 USD has 3 decimals, but USD has at most 2 decimals; the node does not round/ },
	{ op: 'swap.getQuote', what: 'negative amount', set: { amount: -3 }, field: 'Amount (Major Units)', problem: /must be a positive decimal number such as 10\.50, not -3/ },
	{ op: 'swap.getQuote', what: 'NaN amount', set: { amount: NAN }, field: 'Amount (Major Units)', problem: NOT_FINITE },
	{ op: 'swap.getQuote', what: 'Infinity amount', set: { amount: INFINITY }, field: 'Amount (Major Units)', problem: NOT_FINITE },
	{ op: 'swap.getQuote', what: 'blank target currency', set: { targetCurrency: BLANK }, field: 'Target Currency', problem: REQUIRED },

	// Transaction → Get
	{ op: 'transaction.get', what: 'blank transaction ID', set: { transactionId: BLANK }, field: 'Transaction ID', problem: REQUIRED },
	{ op: 'transaction.get', what: 'huge transaction ID', set: { transactionId: huge(1000) }, field: 'Transaction ID', problem: TOO_LONG(100) },
	{ op: 'transaction.get', what: 'Infinity transaction ID', set: { transactionId: INFINITY }, field: 'Transaction ID', problem: /must be text, but the value is the number Infinity/ },
	{
		op: 'transaction.get', what: 'transaction ID resolving to a list in item 3 of 5', set: {}, field: 'Transaction ID', problem: NOT_TEXT_LIST,
		at: 3, param: 'transactionId', bad: ['tx-1', 'tx-2'], good: 'tx-1',
	},
];

function setPath(parameters: INodeParameters, path: string, value: unknown): void {
	const keys = path.split('.');
	let target = parameters as IDataObject;
	for (const key of keys.slice(0, -1)) {
		target[key] = { ...((target[key] as IDataObject | undefined) ?? {}) };
		target = target[key] as IDataObject;
	}
	target[keys[keys.length - 1]] = value as IDataObject[string];
}

function parametersFor(row: Row): INodeParameters {
	const [resource, operation] = row.op.split('.');
	const parameters: INodeParameters = { resource, operation, ...structuredClone(VALID[row.op]) };
	for (const [path, value] of Object.entries(row.set)) setPath(parameters, path, value);
	if (row.param) setPath(parameters, row.param, '={{ $json.value }}');
	return parameters;
}

const LOOKUP = /^\/api\/v1\/wallets\/payout\/supported-countries\//;

const totals = { tried: 0, rejected: 0, requestsFromBadItems: 0, lookups: 0, requestsFromValidNeighbours: 0 };
const operationsCovered = new Set<string>();

afterAll(() => {
	process.stdout.write(
		`\nBad-input matrix: ${totals.tried} bad inputs tried across ${operationsCovered.size} operations, ` +
			`${totals.rejected} rejected before sending, ${totals.requestsFromBadItems} requests sent for them ` +
			`(besides ${totals.lookups} read-only look-ups of country requirements; ` +
			`valid neighbour items in batches sent ${totals.requestsFromValidNeighbours})\n`,
	);
});

test('the matrix covers all 21 operations with at least 60 bad inputs, some in later items', () => {
	expect(OPERATIONS).toHaveLength(21);
	expect(new Set(rows.map((row) => row.op))).toEqual(new Set(OPERATIONS));
	expect(rows.length).toBeGreaterThanOrEqual(60);
	expect(new Set(rows.map((row) => row.at ?? 0)).size).toBeGreaterThanOrEqual(4);
});

describe.each(OPERATIONS)('%s', (op) => {
	test('its valid parameters pass the node’s checks (so each row below fails on its own field)', async () => {
		const [resource, operation] = op.split('.');
		const result = await fixture.run({ resource, operation, ...VALID[op] }, { continueOnFail: true });
		// The service may refuse the made-up IDs, but the request was sent.
		expect(fixture.apiRequests().length).toBeGreaterThan(0);
		expect(String(result.items[0]?.json.error ?? '')).not.toMatch(/^Invalid "/);
	});

	test.each(rows.filter((row) => row.op === op).map((row) => [row.what, row] as const))('%s', async (_what, row) => {
		totals.tried++;
		operationsCovered.add(row.op);
		const at = row.at ?? 0;
		const parameters = parametersFor(row);
		const message = (text: string) => {
			expect(text.startsWith(`Invalid "${row.field}": `)).toBe(true);
			expect(text).toMatch(row.problem);
			expect(text.endsWith(` (item ${at})`)).toBe(true);
		};

		if (row.at === undefined) {
			const result = await fixture.run(parameters);
			expect(result.error?.name).toBe('NodeOperationError');
			message(result.error?.message ?? '');
			expect(result.items).toEqual([]);
			const sent = fixture.apiRequests().map((request) => `${request.method} ${request.path}`);
			totals.lookups += sent.length;
			expect(sent).toEqual(row.lookups ?? []);
		} else {
			const count = at + 2;
			const items = Array.from({ length: count }, (_, index) => ({ value: (index === at ? row.bad : row.good) as IDataObject[string], index }));
			const result = await fixture.run(parameters, { items, continueOnFail: true });
			expect(result.error).toBeUndefined();
			// One output per item, paired and in order; the bad item is an error item.
			expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
			message(String(result.items[at].json.error));
			for (const [index, item] of result.items.entries()) {
				if (index !== at) expect(String(item.json.error ?? '')).not.toMatch(/^Invalid "/);
			}
			// Only the valid neighbours sent anything (besides the country look-up, made once per run).
			const lookup = (path: string) => row.op !== 'country.getRequirements' && LOOKUP.test(path);
			const sent = fixture.apiRequests().filter((request) => !lookup(request.path)).length;
			totals.requestsFromValidNeighbours += Math.min(sent, count - 1);
			totals.requestsFromBadItems += Math.max(0, sent - (count - 1));
			expect(sent).toBe(count - 1);
		}
		totals.rejected++;
	});
});
