import { BarChart, type BarChartProps } from '@mantine/charts';
import { categoryColor, categoryLabel, type usageChart } from './usage-view';

/** Credits stacked by category over the chart's x values: the Usage tab's and the reports'. */
export function CategoryChart(props: {
  chart: ReturnType<typeof usageChart>;
  label: string;
  h: number;
  yAxisProps?: BarChartProps['yAxisProps'];
  valueFormatter?: BarChartProps['valueFormatter'];
}) {
  return (
    <div role="figure" aria-label={props.label}>
      <BarChart
        h={props.h}
        data={props.chart.data}
        dataKey="x"
        type="stacked"
        withLegend
        // Wide enough for credits labels such as 0.00045: recharts' default lets them spill into
        // the page margin.
        yAxisProps={{ width: 80, ...props.yAxisProps }}
        valueFormatter={props.valueFormatter}
        series={props.chart.categories.map((c) => ({
          name: c,
          label: categoryLabel(c),
          color: categoryColor(c),
        }))}
        barProps={{ isAnimationActive: false }}
      />
    </div>
  );
}
