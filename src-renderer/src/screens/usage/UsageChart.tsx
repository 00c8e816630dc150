import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageView } from '../../../../src-main/shared/models.ts';
import { ownerKey, ownerName } from './period.ts';

// The period's credits a day: what each brand (or account) was charged, stacked above the axis, and what was
// refunded that day below it, on the refund's own day (issue 31: a line drawn through the days made one day's
// refund a slope over three, and net bars showed a refund twice): drawn by
// recharts (a well-kept React chart library, SVG, no canvas to read back), with the same figures in the table
// below it for screen readers and for copying.

/** Told apart in light and dark alike; the refunds' bars have the last. */
const SERIES = ['#3d6fe0', '#d98a1c', '#2e9e6a', '#a35bd6', '#d0507a', '#3aa7b8', '#8a8f2e', '#7b6f63'];
const REFUNDS = '#d64541';
const TOOLTIP_BOX = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6 };
const TOOLTIP_TEXT = { color: 'var(--text)' };

export const dayLabel = (day: number) =>
  new Date(day).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function UsageChart({ view }: { view: UsageView }) {
  const data = view.days.map((day) => ({
    label: dayLabel(day.day),
    // Below the axis: a refund gives credits back.
    refunded: -day.refunded,
    ...Object.fromEntries(day.charged.map((charged, index) => [`line${index}`, charged])),
  }));
  return (
    <div className="usage-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={260}>
        <BarChart
          data={data}
          stackOffset="sign"
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tickLine={false} minTickGap={16} />
          <YAxis allowDecimals={false} width={48} />
          {/* Recharts colours each name as its series: in the app's own colours, they read in light and dark. */}
          <Tooltip
            isAnimationActive={false}
            contentStyle={TOOLTIP_BOX}
            labelStyle={TOOLTIP_TEXT}
            itemStyle={TOOLTIP_TEXT}
            formatter={(value) => (typeof value === 'number' ? Math.abs(value) : value)}
          />
          <Legend formatter={(name) => <span className="legend-label">{name}</span>} />
          {view.lines.map((line, index) => (
            <Bar
              key={ownerKey(line.owner)}
              dataKey={`line${index}`}
              name={ownerName(line.owner)}
              stackId="day"
              className="usage-charged"
              fill={SERIES[index % SERIES.length]}
              isAnimationActive={false}
            />
          ))}
          {/* In the day's stack, under the axis: on the day the refund was made, and on no other. */}
          <Bar
            dataKey="refunded"
            name="Refunds"
            stackId="day"
            className="usage-refunds"
            fill={REFUNDS}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
