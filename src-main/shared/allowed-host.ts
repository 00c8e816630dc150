// One host allowed by name in Settings (`host` or `host:port`): the contract bounds what is stored with it,
// and Settings checks each line against it before saving, so a typo is refused in words beside the field.

export const ALLOWED_HOST = /^(\[[0-9a-fA-F:.]+\]|[^\s/@[\]]+)(:\d{1,5})?$/;

export const ALLOWED_HOST_RULE = 'a host name or address, with a port if you like';
