// Which URLs are our own page: same scheme and same host (with port) as the page the window loads, parsed,
// never matched as text (a text match trusted any file:// page whose path merely contained ours).

export function sameOriginAs(entryUrl: string): (url: string) => boolean {
  const own = new URL(entryUrl);
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return parsed.protocol === own.protocol && parsed.host === own.host;
  };
}
