import type { Session } from 'electron';

// The app needs no web permission (camera, microphone, notifications through the page, geolocation, USB,
// HID, serial…): every request and every check is answered no, so a compromised page cannot ask for one.

export function denyAllPermissions(
  session: Pick<
    Session,
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
  >,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
