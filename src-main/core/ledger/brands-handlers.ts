import type { brandsChannels } from '../../shared/contract/ledger.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import { ConflictError, ForbiddenError } from '../api/index.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { BrandStore } from './brand-store.ts';

// Agencies: the client brands their keys see, creating one, a brand's monthly cap, and which brand a stored
// key is pinned to (the user's word: the service does not say).

/** The plans' brand quotas, as the service's description lists them, for the refusal's words. */
const PLAN_QUOTAS = 'Partner 3, Agency Pro 10, Enterprise unlimited';

export function agencyHandlers(
  ctx: AppContext & { accounts: AccountStore; brands: BrandStore; services: ServiceAccess },
): HandlersOf<typeof brandsChannels> {
  const { accounts, brands, services, events, log } = ctx;

  /** The account, known to be an agency's (a session key's kind is asked of the service once). */
  const agencyAccount = async (accountId: string) => {
    const account =
      services.isSession(accountId) && services.account(accountId).type === null
        ? await services.sessionView(accountId)
        : services.account(accountId);
    if (account.type !== 'agency') {
      throw new AppError(
        'bad_request',
        `"${account.name}" is a personal key: client brands belong to agency accounts.`,
      );
    }
    return account;
  };

  return {
    'accounts:pin': async ({ id, brandId }) => {
      const account = await agencyAccount(id);
      if (brandId !== null) {
        const brand = brands.get(brandId);
        if (
          brand.baseUrl !== account.baseUrl ||
          (account.agencyName && brand.agencyName !== account.agencyName)
        ) {
          throw new AppError(
            'bad_request',
            `${brand.name} is not a client brand of ${account.agencyName ?? 'this agency'}.`,
          );
        }
      }
      if (services.isSession(id)) {
        return services.pinSession(id, brandId === null ? null : brands.get(brandId));
      }
      const pinned = accounts.pin(id, brandId);
      events.emit('accounts:changed', { id });
      return pinned;
    },
    'brands:list': async () => brands.list(),
    'brands:refresh': async ({ accountId }) => {
      const account = await agencyAccount(accountId);
      const seen = await services.withKey(accountId, (client) => client.listBrands());
      return brands.remember(account.baseUrl, account.agencyName, seen);
    },
    'brands:create': async ({ accountId, name }) => {
      const account = await agencyAccount(accountId);
      if (account.brandId !== null) {
        throw new AppError(
          'bad_request',
          `The key "${account.name}" is pinned to ${account.brandName}, and a pinned key cannot create brands: use an unpinned key of ${account.agencyName ?? 'the agency'}.`,
        );
      }
      const created = await services.withKey(accountId, async (client) => {
        try {
          return await client.createBrand(name);
        } catch (error) {
          if (error instanceof ForbiddenError) {
            throw new AppError(
              'refused',
              `The service refused a new brand for ${account.agencyName ?? 'this agency'}: the plan's quota of client brands is reached (${PLAN_QUOTAS}). ${error.message}`,
            );
          }
          if (error instanceof ConflictError) {
            throw new AppError('conflict', `A client brand named "${name}" already exists at the service.`);
          }
          throw error;
        }
      });
      const [brand] = brands.remember(account.baseUrl, account.agencyName, [created]);
      log.info(`client brand created: ${brand!.name}`);
      return brand!;
    },
    'brands:setCap': async ({ id, monthlyCap }) => {
      const brand = brands.setCap(id, monthlyCap);
      log.info(`monthly cap of ${brand.name}: ${monthlyCap ?? 'none'}`);
      return brand;
    },
  };
}
