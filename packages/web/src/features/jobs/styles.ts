// Mantine sheets only the jobs area uses, loaded with its chunk rather than the first download
// (app/styles.ts holds the shared ones; the stylesheet guard in app/styles.test.ts reads both).
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Timeline.css';
// The colour swatches of the charts' legends (observability/LoadCharts.tsx).
import '@mantine/core/styles/ColorSwatch.css';
