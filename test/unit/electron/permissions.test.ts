import { describe, expect, it } from 'vitest';
import { denyAllPermissions } from '../../../src-main/electron/permissions.ts';

describe('denyAllPermissions', () => {
  it('answers no to every permission request, check and device', () => {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    denyAllPermissions({
      setPermissionRequestHandler: (handler: never) => (handlers.request = handler),
      setPermissionCheckHandler: (handler: never) => (handlers.check = handler),
      setDevicePermissionHandler: (handler: never) => (handlers.device = handler),
    } as never);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      (handlers.request as (...args: unknown[]) => void)({}, permission, (granted: boolean) =>
        answers.push(granted),
      );
      expect(answers, permission).toEqual([false]);
      expect((handlers.check as (...args: unknown[]) => unknown)({}, permission, 'app://adbatch')).toBe(
        false,
      );
    }
    expect((handlers.device as (...args: unknown[]) => unknown)({ deviceType: 'usb' })).toBe(false);
  });
});
