/**
 * Response `data` shapes (contract section 2). Records hold internal fields; these
 * functions decide exactly what a client sees.
 */
import { exchangeRate, majorString, round2, toMajor } from './money';
import type {
	BeneficiaryRecord,
	CardRecord,
	CardTransactionRecord,
	CardUserRecord,
	CollectionRecord,
	CustomerRecord,
	PayoutRecord,
	QuoteRecord,
	SwapRecord,
	WalletTransaction,
} from './state';

// ---------------------------------------------------------------- wallet transactions

export function transactionType(tx: WalletTransaction): 'debit' | 'credit' {
	return tx.kind === 'collection' ? 'credit' : 'debit';
}

/** Lower-case operation label: usd_account_payout, deposit_ngn, swap_usd_ngn. */
export function transactionAction(tx: WalletTransaction): string {
	switch (tx.kind) {
		case 'payout':
			return `${tx.currency.toLowerCase()}_account_payout`;
		case 'collection':
			return `deposit_${tx.currency.toLowerCase()}`;
		case 'swap':
			return `swap_${tx.currency.toLowerCase()}_${tx.targetCurrency.toLowerCase()}`;
	}
}

/** 2.4, returned by both payout initialize calls. */
export function payoutView(tx: PayoutRecord) {
	return {
		id: tx.id,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		companyId: tx.companyId,
		customerId: tx.customerId,
		centFees: tx.centFees,
		type: transactionType(tx),
		reference: tx.reference,
		channel: tx.kind,
		description: tx.description,
		status: tx.status,
		action: transactionAction(tx),
		fees: toMajor(tx.centFees),
		amount: toMajor(tx.centAmount),
		centAmount: tx.centAmount,
		spotPrice: tx.spotPrice,
	};
}

/** Legacy finalize: the payout transaction with amount, fees and spotPrice as strings. */
export function legacyFinalizeView(tx: PayoutRecord) {
	return {
		...payoutView(tx),
		amount: majorString(tx.centAmount),
		fees: majorString(tx.centFees),
		spotPrice: String(tx.spotPrice),
	};
}

/** 2.5 */
export function collectionView(tx: CollectionRecord) {
	return {
		id: tx.id,
		accountName: tx.accountName,
		accountNumber: tx.accountNumber,
		bankName: tx.bankName,
		type: transactionType(tx),
		description: tx.description,
		customerId: tx.customerId,
		companyId: tx.companyId,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		reference: tx.reference,
		channel: tx.kind,
		amount: tx.centAmount,
		currency: tx.currency,
		action: transactionAction(tx),
		status: tx.status,
		fees: toMajor(tx.centFees),
		expiryInSeconds: tx.expiryInSeconds,
		expiryDate: tx.expiryDate,
	};
}

/** 2.6 */
export function swapView(tx: SwapRecord) {
	return {
		id: tx.id,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		reference: tx.reference,
		description: tx.description,
		balanceAfter: toMajor(tx.balanceAfter),
		amount: toMajor(tx.centAmount),
		centAmount: tx.centAmount,
		fees: toMajor(tx.centFees),
		centFees: tx.centFees,
		spotPrice: String(tx.spotPrice),
		action: transactionAction(tx),
		type: transactionType(tx),
		status: tx.status,
		channel: tx.kind,
		companyId: tx.companyId,
	};
}

function payoutSide(tx: WalletTransaction): { amount: number; currency: string; rate: number } {
	switch (tx.kind) {
		case 'payout':
			return { amount: round2(toMajor(tx.centAmount) * tx.spotPrice), currency: tx.payoutCurrency, rate: tx.spotPrice };
		case 'swap':
			return { amount: toMajor(tx.targetCentAmount), currency: tx.targetCurrency, rate: tx.spotPrice };
		case 'collection':
			return { amount: toMajor(tx.centAmount), currency: tx.currency, rate: 1 };
	}
}

function metaData(tx: WalletTransaction): Record<string, unknown> {
	switch (tx.kind) {
		case 'payout':
			return { flow: tx.version === 1 ? 'legacy' : 'v2', beneficiaryId: tx.beneficiaryId, callbackUrl: tx.callbackUrl };
		case 'swap':
			return { quoteId: tx.quoteId, targetCurrency: tx.targetCurrency, targetAmount: toMajor(tx.targetCentAmount) };
		case 'collection':
			return {
				country: tx.country,
				accountName: tx.accountName,
				accountNumber: tx.accountNumber,
				bankName: tx.bankName,
				expiryDate: tx.expiryDate,
			};
	}
}

/** 2.7, for every wallet transaction (GET /api/v2/transactions/{id}). */
export function transactionView(tx: WalletTransaction) {
	const payout = payoutSide(tx);
	return {
		id: tx.id,
		type: transactionType(tx).toUpperCase(),
		fees: majorString(tx.centFees),
		action: transactionAction(tx).toUpperCase(),
		amount: majorString(tx.centAmount),
		status: tx.status,
		channel: tx.kind,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		reference: tx.reference,
		companyId: tx.companyId,
		customerId: tx.customerId,
		exchangeRate: String(payout.rate),
		balanceAfter: majorString(tx.balanceAfter),
		balanceBefore: majorString(tx.balanceBefore),
		description: tx.description,
		currency: tx.currency,
		beneficiary: tx.kind === 'payout' ? tx.destination : null,
		payoutAmount: payout.amount,
		payoutCurrency: payout.currency,
		payoutUsdAmount: round2(toMajor(tx.centAmount) * exchangeRate(tx.currency, 'USD')).toFixed(2),
		sessionId: tx.sessionId,
		failedReason: tx.failedReason,
		metaData: metaData(tx),
	};
}

/** The initialize-swap quote (provider notes). */
export function quoteView(quote: QuoteRecord) {
	const ttl = Math.round((Date.parse(quote.expiration) - Date.parse(quote.createdAt)) / 1000);
	return {
		id: quote.id,
		sourceAmount: quote.sourceAmount,
		targetAmount: quote.targetAmount,
		fee: quote.fee,
		usdAmount: quote.usdAmount,
		sourceCurrency: quote.sourceCurrency,
		targetCurrency: quote.targetCurrency,
		conversionRate: { amount: quote.rate, currency: quote.targetCurrency },
		expiration: quote.expiration,
		expirationInSec: String(ttl),
	};
}

// ---------------------------------------------------------------- customers, beneficiaries

/** 2.1 */
export function customerView(customer: CustomerRecord) {
	return { ...customer };
}

/** 2.2 */
export function beneficiaryView(b: BeneficiaryRecord) {
	return {
		id: b.id,
		createdAt: b.createdAt,
		updatedAt: b.updatedAt,
		currency: b.currency,
		country: b.country,
		status: b.status,
		provider: b.provider,
		destination: { ...b.destination },
		reference: b.reference,
	};
}

// ---------------------------------------------------------------- cards

export function cardUserView(user: CardUserRecord) {
	return {
		id: user.id,
		customerEmail: user.customerEmail,
		firstName: user.firstName,
		lastName: user.lastName,
		country: user.country,
		kycStatus: user.kycStatus,
		createdAt: user.createdAt,
		updatedAt: user.updatedAt,
	};
}

/** 2.8 */
export function cardView(card: CardRecord) {
	return {
		id: card.id,
		createdAt: card.createdAt,
		updatedAt: card.updatedAt,
		balance: toMajor(card.balanceCents),
		cardNumber: card.cardNumber,
		last4: card.cardNumber ? card.cardNumber.slice(-4) : null,
		cardName: card.cardName,
		cardType: card.cardType,
		cardBrand: card.cardBrand,
		cvv2: card.cvv2,
		expiry: card.expiry,
		status: card.status,
		valid: card.valid,
		reference: card.reference,
		createdStatus: card.createdStatus,
		customerId: card.customerId,
		billingAddress: { ...card.billingAddress },
		customerEmail: card.customerEmail,
	};
}

/** The create-card record (end of 2.8). */
export function createdCardView(card: CardRecord) {
	return {
		id: card.id,
		createdAt: card.createdAt,
		updatedAt: card.updatedAt,
		cardType: card.cardType,
		cardBrand: card.cardBrand,
		cardUserId: card.cardUserId,
		reference: card.reference,
		createdStatus: card.createdStatus,
		customerId: card.customerId,
	};
}

/** 2.9 as returned by top-up and withdraw: amounts are numbers. */
export function cardTransactionView(tx: CardTransactionRecord) {
	return {
		id: tx.id,
		createdAt: tx.createdAt,
		updatedAt: tx.updatedAt,
		amount: toMajor(tx.centAmount),
		centAmount: tx.centAmount,
		type: tx.type,
		method: tx.method,
		status: tx.status,
		currency: tx.currency,
		reference: tx.reference,
		cardId: tx.cardId,
	};
}

/** 2.9 as listed: amounts are strings, narrative included. */
export function cardTransactionListItem(tx: CardTransactionRecord) {
	return {
		...cardTransactionView(tx),
		amount: majorString(tx.centAmount),
		centAmount: String(tx.centAmount),
		narrative: tx.narrative,
	};
}
