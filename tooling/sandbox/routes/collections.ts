/**
 * Collections (contract 4.3): v1 and v2 initialize take the same fields.
 */
import { addSeconds, assertReferenceFree, timestamp } from '../context';
import type { Route, Handler } from '../router';
import {
	customerIdFor,
	newId,
	newReference,
	randomDigits,
	walletBalance,
	type CollectionRecord,
} from '../state';
import { BodyReader } from '../validation';
import { collectionView } from '../views';
import { readCurrency } from './common';

export const DEFAULT_COLLECTION_BANK = 'Sandbox Bank';
const COUNTRY_CODE = /^[A-Za-z]{2}$/;

const initializeCollection: Handler = ({ body }, ctx) => {
	const reader = new BodyReader(body);
	const country = reader.requiredString('country').toUpperCase();
	if (country && !COUNTRY_CODE.test(country)) reader.fail('country must be a two-letter country code');
	const currency = readCurrency(reader, 'currency');
	const customerEmail = reader.email('customerEmail') ?? '';
	const centAmount = reader.positiveInteger('amount');
	const reference = reader.optionalString('reference');
	const description = reader.optionalString('description');
	const payload = reader.object('payload', false);
	const payloadReader = payload ? reader.nested(payload, 'payload') : undefined;
	const bankName = payloadReader?.optionalString('type');
	const accountName = payloadReader?.optionalString('accountName');
	reader.done();
	if (reference) assertReferenceFree(ctx, ctx.state.transactions, reference);

	const now = timestamp(ctx);
	const balance = walletBalance(ctx.state, currency);
	const customer = ctx.state.customers.find((c) => c.email.toLowerCase() === customerEmail);
	const customerName = customer ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') : '';
	const expiryInSeconds = ctx.config.collectionExpirySeconds;
	const tx: CollectionRecord = {
		kind: 'collection',
		id: newId(),
		createdAt: now,
		updatedAt: now,
		companyId: ctx.state.companyId,
		customerId: customerIdFor(ctx.state, customerEmail),
		customerEmail,
		reference: reference ?? newReference('COL'),
		description: description ?? `Collection from ${customerEmail}`,
		currency,
		status: 'processing',
		centAmount,
		centFees: 0,
		balanceBefore: balance,
		balanceAfter: balance,
		failedReason: '',
		sessionId: randomDigits(30),
		country,
		accountName: accountName || customerName || 'Sandbox Collections',
		accountNumber: randomDigits(10),
		bankName: bankName || DEFAULT_COLLECTION_BANK,
		expiryInSeconds,
		expiryDate: addSeconds(now, expiryInSeconds),
		paidAt: null,
	};
	ctx.state.transactions.push(tx);
	return { message: 'Collection initialized successfully', data: collectionView(tx) };
};

export const collectionRoutes: Route[] = [
	{ method: 'POST', path: '/api/v2/wallets/collections/initialize', handler: initializeCollection },
	{ method: 'POST', path: '/api/v1/wallets/collections/initialize', handler: initializeCollection },
];
