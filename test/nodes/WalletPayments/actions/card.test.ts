import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { maskCardDetails } from '../../../../nodes/WalletPayments/output/cardMasking';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { CARD_HOLDER, derivedReference, expectInvalid, expectRequests, issueCard, outputJson } from '../../../helpers/sandbox/operations';

const fixture = useSandbox();

/** n8n itself refuses an empty required parameter; an expression can still give a blank value. */
const BLANK = '={{ $json.missing ?? "" }}';

const card = (params: IDataObject) => ({ resource: 'card', ...params });

const REGISTER = card({
	operation: 'registerUser',
	...CARD_HOLDER,
	country: 'US',
	idType: 'PASSPORT',
	idNumber: 'P1234567',
});

function cardRecord(cardId: string) {
	const record = fixture.sandbox.state.cards.find((c) => c.id === cardId);
	if (!record) throw new Error(`no card ${cardId}`);
	return record;
}

/** The card as the contract (2.8) shows it, with the number and CVV as the service holds them. */
function fullCard(cardId: string) {
	const c = cardRecord(cardId);
	return {
		id: c.id,
		createdAt: c.createdAt,
		updatedAt: c.updatedAt,
		balance: c.balanceCents / 100,
		cardNumber: c.cardNumber,
		last4: c.cardNumber?.slice(-4),
		cardName: c.cardName,
		cardType: c.cardType,
		cardBrand: c.cardBrand,
		cvv2: c.cvv2,
		expiry: c.expiry,
		status: c.status,
		valid: c.valid,
		reference: c.reference,
		createdStatus: c.createdStatus,
		customerId: null,
		billingAddress: c.billingAddress,
		customerEmail: c.customerEmail,
	};
}

function maskedCard(cardId: string) {
	const full = fullCard(cardId);
	return { ...full, cardNumber: `************${full.last4}`, cvv2: '***' };
}

function transactionRecord(reference: string) {
	const tx = fixture.sandbox.state.cardTransactions.find((t) => t.reference === reference);
	if (!tx) throw new Error(`no card transaction ${reference}`);
	return tx;
}

/** A top-up or withdrawal as those calls return it (2.9): amounts are numbers. */
function transactionOutput(reference: string) {
	const tx = transactionRecord(reference);
	return {
		id: tx.id,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		amount: tx.centAmount / 100,
		centAmount: tx.centAmount,
		type: tx.type,
		method: tx.method,
		status: tx.status,
		currency: 'usd',
		reference,
		cardId: tx.cardId,
	};
}

/** A card transaction as the list returns it: amounts are strings, narrative included. */
function listedTransaction(reference: string) {
	const tx = transactionRecord(reference);
	return {
		...transactionOutput(reference),
		amount: (tx.centAmount / 100).toFixed(2),
		centAmount: String(tx.centAmount),
		narrative: tx.narrative,
	};
}

function expectApiError(result: { error?: unknown; items: unknown[] }, message: string, httpCode: string) {
	const error = result.error as NodeApiError;
	expect(error).toBeDefined();
	expect(error.name).toBe('NodeApiError');
	expect(error.message).toBe(`${message} [HTTP ${httpCode}]`);
	expect(error.httpCode).toBe(httpCode);
	expect(result.items).toEqual([]);
}

describe('the card lifecycle through the node', () => {
	test('register → create → issue → top up → withdraw → freeze → unfreeze → terminate → list', async () => {
		const { sandbox } = fixture;

		// Register card user (Nigeria: BVN required and sent).
		const registerAdditional = {
			bvn: '22212345678',
			city: 'Lagos',
			dateOfBirth: '1990-04-25',
			houseName: 'Block A',
			idImage: 'https://example.com/document.png',
			line1: '12 Marina Road',
			phoneNumber: '+2348012345678',
			state: 'Lagos',
			userPhoto: 'https://example.com/photo.png',
			zipCode: '100001',
		};
		let result = await fixture.run({
			...REGISTER,
			country: 'ng',
			idType: 'BVN',
			idNumber: '22212345678',
			additionalFields: registerAdditional,
		});
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v1/virtualcards/registercarduser',
				body: { ...CARD_HOLDER, country: 'NG', idType: 'BVN', idNumber: '22212345678', ...registerAdditional },
			},
		]);
		const user = sandbox.state.cardUsers[0];
		expect(user.details).toMatchObject({ bvn: '22212345678', dateOfBirth: '1990-04-25' });
		expect(outputJson(result)).toEqual([
			{
				id: user.id,
				customerEmail: CARD_HOLDER.customerEmail,
				firstName: 'Ada',
				lastName: 'Okafor',
				country: 'NG',
				kycStatus: 'pending',
				createdAt: user.createdAt,
				updatedAt: user.updatedAt,
			},
		]);

		// Create card: USD amount as a number, derived reference, brand and type.
		sandbox.clearRequests();
		result = await fixture.run(
			card({
				operation: 'create',
				customerEmail: CARD_HOLDER.customerEmail,
				amount: 50,
				additionalFields: { cardBrand: 'mastercard', cardType: 'virtual' },
			}),
			{ executionId: 'card-create' },
		);
		const createReference = derivedReference({ customerEmail: CARD_HOLDER.customerEmail, amount: 50, cardBrand: 'mastercard', cardType: 'virtual' });
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v1/virtualcards/create',
				body: {
					customerEmail: CARD_HOLDER.customerEmail,
					amount: 50,
					cardBrand: 'mastercard',
					cardType: 'virtual',
					reference: createReference,
				},
			},
		]);
		const created = sandbox.state.cards[0];
		expect(outputJson(result)).toEqual([
			{
				id: created.id,
				createdAt: created.createdAt,
				updatedAt: created.updatedAt,
				cardType: 'virtual',
				cardBrand: 'mastercard',
				cardUserId: user.id,
				reference: createReference,
				createdStatus: 'pending',
				customerId: null,
			},
		]);
		const cardId = created.id;

		// A card that is not issued yet cannot be topped up: the service's rule surfaces as is.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'topUp', cardId, amount: 10 }));
		expectApiError(result, 'Card has not been issued yet', '400');

		// The service issues the card (sandbox control), loading the 50 USD.
		await sandbox.controls.completeCardCreation(cardId);
		expect(cardRecord(cardId)).toMatchObject({ status: 'active', balanceCents: 5000 });

		// Top up 25.50 USD with the user's reference and a card brand.
		sandbox.clearRequests();
		result = await fixture.run(
			card({ operation: 'topUp', cardId, amount: 25.5, additionalFields: { reference: 'topup-001', cardBrand: 'mastercard' } }),
		);
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v1/virtualcards/topup',
				body: { cardId, amount: 25.5, reference: 'topup-001', cardBrand: 'mastercard' },
			},
		]);
		expect(outputJson(result)).toEqual([transactionOutput('topup-001')]);
		expect(result.items[0].json).toMatchObject({ method: 'topup', status: 'pending', amount: 25.5, centAmount: 2550 });
		await sandbox.controls.settleCardTransactions(cardId);
		expect(cardRecord(cardId).balanceCents).toBe(7550);

		// Withdraw 10 (whole number) with a derived reference.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'withdraw', cardId, amount: 10 }), { executionId: 'card-withdraw' });
		const withdrawReference = derivedReference({ cardId, amount: 10 });
		expectRequests(fixture, [
			{ method: 'POST', path: '/api/v1/virtualcards/withdraw', body: { cardId, amount: 10, reference: withdrawReference } },
		]);
		expect(outputJson(result)).toEqual([transactionOutput(withdrawReference)]);
		expect(result.items[0].json).toMatchObject({ method: 'withdrawal', status: 'pending', amount: 10 });
		await sandbox.controls.settleCardTransactions(cardId);
		expect(cardRecord(cardId).balanceCents).toBe(6550);

		// Freeze: the card comes back masked.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'freeze', cardId }));
		expectRequests(fixture, [{ method: 'POST', path: '/api/v1/virtualcards/freeze', body: { cardId } }]);
		expect(outputJson(result)).toEqual([maskedCard(cardId)]);
		expect(result.items[0].json).toMatchObject({ status: 'frozen', balance: 65.5 });

		// Freezing a frozen card, or moving money on it, is refused by the service.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'freeze', cardId }));
		expectApiError(result, 'Card is already frozen', '400');
		expect(result.error?.description).toMatch(/rejected the request/);
		result = await fixture.run(card({ operation: 'topUp', cardId, amount: 5 }));
		expectApiError(result, 'Card is frozen', '400');
		result = await fixture.run(card({ operation: 'withdraw', cardId, amount: 5 }));
		expectApiError(result, 'Card is frozen', '400');
		expect(fixture.apiRequests()).toHaveLength(3);

		// Unfreeze.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'unfreeze', cardId }));
		expectRequests(fixture, [{ method: 'POST', path: '/api/v1/virtualcards/unfreeze', body: { cardId } }]);
		expect(outputJson(result)).toEqual([maskedCard(cardId)]);
		expect(result.items[0].json.status).toBe('active');
		result = await fixture.run(card({ operation: 'unfreeze', cardId }));
		expectApiError(result, 'Card is not frozen', '400');

		// Terminate: permanent.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'terminate', cardId }));
		expectRequests(fixture, [{ method: 'POST', path: '/api/v1/virtualcards/terminate', body: { cardId } }]);
		expect(outputJson(result)).toEqual([maskedCard(cardId)]);
		expect(result.items[0].json.status).toBe('terminated');
		result = await fixture.run(card({ operation: 'terminate', cardId }));
		expectApiError(result, 'Card is already terminated', '400');
		result = await fixture.run(card({ operation: 'unfreeze', cardId }));
		expectApiError(result, 'Card is terminated', '400');

		// The card's transactions, oldest first, settled.
		sandbox.clearRequests();
		result = await fixture.run(card({ operation: 'getTransactions', cardId, returnAll: true, simplify: false }));
		expectRequests(fixture, [
			{
				method: 'GET',
				path: `/api/v1/virtualcards/cards/${cardId}/transactions`,
				query: { order: 'ASC', page: '1', take: '100' },
			},
		]);
		expect(outputJson(result)).toEqual([listedTransaction('topup-001'), listedTransaction(withdrawReference)]);
		expect(result.items.map((item) => item.json.status)).toEqual(['success', 'success']);
	});

	test('an unknown card ID is a 404 NodeApiError that says to check the ID', async () => {
		const result = await fixture.run(card({ operation: 'freeze', cardId: 'no-such-card' }));
		expectApiError(result, 'Card not found', '404');
		expect(result.error?.description).toMatch(/ID does not exist/);
	});

	test('creating a card for a customer who is not a card user is refused by the service', async () => {
		const result = await fixture.run(
			card({ operation: 'create', customerEmail: 'stranger@example.com', amount: 10, additionalFields: { reference: 'c-1' } }),
		);
		expectApiError(result, 'Card user stranger@example.com does not exist; register the card user first', '400');
	});
});

describe('Card → Register Card User', () => {
	test('sends only the required fields when nothing else is given', async () => {
		const result = await fixture.run(REGISTER);
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v1/virtualcards/registercarduser',
				body: { ...CARD_HOLDER, country: 'US', idType: 'PASSPORT', idNumber: 'P1234567' },
			},
		]);
		expect(outputJson(result)).toEqual([expect.objectContaining({ id: fixture.sandbox.state.cardUsers[0].id, country: 'US' })]);
	});

	test('Ghana with a date of birth is accepted; an ID type beyond the three options can come from an expression', async () => {
		const result = await fixture.run({
			...REGISTER,
			country: 'GH',
			idType: '={{ "DRIVERS_LICENSE" }}',
			additionalFields: { dateOfBirth: '1988-12-31' },
		});
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests()[0].body).toEqual({
			...CARD_HOLDER,
			country: 'GH',
			idType: 'DRIVERS_LICENSE',
			idNumber: 'P1234567',
			dateOfBirth: '1988-12-31',
		});
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['Nigeria without a BVN', { country: 'NG' }, 'BVN', 'is required when Country is NG (Nigeria)'],
		['Nigeria (lower case) without a BVN', { country: 'ng', additionalFields: { city: 'Lagos' } }, 'BVN', 'is required when Country is NG'],
		['Ghana without a date of birth', { country: 'GH' }, 'Date of Birth', 'is required when Country is GH (Ghana)'],
		['Ghana with 2023-02-30', { country: 'GH', additionalFields: { dateOfBirth: '2023-02-30' } }, 'Date of Birth', '"2023-02-30" is not a valid date written yyyy-mm-dd'],
		['a date of birth written dd/mm/yyyy', { additionalFields: { dateOfBirth: '25/04/1990' } }, 'Date of Birth', '"25/04/1990" is not a valid date'],
		['a country name instead of a code', { country: 'Nigeria' }, 'Country', '"Nigeria" is not a two-letter country code'],
		['blank country', { country: BLANK }, 'Country', 'is required and cannot be blank'],
		['malformed customer email', { customerEmail: 'ada@' }, 'Customer Email', '"ada@" does not look like an email address'],
		['blank customer email', { customerEmail: BLANK }, 'Customer Email', 'is required and cannot be blank'],
		['blank first name', { firstName: BLANK }, 'First Name', 'is required and cannot be blank'],
		['blank last name', { lastName: '   ' }, 'Last Name', 'is required and cannot be blank'],
		['blank ID number', { idNumber: BLANK }, 'ID Number', 'is required and cannot be blank'],
		['blank ID type', { idType: BLANK }, 'ID Type', 'is required and cannot be blank'],
		['an ID image that is not a URL', { additionalFields: { idImage: 'passport.png' } }, 'ID Image URL', 'is not an http:// or https:// address'],
		['a user photo that is not a URL', { additionalFields: { userPhoto: 'file:///photo.png' } }, 'User Photo URL', 'is not an http:// or https:// address'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, { ...REGISTER, ...overrides }, field, problem);
	});
});

describe('Card → Create', () => {
	beforeEach(async () => {
		await fixture.run(REGISTER);
		fixture.sandbox.clearRequests();
	});

	const CREATE = card({ operation: 'create', customerEmail: CARD_HOLDER.customerEmail, amount: 3 });

	test('sends the bounds’ minimum as a number, first/last name, and the user’s reference', async () => {
		const result = await fixture.run({
			...CREATE,
			additionalFields: { firstName: 'Ada', lastName: 'Okafor', reference: 'card-0001' },
		});
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v1/virtualcards/create',
				body: { customerEmail: CARD_HOLDER.customerEmail, amount: 3, firstName: 'Ada', lastName: 'Okafor', reference: 'card-0001' },
			},
		]);
		const created = fixture.sandbox.state.cards[0];
		expect(outputJson(result)).toEqual([
			{
				id: created.id,
				createdAt: created.createdAt,
				updatedAt: created.updatedAt,
				cardType: 'virtual',
				cardBrand: 'visa',
				cardUserId: fixture.sandbox.state.cardUsers[0].id,
				reference: 'card-0001',
				createdStatus: 'pending',
				customerId: null,
			},
		]);
	});

	test('2500 USD (the maximum) and an amount given as text are accepted', async () => {
		const result = await fixture.run({ ...CREATE, amount: '={{ "2500" }}' }, { executionId: 'max' });
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests()[0].body).toEqual({
			customerEmail: CARD_HOLDER.customerEmail,
			amount: 2500,
			reference: derivedReference({ customerEmail: CARD_HOLDER.customerEmail, amount: 2500 }),
		});
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['2.99 USD', { amount: 2.99 }, 'Amount (USD)', 'must be between 3 and 2500 USD, not 2.99 USD'],
		['2500.01 USD', { amount: 2500.01 }, 'Amount (USD)', 'must be between 3 and 2500 USD, not 2500.01 USD'],
		['NaN', { amount: NaN }, 'Amount (USD)', 'must be a finite number, not NaN'],
		['text that is not a number', { amount: '={{ "ten dollars" }}' }, 'Amount (USD)', 'must be a number, but the value is the text "ten dollars"'],
		['a blank amount', { amount: BLANK }, 'Amount (USD)', 'must be a number, but the value is empty'],
		['fractions of a cent', { amount: 10.005 }, 'Amount (USD)', 'has more than two decimal places'],
		['malformed customer email', { customerEmail: 'ada.example.com' }, 'Customer Email', 'does not look like an email address'],
		['blank customer email', { customerEmail: BLANK }, 'Customer Email', 'is required and cannot be blank'],
		['a reference over 100 characters', { additionalFields: { reference: 'x'.repeat(101) } }, 'Reference', 'the maximum is 100'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, { ...CREATE, ...overrides }, field, problem);
	});
});

describe('Card → Top Up', () => {
	let cardId: string;
	beforeEach(async () => {
		({ cardId } = await issueCard(fixture));
	});

	test('sends cardId, the dollar amount as a number and a derived reference; no card brand unless set', async () => {
		const result = await fixture.run(card({ operation: 'topUp', cardId, amount: 2500 }), { executionId: 'top-1' });
		const reference = derivedReference({ cardId, amount: 2500 });
		expectRequests(fixture, [
			{ method: 'POST', path: '/api/v1/virtualcards/topup', body: { cardId, amount: 2500, reference } },
		]);
		expect(outputJson(result)).toEqual([transactionOutput(reference)]);
		expect(result.items[0].json.centAmount).toBe(250000);
	});

	test('a re-run (Retry On Fail, Retry) sends nothing; with Allow Resend the service refuses the same reference; the card is credited once', async () => {
		const params = card({ operation: 'topUp', cardId, amount: 20 });
		const first = await fixture.run(params, { executionId: 'retry-1' });
		expect(first.error).toBeUndefined();
		const reference = derivedReference({ cardId, amount: 20 });

		// The same run again (a retry gets a new execution ID): n8n's record of the key stops it.
		const second = await fixture.run(params, { executionId: 'retry-1b' });
		expect(second.error).toBeUndefined();
		expect(outputJson(second)).toEqual([
			expect.objectContaining({ alreadySubmitted: true, sent: false, outcome: 'accepted', reference }),
		]);
		expect(fixture.apiRequests()).toHaveLength(1);

		// Sent again on purpose: the service refuses the reused reference; that is an output, not a failure.
		const resent = await fixture.run({ ...params, duplicateProtection: { allowResend: true } }, { executionId: 'retry-1c' });
		expect(resent.error).toBeUndefined();
		expect(outputJson(resent)).toEqual([
			expect.objectContaining({ alreadySubmitted: true, sent: true, outcome: 'accepted', reference }),
		]);
		expect(String(outputJson(resent)[0].message)).toContain(`Reference '${reference}' has already been used [HTTP 409]`);
		expectRequests(fixture, [
			{ method: 'POST', path: '/api/v1/virtualcards/topup', body: { cardId, amount: 20, reference } },
			{ method: 'POST', path: '/api/v1/virtualcards/topup', body: { cardId, amount: 20, reference } },
		]);
		expect(fixture.sandbox.state.cardTransactions.filter((t) => t.cardId === cardId)).toHaveLength(1);
		await fixture.sandbox.controls.settleCardTransactions(cardId);
		expect(cardRecord(cardId).balanceCents).toBe(5000 + 2000);

		// A new run (another event or schedule tick) is a new top-up with a new reference.
		const third = await fixture.run(params, { trigger: { tick: 2 } });
		expect(third.error).toBeUndefined();
		expect((fixture.apiRequests()[2].body as IDataObject).reference).toBe(
			derivedReference({ cardId, amount: 20 }, { trigger: { tick: 2 } }),
		);
		expect(fixture.sandbox.state.cardTransactions.filter((t) => t.cardId === cardId)).toHaveLength(2);
	});

	test('each item of a batch gets its own reference', async () => {
		const result = await fixture.run(card({ operation: 'topUp', cardId, amount: '={{ $json.amount }}' }), {
			items: [{ amount: 5 }, { amount: 6.25 }],
			executionId: 'batch',
		});
		expect(result.error).toBeUndefined();
		expect(fixture.apiRequests().map((r) => r.body)).toEqual([
			{ cardId, amount: 5, reference: derivedReference({ cardId, amount: 5 }, { itemIndex: 0 }) },
			{ cardId, amount: 6.25, reference: derivedReference({ cardId, amount: 6.25 }, { itemIndex: 1 }) },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['2.99 USD', { amount: 2.99 }, 'Amount (USD)', 'must be between 3 and 2500 USD, not 2.99 USD'],
		['2500.01 USD', { amount: 2500.01 }, 'Amount (USD)', 'must be between 3 and 2500 USD, not 2500.01 USD'],
		['an amount in cents (250000)', { amount: 250000 }, 'Amount (USD)', 'must be between 3 and 2500 USD'],
		['NaN', { amount: '={{ NaN }}' }, 'Amount (USD)', 'must be a finite number, not NaN'],
		['text that is not a number', { amount: 'abc' }, 'Amount (USD)', 'must be a number, but the value is the text "abc"'],
		['blank card ID', { cardId: BLANK }, 'Card ID', 'is required and cannot be blank'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, card({ operation: 'topUp', cardId, amount: 10, ...overrides }), field, problem);
	});
});

describe('Card → Withdraw', () => {
	let cardId: string;
	beforeEach(async () => {
		({ cardId } = await issueCard(fixture));
	});

	test('sends a whole-number amount and the user’s reference', async () => {
		const result = await fixture.run(
			card({ operation: 'withdraw', cardId, amount: '={{ "7" }}', additionalFields: { reference: 'wd-7' } }),
		);
		expectRequests(fixture, [
			{ method: 'POST', path: '/api/v1/virtualcards/withdraw', body: { cardId, amount: 7, reference: 'wd-7' } },
		]);
		expect(outputJson(result)).toEqual([transactionOutput('wd-7')]);
	});

	test('more than the card holds is refused by the service', async () => {
		const result = await fixture.run(card({ operation: 'withdraw', cardId, amount: 51 }));
		expectApiError(result, 'Insufficient card balance', '400');
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['zero', { amount: 0 }, 'Amount', 'must be greater than zero, not 0'],
		['a negative amount', { amount: -5 }, 'Amount', 'must be greater than zero, not -5'],
		['a fraction', { amount: 1.5 }, 'Amount', 'must be a whole number, not 1.5'],
		['more than int32', { amount: 2147483648 }, 'Amount', 'must be at most 2147483647, not 2147483648'],
		['NaN', { amount: NaN }, 'Amount', 'must be a finite number, not NaN'],
		['text that is not a number', { amount: 'five' }, 'Amount', 'must be a number, but the value is the text "five"'],
		['blank card ID', { cardId: BLANK }, 'Card ID', 'is required and cannot be blank'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, card({ operation: 'withdraw', cardId, amount: 5, ...overrides }), field, problem);
	});
});

describe('Card → Freeze / Unfreeze / Terminate: card details are masked unless revealed', () => {
	const actions: Array<[string, string]> = [
		['freeze', 'frozen'],
		['unfreeze', 'active'],
		['terminate', 'terminated'],
	];

	async function cardReadyFor(operation: string): Promise<string> {
		const { cardId } = await issueCard(fixture);
		if (operation === 'unfreeze') {
			cardRecord(cardId).status = 'frozen';
		}
		return cardId;
	}

	test.each(actions)('%s masks the number to its last four digits and the CVV to ***', async (operation, status) => {
		const cardId = await cardReadyFor(operation);
		const result = await fixture.run(card({ operation, cardId }));

		expectRequests(fixture, [{ method: 'POST', path: `/api/v1/virtualcards/${operation}`, body: { cardId } }]);
		const { cardNumber, cvv2 } = cardRecord(cardId);
		expect(cardNumber).toMatch(/^\d{16}$/);
		expect(outputJson(result)).toEqual([maskedCard(cardId)]);
		expect(result.items[0].json).toMatchObject({ status, cvv2: '***', cardNumber: `************${cardNumber!.slice(-4)}` });
		// Nowhere in what n8n stores for the execution.
		expect(JSON.stringify(result.run)).not.toContain(cardNumber!);
		expect(JSON.stringify(result.items)).not.toContain(`"${cvv2}"`);
	});

	test.each(actions)('%s with Reveal Card Details outputs the full number and CVV', async (operation, status) => {
		const cardId = await cardReadyFor(operation);
		const result = await fixture.run(card({ operation, cardId, options: { revealCardDetails: true } }));

		expectRequests(fixture, [{ method: 'POST', path: `/api/v1/virtualcards/${operation}`, body: { cardId } }]);
		expect(outputJson(result)).toEqual([fullCard(cardId)]);
		expect(result.items[0].json.status).toBe(status);
		expect(JSON.stringify(result.items)).toContain(cardRecord(cardId).cardNumber!);
	});

	test.each(actions)('%s refuses a blank card ID before sending', async (operation) => {
		await expectInvalid(fixture, card({ operation, cardId: BLANK }), 'Card ID', 'is required and cannot be blank');
	});

	test('the masking helper handles nested cards, lists, spaced numbers and short values', () => {
		const data = {
			cardNumber: '4111 1111 1111 1234',
			cvv2: '987',
			nested: { cards: [{ cardNumber: '5500000000000004', cvv: 123, last4: '0004' }] },
			emptyCvv: { cvv2: null },
			short: { cardNumber: '1234' },
		};
		expect(maskCardDetails(data)).toEqual({
			cardNumber: '************1234',
			cvv2: '***',
			nested: { cards: [{ cardNumber: '************0004', cvv: '***', last4: '0004' }] },
			emptyCvv: { cvv2: null },
			short: { cardNumber: '****' },
		});
		expect(maskCardDetails(data, true)).toBe(data);
		expect(data.cardNumber).toBe('4111 1111 1111 1234');
	});
});

describe('Card → Get Many Transactions', () => {
	let cardId: string;
	beforeEach(async () => {
		({ cardId } = await issueCard(fixture));
		for (const [reference, amount] of [['t-1', 5], ['t-2', 6], ['t-3', 7]] as const) {
			await fixture.run(card({ operation: 'topUp', cardId, amount, additionalFields: { reference } }));
		}
		await fixture.sandbox.controls.settleCardTransaction(transactionRecord('t-2').id);
		fixture.sandbox.clearRequests();
	});

	test('Limit with Newest First sends page 1, take = limit and DESC, and outputs the newest', async () => {
		const result = await fixture.run(card({ operation: 'getTransactions', cardId, limit: 2, simplify: false, options: { order: 'DESC' } }));
		expectRequests(fixture, [
			{
				method: 'GET',
				path: `/api/v1/virtualcards/cards/${cardId}/transactions`,
				query: { order: 'DESC', page: '1', take: '2' },
			},
		]);
		expect(outputJson(result)).toEqual([listedTransaction('t-3'), listedTransaction('t-2')]);
		expect(result.items[1].json.status).toBe('success');
	});

	test('a node added now (version 1.1): Limit 1 without options gives the latest transaction (newest first)', async () => {
		const result = await fixture.run(card({ operation: 'getTransactions', cardId, limit: 1, simplify: false }), { typeVersion: 1.1 });
		expectRequests(fixture, [
			{
				method: 'GET',
				path: `/api/v1/virtualcards/cards/${cardId}/transactions`,
				query: { order: 'DESC', page: '1', take: '1' },
			},
		]);
		expect(outputJson(result)).toEqual([listedTransaction('t-3')]);
	});

	test('version 1.1 still lists oldest first when asked', async () => {
		const result = await fixture.run(card({ operation: 'getTransactions', cardId, returnAll: true, simplify: false, options: { order: 'ASC' } }), { typeVersion: 1.1 });
		expect(outputJson(result)).toEqual(['t-1', 't-2', 't-3'].map(listedTransaction));
	});

	test('Return All, oldest first by default in a node saved as version 1 (existing workflows keep their behaviour)', async () => {
		const result = await fixture.run(card({ operation: 'getTransactions', cardId, returnAll: true, simplify: false }));
		expectRequests(fixture, [
			{
				method: 'GET',
				path: `/api/v1/virtualcards/cards/${cardId}/transactions`,
				query: { order: 'ASC', page: '1', take: '100' },
			},
		]);
		expect(outputJson(result)).toEqual(['t-1', 't-2', 't-3'].map(listedTransaction));
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['blank card ID', { cardId: BLANK }, 'Card ID', 'is required and cannot be blank'],
		['limit 0', { limit: 0 }, 'Limit', 'must be a whole number from 1'],
		['an order that is neither ASC nor DESC', { options: { order: '={{ "SIDEWAYS" }}' } }, 'Order', '"SIDEWAYS" is not one of ASC, DESC'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, card({ operation: 'getTransactions', cardId, ...overrides }), field, problem);
	});
});
