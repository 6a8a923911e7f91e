/**
 * Swaps: initialize-swap gives a quote (provider notes), finalize-swap (contract 4.7)
 * spends it once, before it expires.
 */
import { addSeconds, isPast, timestamp } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { exchangeRate, round2, swapFeeMajor, toMinor } from '../money';
import type { Route } from '../router';
import { creditWallet, debitWallet, newId, newReference, randomDigits, type QuoteRecord, type SwapRecord } from '../state';
import { BodyReader } from '../validation';
import { quoteView, swapView } from '../views';
import { readCurrency } from './common';

export const swapRoutes: Route[] = [
	{
		method: 'POST',
		path: '/api/v1/wallets/initialize-swap',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const sourceCurrency = readCurrency(reader, 'sourceCurrency');
			const targetCurrency = readCurrency(reader, 'targetCurrency');
			const amount = round2(reader.positiveNumber('amount'));
			if (sourceCurrency && sourceCurrency === targetCurrency) {
				reader.fail('sourceCurrency and targetCurrency must differ');
			}
			if (reader.errors.length === 0 && amount <= 0) reader.fail('amount must be at least 0.01');
			reader.done();
			const now = timestamp(ctx);
			const rate = exchangeRate(sourceCurrency, targetCurrency);
			const quote: QuoteRecord = {
				id: newId(),
				createdAt: now,
				sourceCurrency,
				targetCurrency,
				sourceAmount: amount,
				targetAmount: round2(amount * rate),
				fee: swapFeeMajor(amount),
				usdAmount: round2(amount * exchangeRate(sourceCurrency, 'USD')),
				rate,
				expiration: addSeconds(now, ctx.config.quoteTtlSeconds),
				usedAt: null,
			};
			ctx.state.quotes.push(quote);
			return { message: 'Swap initialized successfully', data: quoteView(quote) };
		},
	},
	{
		method: 'POST',
		path: '/api/v2/wallets/finalize-swap',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const quoteId = reader.requiredString('quoteId');
			reader.done();
			const quote = ctx.state.quotes.find((q) => q.id === quoteId);
			if (!quote) throw notFound('Quote');
			if (quote.usedAt) throw conflict('Quote has already been used');
			if (isPast(ctx, quote.expiration)) throw badRequest('Quote has expired');
			const centAmount = toMinor(quote.sourceAmount);
			const centFees = toMinor(quote.fee);
			const debit = debitWallet(ctx.state, quote.sourceCurrency, centAmount + centFees);
			const targetCentAmount = toMinor(quote.targetAmount);
			creditWallet(ctx.state, quote.targetCurrency, targetCentAmount);
			const now = timestamp(ctx);
			quote.usedAt = now;
			const tx: SwapRecord = {
				kind: 'swap',
				id: newId(),
				createdAt: now,
				updatedAt: now,
				companyId: ctx.state.companyId,
				customerId: ctx.state.companyId,
				customerEmail: '',
				reference: newReference('SWP'),
				description: `Swap ${quote.sourceCurrency} to ${quote.targetCurrency}`,
				currency: quote.sourceCurrency,
				status: 'success',
				centAmount,
				centFees,
				balanceBefore: debit.before,
				balanceAfter: debit.after,
				failedReason: '',
				sessionId: randomDigits(30),
				quoteId: quote.id,
				targetCurrency: quote.targetCurrency,
				targetCentAmount,
				spotPrice: quote.rate,
			};
			ctx.state.transactions.push(tx);
			return { message: 'Swap completed successfully', data: swapView(tx) };
		},
	},
];
