// Moments as people read them on their own computer: in local time, not UTC (a batch started at 21:00 in
// New York is not "tomorrow 02:00"). Pure, so every layer may use it.

/** A moment in local time: its day, hours, minutes and seconds, zero-padded. */
export function localMoment(at: number): { date: string; hours: string; minutes: string; seconds: string } {
  const day = new Date(at);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    date: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
    hours: pad(day.getHours()),
    minutes: pad(day.getMinutes()),
    seconds: pad(day.getSeconds()),
  };
}

/** "2025-01-15 09:00", in local time: sorts as the moments do. */
export function localMinuteWords(at: number): string {
  const { date, hours, minutes } = localMoment(at);
  return `${date} ${hours}:${minutes}`;
}
