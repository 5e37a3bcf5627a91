/**
 * The tier of a request (SPEC §6 Premium): Premium when its bearer token is valid and its user's
 * subscription is active (common/entitlements.ts isPremium). Only asked when a request needs
 * Premium, so free requests never touch the database. Without accounts (a server built without
 * them) every request is free.
 */

import type { FastifyRequest } from 'fastify';
import { isPremium } from '../../common/entitlements.ts';
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

export const premiumRequired = (message: string) => new HttpError(403, message);

/** Refuses with 403 and the reason unless the request is Premium; null reasons pass. */
export async function requirePremium(request: FastifyRequest, reason: string | null, now?: () => number): Promise<void> {
  if (reason !== null && !(await isPremiumRequest(request, now))) throw premiumRequired(reason);
}
