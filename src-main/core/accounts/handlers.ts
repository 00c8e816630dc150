import type { accountsChannels } from '../../shared/contract/accounts.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { AccountStore } from './account-store.ts';
import { SANDBOX_ACCOUNT_ID } from './account-store.ts';
import { checkKeyTransport } from './key-transport.ts';
import type { ServiceAccess } from './service-access.ts';

// Accounts: the Sandbox (always there), keys stored sealed, and the session's own keys; their balances and
// the service's model presets.

export function accountsHandlers(
  ctx: AppContext & { accounts: AccountStore; services: ServiceAccess },
): HandlersOf<typeof accountsChannels> {
  const { accounts, services, events, log } = ctx;
  return {
    'accounts:list': async () => [await services.sandboxListed(), ...services.accountsList()],
    'accounts:add': async ({ name, baseUrl, apiKey, insecureHttp }) => {
      const warning = checkKeyTransport(baseUrl, {
        insecureHttp: insecureHttp === true,
        override: 'insecureHttp: true',
      });
      accounts.checkNew(apiKey);
      const balance = await services.checkNewKey(baseUrl, apiKey);
      const account = accounts.add({ name, baseUrl, apiKey }, balance);
      services.rememberBalance(account.id, balance.credits);
      log.info(`account added: ${name} (${account.keyHint})`);
      events.emit('accounts:changed', { id: account.id });
      if (!warning) return account;
      log.warn(`account ${name}: ${warning}`);
      return { ...account, warning };
    },
    'accounts:remove': async ({ id }) => {
      if (id === SANDBOX_ACCOUNT_ID)
        throw new AppError('bad_request', 'The Sandbox account is always there.');
      if (services.isSession(id))
        throw new AppError('bad_request', 'This key was given for this session only.');
      accounts.remove(id);
      services.forgetAccount(id);
      events.emit('accounts:changed', { id });
      return null;
    },
    'accounts:refresh': async ({ id }) => {
      if (id === SANDBOX_ACCOUNT_ID) return services.sandboxView();
      if (services.isSession(id)) return services.sessionView(id);
      try {
        const balance = await services.withKey(id, (client) => client.getCredits());
        services.rememberBalance(id, balance.credits);
        return accounts.recordBalance(id, balance);
      } catch (error) {
        if (error instanceof AppError && error.code === 'key_refused') accounts.markRefused(id);
        throw error;
      } finally {
        events.emit('accounts:changed', { id });
      }
    },
    'models:list': async ({ accountId }) => {
      const models = await services.withKey(accountId, (client) => client.listModels());
      return models
        .filter((model) => model.imageUrl)
        .map((model) => ({ id: model.id, name: model.name ?? model.id, imageUrl: model.imageUrl! }));
    },
  };
}
