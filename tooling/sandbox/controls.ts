/**
 * Controls: the state moves the real service makes on its own (settlement, issuing, KYC,
 * payment of a collection), each emitting its webhook event.
 */
import { generateCardNumber, generateCvv, cardValidity } from './card-numbers';
import { timestamp, type SandboxContext } from './context';
import { badRequest, notFound } from './errors';
import { cardEventData, depositEventData, kycEventData, payoutEventData } from './event-payloads';
import { applyExpiry } from './expiry';
import { majorString, toMinor } from './money';
import {
	BENEFICIARY_STATUSES,
	creditWallet,
	findById,
	isBeneficiaryStatus,
	isDebited,
	setWalletBalance,
	type CardRecord,
	type CardTransactionRecord,
	type CollectionRecord,
	type PayoutRecord,
} from './state';
import type { CardTransactionOutcome, ControlResult, Controls } from './types';
import { beneficiaryView } from './views';

export function createControls(ctx: SandboxContext): Controls {
	/** Sends the event to the given urls and the configured webhook url. */
	async function emit(
		event: string,
		data: Record<string, unknown>,
		urls: Array<string | null> = [],
	): Promise<ControlResult> {
		const deliveries = await ctx.webhooks.emit(event, data, [...urls, ctx.config.webhook.url]);
		return { event, data, deliveries };
	}

	function touch(record: { updatedAt: string }): void {
		record.updatedAt = timestamp(ctx);
	}

	function findPayout(id: string): PayoutRecord {
		const tx = ctx.state.transactions.find((t) => t.id === id);
		if (!tx || tx.kind !== 'payout') throw notFound('Payout');
		applyExpiry(ctx, tx);
		return tx;
	}

	/** v2 payouts settle from `initiated`, legacy ones once finalized (`pending`). */
	function assertInFlight(tx: PayoutRecord): void {
		if (tx.version === 1 && tx.status === 'initiated') throw badRequest('Payout has not been finalized');
		const inFlight = tx.version === 2 ? tx.status === 'initiated' : tx.status === 'pending';
		if (!inFlight) throw badRequest(`Payout is not in flight (status ${tx.status})`);
	}

	function findCollection(id: string): CollectionRecord {
		const tx = ctx.state.transactions.find((t) => t.id === id);
		if (!tx || tx.kind !== 'collection') throw notFound('Collection');
		applyExpiry(ctx, tx);
		return tx;
	}

	function findPendingCard(id: string): CardRecord {
		const card = findById(ctx.state.cards, id, 'Card');
		if (card.createdStatus !== 'pending') {
			throw badRequest(`Card creation is not pending (createdStatus ${card.createdStatus})`);
		}
		return card;
	}

	function findCardUser(idOrEmail: string) {
		const wanted = idOrEmail.toLowerCase();
		const user = ctx.state.cardUsers.find((u) => u.id === idOrEmail || u.customerEmail === wanted);
		if (!user) throw notFound('Card user');
		return user;
	}

	function cardTransactionEventData(tx: CardTransactionRecord) {
		return cardEventData({ ...tx, companyId: ctx.state.companyId });
	}

	/** Moves the card balance by a settled (+1) or reversed (-1) transaction. */
	function applyToBalance(tx: CardTransactionRecord, direction: 1 | -1): void {
		const card = findById(ctx.state.cards, tx.cardId, 'Card');
		const delta = (tx.method === 'topup' ? tx.centAmount : -tx.centAmount) * direction;
		if (card.balanceCents + delta < 0) throw badRequest('Insufficient card balance');
		card.balanceCents += delta;
		touch(card);
	}

	const controls: Controls = {
		async settlePayout(transactionId) {
			const tx = findPayout(transactionId);
			assertInFlight(tx);
			tx.status = 'success';
			touch(tx);
			return emit('payout.transfer.success', payoutEventData(tx), [tx.callbackUrl]);
		},

		async failPayout(transactionId, reason = 'Payout failed at the destination') {
			const tx = findPayout(transactionId);
			assertInFlight(tx);
			if (isDebited(tx)) creditWallet(ctx.state, tx.currency, tx.centAmount + tx.centFees);
			tx.status = 'failed';
			tx.failedReason = reason;
			touch(tx);
			return emit('payout.transfer.failed', payoutEventData(tx), [tx.callbackUrl]);
		},

		async reversePayout(transactionId, reason = 'Payout reversed by the destination') {
			const tx = findPayout(transactionId);
			if (tx.status !== 'success') throw badRequest(`Only a settled payout can be reversed (status ${tx.status})`);
			creditWallet(ctx.state, tx.currency, tx.centAmount + tx.centFees);
			tx.status = 'reversed';
			tx.failedReason = reason;
			touch(tx);
			return emit('payout.transfer.reversed', payoutEventData(tx), [tx.callbackUrl]);
		},

		async setBeneficiaryStatus(beneficiaryId, status) {
			const wanted = String(status ?? '').toUpperCase();
			if (!isBeneficiaryStatus(wanted)) {
				throw badRequest([`status must be one of ${BENEFICIARY_STATUSES.join(', ')}`]);
			}
			const beneficiary = findById(ctx.state.beneficiaries, beneficiaryId, 'Beneficiary');
			beneficiary.status = wanted;
			touch(beneficiary);
			return emit('beneficiary.status.changed', beneficiaryView(beneficiary), [beneficiary.callbackUrl]);
		},

		async completeCardCreation(cardId) {
			const card = findPendingCard(cardId);
			const validity = cardValidity(ctx.config.now());
			card.cardNumber = generateCardNumber(card.cardBrand);
			card.cvv2 = generateCvv();
			card.expiry = validity.expiry;
			card.valid = validity.valid;
			card.balanceCents = toMinor(card.initialAmount);
			card.createdStatus = 'success';
			card.status = 'active';
			touch(card);
			return emit(
				'virtualcard.created.success',
				cardEventData({
					id: card.id,
					cardId: card.id,
					companyId: ctx.state.companyId,
					reference: card.reference,
					narrative: 'Virtual card created',
					status: 'success',
					reason: '',
					centAmount: card.balanceCents,
				}),
			);
		},

		async failCardCreation(cardId, reason = 'Card issuing failed') {
			const card = findPendingCard(cardId);
			card.createdStatus = 'failed';
			card.status = 'failed';
			card.failedReason = reason;
			touch(card);
			return emit(
				'virtualcard.created.failed',
				cardEventData({
					id: card.id,
					cardId: card.id,
					companyId: ctx.state.companyId,
					reference: card.reference,
					narrative: 'Virtual card creation failed',
					status: 'failed',
					reason,
					centAmount: toMinor(card.initialAmount),
				}),
			);
		},

		async settleCardTransaction(transactionId) {
			const tx = findById(ctx.state.cardTransactions, transactionId, 'Card transaction');
			if (tx.status !== 'pending') throw badRequest(`Card transaction is not pending (status ${tx.status})`);
			applyToBalance(tx, 1);
			tx.status = 'success';
			touch(tx);
			const event = tx.method === 'topup' ? 'virtualcard.transaction.credit' : 'virtualcard.transaction.debit';
			return emit(event, cardTransactionEventData(tx));
		},

		async settleCardTransactions(cardId) {
			if (cardId !== undefined) findById(ctx.state.cards, cardId, 'Card');
			const pending = ctx.state.cardTransactions.filter(
				(t) => t.status === 'pending' && (cardId === undefined || t.cardId === cardId),
			);
			return Promise.all(pending.map((t) => controls.settleCardTransaction(t.id)));
		},

		async cardTransactionEvent(transactionId, outcome: CardTransactionOutcome, reason = '') {
			const tx = findById(ctx.state.cardTransactions, transactionId, 'Card transaction');
			if (outcome === 'declined') {
				if (tx.status !== 'pending') throw badRequest(`Only a pending card transaction can be declined`);
			} else if (outcome === 'reversed') {
				if (tx.status !== 'success') throw badRequest(`Only a settled card transaction can be reversed`);
				applyToBalance(tx, -1);
			} else {
				throw badRequest(['outcome must be reversed or declined']);
			}
			tx.status = outcome;
			tx.reason = reason;
			touch(tx);
			return emit(`virtualcard.transaction.${outcome}`, cardTransactionEventData(tx));
		},

		async markCollectionPaid(transactionId, paidMinor) {
			const tx = findCollection(transactionId);
			if (tx.status === 'expired') throw badRequest('Collection has expired');
			if (tx.status !== 'processing') throw badRequest(`Collection is not awaiting payment (status ${tx.status})`);
			if (paidMinor !== undefined && (!Number.isInteger(paidMinor) || paidMinor <= 0)) throw badRequest(['paidMinor must be a positive whole number']);
			if (paidMinor !== undefined && paidMinor < tx.centAmount) {
				creditWallet(ctx.state, tx.currency, paidMinor);
				touch(tx);
				const data = depositEventData(tx);
				return emit('transaction.deposit.success', { ...data, amount: majorString(paidMinor), centAmount: paidMinor, status: 'success' });
			}
			const move = creditWallet(ctx.state, tx.currency, tx.centAmount - tx.centFees);
			tx.balanceBefore = move.before;
			tx.balanceAfter = move.after;
			tx.status = 'success';
			tx.paidAt = timestamp(ctx);
			touch(tx);
			return emit('transaction.deposit.success', depositEventData(tx));
		},

		async completeKyc(cardUser) {
			const user = findCardUser(cardUser);
			user.kycStatus = 'success';
			user.kycReason = '';
			touch(user);
			return emit('virtualcard.user.kyc.success', kycEventData(user, ctx.state.companyId));
		},

		async failKyc(cardUser, reason = 'KYC verification failed') {
			const user = findCardUser(cardUser);
			user.kycStatus = 'failed';
			user.kycReason = reason;
			touch(user);
			return emit('virtualcard.user.kyc.failed', kycEventData(user, ctx.state.companyId));
		},

		setWalletBalance(currency, amountMinor) {
			setWalletBalance(ctx.state, currency, amountMinor);
		},
	};
	return controls;
}
