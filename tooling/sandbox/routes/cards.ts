/**
 * Virtual cards (contract 4.8): card users, cards, card money movements and card states.
 */
import { assertReferenceFree, timestamp, type SandboxContext } from '../context';
import { badRequest, conflict } from '../errors';
import { toMinor } from '../money';
import { takePage } from '../pages';
import type { Route, RouteRequest } from '../router';
import {
	findById,
	newId,
	newReference,
	type CardRecord,
	type CardTransactionRecord,
	type CardUserRecord,
} from '../state';
import { BodyReader, INT32_MAX } from '../validation';
import {
	cardTransactionListItem,
	cardTransactionView,
	cardUserView,
	cardView,
	createdCardView,
} from '../views';

export const CARD_AMOUNT_MIN = 3;
export const CARD_AMOUNT_MAX = 2500;

export const SANDBOX_BILLING_ADDRESS = {
	street: '1 Sandbox Way',
	city: 'San Francisco',
	zipCode: '94105',
	countryCode: 'US',
	country: 'United States',
};

/** Why a card in this status cannot be used or moved. */
const CARD_STATUS_PROBLEM: Record<CardRecord['status'], string> = {
	pending: 'Card has not been issued yet',
	failed: 'Card creation failed',
	active: 'Card is active',
	frozen: 'Card is frozen',
	terminated: 'Card is terminated',
};

const OPTIONAL_CARD_USER_FIELDS = [
	'phoneNumber',
	'city',
	'state',
	'zipCode',
	'line1',
	'houseName',
	'idImage',
	'userPhoto',
	'bvn',
	'dateOfBirth',
];

/** 'NG' / 'GH' for the two countries with extra KYC rules, given by code or name. */
function kycCountry(country: string): 'NG' | 'GH' | undefined {
	const value = country.trim().toUpperCase();
	if (value === 'NG' || value === 'NIGERIA') return 'NG';
	if (value === 'GH' || value === 'GHANA') return 'GH';
	return undefined;
}

function findCard(ctx: SandboxContext, body: RouteRequest['body']): CardRecord {
	const reader = new BodyReader(body);
	const cardId = reader.requiredString('cardId');
	reader.done();
	return findById(ctx.state.cards, cardId, 'Card');
}

/** Only an issued, active card can move money. */
function assertActive(card: CardRecord): void {
	if (card.status !== 'active') throw badRequest(CARD_STATUS_PROBLEM[card.status]);
}

/** Pending withdrawals are already spoken for. */
function availableCents(ctx: SandboxContext, card: CardRecord): number {
	const held = ctx.state.cardTransactions
		.filter((t) => t.cardId === card.id && t.method === 'withdrawal' && t.status === 'pending')
		.reduce((sum, t) => sum + t.centAmount, 0);
	return card.balanceCents - held;
}

function addCardTransaction(
	ctx: SandboxContext,
	card: CardRecord,
	method: CardTransactionRecord['method'],
	centAmount: number,
	reference: string,
): CardTransactionRecord {
	const now = timestamp(ctx);
	const tx: CardTransactionRecord = {
		id: newId(),
		createdAt: now,
		updatedAt: now,
		cardId: card.id,
		method,
		type: method === 'topup' ? 'credit' : 'debit',
		centAmount,
		status: 'pending',
		currency: 'usd',
		reference,
		narrative: method === 'topup' ? 'Card top-up' : 'Card withdrawal',
		reason: '',
	};
	ctx.state.cardTransactions.push(tx);
	return tx;
}

/** freeze / unfreeze / terminate: one status move with its allowed sources. */
function cardMove(
	path: string,
	from: CardRecord['status'][],
	to: CardRecord['status'],
	alreadyThere: string,
	message: string,
): Route {
	return {
		method: 'POST',
		path,
		handler: ({ body }, ctx) => {
			const card = findCard(ctx, body);
			if (card.status === to) throw badRequest(alreadyThere);
			if (!from.includes(card.status)) throw badRequest(CARD_STATUS_PROBLEM[card.status]);
			card.status = to;
			card.updatedAt = timestamp(ctx);
			return { message, data: cardView(card) };
		},
	};
}

export const cardRoutes: Route[] = [
	{
		method: 'POST',
		path: '/api/v1/virtualcards/registercarduser',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const customerEmail = reader.email('customerEmail') ?? '';
			const firstName = reader.requiredString('firstName');
			const lastName = reader.requiredString('lastName');
			const idType = reader.requiredString('idType');
			const idNumber = reader.requiredString('idNumber');
			const country = reader.requiredString('country');
			const details: Record<string, string> = { idType, idNumber };
			for (const field of OPTIONAL_CARD_USER_FIELDS) {
				const value = reader.optionalString(field);
				if (value !== undefined) details[field] = value;
			}
			const rule = kycCountry(country);
			if (rule === 'NG' && !reader.has('bvn')) reader.fail('bvn is required for card users in Nigeria');
			if (rule === 'GH' && !reader.has('dateOfBirth')) {
				reader.fail('dateOfBirth is required for card users in Ghana');
			}
			reader.isoDate('dateOfBirth', false);
			reader.done();
			if (ctx.state.cardUsers.some((u) => u.customerEmail === customerEmail)) {
				throw conflict(`Card user with email ${customerEmail} already exists`);
			}
			const now = timestamp(ctx);
			const user: CardUserRecord = {
				id: newId(),
				createdAt: now,
				updatedAt: now,
				customerEmail,
				firstName,
				lastName,
				country,
				kycStatus: 'pending',
				kycReason: '',
				details,
			};
			ctx.state.cardUsers.push(user);
			return { message: 'Card user registered successfully', data: cardUserView(user) };
		},
	},
	{
		method: 'POST',
		path: '/api/v1/virtualcards/create',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const customerEmail = reader.email('customerEmail') ?? '';
			const amount = reader.numberInRange('amount', CARD_AMOUNT_MIN, CARD_AMOUNT_MAX);
			const reference = reader.optionalString('reference');
			const cardBrand = (reader.optionalString('cardBrand') ?? 'visa').toLowerCase();
			const cardType = (reader.optionalString('cardType') ?? 'virtual').toLowerCase();
			const firstName = reader.optionalString('firstName');
			const lastName = reader.optionalString('lastName');
			reader.done();
			const user = ctx.state.cardUsers.find((u) => u.customerEmail === customerEmail);
			if (!user) {
				throw badRequest(`Card user ${customerEmail} does not exist; register the card user first`);
			}
			if (user.kycStatus === 'failed') throw badRequest(`Card user ${customerEmail} failed KYC`);
			if (reference) assertReferenceFree(ctx, ctx.state.cards, reference);
			const now = timestamp(ctx);
			const card: CardRecord = {
				id: newId(),
				createdAt: now,
				updatedAt: now,
				cardUserId: user.id,
				customerEmail,
				customerId: null,
				reference: reference ?? newReference('CRD'),
				cardBrand,
				cardType,
				cardName: `${firstName ?? user.firstName} ${lastName ?? user.lastName}`,
				initialAmount: amount,
				balanceCents: 0,
				createdStatus: 'pending',
				status: 'pending',
				cardNumber: null,
				cvv2: null,
				expiry: null,
				valid: null,
				billingAddress: { ...SANDBOX_BILLING_ADDRESS },
				failedReason: '',
			};
			ctx.state.cards.push(card);
			const autoIssue = ctx.config.autoIssueCards;
			return {
				message: 'Card creation in progress',
				data: createdCardView(card),
				afterResponse: autoIssue
					? () => void ctx.controls.completeCardCreation(card.id).catch(() => undefined)
					: undefined,
			};
		},
	},
	{
		method: 'POST',
		path: '/api/v1/virtualcards/topup',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const cardId = reader.requiredString('cardId');
			const reference = reader.requiredText('reference');
			const amount = reader.numberInRange('amount', CARD_AMOUNT_MIN, CARD_AMOUNT_MAX);
			reader.optionalString('cardBrand');
			reader.done();
			const card = findById(ctx.state.cards, cardId, 'Card');
			assertActive(card);
			assertReferenceFree(ctx, ctx.state.cardTransactions, reference);
			const tx = addCardTransaction(ctx, card, 'topup', toMinor(amount), reference);
			return { message: 'Card top-up in progress', data: cardTransactionView(tx) };
		},
	},
	{
		method: 'POST',
		path: '/api/v1/virtualcards/withdraw',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const amount = reader.positiveInteger('amount', INT32_MAX);
			const cardId = reader.requiredString('cardId');
			const reference = reader.requiredText('reference');
			reader.done();
			const card = findById(ctx.state.cards, cardId, 'Card');
			assertActive(card);
			assertReferenceFree(ctx, ctx.state.cardTransactions, reference);
			if (availableCents(ctx, card) < toMinor(amount)) throw badRequest('Insufficient card balance');
			const tx = addCardTransaction(ctx, card, 'withdrawal', toMinor(amount), reference);
			return { message: 'Card withdrawal in progress', data: cardTransactionView(tx) };
		},
	},
	cardMove('/api/v1/virtualcards/freeze', ['active'], 'frozen', 'Card is already frozen', 'Card frozen successfully'),
	cardMove('/api/v1/virtualcards/unfreeze', ['frozen'], 'active', 'Card is not frozen', 'Card unfrozen successfully'),
	cardMove(
		'/api/v1/virtualcards/terminate',
		['active', 'frozen'],
		'terminated',
		'Card is already terminated',
		'Card terminated successfully',
	),
	{
		method: 'GET',
		path: '/api/v1/virtualcards/cards/:cardId/transactions',
		handler: ({ params, query }, ctx) => {
			const card = findById(ctx.state.cards, params.cardId, 'Card');
			const page = takePage(
				ctx.state.cardTransactions.filter((t) => t.cardId === card.id),
				query,
			);
			return {
				message: 'Card transactions retrieved successfully',
				data: { cardTransactions: page.items.map(cardTransactionListItem), meta: page.meta },
			};
		},
	},
];
