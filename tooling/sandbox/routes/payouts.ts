/**
 * Payouts: current flow (v2 initialize, contract 4.1) and the legacy two-step flow
 * (v1 initialize, contract 4.2; v1 finalize, provider notes).
 */
import { addSeconds, assertReferenceFree, timestamp, type SandboxContext } from '../context';
import { readPayoutTarget, type Destination, type PayoutTarget } from '../countries';
import { badRequest, notFound } from '../errors';
import { applyExpiry } from '../expiry';
import { settlementRule } from '../settlement';
import { exchangeRate, payoutFeeMinor } from '../money';
import type { Route } from '../router';
import {
	customerIdFor,
	debitWallet,
	findById,
	newId,
	newReference,
	randomDigits,
	walletBalance,
	type PayoutRecord,
} from '../state';
import { BodyReader, INT32_MAX } from '../validation';
import { legacyFinalizeView, payoutView } from '../views';
import { readCurrency } from './common';

interface PayoutInput {
	version: 1 | 2;
	centAmount: number;
	currency: string;
	customerEmail: string;
	description: string;
	reference: string;
	beneficiaryId: string | null;
	target: { currency: string; destination: Destination };
	callbackUrl: string | null;
}

/** A stored beneficiary that can receive payouts (404 when unknown). */
function payableBeneficiary(ctx: SandboxContext, id: string) {
	const beneficiary = findById(ctx.state.beneficiaries, id, 'Beneficiary');
	if (beneficiary.status !== 'SUCCESS') {
		throw badRequest(`Beneficiary is not active (status ${beneficiary.status})`);
	}
	return beneficiary;
}

/** Takes amount plus fees out of the payout's wallet (400 "Insufficient balance"). */
function debit(ctx: SandboxContext, tx: PayoutRecord): void {
	const move = debitWallet(ctx.state, tx.currency, tx.centAmount + tx.centFees);
	tx.balanceBefore = move.before;
	tx.balanceAfter = move.after;
}

function createPayout(ctx: SandboxContext, input: PayoutInput): PayoutRecord {
	// A settlement rule's `refused`: the service turns this account down at once (a wrong number).
	const rule = settlementRule(ctx, input.beneficiaryId, input.target.destination.accountNumber);
	if (rule?.outcome === 'refused') throw badRequest(rule.reason ?? 'Invalid account number');
	const now = timestamp(ctx);
	const balance = walletBalance(ctx.state, input.currency);
	const tx: PayoutRecord = {
		kind: 'payout',
		version: input.version,
		id: newId(),
		createdAt: now,
		updatedAt: now,
		companyId: ctx.state.companyId,
		customerId: customerIdFor(ctx.state, input.customerEmail),
		customerEmail: input.customerEmail,
		reference: input.reference,
		description: input.description,
		currency: input.currency,
		status: 'initiated',
		centAmount: input.centAmount,
		centFees: payoutFeeMinor(input.centAmount),
		balanceBefore: balance,
		balanceAfter: balance,
		failedReason: '',
		sessionId: randomDigits(30),
		beneficiaryId: input.beneficiaryId,
		destination: { ...input.target.destination },
		payoutCurrency: input.target.currency,
		spotPrice: exchangeRate(input.currency, input.target.currency),
		callbackUrl: input.callbackUrl,
		expiresAt: input.version === 1 ? addSeconds(now, ctx.config.legacyFinalizeWindowSeconds) : null,
		finalizedAt: null,
	};
	if (input.version === 2) debit(ctx, tx);
	else if (balance < tx.centAmount + tx.centFees) throw badRequest('Insufficient balance');
	ctx.state.transactions.push(tx);
	return tx;
}

export const payoutRoutes: Route[] = [
	{
		method: 'POST',
		path: '/api/v2/wallets/payout/initialize',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const centAmount = reader.positiveInteger('amount');
			const currency = readCurrency(reader, 'sourceWalletCurrency');
			const customerEmail = reader.email('customerEmail') ?? '';
			const description = reader.requiredString('description');
			const byId = reader.has('beneficiaryId');
			const inline = reader.has('beneficiary');
			let beneficiaryId: string | undefined;
			let target: PayoutTarget | undefined;
			if (byId === inline) reader.fail('Provide exactly one of beneficiaryId and beneficiary');
			else if (byId) beneficiaryId = reader.requiredString('beneficiaryId');
			else {
				const object = reader.object('beneficiary', true);
				if (object) target = readPayoutTarget(reader.nested(object, 'beneficiary'));
			}
			reader.done();
			const beneficiary = beneficiaryId ? payableBeneficiary(ctx, beneficiaryId) : undefined;
			const tx = createPayout(ctx, {
				version: 2,
				centAmount,
				currency,
				customerEmail,
				description,
				reference: newReference('PAY'),
				beneficiaryId: beneficiary?.id ?? null,
				target: beneficiary ?? target!, // one of the two is set once done() passed
				callbackUrl: null,
			});
			return { message: 'Payout initialized successfully', data: payoutView(tx), afterResponse: () => ctx.settlement.schedule(tx) };
		},
	},
	{
		method: 'POST',
		path: '/api/v1/wallets/payout/initialize',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const centAmount = reader.positiveInteger('amount', INT32_MAX);
			const reference = reader.requiredString('reference');
			const customerEmail = reader.email('customerEmail') ?? '';
			const description = reader.requiredString('description');
			const beneficiaryId = reader.requiredString('beneficiaryId');
			const currency = readCurrency(reader, 'sourceWalletCurrency');
			const callbackUrl = reader.httpUrl('callbackUrl', true) ?? null;
			reader.done();
			const beneficiary = payableBeneficiary(ctx, beneficiaryId);
			assertReferenceFree(ctx, ctx.state.transactions, reference);
			const tx = createPayout(ctx, {
				version: 1,
				centAmount,
				currency,
				customerEmail,
				description,
				reference,
				beneficiaryId: beneficiary.id,
				target: beneficiary,
				callbackUrl,
			});
			return { message: 'Payout initialized successfully', data: payoutView(tx) };
		},
	},
	{
		method: 'POST',
		path: '/api/v1/wallets/payout/finalize',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const transactionId = reader.requiredString('transactionId');
			reader.done();
			const tx = ctx.state.transactions.find((t) => t.id === transactionId);
			if (!tx || tx.kind !== 'payout' || tx.version !== 1) throw notFound('Transaction');
			applyExpiry(ctx, tx);
			if (tx.status === 'expired') throw badRequest('Payout has expired');
			if (tx.finalizedAt) throw badRequest('Payout has already been finalized');
			if (tx.status !== 'initiated') throw badRequest(`Payout cannot be finalized (status ${tx.status})`);
			debit(ctx, tx);
			tx.status = 'pending';
			tx.finalizedAt = timestamp(ctx);
			tx.updatedAt = tx.finalizedAt;
			return {
				message: 'Payout finalized successfully',
				data: legacyFinalizeView(tx),
				afterResponse: () => ctx.settlement.schedule(tx),
			};
		},
	},
];
