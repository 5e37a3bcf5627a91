/**
 * The tier of a request (SPEC §6 Premium): Premium when its bearer token is valid and its user's
 * subscription is active (common/entitlements.ts isPremium). Only asked when the answer depends on
 * it, so requests without a token never touch the database. Without accounts (a server built
 * without them) every request is free.
 *
 * entitle() is the one gate of every route that answers forecast values: it describes the request
 * to common/entitlements.ts grantForecast and refuses with 403 what the caller's tier may not have.
 * server/auth/entitlementRoutes.test.ts walks every registered route to keep it that way.
 */

import type { FastifyRequest } from 'fastify';
import {
  grantForecast, isPremium, isRefusal, type ForecastAsk, type SeriesAsk, type SeriesGrant, type TileAsk, type TileGrant,
} from '../../common/entitlements.ts';
import { HttpError } from '../http/httpError.ts';
import { principalOf } from './bearer.ts';
import type { AccountStore } from './accounts.ts';

/** Whether the request is Premium at `now` (default: the account store's clock, the app's). */
export async function isPremiumRequest(request: FastifyRequest, now?: () => number): Promise<boolean> {
  const accounts = (request.server as { accounts?: AccountStore }).accounts;
  if (!accounts || !request.headers.authorization) return false;
  const principal = await principalOf(request, accounts);
  return principal !== null && isPremium(principal.user.subscription, (now ?? accounts.now)());
}

const premiumRequired = (message: string) => new HttpError(403, message);

/** What the request may have of the forecast values it asks for, with its tier; 403 when nothing. */
export async function entitle(request: FastifyRequest, ask: TileAsk, now?: () => number): Promise<TileGrant & { premium: boolean }>;
export async function entitle(request: FastifyRequest, ask: SeriesAsk, now?: () => number): Promise<SeriesGrant & { premium: boolean }>;
export async function entitle(request: FastifyRequest, ask: ForecastAsk, now?: () => number): Promise<(TileGrant | SeriesGrant) & { premium: boolean }> {
  // A tile a free caller may have is the same for everyone: no need to look the token up.
  const free = grantForecast(ask, false);
  if (ask.kind === 'tile' && !isRefusal(free)) return { ...free, premium: false };
  const premium = await isPremiumRequest(request, now);
  const grant = premium ? grantForecast(ask, true) : free;
  if (isRefusal(grant)) throw premiumRequired(grant.need);
  return { ...grant, premium };
}
