import { SimpleGrid, Stack, Title } from '@mantine/core';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { JOBS_TEXTS } from '../texts';
import type { LoadPoint } from '../job/useJobTop';

const T = JOBS_TEXTS.observability;
/** 5 y-axis intervals and a tick every 5 seconds on the x axis. */
export const Y_INTERVALS = 5;
export const X_TICK_SECONDS = 5;

const NICE_STEPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** 0, 20, …, 100 for percentages; above 100, five equal round steps up to the highest value. */
export function yTicks(max: number) {
  let step = 100 / Y_INTERVALS;
  if (max > 100) {
    const raw = max / Y_INTERVALS;
    const magnitude = 10 ** Math.floor(Math.log10(raw));
    // toPrecision drops the float noise of e.g. 1.2 × 10.
    step = Number((NICE_STEPS.find((n) => n * magnitude >= raw)! * magnitude).toPrecision(6));
  }
  return Array.from({ length: Y_INTERVALS + 1 }, (_, i) => step * i);
}

/** The x axis's span in seconds: the samples' own, or a window such as the last 15 minutes. */
export type Span = [from: number, to: number];

/** From the first sample to the last. */
export const samplesSpan = (points: LoadPoint[]): Span | null =>
  points.length ? [points[0].time, points[points.length - 1].time] : null;

/** Whole 5-second marks over the span (the chart shows as many labels as fit). */
export function xTicks(span: Span | null) {
  if (!span) return [];
  const ticks: number[] = [];
  for (
    let t = Math.ceil(span[0] / X_TICK_SECONDS) * X_TICK_SECONDS;
    t <= span[1];
    t += X_TICK_SECONDS
  )
    ticks.push(t);
  return ticks;
}

const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const timeLabel = (seconds: number) => clock.format(new Date(seconds * 1000));

/**
 * A chart each for cpu and memory in percent of the job's limits and, when the job has a GPU, its
 * duty cycle and memory. `animationMs` 0 draws at once (live samples arrive every second).
 */
export function LoadCharts({
  points,
  animationMs,
  span = samplesSpan(points),
}: {
  points: LoadPoint[];
  animationMs: number;
  /** The x axis's span; the samples' own by default. */
  span?: Span | null;
}) {
  const hasGpu = points.some((p) => p.gpu !== undefined);
  const charts: { key: keyof LoadPoint; label: string; color: string }[] = [
    { key: 'cpu', label: T.cpu, color: 'blue.6' },
    { key: 'memory', label: T.memory, color: 'teal.6' },
    ...(hasGpu
      ? [
          { key: 'gpu' as const, label: T.gpu, color: 'grape.6' },
          { key: 'gpuMemory' as const, label: T.gpuMemory, color: 'orange.6' },
        ]
      : []),
  ];
  const ticks = xTicks(span);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      {charts.map((c) => {
        const y = yTicks(Math.max(...points.map((p) => Number(p[c.key] ?? 0))));
        return (
          <Stack key={c.key} gap="xs" aria-label={c.label} role="figure">
            <Title order={5}>{c.label}</Title>
            <LineChart
              h={220}
              data={points.map((p) => ({ ...p }))}
              dataKey="time"
              series={[{ name: c.key, label: c.label, color: c.color }]}
              curveType="monotone"
              withDots={false}
              lineProps={{ isAnimationActive: animationMs > 0, animationDuration: animationMs }}
              xAxisProps={{
                type: 'number',
                domain: span ?? ['dataMin', 'dataMax'],
                ticks,
                tickFormatter: timeLabel,
              }}
              yAxisProps={{ domain: [0, y[y.length - 1]], ticks: y }}
            />
          </Stack>
        );
      })}
    </SimpleGrid>
  );
}
