/**
 * The in-memory store: record types, the state object, wallets, and id/reference helpers.
 * Arrays are kept in insertion order (oldest first); records are never deleted.
 */
import { createHash, randomBytes, randomInt, randomUUID } from 'crypto';

import type { Destination } from './countries';
import { ApiError, badRequest, notFound } from './errors';
import { CURRENCIES, INITIAL_WALLET_BALANCE_MINOR } from './money';

export interface Timestamps {
	createdAt: string;
	updatedAt: string;
}

export interface CustomerRecord extends Timestamps {
	id: string;
	firstName: string | null;
	lastName: string | null;
	email: string;
	phone: string | null;
	countryCode: string | null;
	blacklisted: boolean;
	businessName: string | null;
	isDefault: boolean;
	companyId: string;
}

export type BeneficiaryStatus = 'PENDING' | 'PROCESSING' | 'SUCCESS' | 'FAILED';

export const BENEFICIARY_STATUSES: BeneficiaryStatus[] = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'];

export const isBeneficiaryStatus = (value: string): value is BeneficiaryStatus =>
	(BENEFICIARY_STATUSES as string[]).includes(value);

export interface BeneficiaryRecord extends Timestamps {
	id: string;
	currency: string;
	country: string;
	status: BeneficiaryStatus;
	provider: string;
	destination: Destination;
	reference: string;
	customerEmail: string;
	callbackUrl: string | null;
}

interface WalletTransactionBase extends Timestamps {
	id: string;
	companyId: string;
	customerId: string;
	customerEmail: string;
	reference: string;
	description: string;
	/** Wallet currency (upper case). */
	currency: string;
	status: string;
	centAmount: number;
	centFees: number;
	/** Wallet balance around the money movement, minor units. */
	balanceBefore: number;
	balanceAfter: number;
	failedReason: string;
	sessionId: string;
}

export interface PayoutRecord extends WalletTransactionBase {
	kind: 'payout';
	/** 2: current flow; 1: legacy two-step flow. */
	version: 1 | 2;
	beneficiaryId: string | null;
	destination: Destination;
	payoutCurrency: string;
	spotPrice: number;
	callbackUrl: string | null;
	/** Legacy only: finalize deadline. */
	expiresAt: string | null;
	finalizedAt: string | null;
}

/** Whether the payout's amount and fees have left the wallet (legacy: once finalized). */
export const isDebited = (tx: PayoutRecord): boolean => tx.version === 2 || tx.finalizedAt !== null;

export interface CollectionRecord extends WalletTransactionBase {
	kind: 'collection';
	country: string;
	accountName: string;
	accountNumber: string;
	bankName: string;
	expiryInSeconds: number;
	expiryDate: string;
	paidAt: string | null;
}

export interface SwapRecord extends WalletTransactionBase {
	kind: 'swap';
	quoteId: string;
	targetCurrency: string;
	targetCentAmount: number;
	spotPrice: number;
}

export type WalletTransaction = PayoutRecord | CollectionRecord | SwapRecord;

export interface QuoteRecord {
	id: string;
	createdAt: string;
	sourceCurrency: string;
	targetCurrency: string;
	/** Major units. */
	sourceAmount: number;
	targetAmount: number;
	fee: number;
	usdAmount: number;
	rate: number;
	expiration: string;
	usedAt: string | null;
}

export type KycStatus = 'pending' | 'success' | 'failed';

export interface CardUserRecord extends Timestamps {
	id: string;
	customerEmail: string;
	firstName: string;
	lastName: string;
	country: string;
	kycStatus: KycStatus;
	kycReason: string;
	/** Every other registration field as sent (idType, idNumber, bvn, address, ...). */
	details: Record<string, string>;
}

export interface BillingAddress {
	street: string;
	city: string;
	zipCode: string;
	countryCode: string;
	country: string;
}

export interface CardRecord extends Timestamps {
	id: string;
	cardUserId: string;
	customerEmail: string;
	customerId: null;
	reference: string;
	cardBrand: string;
	cardType: string;
	cardName: string;
	/** Amount requested at creation (USD). */
	initialAmount: number;
	balanceCents: number;
	createdStatus: 'pending' | 'success' | 'failed';
	status: 'pending' | 'active' | 'frozen' | 'terminated' | 'failed';
	cardNumber: string | null;
	cvv2: string | null;
	expiry: string | null;
	valid: string | null;
	billingAddress: BillingAddress;
	failedReason: string;
}

export interface CardTransactionRecord extends Timestamps {
	id: string;
	cardId: string;
	method: 'topup' | 'withdrawal';
	type: 'credit' | 'debit';
	centAmount: number;
	status: 'pending' | 'success' | 'declined' | 'reversed';
	currency: 'usd';
	reference: string;
	narrative: string;
	reason: string;
}

export interface SandboxState {
	companyId: string;
	/** Balance per currency (upper case), minor units. */
	wallets: Record<string, number>;
	customers: CustomerRecord[];
	beneficiaries: BeneficiaryRecord[];
	/** Payouts (both flows), collections and swaps. */
	transactions: WalletTransaction[];
	quotes: QuoteRecord[];
	cardUsers: CardUserRecord[];
	cards: CardRecord[];
	cardTransactions: CardTransactionRecord[];
}

export function createState(): SandboxState {
	const state: SandboxState = {
		companyId: randomUUID(),
		wallets: {},
		customers: [],
		beneficiaries: [],
		transactions: [],
		quotes: [],
		cardUsers: [],
		cards: [],
		cardTransactions: [],
	};
	clearState(state);
	return state;
}

/** Empties the state in place (so references held by tests stay live). */
export function clearState(state: SandboxState): void {
	state.customers.length = 0;
	state.beneficiaries.length = 0;
	state.transactions.length = 0;
	state.quotes.length = 0;
	state.cardUsers.length = 0;
	state.cards.length = 0;
	state.cardTransactions.length = 0;
	for (const key of Object.keys(state.wallets)) delete state.wallets[key];
	for (const currency of CURRENCIES) state.wallets[currency] = INITIAL_WALLET_BALANCE_MINOR;
}

// ---------------------------------------------------------------- ids and references

export const newId = (): string => randomUUID();

/** e.g. `PAY-3F9A1C0B22D4`. */
export const newReference = (prefix: string): string =>
	`${prefix}-${randomBytes(6).toString('hex').toUpperCase()}`;

export function randomDigits(count: number): string {
	let digits = '';
	for (let i = 0; i < count; i++) digits += String(randomInt(10));
	return digits;
}

/**
 * The id of the customer with this email, or (when no customer record exists) a stable
 * UUID-shaped id derived from the email, so transactions never create customers.
 */
export function customerIdFor(state: SandboxState, email: string): string {
	const existing = state.customers.find((c) => c.email.toLowerCase() === email.toLowerCase());
	if (existing) return existing.id;
	const hex = createHash('sha256').update(`${state.companyId}:${email.toLowerCase()}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// ---------------------------------------------------------------- lookups

export function findById<T extends { id: string }>(list: T[], id: string, thing: string): T {
	const found = list.find((item) => item.id === id);
	if (!found) throw notFound(thing);
	return found;
}

// ---------------------------------------------------------------- wallets

export interface BalanceMove {
	before: number;
	after: number;
}

export function walletBalance(state: SandboxState, currency: string): number {
	const balance = state.wallets[currency.toUpperCase()];
	if (balance === undefined) throw badRequest(`No ${currency.toUpperCase()} wallet`);
	return balance;
}

export function debitWallet(state: SandboxState, currency: string, minor: number): BalanceMove {
	const before = walletBalance(state, currency);
	if (before < minor) throw badRequest('Insufficient balance');
	state.wallets[currency.toUpperCase()] = before - minor;
	return { before, after: before - minor };
}

export function creditWallet(state: SandboxState, currency: string, minor: number): BalanceMove {
	const before = walletBalance(state, currency);
	state.wallets[currency.toUpperCase()] = before + minor;
	return { before, after: before + minor };
}

export function setWalletBalance(state: SandboxState, currency: string, minor: number): void {
	if (!Number.isInteger(minor) || minor < 0) {
		throw new ApiError(400, 'amount must be a non-negative integer (minor units)');
	}
	walletBalance(state, currency);
	state.wallets[currency.toUpperCase()] = minor;
}
