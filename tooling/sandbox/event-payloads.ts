/**
 * `data` of each webhook event (provider notes, "Webhooks").
 */
import { majorString, toMajor } from './money';
import type { CardUserRecord, CollectionRecord, PayoutRecord } from './state';
import { transactionAction, transactionType } from './views';

/** payout.transfer.success / payout.transfer.failed */
export function payoutEventData(tx: PayoutRecord) {
	return {
		id: tx.id,
		fees: majorString(tx.centFees),
		type: transactionType(tx),
		amount: majorString(tx.centAmount),
		action: transactionAction(tx),
		status: tx.status,
		channel: tx.kind,
		reference: tx.reference,
		companyId: tx.companyId,
		callbackUrl: tx.callbackUrl,
		failedReason: tx.failedReason,
	};
}

/** transaction.deposit.success */
export function depositEventData(tx: CollectionRecord) {
	return {
		id: tx.id,
		fees: majorString(tx.centFees),
		type: transactionType(tx),
		amount: majorString(tx.centAmount),
		centAmount: tx.centAmount,
		currency: tx.currency,
		action: transactionAction(tx),
		status: tx.status,
		channel: tx.kind,
		reference: tx.reference,
		companyId: tx.companyId,
		accountNumber: tx.accountNumber,
		customerEmail: tx.customerEmail,
	};
}

/** virtualcard.created.* and virtualcard.transaction.*: amount in USD (major units). */
export function cardEventData(fields: {
	id: string;
	cardId: string;
	companyId: string;
	reference: string;
	narrative: string;
	status: string;
	reason: string;
	centAmount: number;
}) {
	return {
		id: fields.id,
		cardId: fields.cardId,
		companyId: fields.companyId,
		reference: fields.reference,
		narrative: fields.narrative,
		status: fields.status,
		reason: fields.reason,
		amount: toMajor(fields.centAmount),
	};
}

/** virtualcard.user.kyc.* */
export function kycEventData(user: CardUserRecord, companyId: string) {
	return {
		id: user.id,
		customerEmail: user.customerEmail,
		firstName: user.firstName,
		lastName: user.lastName,
		status: user.kycStatus,
		reason: user.kycReason,
		companyId,
	};
}
